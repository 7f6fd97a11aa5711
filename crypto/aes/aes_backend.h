/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The four primitives a C AES core supplies to aes_core.c (internal).
 * Two cores exist, chosen at build time (Makefile AES_CORE):
 *   aes_table.c  T-tables: fast, but table lookups indexed by secret bytes
 *                leak through cache timing.
 *   aes_ct.c     constant time: S-box computed arithmetically, no secret-
 *                dependent loads or branches; much slower.
 * Round keys are little-endian column words: rd_key[4r+j] holds column j
 * of round key r with row 0 in the low byte.
 */
#ifndef PERLASM_X86_AES_BACKEND_H
#define PERLASM_X86_AES_BACKEND_H

#include <stdint.h>

/* S-box applied to each byte of w. */
uint32_t aes_core_sub_word(uint32_t w);
/* InvMixColumns of one column, for the equivalent inverse cipher's keys. */
uint32_t aes_core_inv_mix_column(uint32_t w);
void aes_core_encrypt_block(const unsigned char in[16], unsigned char out[16],
                            const uint32_t *rk, int rounds);
/* rk: the decryption schedule made by AES_set_decrypt_key. */
void aes_core_decrypt_block(const unsigned char in[16], unsigned char out[16],
                            const uint32_t *rk, int rounds);

static inline uint32_t aes_load_le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static inline void aes_store_le32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

static inline uint32_t aes_rotr32(uint32_t w, unsigned n)
{
    return (w >> n) | (w << (32 - n));
}

#endif
