/* SPDX-License-Identifier: Apache-2.0 */
/* Small helpers shared by the mode implementations (internal). */
#ifndef PERLASM_X86_BLOCK_UTIL_H
#define PERLASM_X86_BLOCK_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * OpenSSL's block128_f (const void *key) over an AES_KEY entry point: a
 * typed wrapper, one tail call, named fn_block128.
 */
#define BLOCK128_OF(fn) \
    static void fn##_block128(const unsigned char in[16], \
                              unsigned char out[16], const void *key) \
    { \
        fn(in, out, key); \
    }

/*
 * dst = a ^ b over n bytes; dst may be a or b.  A machine word at a time
 * (memcpy: no alignment asked): i386 compilers do not vectorize the byte
 * loop, and byte XORs were most of a 32-bit LRW sector's instructions.
 */
static inline void xor_bytes(unsigned char *dst, const unsigned char *a,
                             const unsigned char *b, size_t n)
{
    size_t i = 0;

    for (; i + sizeof(unsigned long) <= n; i += sizeof(unsigned long)) {
        unsigned long x, y;

        memcpy(&x, a + i, sizeof x);
        memcpy(&y, b + i, sizeof y);
        x ^= y;
        memcpy(dst + i, &x, sizeof x);
    }
    for (; i < n; i++)
        dst[i] = a[i] ^ b[i];
}

static inline uint32_t load_be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
           (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static inline void store_be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

/* Add 1 to the big-endian number in p[0..n-1], wrapping to 0. */
static inline void be_increment(unsigned char *p, size_t n)
{
    while (n-- > 0)
        if (++p[n] != 0)
            break;
}

#endif
