/* SPDX-License-Identifier: Apache-2.0 */
#include "ocb_mode.h"

#include <string.h>

#include "ocb_model.h"

/* RFC 7253 section 2: double(S) = S << 1, xor 0x87 if a bit fell out. */
static void ocb_double(const unsigned char in[16], unsigned char out[16])
{
    unsigned char carry = in[0] >> 7;
    for (int k = 0; k < 15; k++)
        out[k] = (unsigned char)(in[k] << 1 | in[k + 1] >> 7);
    out[15] = (unsigned char)(in[15] << 1 ^ (carry ? 0x87 : 0));
}

static void xor16(unsigned char *acc, const unsigned char *x)
{
    for (int k = 0; k < 16; k++)
        acc[k] ^= x[k];
}

/* The partial last block padded as RFC 7253 does: X || 1 || zeros. */
static void pad10(unsigned char out[16], const unsigned char *x, size_t n)
{
    memset(out, 0, 16);
    memcpy(out, x, n);
    out[n] = 0x80;
}

void ocb_mode_init(struct ocb_mode *o, const void *ekey, const void *dkey,
                   block128_f encrypt, block128_f decrypt,
                   ocb128_f bulk_enc, ocb128_f bulk_dec)
{
    memset(o, 0, sizeof(*o));
    o->ekey = ekey;
    o->dkey = dkey;
    o->encrypt = encrypt;
    o->decrypt = decrypt;
    o->bulk_enc = bulk_enc;
    o->bulk_dec = bulk_dec;
    encrypt(o->l_star, o->l_star, ekey);          /* L_* = E(zeros) */
    ocb_double(o->l_star, o->l_dollar);
    ocb_double(o->l_dollar, o->l[0]);
    for (int i = 1; i < OCB_MODE_L; i++)
        ocb_double(o->l[i - 1], o->l[i]);
}

/* RFC 7253 section 4.2, the nonce-dependent Offset_0. */
int ocb_mode_setiv(struct ocb_mode *o, const unsigned char *nonce,
                   size_t len, size_t taglen)
{
    unsigned char n[16] = { 0 }, ktop[16], stretch[24];
    if (len < 1 || len > 15 || taglen < 1 || taglen > 16)
        return -1;
    n[0] = (unsigned char)((taglen * 8 % 128) << 1);
    memcpy(n + 16 - len, nonce, len);
    n[15 - len] |= 1;
    unsigned bottom = n[15] & 0x3f;
    n[15] &= 0xc0;
    o->encrypt(n, ktop, o->ekey);
    memcpy(stretch, ktop, 16);
    for (int k = 0; k < 8; k++)
        stretch[16 + k] = ktop[k] ^ ktop[k + 1];
    unsigned byte = bottom / 8, bit = bottom % 8;
    for (int k = 0; k < 16; k++)
        o->offset[k] = bit == 0 ? stretch[byte + k]
                                : (unsigned char)(stretch[byte + k] << bit |
                                                  stretch[byte + k + 1] >> (8 - bit));
    memset(o->checksum, 0, 16);
    memset(o->aad_offset, 0, 16);
    memset(o->aad_sum, 0, 16);
    o->blocks = o->aad_blocks = 0;
    return 0;
}

/* RFC 7253 section 4.1, HASH(K, A), one call at a time. */
void ocb_mode_aad(struct ocb_mode *o, const unsigned char *aad, size_t len)
{
    unsigned char x[16];
    for (; len >= 16; len -= 16, aad += 16) {
        xor16(o->aad_offset, o->l[__builtin_ctzll(++o->aad_blocks)]);
        memcpy(x, aad, 16);
        xor16(x, o->aad_offset);
        o->encrypt(x, x, o->ekey);
        xor16(o->aad_sum, x);
    }
    if (len > 0) {
        xor16(o->aad_offset, o->l_star);
        pad10(x, aad, len);
        xor16(x, o->aad_offset);
        o->encrypt(x, x, o->ekey);
        xor16(o->aad_sum, x);
    }
}

void ocb_mode_crypt(struct ocb_mode *o, const unsigned char *in,
                    unsigned char *out, size_t len, int enc)
{
    size_t nb = len / 16, rest = len % 16;
    ocb128_f bulk = enc ? o->bulk_enc : o->bulk_dec;
    const void *key = enc ? o->ekey : o->dkey;
    if (nb > 0 && bulk != NULL)
        bulk(in, out, nb, key, (size_t)o->blocks + 1, o->offset,
             (const unsigned char (*)[16])o->l, o->checksum);
    else if (nb > 0)
        ocb_model_bulk(in, out, nb, key, enc ? o->encrypt : o->decrypt, enc,
                       (size_t)o->blocks + 1, o->offset,
                       (const unsigned char (*)[16])o->l, o->checksum);
    o->blocks += nb;
    in += 16 * nb;
    out += 16 * nb;
    if (rest > 0) {
        unsigned char pad[16], p[16];
        xor16(o->offset, o->l_star);              /* Offset_* */
        o->encrypt(o->offset, pad, o->ekey);
        if (enc)                                  /* before in == out changes */
            pad10(p, in, rest);
        for (size_t k = 0; k < rest; k++)
            out[k] = in[k] ^ pad[k];
        if (!enc)
            pad10(p, out, rest);
        xor16(o->checksum, p);
    }
}

/* Tag = E(Checksum ^ Offset ^ L_$) ^ HASH(K, A). */
void ocb_mode_tag(struct ocb_mode *o, unsigned char *tag, size_t taglen)
{
    unsigned char x[16];
    memcpy(x, o->checksum, 16);
    xor16(x, o->offset);
    xor16(x, o->l_dollar);
    o->encrypt(x, x, o->ekey);
    xor16(x, o->aad_sum);
    memcpy(tag, x, taglen > 16 ? 16 : taglen);
}
