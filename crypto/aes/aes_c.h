/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The portable C AES (aes_core.c, aes_cbc.c) under its own names, so it
 * stays callable as the reference when assembly provides OpenSSL's AES_*
 * names; aes_noasm.c maps AES_* onto these when no AES assembly is built.
 * Same prototypes and semantics as the AES_* functions in <openssl/aes.h>.
 */
#ifndef PERLASM_X86_AES_C_H
#define PERLASM_X86_AES_C_H

#include <openssl/aes.h>

int aes_c_set_encrypt_key(const unsigned char *userKey, const int bits,
                          AES_KEY *key);
int aes_c_set_decrypt_key(const unsigned char *userKey, const int bits,
                          AES_KEY *key);
void aes_c_encrypt(const unsigned char *in, unsigned char *out,
                   const AES_KEY *key);
void aes_c_decrypt(const unsigned char *in, unsigned char *out,
                   const AES_KEY *key);
void aes_c_cbc_encrypt(const unsigned char *in, unsigned char *out,
                       size_t length, const AES_KEY *key,
                       unsigned char *ivec, const int enc);

/*
 * aes_c_encrypt and aes_c_decrypt in OpenSSL's block128_f shape (const
 * void *key), for the generic modes; aes_cbc.c.
 */
void aes_c_encrypt_block128(const unsigned char in[16], unsigned char out[16],
                            const void *key);
void aes_c_decrypt_block128(const unsigned char in[16], unsigned char out[16],
                            const void *key);

#endif
