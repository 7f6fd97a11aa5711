/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SHA-1 compression function in portable C (FIPS 180-4 §6.1.2): the
 * reference every assembly variant is checked against.  The message
 * schedule lives in a 16-word ring, W[t] = rotl1(W[t-3]^W[t-8]^W[t-14]^W[t-16]).
 */
#include <openssl/sha.h>

#include "impl.h"

static inline uint32_t rotl32(uint32_t x, unsigned n)
{
    return (x << n) | (x >> (32 - n));
}

static inline uint32_t load_be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
           (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

void sha1_block_data_order_c(SHA_CTX *c, const void *p, size_t nblocks)
{
    const unsigned char *data = p;

    for (; nblocks > 0; nblocks--, data += 64) {
        uint32_t w[16];
        uint32_t a = c->h0, b = c->h1, d = c->h3, e = c->h4, cc = c->h2;

        for (int t = 0; t < 16; t++)
            w[t] = load_be32(data + 4 * t);

        for (int t = 0; t < 80; t++) {
            uint32_t f, k;
            if (t >= 16)
                w[t & 15] = rotl32(w[(t - 3) & 15] ^ w[(t - 8) & 15] ^
                                   w[(t - 14) & 15] ^ w[t & 15], 1);
            if (t < 20) {
                f = (b & cc) | (~b & d);          /* Ch */
                k = 0x5a827999;
            } else if (t < 40) {
                f = b ^ cc ^ d;                   /* Parity */
                k = 0x6ed9eba1;
            } else if (t < 60) {
                f = (b & cc) | (b & d) | (cc & d); /* Maj */
                k = 0x8f1bbcdc;
            } else {
                f = b ^ cc ^ d;
                k = 0xca62c1d6;
            }
            uint32_t tmp = rotl32(a, 5) + f + e + k + w[t & 15];
            e = d;
            d = cc;
            cc = rotl32(b, 30);
            b = a;
            a = tmp;
        }
        c->h0 += a;
        c->h1 += b;
        c->h2 += cc;
        c->h3 += d;
        c->h4 += e;
    }
}
