/* SPDX-License-Identifier: Apache-2.0 */
/*
 * aes586_cbc_encrypt_compact, the hidden CBC of crypto/aes/asm/aes-586.pl
 * (the -m32 build) through the compact code whatever the length, for the
 * tests and the benchmark; prototype as OpenSSL's AES_cbc_encrypt.  The
 * module's other entry points (the full T-tables, each variant's fixed
 * path) are declared in the generated variants.h, from aes-586.dispatch.
 */
#ifndef CRYPTO_AES_AES586_H
#define CRYPTO_AES_AES586_H

#include <stddef.h>

#include "variants.h"

void aes586_cbc_encrypt_compact(const unsigned char *in, unsigned char *out, size_t len,
                                const AES_KEY *key, unsigned char *ivec, const int enc);

#endif
