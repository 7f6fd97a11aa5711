/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The results: each figure travels from a measuring child to the parent as
 * one "R ..." line; the parent keeps them, prints the tables and writes
 * the CSV.  A figure is the median cycles/byte of one path ("aesni", or
 * "openssl@aesni" for OpenSSL under aesni's mask, "openssl@table" for its
 * table path, "openssl" for SHA-1 with OPENSSL_ia32cap unset).
 */
#ifndef BENCH_REPORT_H
#define BENCH_REPORT_H

#include <stddef.h>

#include "impl.h"
#include "options.h"

/* Child side: one figure to stdout. */
void report_emit(const char *table, const char *mode, int bits, size_t bytes,
                 size_t update, const char *path, double cpb);
/* Parent side: keeps the figure if line is one. */
void report_take(const char *line);

/* An AES implementation's columns; table_column adds OpenSSL's table path. */
struct aes_group {
    const struct casm_aes_impl *impl;
    int table_column;
};

/* What every table needs to know about the run. */
struct report_run {
    const struct bench_options *o;
    double tsc_mhz;                /* MB/s = tsc_mhz / cycles per byte */
    int have_ossl;
};

void report_aes_table(const struct report_run *r, const struct bench_mode *m,
                      const struct aes_group *g, size_t ng);
void report_sha1_table(const struct report_run *r, const struct bench_mode *m,
                       const struct casm_sha1_impl *const *impls, size_t n);

/*
 * CSV: each --csv file is created (as a temporary beside it) before any
 * measuring, so a bad path fails at once (exit 2); report_csv_commit()
 * writes and renames them.  An exit or a signal before that removes them.
 */
void report_csv_open(const struct bench_options *o);
void report_csv_commit(double tsc_mhz);
/* Number of figures kept so far. */
size_t report_count(void);

#endif
