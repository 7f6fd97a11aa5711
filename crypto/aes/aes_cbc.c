/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The C AES in the generic modes' shapes: aes_c_cbc_encrypt (the generic
 * CBC mode over the C block functions) and those functions as block128_f.
 */
#include <openssl/modes.h>

#include "aes/aes_c.h"

void aes_c_encrypt_block128(const unsigned char in[16], unsigned char out[16],
                            const void *key)
{
    aes_c_encrypt(in, out, key);
}

void aes_c_decrypt_block128(const unsigned char in[16], unsigned char out[16],
                            const void *key)
{
    aes_c_decrypt(in, out, key);
}

void aes_c_cbc_encrypt(const unsigned char *in, unsigned char *out,
                       size_t length, const AES_KEY *key,
                       unsigned char *ivec, const int enc)
{
    if (enc)
        CRYPTO_cbc128_encrypt(in, out, length, key, ivec,
                              aes_c_encrypt_block128);
    else
        CRYPTO_cbc128_decrypt(in, out, length, key, ivec,
                              aes_c_decrypt_block128);
}
