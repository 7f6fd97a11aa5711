/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Constant-time AES core: no table lookups and no branches on secret data.
 *
 * The S-box is computed as FIPS-197 defines it, inversion in GF(2^8)
 * followed by the affine map, on eight bytes at once packed in a 64-bit
 * word ("SIMD within a register").  Inversion is x^254 by a fixed addition
 * chain of 4 multiplications and 7 squarings; squaring is linear in GF(2^8)
 * so it costs only shifts and masks.  Multiplying by constants uses the
 * integer multiplier on 0/1 bytes, which takes the same time for any value.
 */
#include "aes/aes_backend.h"

#define ONES 0x0101010101010101ULL
#define LOW7 0x7f7f7f7f7f7f7f7fULL

/* Multiply each byte by x (the polynomial 02). */
static inline uint64_t xtime8(uint64_t x)
{
    return ((x & LOW7) << 1) ^ (((x >> 7) & ONES) * 0x1b);
}

static inline uint64_t gf_mul8(uint64_t a, uint64_t b)
{
    uint64_t r = 0;
    for (int i = 0; i < 8; i++) {
        r ^= a & (((b >> i) & ONES) * 0xff);
        a = xtime8(a);
    }
    return r;
}

/* Squaring sends bit i to x^(2i) reduced mod x^8+x^4+x^3+x+1. */
static inline uint64_t gf_sq8(uint64_t x)
{
    static const uint8_t x2i[8] = { 0x01, 0x04, 0x10, 0x40,
                                    0x1b, 0x6c, 0xab, 0x9a };
    uint64_t r = 0;
    for (int i = 0; i < 8; i++)
        r ^= ((x >> i) & ONES) * x2i[i];
    return r;
}

/* x^254: the inverse for x != 0, and 0 for 0, as the S-box needs. */
static inline uint64_t gf_inv8(uint64_t x)
{
    uint64_t x2 = gf_sq8(x);
    uint64_t x3 = gf_mul8(x2, x);
    uint64_t x12 = gf_sq8(gf_sq8(x3));
    uint64_t x15 = gf_mul8(x12, x3);
    uint64_t x240 = gf_sq8(gf_sq8(gf_sq8(gf_sq8(x15))));
    uint64_t x252 = gf_mul8(x240, x12);
    return gf_mul8(x252, x2);
}

/* Rotate each byte left by n (1..7). */
static inline uint64_t rotl8(uint64_t x, unsigned n)
{
    uint64_t hi = ONES * ((0xffu << n) & 0xff);
    return ((x << n) & hi) | ((x >> (8 - n)) & ~hi);
}

static inline uint64_t sbox8(uint64_t x)
{
    uint64_t b = gf_inv8(x);
    return b ^ rotl8(b, 1) ^ rotl8(b, 2) ^ rotl8(b, 3) ^ rotl8(b, 4) ^
           ONES * 0x63;
}

static inline uint64_t inv_sbox8(uint64_t x)
{
    return gf_inv8(rotl8(x, 1) ^ rotl8(x, 3) ^ rotl8(x, 6) ^ ONES * 0x05);
}

static void sub_bytes(uint32_t s[4], uint64_t (*box)(uint64_t))
{
    uint64_t lo = box((uint64_t)s[0] | (uint64_t)s[1] << 32);
    uint64_t hi = box((uint64_t)s[2] | (uint64_t)s[3] << 32);
    s[0] = (uint32_t)lo;
    s[1] = (uint32_t)(lo >> 32);
    s[2] = (uint32_t)hi;
    s[3] = (uint32_t)(hi >> 32);
}

/* Row r of column j comes from column j+dir*r (dir 1: ShiftRows, 3: inverse). */
static void shift_rows(uint32_t s[4], int dir)
{
    uint32_t t[4];
    for (int j = 0; j < 4; j++)
        t[j] = (s[j] & 0x000000ff) |
               (s[(j + dir) & 3] & 0x0000ff00) |
               (s[(j + 2 * dir) & 3] & 0x00ff0000) |
               (s[(j + 3 * dir) & 3] & 0xff000000);
    for (int j = 0; j < 4; j++)
        s[j] = t[j];
}

static inline uint32_t mix_column(uint32_t x)
{
    /* out_r = 02·a_r ^ 03·a_{r+1} ^ a_{r+2} ^ a_{r+3} */
    uint32_t r1 = aes_rotr32(x, 8), r2 = aes_rotr32(x, 16),
             r3 = aes_rotr32(x, 24);
    return (uint32_t)xtime8(x ^ r1) ^ r1 ^ r2 ^ r3;
}

uint32_t aes_core_inv_mix_column(uint32_t x)
{
    /* InvMixColumns = MixColumns after multiplying by 04·y^2 + 05. */
    uint32_t u = (uint32_t)xtime8(xtime8(x ^ aes_rotr32(x, 16)));
    return mix_column(x ^ u);
}

uint32_t aes_core_sub_word(uint32_t w)
{
    return (uint32_t)sbox8(w);
}

static void load_state(uint32_t s[4], const unsigned char in[16],
                       const uint32_t *rk)
{
    for (int j = 0; j < 4; j++)
        s[j] = aes_load_le32(in + 4 * j) ^ rk[j];
}

static void store_state(unsigned char out[16], const uint32_t s[4],
                        const uint32_t *rk)
{
    for (int j = 0; j < 4; j++)
        aes_store_le32(out + 4 * j, s[j] ^ rk[j]);
}

void aes_core_encrypt_block(const unsigned char in[16], unsigned char out[16],
                            const uint32_t *rk, int rounds)
{
    uint32_t s[4];
    load_state(s, in, rk);
    for (int r = 1; r < rounds; r++) {
        sub_bytes(s, sbox8);
        shift_rows(s, 1);
        rk += 4;
        for (int j = 0; j < 4; j++)
            s[j] = mix_column(s[j]) ^ rk[j];
    }
    sub_bytes(s, sbox8);
    shift_rows(s, 1);
    store_state(out, s, rk + 4);
}

void aes_core_decrypt_block(const unsigned char in[16], unsigned char out[16],
                            const uint32_t *rk, int rounds)
{
    uint32_t s[4];
    load_state(s, in, rk);
    for (int r = 1; r < rounds; r++) {
        sub_bytes(s, inv_sbox8);
        shift_rows(s, 3);
        rk += 4;
        for (int j = 0; j < 4; j++)
            s[j] = aes_core_inv_mix_column(s[j]) ^ rk[j];
    }
    sub_bytes(s, inv_sbox8);
    shift_rows(s, 3);
    store_state(out, s, rk + 4);
}
