/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The paths of crypto/sha/asm/sha1-586.pl (32-bit x86), hidden symbols
 * beside its dispatcher sha1_block_data_order (<openssl/sha.h>), all of
 * that function's shape: the registry's entries, tests and the benchmark
 * call each one directly.  Not in a "386" build, which has only the
 * integer path behind sha1_block_data_order.
 */
#ifndef CRYPTO_SHA_SHA1_586_H
#define CRYPTO_SHA_SHA1_586_H

#include <stddef.h>

#include <openssl/sha.h>

void sha1_block_data_order_shaext(SHA_CTX *c, const void *p, size_t n);
void sha1_block_data_order_avx(SHA_CTX *c, const void *p, size_t n);
void sha1_block_data_order_ssse3(SHA_CTX *c, const void *p, size_t n);
void sha1_block_data_order_x86(SHA_CTX *c, const void *p, size_t n);

#endif
