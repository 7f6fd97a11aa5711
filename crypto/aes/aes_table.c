/* SPDX-License-Identifier: Apache-2.0 */
/*
 * T-table AES core: each round is 16 lookups into four 1 KiB tables that
 * combine SubBytes, ShiftRows and MixColumns (Daemen and Rijmen, "AES
 * Proposal: Rijndael", §5.2.1).  Fast, and the classic cache-timing
 * exposure: which table lines are touched depends on key and data.
 */
#include "aes/aes_backend.h"
#include "aes_tables.h"

#define B0(w) ((w) & 0xff)
#define B1(w) (((w) >> 8) & 0xff)
#define B2(w) (((w) >> 16) & 0xff)
#define B3(w) ((w) >> 24)

uint32_t aes_core_sub_word(uint32_t w)
{
    return (uint32_t)aes_sbox[B0(w)] | (uint32_t)aes_sbox[B1(w)] << 8 |
           (uint32_t)aes_sbox[B2(w)] << 16 | (uint32_t)aes_sbox[B3(w)] << 24;
}

uint32_t aes_core_inv_mix_column(uint32_t w)
{
    /* aes_td applies S⁻¹ first, so feed it S[b] to get InvMixColumns alone. */
    return aes_td[0][aes_sbox[B0(w)]] ^ aes_td[1][aes_sbox[B1(w)]] ^
           aes_td[2][aes_sbox[B2(w)]] ^ aes_td[3][aes_sbox[B3(w)]];
}

void aes_core_encrypt_block(const unsigned char in[16], unsigned char out[16],
                            const uint32_t *rk, int rounds)
{
    uint32_t s0 = aes_load_le32(in) ^ rk[0];
    uint32_t s1 = aes_load_le32(in + 4) ^ rk[1];
    uint32_t s2 = aes_load_le32(in + 8) ^ rk[2];
    uint32_t s3 = aes_load_le32(in + 12) ^ rk[3];

    /* ShiftRows: output column j takes row r from input column j+r. */
    for (int r = 1; r < rounds; r++) {
        rk += 4;
        uint32_t t0 = aes_te[0][B0(s0)] ^ aes_te[1][B1(s1)] ^
                      aes_te[2][B2(s2)] ^ aes_te[3][B3(s3)] ^ rk[0];
        uint32_t t1 = aes_te[0][B0(s1)] ^ aes_te[1][B1(s2)] ^
                      aes_te[2][B2(s3)] ^ aes_te[3][B3(s0)] ^ rk[1];
        uint32_t t2 = aes_te[0][B0(s2)] ^ aes_te[1][B1(s3)] ^
                      aes_te[2][B2(s0)] ^ aes_te[3][B3(s1)] ^ rk[2];
        uint32_t t3 = aes_te[0][B0(s3)] ^ aes_te[1][B1(s0)] ^
                      aes_te[2][B2(s1)] ^ aes_te[3][B3(s2)] ^ rk[3];
        s0 = t0; s1 = t1; s2 = t2; s3 = t3;
    }
    rk += 4;
#define LAST(a, b, c, d) ((uint32_t)aes_sbox[B0(a)] | \
                          (uint32_t)aes_sbox[B1(b)] << 8 | \
                          (uint32_t)aes_sbox[B2(c)] << 16 | \
                          (uint32_t)aes_sbox[B3(d)] << 24)
    aes_store_le32(out, LAST(s0, s1, s2, s3) ^ rk[0]);
    aes_store_le32(out + 4, LAST(s1, s2, s3, s0) ^ rk[1]);
    aes_store_le32(out + 8, LAST(s2, s3, s0, s1) ^ rk[2]);
    aes_store_le32(out + 12, LAST(s3, s0, s1, s2) ^ rk[3]);
#undef LAST
}

void aes_core_decrypt_block(const unsigned char in[16], unsigned char out[16],
                            const uint32_t *rk, int rounds)
{
    uint32_t s0 = aes_load_le32(in) ^ rk[0];
    uint32_t s1 = aes_load_le32(in + 4) ^ rk[1];
    uint32_t s2 = aes_load_le32(in + 8) ^ rk[2];
    uint32_t s3 = aes_load_le32(in + 12) ^ rk[3];

    /* InvShiftRows: output column j takes row r from input column j-r. */
    for (int r = 1; r < rounds; r++) {
        rk += 4;
        uint32_t t0 = aes_td[0][B0(s0)] ^ aes_td[1][B1(s3)] ^
                      aes_td[2][B2(s2)] ^ aes_td[3][B3(s1)] ^ rk[0];
        uint32_t t1 = aes_td[0][B0(s1)] ^ aes_td[1][B1(s0)] ^
                      aes_td[2][B2(s3)] ^ aes_td[3][B3(s2)] ^ rk[1];
        uint32_t t2 = aes_td[0][B0(s2)] ^ aes_td[1][B1(s1)] ^
                      aes_td[2][B2(s0)] ^ aes_td[3][B3(s3)] ^ rk[2];
        uint32_t t3 = aes_td[0][B0(s3)] ^ aes_td[1][B1(s2)] ^
                      aes_td[2][B2(s1)] ^ aes_td[3][B3(s0)] ^ rk[3];
        s0 = t0; s1 = t1; s2 = t2; s3 = t3;
    }
    rk += 4;
#define LAST(a, b, c, d) ((uint32_t)aes_inv_sbox[B0(a)] | \
                          (uint32_t)aes_inv_sbox[B1(b)] << 8 | \
                          (uint32_t)aes_inv_sbox[B2(c)] << 16 | \
                          (uint32_t)aes_inv_sbox[B3(d)] << 24)
    aes_store_le32(out, LAST(s0, s3, s2, s1) ^ rk[0]);
    aes_store_le32(out + 4, LAST(s1, s0, s3, s2) ^ rk[1]);
    aes_store_le32(out + 8, LAST(s2, s1, s0, s3) ^ rk[2]);
    aes_store_le32(out + 12, LAST(s3, s2, s1, s0) ^ rk[3]);
#undef LAST
}
