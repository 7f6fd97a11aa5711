/* SPDX-License-Identifier: Apache-2.0 */
/*
 * XTS (IEEE Std 1619-2007) over any 128-bit block function.
 *
 * Block j of a data unit is processed as  C = E1(P ^ T_j) ^ T_j  with
 * T_0 = E2(iv) and T_{j+1} = T_j · α in GF(2^128), the tweak read as a
 * little-endian number.  A final partial block borrows the tail of the
 * previous block's output ("ciphertext stealing", IEEE 1619 §5.3.2).
 */
#include <openssl/modes.h>

#include "modes/block_util.h"
#include "modes/xts128_blocks.h"

/* T = T·α: a one-bit left shift of the little-endian value, reduced by
 * x^128 = x^7 + x^2 + x + 1 (0x87).  Branch-free: the tweak is secret. */
static void xts_mul_alpha(unsigned char t[16])
{
    unsigned int carry = t[15] >> 7;
    for (int i = 15; i > 0; i--)
        t[i] = (unsigned char)(t[i] << 1 | t[i - 1] >> 7);
    t[0] = (unsigned char)(t[0] << 1) ^ (unsigned char)(0x87 & -carry);
}

static void xts_block(const XTS128_CONTEXT *ctx, const unsigned char tweak[16],
                      const unsigned char in[16], unsigned char out[16])
{
    unsigned char buf[16];
    xor_bytes(buf, in, tweak, 16);
    ctx->block1(buf, buf, ctx->key1);
    xor_bytes(out, buf, tweak, 16);
}

int CRYPTO_xts128_encrypt(const XTS128_CONTEXT *ctx,
                          const unsigned char iv[16],
                          const unsigned char *inp, unsigned char *out,
                          size_t len, int enc)
{
    return xts128_encrypt_with(ctx, iv, inp, out, len, enc, NULL);
}

int xts128_encrypt_with(const XTS128_CONTEXT *ctx, const unsigned char iv[16],
                        const unsigned char *inp, unsigned char *out,
                        size_t len, int enc, xts128_blocks_f blocks)
{
    unsigned char tweak[16];
    size_t tail = len % 16;
    /* With a tail, the last whole block is handled with it below. */
    size_t plain_blocks = len / 16 - (tail != 0);

    if (len < 16)
        return -1;

    ctx->block2(iv, tweak, ctx->key2);
    if (blocks != NULL && plain_blocks > 0) {
        blocks(inp, out, plain_blocks, ctx->key1, tweak);
        inp += 16 * plain_blocks;
        out += 16 * plain_blocks;
        plain_blocks = 0;
    }
    for (size_t j = 0; j < plain_blocks; j++) {
        xts_block(ctx, tweak, inp, out);
        xts_mul_alpha(tweak);
        inp += 16;
        out += 16;
    }
    if (tail == 0)
        return 0;

    /*
     * Encryption: the last whole block uses tweak m-1 and the stolen block
     * tweak m.  Decryption must undo them in the opposite order.
     */
    unsigned char next_tweak[16], buf[16];
    memcpy(next_tweak, tweak, 16);
    xts_mul_alpha(next_tweak);
    const unsigned char *first = enc ? tweak : next_tweak;
    const unsigned char *second = enc ? next_tweak : tweak;

    xts_block(ctx, first, inp, buf);
    /* buf's head becomes the short final block; its tail is stolen. */
    unsigned char last[16];
    memcpy(last, inp + 16, tail);
    memcpy(last + tail, buf + tail, 16 - tail);
    memcpy(out + 16, buf, tail);
    xts_block(ctx, second, last, out);
    return 0;
}
