/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The hidden entry points of crypto/aes/asm/aes-x86_64.pl (its OpenSSL
 * AES_* names are in <openssl/aes.h>): one block and CBC through the full
 * T-tables, for the dispatcher's "x86_64_full" entry, the tests and the
 * benchmark; and aes_x86_64_ecb (aes_x86_64_ecb.c), ECB over both paths.
 */
#ifndef CRYPTO_AES_AES_X86_64_H
#define CRYPTO_AES_AES_X86_64_H

#include <stddef.h>

#include <openssl/aes.h>

void aes_x86_64_encrypt_full(const unsigned char *in, unsigned char *out,
                             const AES_KEY *k);
void aes_x86_64_decrypt_full(const unsigned char *in, unsigned char *out,
                             const AES_KEY *k);
void aes_x86_64_cbc_encrypt_full(const unsigned char *in, unsigned char *out,
                                 size_t len, const AES_KEY *k,
                                 unsigned char *ivec, int enc);
void aes_x86_64_ecb(const unsigned char *in, unsigned char *out, size_t len,
                    const AES_KEY *k, int enc);

#endif
