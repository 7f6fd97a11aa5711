/* SPDX-License-Identifier: Apache-2.0 */
/* What an unwind check did, for the 64-bit (abi_check.h) and 32-bit
 * (abi_cdecl.h) checkers alike. */
#ifndef SUPPORT_ABI_UNWIND_STATS_H
#define SUPPORT_ABI_UNWIND_STATS_H

struct unwind_stats {
    unsigned long steps;      /* instructions single-stepped inside fn */
    unsigned long unwinds;    /* unwinds checked (one per step) */
    unsigned long handled;    /* of those, through the function's exception
                                 handler (Win64 only; else 0) */
};

#endif
