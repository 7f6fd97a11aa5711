/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The hidden entry points of crypto/aes/asm/aes-586.pl (the -m32 build),
 * for the tests, the benchmark and the dispatcher's "x86_full" entry: one
 * block and CBC through the full T-tables, and CBC through the compact
 * code whatever the length.  Prototypes as OpenSSL's AES_* ones.
 */
#ifndef CRYPTO_AES_AES586_H
#define CRYPTO_AES_AES586_H

#include <stddef.h>

#include <openssl/aes.h>

void aes586_encrypt_full(const unsigned char *in, unsigned char *out, const AES_KEY *key);
void aes586_decrypt_full(const unsigned char *in, unsigned char *out, const AES_KEY *key);
void aes586_cbc_encrypt_full(const unsigned char *in, unsigned char *out, size_t len,
                             const AES_KEY *key, unsigned char *ivec, const int enc);
void aes586_cbc_encrypt_compact(const unsigned char *in, unsigned char *out, size_t len,
                                const AES_KEY *key, unsigned char *ivec, const int enc);

#endif
