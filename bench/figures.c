/* SPDX-License-Identifier: Apache-2.0 */
#include "figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void figures_emit(const struct figure *r)
{
    printf("R %s %s %d %zu %zu %s %d %.6g %.6g\n", r->table, r->mode, r->bits,
           r->bytes, r->update, r->path, r->lib, r->cpb, r->worst);
    fflush(stdout);
}

void figures_take(struct figures *f, const char *line)
{
    struct figure r;
    if (sscanf(line, "R %7s %15s %d %zu %zu %63s %d %lf %lf", r.table, r.mode,
               &r.bits, &r.bytes, &r.update, r.path, &r.lib, &r.cpb,
               &r.worst) != 9)
        return;
    if (f->n == f->cap) {
        f->cap = f->cap ? 2 * f->cap : 256;
        f->v = realloc(f->v, f->cap * sizeof(*f->v));
        if (f->v == NULL) {
            fputs("bench: out of memory\n", stderr);
            exit(3);
        }
    }
    f->v[f->n++] = r;
}

const struct figure *figures_find(const struct figures *f, const char *table,
                                  const char *mode, int bits, size_t bytes,
                                  size_t update, const char *path, int lib)
{
    for (size_t i = 0; i < f->n; i++) {
        const struct figure *r = &f->v[i];
        if (r->bits == bits && r->bytes == bytes && r->update == update &&
            r->lib == lib && strcmp(r->table, table) == 0 &&
            strcmp(r->mode, mode) == 0 && strcmp(r->path, path) == 0)
            return r;
    }
    return NULL;
}

double figures_lookup(const struct figures *f, const char *table,
                      const char *mode, int bits, size_t bytes, size_t update,
                      const char *path, int lib)
{
    const struct figure *r = figures_find(f, table, mode, bits, bytes, update,
                                          path, lib);
    return r ? r->cpb : NAN;
}

void figures_free(struct figures *f)
{
    free(f->v);
    f->v = NULL;
    f->n = f->cap = 0;
}
