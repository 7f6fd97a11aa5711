/* SPDX-License-Identifier: Apache-2.0 */
/*
 * perlasm-x86 dispatching API: one call per mode that runs the fastest AES or
 * SHA-1 implementation this CPU offers (as seen through OPENSSL_ia32cap_P,
 * so the OPENSSL_ia32cap environment variable can force a slower one).
 * Every implementation gives the same bytes; only the speed differs.
 *
 * All functions return 0 on success and a negative value on bad arguments:
 *   CASM_ERR_NULL   a required pointer is NULL
 *   CASM_ERR_BITS   key size not supported
 *   CASM_ERR_LENGTH length not allowed by the mode
 */
#ifndef CRYPTO_ASM_CRYPTOASM_H
#define CRYPTO_ASM_CRYPTOASM_H

#include <stddef.h>
#include <openssl/aes.h>
#include <openssl/modes.h>
#include <openssl/sha.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CASM_ERR_NULL   (-1)
#define CASM_ERR_BITS   (-2)
#define CASM_ERR_LENGTH (-3)

struct casm_aes_impl;

/* An AES key scheduled for both directions by one implementation. */
typedef struct casm_aes_key {
    AES_KEY enc;
    AES_KEY dec;
    const struct casm_aes_impl *impl;
} CASM_AES_KEY;

/* bits: 128, 192 or 256. */
int casm_aes_set_key(CASM_AES_KEY *k, const unsigned char *key, int bits);
/* Name of the implementation that scheduled k ("c", later "aesni", ...). */
const char *casm_aes_key_impl(const CASM_AES_KEY *k);

/* ECB and CBC: len must be a multiple of 16.  CBC updates iv. */
int casm_aes_ecb(const CASM_AES_KEY *k, const unsigned char *in,
                 unsigned char *out, size_t len, int enc);
int casm_aes_cbc(const CASM_AES_KEY *k, const unsigned char *in,
                 unsigned char *out, size_t len, unsigned char iv[16],
                 int enc);

/*
 * CTR with a 128-bit big-endian counter block, any length, streaming across
 * calls as OpenSSL's CRYPTO_ctr128_encrypt (*num = 0 and ecount unused at
 * the start).  Encryption and decryption are the same operation.
 */
int casm_aes_ctr(const CASM_AES_KEY *k, const unsigned char *in,
                 unsigned char *out, size_t len, unsigned char counter[16],
                 unsigned char ecount[16], unsigned int *num);

/* XTS: key is data key || tweak key, bits is 128 or 256 (per half). */
typedef struct casm_aes_xts_key {
    CASM_AES_KEY data;
    CASM_AES_KEY tweak;
} CASM_AES_XTS_KEY;
int casm_aes_xts_set_key(CASM_AES_XTS_KEY *k, const unsigned char *key,
                         int bits);
/* len >= 16; a tail that is not a whole block uses ciphertext stealing. */
int casm_aes_xts(const CASM_AES_XTS_KEY *k, const unsigned char iv[16],
                 const unsigned char *in, unsigned char *out, size_t len,
                 int enc);

/* LRW: key is AES key || 16-byte tweak key K2, bits is the AES key size. */
typedef struct casm_aes_lrw_key {
    CASM_AES_KEY aes;
    LRW128_TWEAK tweak;
} CASM_AES_LRW_KEY;
int casm_aes_lrw_set_key(CASM_AES_LRW_KEY *k, const unsigned char *key,
                         int bits);
/* index: big-endian number of the first block; len a multiple of 16. */
int casm_aes_lrw(const CASM_AES_LRW_KEY *k, const unsigned char index[16],
                 const unsigned char *in, unsigned char *out, size_t len,
                 int enc);

/* SHA-1 of a whole message; md receives 20 bytes. */
int casm_sha1(const void *data, size_t len, unsigned char md[20]);
/* Name of the sha1_block_data_order variant in use ("c", later "shani"...). */
const char *casm_sha1_impl(void);

#ifdef __cplusplus
}
#endif

#endif
