/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The OCB bulk step as plain C, the model the assembly is tested against
 * (test/ocb.c, test/abi/module_abi.c) and the block-at-a-time path of
 * support/lib/ocb_mode.c.  Same contract as OpenSSL's ocb128_f stream
 * (aesni_ocb_encrypt/decrypt), with the block cipher passed explicitly:
 * for j = 0 .. blocks-1, with i = start_block_num + j (RFC 7253 4.2),
 *   Offset_i = Offset_{i-1} ^ L_[ntz(i)]
 *   out_j    = Offset_i ^ cipher(in_j ^ Offset_i)
 *   Checksum ^= the plaintext block (in_j when encrypting, out_j when not)
 * offset and checksum are updated in place.  Header-only so that the
 * Win64 ABI program, which links no test library, can use it too.
 */
#ifndef TEST_OCB_MODEL_H
#define TEST_OCB_MODEL_H

#include <stddef.h>
#include <string.h>

typedef void (*ocb_model_cipher_f) (const unsigned char in[16],
                                    unsigned char out[16], const void *key);

static inline void ocb_model_bulk(const unsigned char *in, unsigned char *out,
                                  size_t blocks, const void *key,
                                  ocb_model_cipher_f cipher, int enc,
                                  size_t start_block_num,
                                  unsigned char offset[16],
                                  const unsigned char L_[][16],
                                  unsigned char checksum[16])
{
    for (size_t j = 0; j < blocks; j++) {
        unsigned long long i = (unsigned long long)(start_block_num + j);
        const unsigned char *l = L_[__builtin_ctzll(i)];
        unsigned char x[16];
        for (int k = 0; k < 16; k++) {
            offset[k] ^= l[k];
            x[k] = in[16 * j + k] ^ offset[k];
            if (enc)
                checksum[k] ^= in[16 * j + k];
        }
        cipher(x, x, key);
        for (int k = 0; k < 16; k++) {
            out[16 * j + k] = x[k] ^ offset[k];
            if (!enc)
                checksum[k] ^= out[16 * j + k];
        }
    }
}

/* floor(log2(v)) + 1 for v >= 1, 0 for 0: how many L_ entries blocks
 * 1..v use (block i reads L_[ntz(i)]). */
static inline size_t ocb_model_l_entries(unsigned long long v)
{
    return v == 0 ? 0 : (size_t)(64 - __builtin_clzll(v));
}

#endif
