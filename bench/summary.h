/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The lines that close the tables: one per family of implementations
 * (AES-NI xmm, VAES ymm, VAES zmm, table AES, C AES; SHA-NI, SHA-1 SIMD,
 * integer, C), each with the lowest ratio against the first OpenSSL and
 * the lowest fraction of the bound over every row the tables printed, and
 * the row each came from; then the same lowest ratio against the second
 * OpenSSL, when there is one, and with several stack placements the
 * lowest worst/median (the slowest placement's speed as a fraction of the
 * median's), one line per family each.  The tables feed it (table.c) as
 * they print.
 */
#ifndef BENCH_SUMMARY_H
#define BENCH_SUMMARY_H

#include <stddef.h>

#include "impl.h"
#include "options.h"
#include "reference.h"

#define SUMMARY_FAMILIES 10
#define SUMMARY_ROW_MAX 80

/* The lowest value seen, and the row it came from. */
struct summary_low {
    double v;                      /* NAN: nothing seen */
    char row[SUMMARY_ROW_MAX];
};

struct summary_family {
    const char *name;
    struct summary_low ratio[OPT_MAX_OPENSSL], bound, steadiness;
};

struct summary {
    struct summary_family f[SUMMARY_FAMILIES];
    size_t n;
};

/* The family an implementation's rows count towards. */
const char *summary_aes_family(const struct casm_aes_impl *impl);
const char *summary_sha1_family(const struct casm_sha1_impl *impl);

/* One row: its ratio against each OpenSSL, its fraction of the bound and
 * its worst/median (any may be NAN). */
void summary_add(struct summary *s, const char *family,
                 const double ratio[OPT_MAX_OPENSSL], double of_bound,
                 double steadiness, const char *row);

/* The summary lines; nothing when no row was added. */
void summary_print(const struct summary *s, const struct reference *refs,
                   int placements);

#endif
