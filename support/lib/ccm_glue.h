/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CCM (NIST SP 800-38C, RFC 3610) for the tests and the benchmark, built
 * the way OpenSSL's crypto/modes/ccm128.c drives an AES implementation:
 * B0, the AAD and the tag through the block function, the whole blocks of
 * the payload through one call of a ccm128_f bulk function (the
 * aesni_ccm64_* shape), the last partial block through the block function
 * again.  With no bulk function every block goes through the block
 * function, as ccm128.c does without a stream.
 */
#ifndef TEST_CCM_GLUE_H
#define TEST_CCM_GLUE_H

#include <stddef.h>
#include <stdint.h>

#include "impl.h"

struct ccm_glue {
    const void *key;          /* encryption schedule of `block` */
    block128_f block;
    ccm128_f enc_stream;      /* bulk functions; NULL: a block at a time */
    ccm128_f dec_stream;
};

/*
 * One message.  Nonce 7..13 bytes, tag 4..16 bytes and even, len below
 * 2^(8 * (15 - nlen)).  Encryption writes len bytes to out and the tag;
 * decryption writes the plaintext and compares the tag (in constant time),
 * clearing out when it differs.  Returns 0, CCM_BAD_TAG, or CCM_BAD_ARGS
 * (nothing written).  out may equal in.
 */
#define CCM_BAD_TAG  1
#define CCM_BAD_ARGS (-1)
int ccm_seal(const struct ccm_glue *g, const uint8_t *nonce, size_t nlen,
             const uint8_t *aad, size_t alen, const uint8_t *in,
             uint8_t *out, size_t len, uint8_t *tag, size_t tlen);
int ccm_open(const struct ccm_glue *g, const uint8_t *nonce, size_t nlen,
             const uint8_t *aad, size_t alen, const uint8_t *in,
             uint8_t *out, size_t len, const uint8_t *tag, size_t tlen);

#endif
