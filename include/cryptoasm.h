/* SPDX-License-Identifier: Apache-2.0 */
/*
 * perlasm-x86 dispatching API: one call per mode that runs the fastest AES or
 * SHA-1 implementation this CPU offers (as seen through OPENSSL_ia32cap_P,
 * so the OPENSSL_ia32cap environment variable can force a slower one).
 * Every implementation gives the same bytes; only the speed differs.
 *
 * The contract every function below follows:
 *  - Return value: 0 on success, else one of the CASM_ERR_* codes.  When
 *    several apply, the one listed first is returned.  A refused mode or
 *    SHA-1 call writes nothing: output, iv, counter, ecount, num and
 *    context are as they were.  A refused set_key is the exception below.
 *  - NULL: a data buffer (in, out, data) may be NULL when its length is 0;
 *    a length-0 call the mode allows (all but XTS) is then a successful
 *    no-op.  Every other pointer (key object, key bytes, iv, counter,
 *    ecount, num, index, context, md) is needed at every length, 0
 *    included.
 *  - Keys and contexts: usable after a successful set_key or init.  A
 *    set_key that fails wipes the object and leaves it unusable, however it
 *    was before: later calls with it return CASM_ERR_STATE and
 *    casm_aes_key_impl returns NULL.  (An object never set is undefined
 *    unless it is all zero bytes, which reads as unusable.)
 *  - enc: 1 encrypts, 0 decrypts; any other value is refused.
 *  - Buffers: no alignment is needed.  in == out (in place) is allowed;
 *    in and out that overlap without starting at the same byte are refused.
 */
#ifndef PERLASM_X86_CRYPTOASM_H
#define PERLASM_X86_CRYPTOASM_H

#include <stddef.h>
#include <openssl/aes.h>
#include <openssl/modes.h>
#include <openssl/sha.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CASM_ERR_NULL    (-1)   /* a pointer the call needs is NULL */
#define CASM_ERR_STATE   (-4)   /* key or context not usable (see above) */
#define CASM_ERR_BITS    (-2)   /* key size not supported by the mode */
#define CASM_ERR_ENC     (-5)   /* enc is neither 0 nor 1 */
#define CASM_ERR_LENGTH  (-3)   /* length not allowed by the mode */
#define CASM_ERR_OVERLAP (-6)   /* in and out overlap but are not equal */

struct casm_aes_impl;

/* An AES key scheduled for both directions by one implementation. */
typedef struct casm_aes_key {
    AES_KEY enc;
    AES_KEY dec;
    const struct casm_aes_impl *impl;
} CASM_AES_KEY;

/* bits: 128, 192 or 256. */
int casm_aes_set_key(CASM_AES_KEY *k, const unsigned char *key, int bits);
/* Name of the implementation that scheduled k ("aesni", "c", ...); NULL
 * when k is NULL or unusable. */
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

/*
 * XTS: key is data key || tweak key, bits is 128 or 256 (per half).  A
 * data unit is 16 bytes up to CASM_AES_XTS_MAX_LEN, 2^20 blocks (IEEE
 * 1619-2018 and SP 800-38E, as OpenSSL 3's XTS cipher enforces).
 */
#define CASM_AES_XTS_MAX_LEN ((size_t)1 << 24)
typedef struct casm_aes_xts_key {
    CASM_AES_KEY data;
    CASM_AES_KEY tweak;
} CASM_AES_XTS_KEY;
int casm_aes_xts_set_key(CASM_AES_XTS_KEY *k, const unsigned char *key,
                         int bits);
/* 16 <= len <= CASM_AES_XTS_MAX_LEN; a tail that is not a whole block
 * uses ciphertext stealing. */
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
/* Name of the SHA-1 block function in use ("shani", "avx2", "c", ...). */
const char *casm_sha1_impl(void);

struct casm_sha1_impl;

/*
 * SHA-1 streamed: init, then update with the message in pieces of any
 * length (0 included), then final, which pads, writes the 20-byte digest
 * and wipes the context; after it, update and final return CASM_ERR_STATE
 * until the next init.  init picks the block function casm_sha1_impl()
 * names then, and the context keeps it.
 */
typedef struct casm_sha1_ctx {
    SHA_CTX sha;                        /* chaining value, length, partial block */
    const struct casm_sha1_impl *impl;  /* NULL: not usable */
} CASM_SHA1_CTX;
int casm_sha1_init(CASM_SHA1_CTX *c);
int casm_sha1_update(CASM_SHA1_CTX *c, const void *data, size_t len);
int casm_sha1_final(CASM_SHA1_CTX *c, unsigned char md[20]);

#ifdef __cplusplus
}
#endif

#endif
