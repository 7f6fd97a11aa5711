/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The lines that close the tables: one per family of implementations
 * (AES-NI xmm, VAES ymm, VAES zmm, table AES, C AES; SHA-NI, SHA-1 SIMD,
 * integer, C), each with the lowest ratio against OpenSSL and the lowest
 * fraction of the bound over every row the tables printed, and the row
 * each came from.  The tables feed it (table.c) as they print.
 */
#ifndef BENCH_SUMMARY_H
#define BENCH_SUMMARY_H

#include <stddef.h>

#include "impl.h"

#define SUMMARY_FAMILIES 10
#define SUMMARY_ROW_MAX 80

/* The lowest value seen, and the row it came from. */
struct summary_low {
    double v;                      /* NAN: nothing seen */
    char row[SUMMARY_ROW_MAX];
};

struct summary_family {
    const char *name;
    struct summary_low ratio, bound;
};

struct summary {
    struct summary_family f[SUMMARY_FAMILIES];
    size_t n;
};

/* The family an implementation's rows count towards. */
const char *summary_aes_family(const struct casm_aes_impl *impl);
const char *summary_sha1_family(const struct casm_sha1_impl *impl);

/* One row: its ratio and fraction of the bound (either may be NAN). */
void summary_add(struct summary *s, const char *family, double ratio,
                 double of_bound, const char *row);

/* The summary lines; nothing when no row was added. */
void summary_print(const struct summary *s, int have_ossl);

#endif
