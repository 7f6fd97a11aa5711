/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The hidden entry points of crypto/aes/asm/aes-x86_64.pl (its OpenSSL
 * AES_* names are in <openssl/aes.h>): one block and CBC through the full
 * T-tables, for the dispatcher's "x86_64_full" entry, the tests and the
 * benchmark; the XTS and CCM loops of each path (AesX86_64/Modes.pm);
 * aes_x86_64_ecb (aes_x86_64_ecb.c), ECB over both paths; and XTS and CCM
 * over both paths (aes_x86_64_xts_ccm.c), or the full tables only.
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
/* One path's XTS whole blocks, an xts128_blocks_f, and CCM64, a ccm128_f. */
#define AES_X86_64_MODE_LOOPS(path) \
    void aes_x86_64_xts_enc_##path(const unsigned char *in, unsigned char *out, \
                                   size_t blocks, const void *key, \
                                   unsigned char tweak[16]); \
    void aes_x86_64_xts_dec_##path(const unsigned char *in, unsigned char *out, \
                                   size_t blocks, const void *key, \
                                   unsigned char tweak[16]); \
    void aes_x86_64_ccm64_enc_##path(const unsigned char *in, unsigned char *out, \
                                     size_t blocks, const void *key, \
                                     const unsigned char ivec[16], \
                                     unsigned char cmac[16]); \
    void aes_x86_64_ccm64_dec_##path(const unsigned char *in, unsigned char *out, \
                                     size_t blocks, const void *key, \
                                     const unsigned char ivec[16], \
                                     unsigned char cmac[16]);
AES_X86_64_MODE_LOOPS(full)
AES_X86_64_MODE_LOOPS(compact)
#undef AES_X86_64_MODE_LOOPS

/* Whole-message XTS, an xts128_f: by length, or the full tables only. */
#define AES_X86_64_XTS(name) \
    void name(const unsigned char *in, unsigned char *out, size_t len, \
              const void *key1, const void *key2, const unsigned char iv[16]);
AES_X86_64_XTS(aes_x86_64_xts_encrypt)
AES_X86_64_XTS(aes_x86_64_xts_decrypt)
AES_X86_64_XTS(aes_x86_64_xts_encrypt_full)
AES_X86_64_XTS(aes_x86_64_xts_decrypt_full)
#undef AES_X86_64_XTS

/* CCM64, a ccm128_f, by length. */
void aes_x86_64_ccm64_encrypt_blocks(const unsigned char *in,
                                     unsigned char *out, size_t blocks,
                                     const void *key,
                                     const unsigned char ivec[16],
                                     unsigned char cmac[16]);
void aes_x86_64_ccm64_decrypt_blocks(const unsigned char *in,
                                     unsigned char *out, size_t blocks,
                                     const void *key,
                                     const unsigned char ivec[16],
                                     unsigned char cmac[16]);

void aes_x86_64_ecb(const unsigned char *in, unsigned char *out, size_t len,
                    const AES_KEY *k, int enc);

#endif
