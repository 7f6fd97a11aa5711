/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The --csv files: each is created (as a temporary beside it) before any
 * measuring, so a bad path fails at once (exit 2); csv_commit() writes the
 * figures and renames them into place.  An exit or a signal before that
 * removes them, so a failed run leaves no partial CSV.
 */
#ifndef BENCH_CSV_H
#define BENCH_CSV_H

#include <stdio.h>

#include "bound.h"
#include "figures.h"
#include "options.h"
#include "reference.h"

struct csv_out {
    const char *final[OPT_MAX];    /* the paths asked for */
    char *tmp[OPT_MAX];            /* their temporaries, until renamed */
    FILE *file[OPT_MAX];
    size_t n;
};

/* Creates the temporaries of o->csv; exits 2 naming a path it cannot write. */
void csv_open(struct csv_out *c, const struct bench_options *o);
/* Writes every figure to each file and renames it; exits 3 on an error.
 * Our rows with a bound (bound.h) also get it and the fraction reached;
 * the other rows leave those two columns empty.  Then OpenSSL's rows name
 * their library's version (refs; ours leave it empty), and every row
 * gives its worst placement's c/B (its c/B with one placement). */
void csv_commit(struct csv_out *c, const struct figures *f, double tsc_mhz,
                const struct bounds *b, const struct reference *refs);

#endif
