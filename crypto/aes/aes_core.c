/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reference AES (FIPS-197) with OpenSSL's API (as aes_c_*, see aes_c.h):
 * the key schedule and the entry points.  The rounds themselves come from the core selected
 * at build time (aes_table.c or aes_ct.c, see aes_backend.h).
 *
 * Decryption uses the equivalent inverse cipher (FIPS-197 §5.3.5): the
 * decryption schedule is the encryption one in reverse round order with
 * InvMixColumns applied to the inner round keys, so both directions have
 * the same round structure.
 */
#include "aes/aes_backend.h"
#include "aes/aes_c.h"

int aes_c_set_encrypt_key(const unsigned char *userKey, const int bits,
                        AES_KEY *key)
{
    int nk;

    if (userKey == NULL || key == NULL)
        return -1;
    switch (bits) {
    case 128: nk = 4; break;
    case 192: nk = 6; break;
    case 256: nk = 8; break;
    default: return -2;
    }
    key->rounds = nk + 6;

    uint32_t *w = key->rd_key;
    const int words = 4 * (key->rounds + 1);
    uint32_t rcon = 1;

    for (int i = 0; i < nk; i++)
        w[i] = aes_load_le32(userKey + 4 * i);
    for (int i = nk; i < words; i++) {
        uint32_t t = w[i - 1];
        if (i % nk == 0) {
            /* RotWord moves byte 1 to byte 0: a right rotation here. */
            t = aes_core_sub_word(aes_rotr32(t, 8)) ^ rcon;
            rcon = (rcon << 1) ^ ((rcon >> 7) * 0x11b);
        } else if (nk == 8 && i % nk == 4) {
            t = aes_core_sub_word(t);
        }
        w[i] = w[i - nk] ^ t;
    }
    return 0;
}

int aes_c_set_decrypt_key(const unsigned char *userKey, const int bits,
                        AES_KEY *key)
{
    int ret = aes_c_set_encrypt_key(userKey, bits, key);
    if (ret != 0)
        return ret;

    uint32_t *w = key->rd_key;
    const int rounds = key->rounds;

    for (int lo = 0, hi = rounds; lo < hi; lo++, hi--) {
        for (int j = 0; j < 4; j++) {
            uint32_t t = w[4 * lo + j];
            w[4 * lo + j] = w[4 * hi + j];
            w[4 * hi + j] = t;
        }
    }
    for (int i = 4; i < 4 * rounds; i++)
        w[i] = aes_core_inv_mix_column(w[i]);
    return 0;
}

void aes_c_encrypt(const unsigned char *in, unsigned char *out,
                 const AES_KEY *key)
{
    aes_core_encrypt_block(in, out, key->rd_key, key->rounds);
}

void aes_c_decrypt(const unsigned char *in, unsigned char *out,
                 const AES_KEY *key)
{
    aes_core_decrypt_block(in, out, key->rd_key, key->rounds);
}
