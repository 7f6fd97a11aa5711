/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Registry of implementations behind the dispatching API (internal).
 *
 * Each AES and SHA-1 implementation is a table entry naming the CPU features
 * it needs as bits of the capability words (cpuid/ia32cap.h).  Entries are listed fastest first;
 * the dispatcher takes the first one whose bits are all present and that
 * the CPU does not make it avoid.  Tests and
 * the benchmark walk the same tables to call every implementation directly.
 */
#ifndef PERLASM_X86_IMPL_H
#define PERLASM_X86_IMPL_H

#include <stddef.h>
#include <openssl/aes.h>
#include <openssl/modes.h>
#include <openssl/sha.h>
#include "cryptoasm.h"
#include "cpuid/ia32cap.h"   /* casm_cpu_has */

typedef void (*sha1_block_f) (SHA_CTX *c, const void *p, size_t nblocks);
typedef int (*casm_aes_set_key_f) (const unsigned char *key, int bits,
                                   AES_KEY *k);
/*
 * ECB and CBC as the AES entry points declare them (AES_KEY, where
 * OpenSSL's ecb128_f and cbc128_f say const void *), so the bulk functions
 * sit in the table without a cast and are called without a wrapper.
 */
typedef void (*casm_aes_ecb_f) (const unsigned char *in, unsigned char *out,
                                size_t len, const AES_KEY *key, int enc);
typedef void (*casm_aes_cbc_f) (const unsigned char *in, unsigned char *out,
                                size_t len, const AES_KEY *key,
                                unsigned char *ivec, int enc);
/* Whole-message XTS (OpenSSL's aesni_xts_encrypt/decrypt shape). */
typedef void (*xts128_f) (const unsigned char *in, unsigned char *out,
                          size_t len, const void *key1, const void *key2,
                          const unsigned char iv[16]);
/*
 * CCM bulk, OpenSSL's ccm128_f: whole blocks; CBC-MAC into cmac (read and
 * written) and CTR with a 64-bit big-endian counter in ivec[8..15], which
 * is not written back.
 */
typedef void (*ccm128_f) (const unsigned char *in, unsigned char *out,
                          size_t blocks, const void *key,
                          const unsigned char ivec[16],
                          unsigned char cmac[16]);
/*
 * OCB bulk over whole blocks (OpenSSL's ocb128_f, the shape of
 * aesni_ocb_encrypt/decrypt): block j is message block start_block_num + j;
 * offset_i and checksum are read and written back; L_ holds L_0, L_1, ...
 */
typedef void (*ocb128_f) (const unsigned char *in, unsigned char *out,
                          size_t blocks, const void *key,
                          size_t start_block_num, unsigned char offset_i[16],
                          const unsigned char L_[][16],
                          unsigned char checksum[16]);

struct casm_aes_impl {
    const char *name;
    unsigned int need[4];   /* capability bits that must all be set */
    const char *need_name;  /* need's names (CAPSET_NEED), for SKIP messages */
    /*
     * Capability bits (words 0-3) in whose joint presence the dispatcher
     * passes this entry over although it runs (a later one is as fast);
     * all zero: never.  Direct calls still reach it.
     */
    unsigned int avoid[4];
    /*
     * The capability bits (words 0-3) an OPENSSL_ia32cap value
     * must clear so the dispatcher picks this entry, or NULL when a faster
     * entry always wins (then only direct calls reach it).  The same mask
     * puts OpenSSL on its equivalent path; casm_force_mask_text writes it.
     */
    const unsigned int *force_clear;
    casm_aes_set_key_f set_encrypt_key, set_decrypt_key;
    /*
     * OpenSSL's block128_f, as the generic modes take it: for the AES_KEY
     * entry points a typed wrapper (registry.c) that tail-calls them.
     */
    block128_f encrypt, decrypt;
    casm_aes_ecb_f ecb;     /* NULL: one block at a time */
    casm_aes_cbc_f cbc;     /* NULL: CRYPTO_cbc128_* over encrypt/decrypt */
    ctr128_f ctr32;         /* NULL: CRYPTO_ctr128_encrypt over encrypt */
    xts128_f xts_enc, xts_dec;   /* NULL: CRYPTO_xts128_encrypt */
    ccm128_f ccm64_enc, ccm64_dec;   /* NULL: CCM a block at a time */
    ocb128_f ocb_enc, ocb_dec;   /* NULL: no OCB bulk (block at a time) */
};

struct casm_sha1_impl {
    const char *name;
    unsigned int need[4];
    const char *need_name;
    unsigned int avoid[4];             /* as in casm_aes_impl */
    const unsigned int *force_clear;   /* as in casm_aes_impl */
    sha1_block_f block;
};

extern const struct casm_aes_impl *const casm_aes_impls[];
extern const size_t casm_aes_impl_count;
extern const struct casm_sha1_impl *const casm_sha1_impls[];
extern const size_t casm_sha1_impl_count;

/* The bits that put OpenSSL 3.0 on its table-based AES path. */
extern const unsigned int casm_openssl_table_path[4];

/*
 * force_clear as OPENSSL_ia32cap text ("~V0:~V1", keeping every bit it does
 * not clear), written to buf; NULL for NULL.
 */
#define CASM_FORCE_MASK_MAX 48
const char *casm_force_mask_text(const unsigned int *clear,
                                 char buf[CASM_FORCE_MASK_MAX]);


const struct casm_aes_impl *casm_aes_impl_by_name(const char *name);
const struct casm_sha1_impl *casm_sha1_impl_by_name(const char *name);
const struct casm_aes_impl *casm_aes_best(void);
const struct casm_sha1_impl *casm_sha1_best(void);

/* Schedule k with a chosen implementation (whether or not the CPU has it). */
int casm_aes_set_key_with(CASM_AES_KEY *k, const struct casm_aes_impl *impl,
                          const unsigned char *key, int bits);
int casm_aes_xts_set_key_with(CASM_AES_XTS_KEY *k,
                              const struct casm_aes_impl *impl,
                              const unsigned char *key, int bits);
int casm_aes_lrw_set_key_with(CASM_AES_LRW_KEY *k,
                              const struct casm_aes_impl *impl,
                              const unsigned char *key, int bits);

/* casm_sha1_init with a chosen implementation (whether or not the CPU
 * has it). */
int casm_sha1_init_with(CASM_SHA1_CTX *c, const struct casm_sha1_impl *impl);

/* SHA-1 of a whole message through one chosen block function. */
void casm_sha1_with(sha1_block_f block, const void *data, size_t len,
                    unsigned char md[20]);
/* SHA1_Update/SHA1_Final with an explicit block function. */
void casm_sha1_update_with(SHA_CTX *c, const void *data, size_t len,
                           sha1_block_f block);
void casm_sha1_final_with(unsigned char md[20], SHA_CTX *c,
                          sha1_block_f block);

/* The portable C references. */
void sha1_block_data_order_c(SHA_CTX *c, const void *p, size_t nblocks);

#endif
