/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The figures: each travels from a measuring child to the parent as one
 * "R ..." line on the child's stdout; the parent keeps them in a
 * struct figures, from which the tables (table.h) and the CSV (csv.h) are
 * written.  A figure is the median cycles/byte of one path ("aesni", or
 * "openssl@aesni" for OpenSSL under aesni's mask, "openssl@table" for its
 * table path, "openssl" for SHA-1 with OPENSSL_ia32cap unset).
 */
#ifndef BENCH_FIGURES_H
#define BENCH_FIGURES_H

#include <stddef.h>

struct figure {
    char table[8], mode[16], path[64];
    int bits;
    size_t bytes, update;
    double cpb;
};

/* The figures the parent has kept, in arrival order. */
struct figures {
    struct figure *v;
    size_t n, cap;
};

/* Child side: one figure to stdout. */
void figures_emit(const char *table, const char *mode, int bits, size_t bytes,
                  size_t update, const char *path, double cpb);
/* Parent side: keeps the figure if line is one. */
void figures_take(struct figures *f, const char *line);
/* The figure of one path at one size; NAN when it was not measured. */
double figures_lookup(const struct figures *f, const char *table,
                      const char *mode, int bits, size_t bytes, size_t update,
                      const char *path);
void figures_free(struct figures *f);

#endif
