/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The figures: each travels from a measuring child to the parent as one
 * "R ..." line on the child's stdout; the parent keeps them in a
 * struct figures, from which the tables (table.h) and the CSV (csv.h) are
 * written.  A figure is the cycles/byte of one path ("aesni", or
 * "openssl@aesni" for OpenSSL under aesni's mask, "openssl@table" for its
 * table path, "openssl" for SHA-1 with OPENSSL_ia32cap unset), OpenSSL's
 * with the index of the library (reference.h) it came from: the median
 * over the stack placements (--placements) of each placement's median (or
 * fastest) run, and the worst, slowest, placement's.
 */
#ifndef BENCH_FIGURES_H
#define BENCH_FIGURES_H

#include <stddef.h>

struct figure {
    char table[8], mode[16], path[64];
    int bits;
    size_t bytes, update;
    int lib;                       /* OpenSSL's rows: which library; ours 0 */
    double cpb;                    /* the median over the placements */
    double worst;                  /* the slowest placement's */
};

/* The figures the parent has kept, in arrival order. */
struct figures {
    struct figure *v;
    size_t n, cap;
};

/* Child side: one figure to stdout. */
void figures_emit(const struct figure *r);
/* Parent side: keeps the figure if line is one. */
void figures_take(struct figures *f, const char *line);
/* The figure of one path at one size (lib: OpenSSL's library), NULL when
 * it was not measured. */
const struct figure *figures_find(const struct figures *f, const char *table,
                                  const char *mode, int bits, size_t bytes,
                                  size_t update, const char *path, int lib);
/* Its median c/B; NAN when it was not measured. */
double figures_lookup(const struct figures *f, const char *table,
                      const char *mode, int bits, size_t bytes, size_t update,
                      const char *path, int lib);
void figures_free(struct figures *f);

#endif
