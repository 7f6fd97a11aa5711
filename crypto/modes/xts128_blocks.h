/* SPDX-License-Identifier: Apache-2.0 */
/*
 * XTS with the whole blocks handed to a bulk function (internal): the
 * glue of a module that has one (crypto/aes/aes_x86_64_xts_ccm.c) keeps
 * the tweak's first encryption and the ciphertext stealing here, once.
 */
#ifndef CRYPTO_MODES_XTS128_BLOCKS_H
#define CRYPTO_MODES_XTS128_BLOCKS_H

#include <stddef.h>

#include <openssl/modes.h>

/*
 * Whole blocks of one data unit: block j is out = F(in ^ T) ^ T with
 * T = tweak·α^j, F the cipher under key1; tweak is left as tweak·α^blocks.
 */
typedef void (*xts128_blocks_f) (const unsigned char *in, unsigned char *out,
                                 size_t blocks, const void *key1,
                                 unsigned char tweak[16]);

/* CRYPTO_xts128_encrypt with its block loop done by `blocks` (NULL: one
 * block at a time through ctx->block1). */
int xts128_encrypt_with(const XTS128_CONTEXT *ctx, const unsigned char iv[16],
                        const unsigned char *inp, unsigned char *out,
                        size_t len, int enc, xts128_blocks_f blocks);

#endif
