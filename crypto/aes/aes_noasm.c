/* SPDX-License-Identifier: Apache-2.0 */
/*
 * OpenSSL's AES_* names for builds without an AES assembly module: the C
 * implementation.  The assembly module, when built, provides these names
 * instead, and the C code stays reachable as aes_c_*.
 */
#include <openssl/aes.h>

#include "aes/aes_c.h"

int AES_set_encrypt_key(const unsigned char *userKey, const int bits,
                        AES_KEY *key)
{
    return aes_c_set_encrypt_key(userKey, bits, key);
}

int AES_set_decrypt_key(const unsigned char *userKey, const int bits,
                        AES_KEY *key)
{
    return aes_c_set_decrypt_key(userKey, bits, key);
}

void AES_encrypt(const unsigned char *in, unsigned char *out,
                 const AES_KEY *key)
{
    aes_c_encrypt(in, out, key);
}

void AES_decrypt(const unsigned char *in, unsigned char *out,
                 const AES_KEY *key)
{
    aes_c_decrypt(in, out, key);
}

void AES_cbc_encrypt(const unsigned char *in, unsigned char *out,
                     size_t length, const AES_KEY *key,
                     unsigned char *ivec, const int enc)
{
    aes_c_cbc_encrypt(in, out, length, key, ivec, enc);
}
