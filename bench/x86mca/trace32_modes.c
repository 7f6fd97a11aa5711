/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The dm-crypt table's 32-bit calls (bench/x86mca/dmcrypt.pl): one call of
 * a mode over BYTES bytes, single-stepped under qemu-i386 by trace32_call
 * (support/abi/abi_cdecl.c), every executed address printed in order.
 * Linked -no-pie with a 32-bit archive: build/m32/small (our aes-586 and
 * aesni-x86) or the same C with OpenSSL's own aesni-x86 object in place
 * of ours (the names are the same).
 *
 *   trace32_modes IMPL MODE BITS BYTES
 *     IMPL  aesni: OpenSSL's aesni_* names (ECB, CBC, XTS, CTR and OCB
 *           directly, CTR and OCB as dm_modes.h calls them; LRW through
 *           the C mode's ECB form over aesni_ecb_encrypt, as casm_aes_lrw
 *           runs it); x86: aes-586 behind AES_* (ECB a loop of
 *           AES_encrypt, as OpenSSL's generic ECB; CBC AES_cbc_encrypt;
 *           XTS and LRW the C modes over AES_encrypt; aes-586 has no CTR
 *           or OCB bulk: CTR a C ctr32 loop over AES_encrypt, OCB
 *           support/lib/ocb_model.h's C over AES_encrypt/AES_decrypt, each
 *           in the shape of the aesni function and called the same way)
 *     MODE  ecb, ecb-dec, cbc-enc, cbc-dec, xts, xts-dec, lrw, ctr, ocb-enc,
 *           ocb-dec (all encrypt but ecb-dec, cbc-dec, xts-dec and ocb-dec)
 *   prints "trace IMPL MODE BITS BYTES COUNT" and COUNT hex addresses.
 *
 * Every call goes through one shape, run_mode below, whose arguments
 * bench/x86mca/native32_modes.c gives again when it replays the trace:
 *   (in, out, len, key1, key2, iv): key2 is XTS's tweak schedule, LRW's
 *   tweak table or OCB's struct dm_ocb, iv XTS's tweak, LRW's index, CBC's
 *   ivec or CTR's counter block.
 */
#include "../../support/abi/abi32_typed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/aes.h>
#include <openssl/modes.h>

#include "variants.h"
#include "../../support/lib/ocb_model.h"
#include "dm_modes.h"

typedef void mode_fn(const unsigned char *in, unsigned char *out, size_t len,
                     void *key1, void *key2, unsigned char *iv);
ABI32_SHAPE(mode, mode_fn, 6)

/* The block and ECB shapes the C modes take, over the typed entries. */
static void aes586_block(const unsigned char in[16], unsigned char out[16], const void *key)
{
    AES_encrypt(in, out, key);
}
static void aesni_ecb(const unsigned char *in, unsigned char *out, size_t len,
                      const void *key, int enc)
{
    aesni_ecb_encrypt(in, out, len, key, enc);
}

/* aes-586's stand-ins for the bulk functions it lacks (see above). */
static void aes586_decrypt_block(const unsigned char in[16], unsigned char out[16], const void *key)
{
    AES_decrypt(in, out, key);
}
static void aes586_ctr32(const unsigned char *in, unsigned char *out, size_t blocks,
                         const void *key, const unsigned char ivec[16])
{
    unsigned char counter[16], pad[16];
    memcpy(counter, ivec, 16);
    uint32_t low = load_be32(counter + 12);
    for (size_t j = 0; j < blocks; j++, in += 16, out += 16) {
        store_be32(counter + 12, low + (uint32_t)j);
        AES_encrypt(counter, pad, key);
        xor_bytes(out, in, pad, 16);
    }
}
static void aes586_ocb_enc(const unsigned char *in, unsigned char *out, size_t blocks,
                           const void *key, size_t start_block_num, unsigned char offset_i[16],
                           const unsigned char L_[][16], unsigned char checksum[16])
{
    ocb_model_bulk(in, out, blocks, key, aes586_block, 1, start_block_num, offset_i, L_, checksum);
}
static void aes586_ocb_dec(const unsigned char *in, unsigned char *out, size_t blocks,
                           const void *key, size_t start_block_num, unsigned char offset_i[16],
                           const unsigned char L_[][16], unsigned char checksum[16])
{
    ocb_model_bulk(in, out, blocks, key, aes586_decrypt_block, 0, start_block_num, offset_i, L_,
                   checksum);
}

/* Each mode in run_mode's shape: CALL over its arguments (CTR and OCB as
 * dm_modes.h calls them). */
#define RUN_MODE(name, call)                                                                \
    static void name(const unsigned char *in, unsigned char *out, size_t len, void *key1, \
                     void *key2, unsigned char *iv)                                        \
    {                                                                                      \
        (void)key2, (void)iv;                                                              \
        call;                                                                              \
    }
RUN_MODE(aesni_ecb_mode, aesni_ecb_encrypt(in, out, len, key1, 1))
RUN_MODE(aesni_ecb_dec_mode, aesni_ecb_encrypt(in, out, len, key1, 0))
RUN_MODE(aesni_cbc_enc_mode, aesni_cbc_encrypt(in, out, len, key1, iv, 1))
RUN_MODE(aesni_cbc_dec_mode, aesni_cbc_encrypt(in, out, len, key1, iv, 0))
RUN_MODE(aesni_xts_mode, aesni_xts_encrypt(in, out, len, key1, key2, iv))
RUN_MODE(aesni_xts_dec_mode, aesni_xts_decrypt(in, out, len, key1, key2, iv))
RUN_MODE(aesni_lrw_mode, CRYPTO_lrw128_encrypt_ecb(key2, key1, aesni_ecb, 1, iv, in, out, len))
RUN_MODE(aesni_ctr_mode, dm_ctr_call(aesni_ctr32_encrypt_blocks, in, out, len, key1, iv))
RUN_MODE(aesni_ocb_enc_mode, dm_ocb_call(aesni_ocb_encrypt, in, out, len, key1, key2))
RUN_MODE(aesni_ocb_dec_mode, dm_ocb_call(aesni_ocb_decrypt, in, out, len, key1, key2))

RUN_MODE(x86_ecb_mode, for (size_t i = 0; i + 16 <= len; i += 16) AES_encrypt(in + i, out + i, key1))
RUN_MODE(x86_ecb_dec_mode, for (size_t i = 0; i + 16 <= len; i += 16) AES_decrypt(in + i, out + i, key1))
RUN_MODE(x86_cbc_enc_mode, AES_cbc_encrypt(in, out, len, key1, iv, 1))
RUN_MODE(x86_cbc_dec_mode, AES_cbc_encrypt(in, out, len, key1, iv, 0))
RUN_MODE(x86_xts_mode, CRYPTO_xts128_encrypt(&(const XTS128_CONTEXT){ key1, key2, aes586_block,
                                                                      aes586_block },
                                             iv, in, out, len, 1))
RUN_MODE(x86_xts_dec_mode, CRYPTO_xts128_encrypt(&(const XTS128_CONTEXT){ key1, key2,
                                                                          aes586_decrypt_block,
                                                                          aes586_block },
                                                 iv, in, out, len, 0))
RUN_MODE(x86_lrw_mode, CRYPTO_lrw128_encrypt(key2, key1, aes586_block, iv, in, out, len))
RUN_MODE(x86_ctr_mode, dm_ctr_call(aes586_ctr32, in, out, len, key1, iv))
RUN_MODE(x86_ocb_enc_mode, dm_ocb_call(aes586_ocb_enc, in, out, len, key1, key2))
RUN_MODE(x86_ocb_dec_mode, dm_ocb_call(aes586_ocb_dec, in, out, len, key1, key2))

static const struct entry {
    const char *impl, *mode;
    mode_fn *fn;
} entries[] = {
    { "aesni", "ecb", aesni_ecb_mode },     { "aesni", "cbc-enc", aesni_cbc_enc_mode },
    { "aesni", "cbc-dec", aesni_cbc_dec_mode }, { "aesni", "xts", aesni_xts_mode },
    { "aesni", "lrw", aesni_lrw_mode },     { "x86", "ecb", x86_ecb_mode },
    { "x86", "cbc-enc", x86_cbc_enc_mode }, { "x86", "cbc-dec", x86_cbc_dec_mode },
    { "x86", "xts", x86_xts_mode },         { "x86", "lrw", x86_lrw_mode },
    { "aesni", "ctr", aesni_ctr_mode },     { "aesni", "ocb-enc", aesni_ocb_enc_mode },
    { "aesni", "ocb-dec", aesni_ocb_dec_mode }, { "x86", "ctr", x86_ctr_mode },
    { "x86", "ocb-enc", x86_ocb_enc_mode }, { "x86", "ocb-dec", x86_ocb_dec_mode },
    { "aesni", "ecb-dec", aesni_ecb_dec_mode }, { "x86", "ecb-dec", x86_ecb_dec_mode },
    { "aesni", "xts-dec", aesni_xts_dec_mode }, { "x86", "xts-dec", x86_xts_dec_mode },
};

#define MAX_BYTES 4096
#define MAX_TRACE 4000000
#define PTR(p) ((uint32_t)(uintptr_t)(p))

static unsigned char in[MAX_BYTES], out[MAX_BYTES], iv[16];
static AES_KEY key1, key2;
static LRW128_TWEAK tweak;
static struct dm_ocb ocb;
static uint32_t eips[MAX_TRACE];

int main(int argc, char **argv)
{
    const struct entry *e = NULL;
    unsigned bits = argc == 5 ? (unsigned)atoi(argv[3]) : 0, bytes = argc == 5 ? (unsigned)atoi(argv[4]) : 0;
    for (size_t i = 0; argc == 5 && i < sizeof(entries) / sizeof(entries[0]); i++)
        if (strcmp(entries[i].impl, argv[1]) == 0 && strcmp(entries[i].mode, argv[2]) == 0)
            e = &entries[i];
    /* whole blocks, but XTS may steal */
    if (!e || (bits != 128 && bits != 192 && bits != 256) || bytes == 0
        || (bytes % 16 && !dm_mode_steals(e->mode)) || bytes > MAX_BYTES) {
        fprintf(stderr, "usage: %s aesni|x86 ecb|ecb-dec|cbc-enc|cbc-dec|xts|xts-dec|lrw|ctr|ocb-enc|ocb-dec "
                "128|192|256 BYTES "
                "(a multiple of 16 but for XTS, at most %d)\n", argv[0], MAX_BYTES);
        return 2;
    }
    /* The data native32_modes.c replays the call on: LRW's tweak step
     * depends on the index, so the trace must be recorded on the same. */
    unsigned char key[32];
    for (unsigned i = 0; i < sizeof(key); i++)
        key[i] = (unsigned char)(17 * i + 5);
    for (unsigned i = 0; i < 16; i++)
        iv[i] = (unsigned char)(0xa5 ^ i);
    for (unsigned i = 0; i < bytes; i++)
        in[i] = (unsigned char)(i * 29 + 3);
    int aesni = strcmp(e->impl, "aesni") == 0;
    int dec = dm_mode_decrypts(e->mode);
    int rc = aesni ? (dec ? aesni_set_decrypt_key : aesni_set_encrypt_key)(key, (int)bits, &key1)
                     | aesni_set_encrypt_key(key, (int)bits, &key2)
                   : (dec ? AES_set_decrypt_key : AES_set_encrypt_key)(key, (int)bits, &key1)
                     | AES_set_encrypt_key(key, (int)bits, &key2);
    if (rc != 0) {
        fprintf(stderr, "trace32_modes: key schedule failed\n");
        return 1;
    }
    CRYPTO_lrw128_init(&tweak, key);
    /* OCB's flow may depend on the parity of the first block's number
     * (OpenSSL's and ours do): the replays' calls start from blocks
     * first + k BYTES/16, all of this one's parity when a call has an even
     * number of blocks (dmcrypt.pl runs OCB only then); offsets, checksum
     * and L_ are data, zeros here. */
    ocb.next = dm_ocb_first();
    const void *k2 = &key2;
    if (strcmp(e->mode, "lrw") == 0)
        k2 = &tweak;
    else if (strncmp(e->mode, "ocb", 3) == 0)
        k2 = &ocb;
    const uint32_t args[6] = { PTR(in), PTR(out), bytes, PTR(&key1), PTR(k2), PTR(iv) };
    char err[512];
    size_t n = 0;
    if (trace32_call_fn(abi32_mode(e->fn), args, 6, eips, MAX_TRACE, &n, err, sizeof(err)) != 0
        || n > MAX_TRACE) {
        fprintf(stderr, "trace32_modes: %s %s: %s\n", e->impl, e->mode, n > MAX_TRACE ? "trace too long" : err);
        return 1;
    }
    printf("trace %s %s %u %u %zu\n", e->impl, e->mode, bits, bytes, n);
    for (size_t i = 0; i < n; i++)
        printf("%08x\n", (unsigned)eips[i]);
    return 0;
}
