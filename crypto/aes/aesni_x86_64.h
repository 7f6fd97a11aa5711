/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The entry points of crypto/aes/asm/aesni-x86_64.pl, declared once with
 * their exact types: OpenSSL's aesni_* names (AES_KEY for the key
 * schedules, single blocks, ECB and CBC; const void * for the bulk modes,
 * whose shapes are those of crypto/impl.h's typedefs).  The fixed path of
 * each variant (NAME_vaes512, NAME_vaes256, NAME_xmm) is declared in the
 * generated variants.h, from aesni-x86_64.dispatch.
 */
#ifndef CRYPTO_AES_AESNI_X86_64_H
#define CRYPTO_AES_AESNI_X86_64_H

#include <stddef.h>

#include <openssl/aes.h>

int aesni_set_encrypt_key(const unsigned char *key, int bits, AES_KEY *k);
int aesni_set_decrypt_key(const unsigned char *key, int bits, AES_KEY *k);
void aesni_encrypt(const unsigned char *in, unsigned char *out, const AES_KEY *k);
void aesni_decrypt(const unsigned char *in, unsigned char *out, const AES_KEY *k);

void aesni_ecb_encrypt(const unsigned char *in, unsigned char *out, size_t len,
                       const AES_KEY *k, int enc);
void aesni_cbc_encrypt(const unsigned char *in, unsigned char *out, size_t len,
                       const AES_KEY *k, unsigned char *ivec, int enc);
void aesni_ctr32_encrypt_blocks(const unsigned char *in, unsigned char *out,
                                size_t blocks, const void *k,
                                const unsigned char ivec[16]);
void aesni_xts_encrypt(const unsigned char *in, unsigned char *out, size_t len,
                       const void *key1, const void *key2,
                       const unsigned char iv[16]);
void aesni_xts_decrypt(const unsigned char *in, unsigned char *out, size_t len,
                       const void *key1, const void *key2,
                       const unsigned char iv[16]);
void aesni_ccm64_encrypt_blocks(const unsigned char *in, unsigned char *out,
                                size_t blocks, const void *key,
                                const unsigned char ivec[16],
                                unsigned char cmac[16]);
void aesni_ccm64_decrypt_blocks(const unsigned char *in, unsigned char *out,
                                size_t blocks, const void *key,
                                const unsigned char ivec[16],
                                unsigned char cmac[16]);
void aesni_ocb_encrypt(const unsigned char *in, unsigned char *out,
                       size_t blocks, const void *key, size_t start_block_num,
                       unsigned char offset_i[16], const unsigned char L_[][16],
                       unsigned char checksum[16]);
void aesni_ocb_decrypt(const unsigned char *in, unsigned char *out,
                       size_t blocks, const void *key, size_t start_block_num,
                       unsigned char offset_i[16], const unsigned char L_[][16],
                       unsigned char checksum[16]);

#endif
