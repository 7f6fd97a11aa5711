/* SPDX-License-Identifier: Apache-2.0 */
/*
 * AES-OCB of the system OpenSSL (libcrypto.so.3), through EVP, for the OCB
 * test and the benchmark, on the library support/lib/ossl.c loaded (dlopen
 * with RTLD_LOCAL | RTLD_DEEPBIND, no OpenSSL header); ossl_load() must
 * have succeeded first.  Functions returning int give 0 on success and -1
 * on failure, with the reason in ossl_error().
 */
#ifndef TEST_OSSL_OCB_H
#define TEST_OSSL_OCB_H

#include <stddef.h>
#include <stdint.h>

struct ossl_ocb;
struct ossl_ocb *ossl_ocb_new(void);
void ossl_ocb_free(struct ossl_ocb *c);

/* Key (bits 128/192/256), direction, nonce length 1..15, tag length 1..16. */
int ossl_ocb_init(struct ossl_ocb *c, int bits, int enc, const uint8_t *key,
                  size_t nonce_len, size_t tag_len);
/*
 * One message under the key of ossl_ocb_init: encrypting writes len bytes
 * to out and the tag to tag; decrypting checks tag and returns 1 if it
 * does not match (out then holds what OpenSSL released).
 */
int ossl_ocb_message(struct ossl_ocb *c, const uint8_t *nonce,
                     const uint8_t *aad, size_t aad_len, const uint8_t *in,
                     uint8_t *out, size_t len, uint8_t *tag);

#endif
