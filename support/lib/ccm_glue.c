/* SPDX-License-Identifier: Apache-2.0 */
#include "ccm_glue.h"

#include <string.h>

static int params_ok(size_t nlen, size_t tlen, size_t len)
{
    if (nlen < 7 || nlen > 13 || tlen < 4 || tlen > 16 || (tlen & 1))
        return 0;
    size_t q = 15 - nlen;           /* bytes of the length and the counter */
    return q >= sizeof(size_t) || (len >> (8 * q)) == 0;
}

/* flags || nonce || value as a big-endian number in the remaining bytes:
 * B0 (value = len) or the counter block A_i (value = i). */
static void format_block(uint8_t b[16], uint8_t flags, const uint8_t *nonce,
                         size_t nlen, uint64_t value)
{
    b[0] = flags;
    memcpy(b + 1, nonce, nlen);
    for (size_t i = 15; i > nlen; i--, value >>= 8)
        b[i] = (uint8_t)value;
}

/* The 64-bit big-endian add on bytes 8..15 that the bulk functions do. */
static void ctr64_add(uint8_t ctr[16], uint64_t n)
{
    uint64_t v = 0;
    for (int i = 8; i < 16; i++)
        v = v << 8 | ctr[i];
    v += n;
    for (int i = 15; i >= 8; i--, v >>= 8)
        ctr[i] = (uint8_t)v;
}

/* cmac = E(B0), then the AAD behind its length encoding (SP 800-38C
 * A.2.2), zero-padded to whole blocks. */
static void mac_header(const struct ccm_glue *g, uint8_t cmac[16],
                       const uint8_t *nonce, size_t nlen, const uint8_t *aad,
                       size_t alen, size_t len, size_t tlen)
{
    uint8_t b0[16], hdr[10];
    size_t h = 0, pos = 0;
    uint8_t flags = (uint8_t)((alen ? 0x40 : 0) | ((tlen - 2) / 2) << 3 | (14 - nlen));

    format_block(b0, flags, nonce, nlen, len);
    g->block(b0, cmac, g->key);
    if (alen == 0)
        return;
    uint64_t a = alen;
    int bytes = 2;
    if (a >= 0xff00 && (a >> 32) == 0) {
        hdr[h++] = 0xff, hdr[h++] = 0xfe, bytes = 4;
    } else if (a >= 0xff00) {
        hdr[h++] = 0xff, hdr[h++] = 0xff, bytes = 8;
    }
    for (int i = bytes - 1; i >= 0; i--)
        hdr[h++] = (uint8_t)(a >> (8 * i));
    for (size_t i = 0; i < h; i++)
        cmac[pos++] ^= hdr[i];
    for (; alen > 0; alen--) {
        cmac[pos++] ^= *aad++;
        if (pos == 16) {
            g->block(cmac, cmac, g->key);
            pos = 0;
        }
    }
    if (pos > 0)
        g->block(cmac, cmac, g->key);
}

/* The payload: CTR from A_1 and the CBC-MAC over the plaintext. */
static void payload(const struct ccm_glue *g, uint8_t ctr[16], uint8_t cmac[16],
                    const uint8_t *in, uint8_t *out, size_t len, int enc)
{
    ccm128_f stream = enc ? g->enc_stream : g->dec_stream;
    uint8_t ks[16], p[16];
    size_t blocks = len / 16;

    if (stream != NULL && blocks > 0) {
        stream(in, out, blocks, g->key, ctr, cmac);
        ctr64_add(ctr, blocks);
        in += 16 * blocks;
        out += 16 * blocks;
        len -= 16 * blocks;
    }
    while (len > 0) {
        size_t n = len < 16 ? len : 16;
        g->block(ctr, ks, g->key);
        ctr64_add(ctr, 1);
        for (size_t i = 0; i < n; i++)
            p[i] = enc ? in[i] : in[i] ^ ks[i];
        for (size_t i = 0; i < n; i++) {
            out[i] = p[i] ^ (enc ? ks[i] : 0);
            cmac[i] ^= p[i];
        }
        g->block(cmac, cmac, g->key);
        in += n;
        out += n;
        len -= n;
    }
}

/* Runs the mode; leaves the full 16-byte tag in tag16. */
static void ccm_run(const struct ccm_glue *g, const uint8_t *nonce,
                    size_t nlen, const uint8_t *aad, size_t alen,
                    const uint8_t *in, uint8_t *out, size_t len, size_t tlen,
                    int enc, uint8_t tag16[16])
{
    uint8_t cmac[16], ctr[16], s0[16];
    mac_header(g, cmac, nonce, nlen, aad, alen, len, tlen);
    format_block(ctr, (uint8_t)(14 - nlen), nonce, nlen, 1);
    payload(g, ctr, cmac, in, out, len, enc);
    format_block(ctr, (uint8_t)(14 - nlen), nonce, nlen, 0);
    g->block(ctr, s0, g->key);
    for (int i = 0; i < 16; i++)
        tag16[i] = cmac[i] ^ s0[i];
}

int ccm_seal(const struct ccm_glue *g, const uint8_t *nonce, size_t nlen,
             const uint8_t *aad, size_t alen, const uint8_t *in,
             uint8_t *out, size_t len, uint8_t *tag, size_t tlen)
{
    uint8_t t[16];
    if (!params_ok(nlen, tlen, len))
        return CCM_BAD_ARGS;
    ccm_run(g, nonce, nlen, aad, alen, in, out, len, tlen, 1, t);
    memcpy(tag, t, tlen);
    return 0;
}

int ccm_open(const struct ccm_glue *g, const uint8_t *nonce, size_t nlen,
             const uint8_t *aad, size_t alen, const uint8_t *in,
             uint8_t *out, size_t len, const uint8_t *tag, size_t tlen)
{
    uint8_t t[16], diff = 0;
    if (!params_ok(nlen, tlen, len))
        return CCM_BAD_ARGS;
    ccm_run(g, nonce, nlen, aad, alen, in, out, len, tlen, 0, t);
    for (size_t i = 0; i < tlen; i++)
        diff |= (uint8_t)(t[i] ^ tag[i]);
    if (diff != 0) {
        memset(out, 0, len);
        return CCM_BAD_TAG;
    }
    return 0;
}
