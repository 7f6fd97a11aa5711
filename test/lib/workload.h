/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the random-workload programs share (test/aes586/aes586_diff.c,
 * test/aesni86/aesni86_diff.c), whose 32-bit and 64-bit builds must draw
 * the same cases: a platform-independent generator, a failure tally
 * that remembers the first failing case, and the report of both.
 */
#ifndef TEST_LIB_WORKLOAD_H
#define TEST_LIB_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tap.h"

static uint64_t rng_state;

static inline uint32_t rnd(void)
{
    /* xorshift64*: the same sequence on every platform */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1Dull) >> 32);
}

static inline void fill(unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)rnd();
}

struct check {
    const char *what;
    long fails, first;
};

static inline void note(struct check *c, int ok, long n)
{
    if (!ok && c->fails++ == 0)
        c->first = n;
}

/* One TAP line per check over all cases, then the SHA-1 of every output
 * (the same in the 32-bit and the 64-bit build's runs). */
static inline void workload_report(struct check *const *all, size_t n, long cases,
                                   const unsigned char md[20])
{
    for (size_t i = 0; i < n; i++)
        if (!tap_ok(all[i]->fails == 0, "%ld cases: %s", cases, all[i]->what))
            tap_diag("%ld cases differ, the first is case %ld", all[i]->fails, all[i]->first);
    char hex[2 * 20 + 1];
    for (size_t i = 0; i < 20; i++)
        snprintf(hex + 2 * i, 3, "%02x", md[i]);
    tap_diag("digest %s", hex);
}

#endif
