/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The variants of crypto/sha/asm/sha1-x86_64.pl, hidden symbols beside
 * its dispatcher sha1_block_data_order (<openssl/sha.h>), all of that
 * function's shape: the dispatcher's entries, tests and the benchmark
 * call each one directly.
 */
#ifndef CRYPTO_SHA_SHA1_X86_64_H
#define CRYPTO_SHA_SHA1_X86_64_H

#include <stddef.h>

#include <openssl/sha.h>

void sha1_block_data_order_shaext(SHA_CTX *c, const void *p, size_t n);
void sha1_block_data_order_avx2(SHA_CTX *c, const void *p, size_t n);
void sha1_block_data_order_avx(SHA_CTX *c, const void *p, size_t n);
void sha1_block_data_order_ssse3(SHA_CTX *c, const void *p, size_t n);
void sha1_block_data_order_x86_64(SHA_CTX *c, const void *p, size_t n);

#endif
