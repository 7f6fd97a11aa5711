/* SPDX-License-Identifier: Apache-2.0 */
/*
 * OpenSSL's AES-CCM through EVP, for the CCM test and the benchmark, on
 * the library ossl.c loaded (libcrypto.so.3 with RTLD_LOCAL |
 * RTLD_DEEPBIND, EVP calls only); ossl_load() must have succeeded first.
 * Errors: -1 with the reason in ossl_error().
 */
#ifndef TEST_OSSL_CCM_H
#define TEST_OSSL_CCM_H

#include <stddef.h>
#include <stdint.h>

struct ossl_ccm;
struct ossl_ccm *ossl_ccm_new(void);
void ossl_ccm_free(struct ossl_ccm *c);
/* Key and the message shape; each message then only needs a nonce. */
int ossl_ccm_init(struct ossl_ccm *c, int bits, int enc, const uint8_t *key,
                  size_t nlen, size_t tlen);
/*
 * One message.  Encryption writes out and tag; decryption writes out and
 * returns 1 when OpenSSL rejects the tag.  alen 0: no AAD.
 */
int ossl_ccm_message(struct ossl_ccm *c, const uint8_t *nonce,
                     const uint8_t *aad, size_t alen, const uint8_t *in,
                     uint8_t *out, size_t len, uint8_t *tag);

#endif
