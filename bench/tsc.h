/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The time stamp counter: reads fenced so the timed instructions stay
 * between them, and its rate against CLOCK_MONOTONIC.  The TSC runs at a
 * fixed rate, not the core clock, so "cycles" are TSC cycles.
 */
#ifndef BENCH_TSC_H
#define BENCH_TSC_H

#include <stdint.h>
#include <x86intrin.h>

static inline uint64_t tsc_start(void)
{
    _mm_lfence();
    uint64_t t = __rdtsc();
    _mm_lfence();
    return t;
}

static inline uint64_t tsc_stop(void)
{
    unsigned int aux;
    uint64_t t = __rdtscp(&aux);
    _mm_lfence();
    return t;
}

/* TSC ticks per second, counted over `seconds` of CLOCK_MONOTONIC. */
double tsc_hz(double seconds);

#endif
