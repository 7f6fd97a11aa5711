/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The printed tables, one per selected mode: c/B and MB/s of ours (with
 * several stack placements, the median's and the worst placement's c/B)
 * and, per OpenSSL library loaded, a column group labelled with its
 * version: its c/B and MB/s on the same path and the ratio; last, the
 * fraction of the bound (bound.h) our row reaches.  Each row also goes to
 * the summary (summary.h) printed after the last table.
 */
#ifndef BENCH_TABLE_H
#define BENCH_TABLE_H

#include <stddef.h>

#include "bound.h"
#include "figures.h"
#include "impl.h"
#include "options.h"
#include "reference.h"
#include "summary.h"

/* An AES implementation's columns; table_column adds OpenSSL's table path. */
struct aes_group {
    const struct casm_aes_impl *impl;
    int table_column;
};

/* What every table needs to know about the run. */
struct table_run {
    const struct bench_options *o;
    double tsc_mhz;                /* MB/s = tsc_mhz / cycles per byte */
    const struct reference *refs;  /* the OpenSSL libraries (n 0: none) */
    const struct figures *figs;
    const struct bounds *bounds;
    struct summary *summary;       /* every printed row is added */
};

void table_aes(const struct table_run *r, const struct bench_mode *m,
               const struct aes_group *g, size_t ng);
void table_sha1(const struct table_run *r, const struct bench_mode *m,
                const struct casm_sha1_impl *const *impls, size_t n);

#endif
