/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CBC mode over any 128-bit block function, with OpenSSL's semantics:
 * ivec is left holding the last ciphertext block so calls can be chained;
 * a trailing partial block is zero-padded on encryption (a whole block is
 * written) and read as a whole block on decryption.
 */
#include <openssl/modes.h>

#include "modes/block_util.h"

void CRYPTO_cbc128_encrypt(const unsigned char *in, unsigned char *out,
                           size_t len, const void *key,
                           unsigned char ivec[16], block128_f block)
{
    const unsigned char *iv = ivec;

    while (len > 0) {
        size_t n = len < 16 ? len : 16;
        size_t i;
        for (i = 0; i < n; i++)
            out[i] = in[i] ^ iv[i];
        for (; i < 16; i++)
            out[i] = iv[i];
        block(out, out, key);
        iv = out;
        len -= n;
        in += n;
        out += 16;
    }
    if (iv != ivec)
        memcpy(ivec, iv, 16);
}

void CRYPTO_cbc128_decrypt(const unsigned char *in, unsigned char *out,
                           size_t len, const void *key,
                           unsigned char ivec[16], block128_f block)
{
    unsigned char plain[16], next_iv[16];

    /* Block by block through a temporary, so in == out works. */
    while (len > 0) {
        size_t n = len < 16 ? len : 16;
        block(in, plain, key);
        memcpy(next_iv, in, 16);
        xor_bytes(out, plain, ivec, n);
        memcpy(ivec, next_iv, 16);
        len -= n;
        in += n;
        out += n;
    }
}
