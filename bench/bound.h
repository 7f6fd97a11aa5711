/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The bound beside each figure: what the AES round instructions and
 * SHA1RNDS4 alone cost on this CPU, measured at start-up by short loops
 * of nothing else (bound.c), and the c/B a row of the tables could reach
 * if those instructions were all it executed.  A row's "of bound" is
 * that c/B over the row's own: 1.00 means the code runs as fast as the
 * instructions it cannot do without.
 */
#ifndef BENCH_BOUND_H
#define BENCH_BOUND_H

#include "figures.h"
#include "impl.h"
#include "options.h"

/* What the loops measure, in TSC cycles per instruction. */
enum bound_kind {
    BOUND_AES_XMM,         /* aesenc on xmm, independent: throughput */
    BOUND_AES_YMM,         /* vaesenc on ymm (two blocks), throughput */
    BOUND_AES_ZMM,         /* vaesenc on zmm (four blocks), throughput */
    BOUND_AES_LATENCY,     /* aesenc xmm, each on the previous result */
    BOUND_SHA1,            /* sha1rnds4, independent: throughput */
    BOUND_SHA1_LATENCY,    /* sha1rnds4, each on the previous state */
    BOUND_CLOCK,           /* a dependent add: one core cycle */
    BOUND_KINDS
};

struct bounds {
    /* TSC cycles per instruction; NAN where this CPU (as OPENSSL_ia32cap
     * shows it) lacks the instruction. */
    double tsc[BOUND_KINDS];
};

/* Runs every loop the CPU has: each the minimum over repetitions. */
void bound_measure(struct bounds *b);

/* --bound-only: one line per loop, "bound NAME VALUE ..." or
 * "bound NAME - skipped: this CPU lacks ...". */
void bound_print(const struct bounds *b);

/* The header's one line of the measured figures. */
void bound_header(const struct bounds *b);

/* An AES entry's vector width by what it needs: BOUND_AES_ZMM (VAES and
 * AVX512F), BOUND_AES_YMM (VAES), BOUND_AES_XMM (AES-NI), or -1 (none). */
int bound_aes_width(const struct casm_aes_impl *impl);
/* Whether a SHA-1 entry needs SHA-NI; whether it needs SSSE3 (SIMD). */
int bound_sha1_shani(const struct casm_sha1_impl *impl);
int bound_sha1_simd(const struct casm_sha1_impl *impl);

/* The bound of a row in TSC cycles per byte; NAN when none applies. */
double bound_aes_cpb(const struct bounds *b, const struct casm_aes_impl *impl,
                     const struct bench_mode *m, int bits);
double bound_sha1_cpb(const struct bounds *b, const struct casm_sha1_impl *impl);
/* The same for a figure: our rows only (OpenSSL's code is its own). */
double bound_of_figure(const struct bounds *b, const struct figure *r);

#endif
