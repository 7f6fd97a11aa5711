/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The OpenSSL libraries a run compares with: those --openssl names, in
 * order, or the system's libcrypto.so.3.  The parent and every measuring
 * child load them alike, so a library's index means the same on both
 * sides (figures.h carries it).
 */
#ifndef BENCH_REFERENCE_H
#define BENCH_REFERENCE_H

#include <stddef.h>

#include "options.h"
#include "../support/lib/ossl.h"

struct reference {
    struct ossl_lib *lib[OPT_MAX_OPENSSL];
    char version[OPT_MAX_OPENSSL][64];   /* "OpenSSL 3.0.13": the columns' label */
    size_t n;                            /* 0: none loaded */
};

/*
 * Loads the libraries; the first is left current (ossl_use).  Returns 0
 * with r->n set, or -1 with why in err: a library --openssl names that
 * cannot be loaded, or two of one version (nothing to tell apart).  The
 * system's library missing is no error: r->n is 0 and err says why.
 */
int reference_load(const struct bench_options *o, struct reference *r,
                   char *err, size_t errlen);

#endif
