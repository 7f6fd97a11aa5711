/* SPDX-License-Identifier: Apache-2.0 */
#include "csv.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * The one piece of file-scope state in bench/, and why it cannot be a
 * parameter: the exit handler (atexit) and the signal handlers take no
 * argument, yet an exit through bench_fail() or a SIGINT at any point of
 * the run must remove the temporaries not yet renamed.  So this record
 * holds only what they need, the temporaries' paths: a path is stored
 * before the count that makes it visible is raised, and set to NULL before
 * its string is freed once the file is in place.  The handlers only read
 * it and call unlink(), which is async-signal-safe.
 */
static struct {
    const char *volatile tmp[OPT_MAX];
    volatile sig_atomic_t n;
} csv_pending;

/* Removes the temporaries not yet renamed (atexit, and on a signal). */
static void csv_discard(void)
{
    for (sig_atomic_t i = 0; i < csv_pending.n; i++)
        if (csv_pending.tmp[i])
            unlink(csv_pending.tmp[i]);
}

static void csv_on_signal(int sig)
{
    csv_discard();
    signal(sig, SIG_DFL);
    raise(sig);
}

void csv_open(struct csv_out *c, const struct bench_options *o)
{
    memset(c, 0, sizeof(*c));
    for (size_t i = 0; i < o->n_csv; i++) {
        size_t len = strlen(o->csv[i]) + 48;
        char *tmp = malloc(len);
        if (tmp == NULL) {
            fputs("bench: out of memory\n", stderr);
            exit(3);
        }
        snprintf(tmp, len, "%s.%ld.%zu.tmp", o->csv[i], (long)getpid(), i);
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
        FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (f == NULL) {
            fprintf(stderr, "bench: cannot write --csv '%s': %s\n", o->csv[i],
                    strerror(errno));
            csv_discard();
            exit(2);
        }
        c->final[c->n] = o->csv[i];
        c->tmp[c->n] = tmp;
        c->file[c->n] = f;
        csv_pending.tmp[c->n] = tmp;
        csv_pending.n = (sig_atomic_t)++c->n;
        if (c->n == 1) {
            atexit(csv_discard);
            signal(SIGINT, csv_on_signal);
            signal(SIGTERM, csv_on_signal);
            signal(SIGHUP, csv_on_signal);
        }
    }
}

void csv_commit(struct csv_out *c, const struct figures *figs, double tsc_mhz,
                const struct bounds *b, const struct reference *refs)
{
    for (size_t i = 0; i < c->n; i++) {
        FILE *f = c->file[i];
        fprintf(f, "table,mode,bits,bytes,update,path,cycles_per_byte,mb_per_s,"
                "bound_cycles_per_byte,of_bound,openssl,worst_cycles_per_byte\n");
        for (size_t k = 0; k < figs->n; k++) {
            const struct figure *r = &figs->v[k];
            double bound = bound_of_figure(b, r);
            fprintf(f, "%s,%s,%d,%zu,%zu,%s,%.6g,%.6g", r->table, r->mode,
                    r->bits, r->bytes, r->update, r->path, r->cpb,
                    tsc_mhz / r->cpb);
            if (isnan(bound))
                fprintf(f, ",,");
            else
                fprintf(f, ",%.6g,%.6g", bound, bound / r->cpb);
            int theirs = strncmp(r->path, "openssl", 7) == 0 && r->lib >= 0 &&
                         (size_t)r->lib < refs->n;
            fprintf(f, ",%s,%.6g\n", theirs ? refs->version[r->lib] : "",
                    r->worst);
        }
        if (ferror(f) | fclose(f) || rename(c->tmp[i], c->final[i]) != 0) {
            fprintf(stderr, "bench: error writing %s: %s\n", c->final[i],
                    strerror(errno));
            exit(3);
        }
        csv_pending.tmp[i] = NULL;
        free(c->tmp[i]);
        c->tmp[i] = NULL;
        c->file[i] = NULL;
    }
}
