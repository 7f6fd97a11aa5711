/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The entry points of crypto/aes/asm/aesni-x86_64.pl, declared once with
 * their exact types: OpenSSL's aesni_* names (AES_KEY for the key
 * schedules, single blocks, ECB and CBC; const void * for the bulk modes,
 * whose shapes are those of crypto/impl.h's typedefs) and the hidden VAES
 * widths, which share the shape of the function they widen.
 */
#ifndef CRYPTO_AES_AESNI_X86_64_H
#define CRYPTO_AES_AESNI_X86_64_H

#include <stddef.h>

#include <openssl/aes.h>

int aesni_set_encrypt_key(const unsigned char *key, int bits, AES_KEY *k);
int aesni_set_decrypt_key(const unsigned char *key, int bits, AES_KEY *k);
void aesni_encrypt(const unsigned char *in, unsigned char *out, const AES_KEY *k);
void aesni_decrypt(const unsigned char *in, unsigned char *out, const AES_KEY *k);

/* One shape per bulk function; WIDTH is "", _vaes256 or _vaes512. */
#define AESNI_ECB_DECL(width) \
    void aesni_ecb_encrypt##width(const unsigned char *in, unsigned char *out, \
                                  size_t len, const AES_KEY *k, int enc)
#define AESNI_CBC_DECL(width) \
    void aesni_cbc_encrypt##width(const unsigned char *in, unsigned char *out, \
                                  size_t len, const AES_KEY *k, \
                                  unsigned char *ivec, int enc)
#define AESNI_CTR32_DECL(width) \
    void aesni_ctr32_encrypt_blocks##width(const unsigned char *in, \
                                           unsigned char *out, size_t blocks, \
                                           const void *k, \
                                           const unsigned char ivec[16])
#define AESNI_XTS_DECL(dir, width) \
    void aesni_xts_##dir##width(const unsigned char *in, unsigned char *out, \
                                size_t len, const void *key1, \
                                const void *key2, const unsigned char iv[16])
#define AESNI_CCM64_DECL(dir) \
    void aesni_ccm64_##dir##_blocks(const unsigned char *in, unsigned char *out, \
                                    size_t blocks, const void *key, \
                                    const unsigned char ivec[16], \
                                    unsigned char cmac[16])
#define AESNI_OCB_DECL(dir, width) \
    void aesni_ocb_##dir##width(const unsigned char *in, unsigned char *out, \
                                size_t blocks, const void *key, \
                                size_t start_block_num, \
                                unsigned char offset_i[16], \
                                const unsigned char L_[][16], \
                                unsigned char checksum[16])

AESNI_ECB_DECL();
AESNI_ECB_DECL(_vaes256);
AESNI_ECB_DECL(_vaes512);
AESNI_CBC_DECL();
AESNI_CBC_DECL(_vaes256);
AESNI_CBC_DECL(_vaes512);
AESNI_CTR32_DECL();
AESNI_CTR32_DECL(_vaes256);
AESNI_CTR32_DECL(_vaes512);
AESNI_XTS_DECL(encrypt, );
AESNI_XTS_DECL(decrypt, );
AESNI_XTS_DECL(encrypt, _vaes256);
AESNI_XTS_DECL(decrypt, _vaes256);
AESNI_XTS_DECL(encrypt, _vaes512);
AESNI_XTS_DECL(decrypt, _vaes512);
AESNI_CCM64_DECL(encrypt);
AESNI_CCM64_DECL(decrypt);
/* OCB has a ymm width only (AESNI/OCB.pm). */
AESNI_OCB_DECL(encrypt, );
AESNI_OCB_DECL(decrypt, );
AESNI_OCB_DECL(encrypt, _vaes256);
AESNI_OCB_DECL(decrypt, _vaes256);

#endif
