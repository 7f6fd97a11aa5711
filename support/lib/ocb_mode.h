/* SPDX-License-Identifier: Apache-2.0 */
/*
 * OCB (RFC 7253) for the tests and the benchmark, shaped like OpenSSL's
 * crypto/modes/ocb128.c: whole message blocks go to a bulk function
 * (aesni_ocb_encrypt/decrypt, or any ocb128_f) when one is given, with
 * start_block_num = blocks processed so far + 1; everything else (key
 * setup of L_*, L_$, L_i, the nonce, the associated data, a partial last
 * block, the tag) is C over the block cipher.  Without a bulk function
 * whole blocks go through ocb_model_bulk (support/lib/ocb_model.h).
 *
 * Data and associated data may be given in several calls; as in OpenSSL,
 * only the last call of each may end in a partial block.
 */
#ifndef TEST_OCB_MODE_H
#define TEST_OCB_MODE_H

#include <stddef.h>
#include <stdint.h>

#include "impl.h"

#define OCB_MODE_L 64        /* L_0 .. L_63: enough for any size_t count */

struct ocb_mode {
    const void *ekey, *dkey;
    block128_f encrypt, decrypt;
    ocb128_f bulk_enc, bulk_dec;
    unsigned char l_star[16], l_dollar[16], l[OCB_MODE_L][16];
    unsigned char offset[16], checksum[16];     /* of the data */
    unsigned char aad_offset[16], aad_sum[16];  /* of the associated data */
    uint64_t blocks, aad_blocks;
};

/* Key-dependent setup; bulk_enc/bulk_dec may be NULL. */
void ocb_mode_init(struct ocb_mode *o, const void *ekey, const void *dkey,
                   block128_f encrypt, block128_f decrypt,
                   ocb128_f bulk_enc, ocb128_f bulk_dec);
/* A new message: nonce of 1..15 bytes, tag of 1..16; -1 if not. */
int ocb_mode_setiv(struct ocb_mode *o, const unsigned char *nonce,
                   size_t len, size_t taglen);
void ocb_mode_aad(struct ocb_mode *o, const unsigned char *aad, size_t len);
void ocb_mode_crypt(struct ocb_mode *o, const unsigned char *in,
                    unsigned char *out, size_t len, int enc);
/* The first taglen bytes of the tag (the taglen given to setiv). */
void ocb_mode_tag(struct ocb_mode *o, unsigned char *tag, size_t taglen);

#endif
