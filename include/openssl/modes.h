/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Block cipher modes over pluggable block functions: declarations compatible
 * with OpenSSL's <openssl/modes.h>, plus LRW, which OpenSSL lacks.
 *
 * A block128_f encrypts or decrypts one block.  The bulk hooks (cbc128_f,
 * ctr128_f) let an implementation process many blocks per call; the modes
 * fall back to block128_f where no bulk hook is given.
 */
#ifndef PERLASM_X86_OPENSSL_MODES_H
#define PERLASM_X86_OPENSSL_MODES_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*block128_f) (const unsigned char in[16],
                            unsigned char out[16], const void *key);

typedef void (*cbc128_f) (const unsigned char *in, unsigned char *out,
                          size_t len, const void *key,
                          unsigned char ivec[16], int enc);

/*
 * Encrypt `blocks` counter blocks: the last 32 bits of ivec are a big-endian
 * counter that wraps without carrying into the upper 96 bits.
 */
typedef void (*ctr128_f) (const unsigned char *in, unsigned char *out,
                          size_t blocks, const void *key,
                          const unsigned char ivec[16]);

void CRYPTO_cbc128_encrypt(const unsigned char *in, unsigned char *out,
                           size_t len, const void *key,
                           unsigned char ivec[16], block128_f block);
void CRYPTO_cbc128_decrypt(const unsigned char *in, unsigned char *out,
                           size_t len, const void *key,
                           unsigned char ivec[16], block128_f block);

/*
 * Counter mode with the whole 128-bit counter block incremented big-endian.
 * Streams across calls: ecount_buf holds the current key-stream block and
 * *num how much of it is used (start with *num = 0).
 */
void CRYPTO_ctr128_encrypt(const unsigned char *in, unsigned char *out,
                           size_t len, const void *key,
                           unsigned char ivec[16],
                           unsigned char ecount_buf[16], unsigned int *num,
                           block128_f block);
/* The same result, with the bulk done by a 32-bit-counter function. */
void CRYPTO_ctr128_encrypt_ctr32(const unsigned char *in, unsigned char *out,
                                 size_t len, const void *key,
                                 unsigned char ivec[16],
                                 unsigned char ecount_buf[16],
                                 unsigned int *num, ctr128_f ctr);

/*
 * XTS (IEEE 1619) with ciphertext stealing.  key1/block1 process the data
 * (encrypt or decrypt direction), key2/block2 encrypt the tweak.
 */
struct xts128_context {
    void *key1, *key2;
    block128_f block1, block2;
};
typedef struct xts128_context XTS128_CONTEXT;

/* Returns 0, or -1 if len < 16. */
int CRYPTO_xts128_encrypt(const XTS128_CONTEXT *ctx,
                          const unsigned char iv[16],
                          const unsigned char *inp, unsigned char *out,
                          size_t len, int enc);

/*
 * LRW (IEEE P1619 draft, as Linux dm-crypt's "lrw" mode):
 *   T = K2 (x) I  in GF(2^128), C = E_K1(P ^ T) ^ T,  I += 1 per block,
 * with byte 0's top bit the coefficient of x^127.  I is the 128-bit
 * big-endian index of the first block.  The tweak table holds K2 times each
 * 2^(k+1)-1, the XOR between consecutive tweaks, so stepping I costs one
 * XOR per block.  It does not depend on the direction, so one table serves
 * both: pass the data key with its encrypt or decrypt block function.
 */
struct lrw128_tweak {
    unsigned char k2[16];
    unsigned char step[128][16];     /* K2 (x) (2^(k+1) - 1), k = 0..127 */
};
typedef struct lrw128_tweak LRW128_TWEAK;

void CRYPTO_lrw128_init(LRW128_TWEAK *tweak, const unsigned char k2[16]);

/* Many blocks at once in one direction (enc 1 or 0), e.g. aesni_ecb_encrypt. */
typedef void (*ecb128_f) (const unsigned char *in, unsigned char *out,
                          size_t len, const void *key, int enc);
/* Returns 0, or -1 if len is not a multiple of 16. */
int CRYPTO_lrw128_encrypt(const LRW128_TWEAK *tweak, const void *key1,
                          block128_f block1, const unsigned char index[16],
                          const unsigned char *inp, unsigned char *out,
                          size_t len);
/* The same, with the blocks of each chunk through one ECB call. */
int CRYPTO_lrw128_encrypt_ecb(const LRW128_TWEAK *tweak, const void *key1,
                              ecb128_f ecb, int enc,
                              const unsigned char index[16],
                              const unsigned char *inp, unsigned char *out,
                              size_t len);

#ifdef __cplusplus
}
#endif

#endif
