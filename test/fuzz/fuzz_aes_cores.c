/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target: the two C AES cores against each other.
 *
 * crypto/aes/aes_table.c (T-tables) and crypto/aes/aes_ct.c (constant
 * time) define the same four aes_core_* functions, and aes_core.c builds
 * the OpenSSL API on whichever is linked.  To have both in this binary,
 * test/fuzz/fuzz.mk compiles aes_core.c twice, once with each core, with
 * -D macros that rename every external name of the pair with a prefix:
 * table_aes_c_encrypt, ct_aes_c_encrypt, table_aes_core_sub_word, ...  Macros
 * (rather than objcopy) rename the declarations in the headers too, so
 * each copy stays type-checked.
 *
 * Input: byte 0 selects the key size (bits 0-1), CBC rather than ECB
 * (bit 2) and which direction runs first (bit 3); then a 32-byte key, a
 * 16-byte IV, a 32-bit word for the S-box and InvMixColumns primitives, and
 * the data (cut to whole blocks).  Checks: identical key schedules,
 * identical primitives and outputs, and that the other direction gives the
 * data back.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/aes.h>

#include "fuzz_util.h"

#define CORE_DECLS(p)                                                        \
    int p##aes_c_set_encrypt_key(const unsigned char *, const int, AES_KEY *); \
    int p##aes_c_set_decrypt_key(const unsigned char *, const int, AES_KEY *); \
    void p##aes_c_encrypt(const unsigned char *, unsigned char *,              \
                        const AES_KEY *);                                    \
    void p##aes_c_decrypt(const unsigned char *, unsigned char *,              \
                        const AES_KEY *);                                    \
    uint32_t p##aes_core_sub_word(uint32_t);                                 \
    uint32_t p##aes_core_inv_mix_column(uint32_t);
CORE_DECLS(table_)
CORE_DECLS(ct_)

#define NAME "fuzz_aes_cores"

struct core {
    const char *name;
    int (*set_enc)(const unsigned char *, const int, AES_KEY *);
    int (*set_dec)(const unsigned char *, const int, AES_KEY *);
    void (*enc)(const unsigned char *, unsigned char *, const AES_KEY *);
    void (*dec)(const unsigned char *, unsigned char *, const AES_KEY *);
};

static const struct core cores[2] = {
    { "table", table_aes_c_set_encrypt_key, table_aes_c_set_decrypt_key,
      table_aes_c_encrypt, table_aes_c_decrypt },
    { "ct", ct_aes_c_set_encrypt_key, ct_aes_c_set_decrypt_key,
      ct_aes_c_encrypt, ct_aes_c_decrypt },
};

/*
 * ECB or CBC over one core's block functions, written out here so that
 * only the cores differ between the two runs.
 */
static void run_mode(const struct core *c, const AES_KEY *ks, int enc,
                     int cbc, const unsigned char iv_in[16],
                     const unsigned char *in, unsigned char *out, size_t len)
{
    unsigned char iv[16], x[16];
    memcpy(iv, iv_in, 16);
    for (size_t off = 0; off < len; off += 16) {
        if (enc) {
            for (size_t i = 0; i < 16; i++)
                x[i] = in[off + i] ^ (cbc ? iv[i] : 0);
            c->enc(x, out + off, ks);
            memcpy(iv, out + off, 16);
        } else {
            c->dec(in + off, x, ks);
            for (size_t i = 0; i < 16; i++)
                out[off + i] = x[i] ^ (cbc ? iv[i] : 0);
            memcpy(iv, in + off, 16);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const int key_bits[4] = { 128, 192, 256, 256 };
    struct fuzz_in in = { data, size };
    unsigned char key[32], iv[16];

    uint8_t sel = fuzz_byte(&in);
    int bits = key_bits[sel & 3];
    int cbc = (sel >> 2) & 1;
    int enc_first = !((sel >> 3) & 1);
    fuzz_bytes(&in, key, sizeof(key));
    fuzz_bytes(&in, iv, sizeof(iv));
    uint32_t word = fuzz_u32(&in);

    if (table_aes_core_sub_word(word) != ct_aes_core_sub_word(word))
        fuzz_fail(NAME, "aes_core_sub_word(0x%08x): table 0x%08x, ct 0x%08x",
                  word, table_aes_core_sub_word(word),
                  ct_aes_core_sub_word(word));
    if (table_aes_core_inv_mix_column(word) != ct_aes_core_inv_mix_column(word))
        fuzz_fail(NAME,
                  "aes_core_inv_mix_column(0x%08x): table 0x%08x, ct 0x%08x",
                  word, table_aes_core_inv_mix_column(word),
                  ct_aes_core_inv_mix_column(word));

    /* Schedules: both directions, compared whole (rounds included). */
    AES_KEY ks_enc[2], ks_dec[2];
    for (int i = 0; i < 2; i++) {
        memset(&ks_enc[i], 0, sizeof(AES_KEY));
        memset(&ks_dec[i], 0, sizeof(AES_KEY));
        if (cores[i].set_enc(key, bits, &ks_enc[i]) != 0 ||
            cores[i].set_dec(key, bits, &ks_dec[i]) != 0)
            fuzz_fail(NAME, "%s core refused a %d-bit key", cores[i].name,
                      bits);
    }
    fuzz_expect_eq(NAME, "encryption key schedules (table vs ct)",
                   &ks_enc[0], &ks_enc[1], sizeof(AES_KEY));
    fuzz_expect_eq(NAME, "decryption key schedules (table vs ct)",
                   &ks_dec[0], &ks_dec[1], sizeof(AES_KEY));

    /* Exactly sized buffers so ASan sees any access past the data. */
    size_t len = in.left / 16 * 16;
    unsigned char *out[2] = { fuzz_alloc(len), fuzz_alloc(len) };
    unsigned char *back = fuzz_alloc(len);

    for (int i = 0; i < 2; i++)
        run_mode(&cores[i], enc_first ? &ks_enc[i] : &ks_dec[i], enc_first,
                 cbc, iv, in.p, out[i], len);
    if (memcmp(out[0], out[1], len) != 0) {
        fprintf(stderr, "AES-%d %s %s of %zu bytes:\n", bits,
                cbc ? "CBC" : "ECB", enc_first ? "encryption" : "decryption",
                len);
        fuzz_hex("key", key, (size_t)bits / 8);
        fuzz_expect_eq(NAME, "table core (got) vs ct core (expected)",
                       out[0], out[1], len);
    }

    /* The other direction undoes it, in each core. */
    for (int i = 0; i < 2; i++) {
        run_mode(&cores[i], enc_first ? &ks_dec[i] : &ks_enc[i], !enc_first,
                 cbc, iv, out[i], back, len);
        if (memcmp(back, in.p, len) != 0) {
            fprintf(stderr, "%s core, AES-%d %s, %s first:\n", cores[i].name,
                    bits, cbc ? "CBC" : "ECB",
                    enc_first ? "encryption" : "decryption");
            fuzz_expect_eq(NAME, "round trip does not give the input back",
                           back, in.p, len);
        }
    }

    free(out[0]);
    free(out[1]);
    free(back);
    return 0;
}
