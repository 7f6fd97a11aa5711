/* SPDX-License-Identifier: Apache-2.0 */
/*
 * LRW over any 128-bit block function, as Linux dm-crypt's "lrw" mode.
 *
 * GF(2^128) elements are 16 big-endian bytes: byte 0's top bit is the
 * coefficient of x^127 (Linux calls this "bbe"), reduced by
 * x^128 + x^7 + x^2 + x + 1.  Going from index I to I+1 flips the low
 * t+1 bits of I, where t counts I's trailing one bits, so
 * T(I+1) = T(I) ^ K2·(2^(t+1) - 1): a table of 128 products makes each
 * step one XOR (the same idea as Linux's lrw.c).
 */
#include <openssl/modes.h>

#include "modes/block_util.h"

typedef struct { uint64_t hi, lo; } gf128;

static gf128 gf128_load(const unsigned char b[16])
{
    gf128 v = { 0, 0 };
    for (int i = 0; i < 8; i++) {
        v.hi = v.hi << 8 | b[i];
        v.lo = v.lo << 8 | b[8 + i];
    }
    return v;
}

static void gf128_store(unsigned char b[16], gf128 v)
{
    for (int i = 7; i >= 0; i--) {
        b[i] = (unsigned char)v.hi;
        b[8 + i] = (unsigned char)v.lo;
        v.hi >>= 8;
        v.lo >>= 8;
    }
}

/* v·x, branch-free because K2 is secret. */
static gf128 gf128_times_x(gf128 v)
{
    uint64_t carry = v.hi >> 63;
    v.hi = v.hi << 1 | v.lo >> 63;
    v.lo = v.lo << 1 ^ (0x87 & -carry);
    return v;
}

void CRYPTO_lrw128_init(LRW128_TWEAK *tweak, const unsigned char k2[16])
{
    gf128 k = gf128_load(k2), step = k;

    memcpy(tweak->k2, k2, 16);
    /* K2·(2^(k+1)-1) = x·(K2·(2^k-1)) ^ K2 */
    for (int i = 0; i < 128; i++) {
        gf128_store(tweak->step[i], step);
        step = gf128_times_x(step);
        step.hi ^= k.hi;
        step.lo ^= k.lo;
    }
}

/* Trailing one bits of the big-endian index, capped at 127 (all ones
 * wraps to zero, which flips all 128 bits: the same table entry). */
static unsigned int trailing_ones(const unsigned char index[16])
{
    unsigned int t = 0;
    for (int i = 15; i >= 0; i--) {
        unsigned int b = index[i];
        while (b & 1) {
            t++;
            b >>= 1;
        }
        if (t != 8u * (unsigned int)(16 - i))
            break;
    }
    return t > 127 ? 127 : t;
}

/*
 * The first tweak of a call, K2·I, from the step table: K2·x^k is
 * step[k] ^ step[k-1], so K2·I = sum over k of i_k·(step[k] ^ step[k-1])
 * = sum over k of step[k]·(i_k ^ i_(k+1)), one masked XOR of a table
 * entry per bit of c = I ^ (I >> 1).  A shift-and-add multiply took 128
 * steps of 128-bit shifts, thousands of instructions a call in a 32-bit
 * build (a whole 512-byte sector is now 9613).  Branch-free in I, as the
 * multiply was.
 */
static void first_tweak(const LRW128_TWEAK *tweak,
                        const unsigned char index[16], unsigned char t[16])
{
    enum { WORDS = 16 / sizeof(unsigned long) };
    unsigned long acc[WORDS] = { 0 };

    for (int byte = 15; byte >= 0; byte--) {     /* bits 0-7 first */
        unsigned int x = index[byte], above = byte > 0 ? index[byte - 1] : 0;
        unsigned int c = (x ^ x >> 1 ^ above << 7) & 0xff;

        for (int bit = 0; bit < 8; bit++) {
            const unsigned char *step = tweak->step[8 * (15 - byte) + bit];
            unsigned long mask = 0ul - (c >> bit & 1u);

            for (int j = 0; j < WORDS; j++) {
                unsigned long w;

                memcpy(&w, step + j * sizeof w, sizeof w);
                acc[j] ^= w & mask;
            }
        }
    }
    memcpy(t, acc, 16);
}

int CRYPTO_lrw128_encrypt(const LRW128_TWEAK *tweak, const void *key1,
                          block128_f block1, const unsigned char index[16],
                          const unsigned char *inp, unsigned char *out,
                          size_t len)
{
    unsigned char i_cur[16], t[16], buf[16];

    if (len % 16 != 0)
        return -1;
    if (len == 0)
        return 0;

    memcpy(i_cur, index, 16);
    first_tweak(tweak, i_cur, t);
    for (size_t done = 0; done < len; done += 16) {
        xor_bytes(buf, inp + done, t, 16);
        block1(buf, buf, key1);
        xor_bytes(out + done, buf, t, 16);

        xor_bytes(t, t, tweak->step[trailing_ones(i_cur)], 16);
        be_increment(i_cur, 16);
    }
    return 0;
}

/*
 * Tweaks for up to LRW_CHUNK blocks at a time, so a parallel ECB (AES-NI
 * interleaves 8 blocks) does the cipher work: XOR in, ECB, XOR out.
 */
#define LRW_CHUNK 32

int CRYPTO_lrw128_encrypt_ecb(const LRW128_TWEAK *tweak, const void *key1,
                              ecb128_f ecb, int enc,
                              const unsigned char index[16],
                              const unsigned char *inp, unsigned char *out,
                              size_t len)
{
    unsigned char i_cur[16], t[16];
    unsigned char tweaks[LRW_CHUNK][16], buf[LRW_CHUNK * 16];

    if (len % 16 != 0)
        return -1;
    if (len == 0)
        return 0;

    memcpy(i_cur, index, 16);
    first_tweak(tweak, i_cur, t);
    while (len > 0) {
        size_t n = len / 16 < LRW_CHUNK ? len / 16 : LRW_CHUNK;
        for (size_t j = 0; j < n; j++) {
            memcpy(tweaks[j], t, 16);
            xor_bytes(buf + 16 * j, inp + 16 * j, t, 16);
            xor_bytes(t, t, tweak->step[trailing_ones(i_cur)], 16);
            be_increment(i_cur, 16);
        }
        ecb(buf, buf, 16 * n, key1, enc);
        for (size_t j = 0; j < n; j++)
            xor_bytes(out + 16 * j, buf + 16 * j, tweaks[j], 16);
        inp += 16 * n;
        out += 16 * n;
        len -= 16 * n;
    }
    return 0;
}
