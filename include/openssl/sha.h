/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SHA-1: declarations compatible with OpenSSL's <openssl/sha.h>.
 */
#ifndef PERLASM_X86_OPENSSL_SHA_H
#define PERLASM_X86_OPENSSL_SHA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SHA_LONG uint32_t
#define SHA_LBLOCK 16
#define SHA_CBLOCK (SHA_LBLOCK * 4)
#define SHA_LAST_BLOCK (SHA_CBLOCK - 8)
#define SHA_DIGEST_LENGTH 20

typedef struct SHAstate_st {
    SHA_LONG h0, h1, h2, h3, h4;
    SHA_LONG Nl, Nh;            /* message length in bits, low and high word */
    SHA_LONG data[SHA_LBLOCK];  /* pending partial block, as raw bytes */
    unsigned int num;           /* bytes pending in data */
} SHA_CTX;

/* Each returns 1, as OpenSSL's do. */
int SHA1_Init(SHA_CTX *c);
int SHA1_Update(SHA_CTX *c, const void *data, size_t len);
int SHA1_Final(unsigned char *md, SHA_CTX *c);
unsigned char *SHA1(const unsigned char *d, size_t n, unsigned char *md);

/* Compress nblocks consecutive 64-byte blocks into c->h0..h4. */
void sha1_block_data_order(SHA_CTX *c, const void *p, size_t nblocks);

#ifdef __cplusplus
}
#endif

#endif
