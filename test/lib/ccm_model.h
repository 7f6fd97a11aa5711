/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The CCM bulk step as plain C, the model the aesni_ccm64_* functions are
 * tested against (test/ccm.c, test/guard_pages.c).  Same contract as
 * OpenSSL's ccm128_f: for each of `blocks` whole blocks, the key stream
 * is cipher(counter) with the counter a 64-bit big-endian number in
 * ivec[8..15] (no carry into byte 7), CBC-MAC over the plaintext into
 * cmac (read and written); ivec itself is not written.  The block cipher
 * is passed explicitly (the encryption direction, for both directions).
 */
#ifndef TEST_CCM_MODEL_H
#define TEST_CCM_MODEL_H

#include <stddef.h>
#include <string.h>

#include <openssl/modes.h>

static inline void ccm_model_bulk(const unsigned char *in, unsigned char *out,
                                  size_t blocks, const void *key,
                                  block128_f encrypt, int enc,
                                  const unsigned char ivec[16],
                                  unsigned char cmac[16])
{
    unsigned char ctr[16], ks[16];
    memcpy(ctr, ivec, 16);
    for (size_t b = 0; b < blocks; b++, in += 16, out += 16) {
        encrypt(ctr, ks, key);
        for (int i = 0; i < 16; i++) {
            unsigned char p = enc ? in[i] : in[i] ^ ks[i];
            out[i] = enc ? p ^ ks[i] : p;
            cmac[i] ^= p;
        }
        encrypt(cmac, cmac, key);
        for (int i = 15; i >= 8 && ++ctr[i] == 0; i--)
            ;
    }
}

#endif
