/* SPDX-License-Identifier: Apache-2.0 */
/* What the 64-bit (abi_check.h) and 32-bit (abi_cdecl.h) checker
 * interfaces share; the definitions are abi_core.h's. */
#ifndef SUPPORT_ABI_ABI_COMMON_H
#define SUPPORT_ABI_ABI_COMMON_H

#include <stdint.h>

/* What an unwind check did. */
struct unwind_stats {
    unsigned long steps;      /* instructions single-stepped inside fn */
    unsigned long unwinds;    /* unwinds checked (one per step) */
    unsigned long handled;    /* of those, through the function's exception
                                 handler (Win64 only; else 0) */
};

/* Seeds the generator of the random register and unused-argument values
 * (default: a fixed seed, so failures are reproducible). */
void abi_set_seed(uint64_t seed);
/* Most instructions an unwind check steps inside fn (and its callees)
 * before it fails; the default suits the end (native, wine, qemu). */
void unwind_set_step_limit(unsigned long max_steps);

#endif
