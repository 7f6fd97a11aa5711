/* SPDX-License-Identifier: Apache-2.0 */
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plan.h"

struct row {
    char table[8], mode[16], path[64];
    int bits;
    size_t bytes, update;
    double cpb;
};

static struct row *rows;
static size_t nrows, cap_rows;

void report_emit(const char *table, const char *mode, int bits, size_t bytes,
                 size_t update, const char *path, double cpb)
{
    printf("R %s %s %d %zu %zu %s %.6g\n", table, mode, bits, bytes, update,
           path, cpb);
    fflush(stdout);
}

void report_take(const char *line)
{
    struct row r;
    if (sscanf(line, "R %7s %15s %d %zu %zu %63s %lf", r.table, r.mode,
               &r.bits, &r.bytes, &r.update, r.path, &r.cpb) != 7)
        return;
    if (nrows == cap_rows) {
        cap_rows = cap_rows ? 2 * cap_rows : 256;
        rows = realloc(rows, cap_rows * sizeof(*rows));
        if (rows == NULL) {
            fputs("bench: out of memory\n", stderr);
            exit(3);
        }
    }
    rows[nrows++] = r;
}

size_t report_count(void)
{
    return nrows;
}

static double lookup(const char *table, const char *mode, int bits,
                     size_t bytes, size_t update, const char *path)
{
    for (size_t i = 0; i < nrows; i++) {
        const struct row *r = &rows[i];
        if (r->bits == bits && r->bytes == bytes && r->update == update &&
            strcmp(r->table, table) == 0 && strcmp(r->mode, mode) == 0 &&
            strcmp(r->path, path) == 0)
            return r->cpb;
    }
    return NAN;
}

/* Three significant digits (more above 1000), 7 wide; "-" if not measured. */
static void cell(double v)
{
    if (isnan(v) || isinf(v))
        printf(" %7s", "-");
    else
        printf(" %7.*f", v < 1 ? 3 : v < 10 ? 2 : v < 100 ? 1 : 0, v);
}

/* c/B and MB/s of one figure. */
static void speed(const struct report_run *r, double cpb)
{
    cell(cpb);
    cell(r->tsc_mhz / cpb);
}

static const char ours_head[] = " |      ours      ";
static const char ours_cols[] = " |     c/B    MB/s";
static const char ossl_head[] = " |         OpenSSL        ";
static const char tbl_head[]  = " |      OpenSSL table     ";
static const char ossl_cols[] = " |     c/B    MB/s   ratio";

static void legend(const struct report_run *r, int with_ossl)
{
    printf("  c/B = TSC cycles per byte, MB/s = 10^6 bytes per second at "
           "%.1f MHz%s\n", r->tsc_mhz,
           with_ossl ? "; ratio = OpenSSL's c/B / ours, > 1 means ours is "
                       "faster" : "");
}

void report_aes_table(const struct report_run *r, const struct bench_mode *m,
                      const struct aes_group *g, size_t ng)
{
    char why[512];
    int bits[3];
    size_t nbits = plan_key_sizes(r->o, m, bits), nsizes;
    const size_t *sizes = options_sizes(r->o, 0, &nsizes);
    int with_ossl = r->have_ossl && m->evp != NULL, with_tbl = 0;

    printf("\n%s%s\n", m->title, m->evp ? "" : "; OpenSSL has no LRW");
    if (plan_mode_skip(r->o, m, why, sizeof(why))) {
        printf("  skipped: %s\n", why);
        return;
    }
    for (size_t i = 0; i < ng; i++)
        with_tbl |= with_ossl && g[i].table_column &&
                    plan_aes_impl_has_mode(g[i].impl, m);
    legend(r, with_ossl);
    printf(" %-14s %5s %6s%s%s%s\n", "", "", "", ours_head,
           with_ossl ? ossl_head : "", with_tbl ? tbl_head : "");
    printf(" %-14s %5s %6s%s%s%s\n", "impl", "bits", "bytes", ours_cols,
           with_ossl ? ossl_cols : "", with_tbl ? ossl_cols : "");
    for (size_t i = 0; i < ng; i++) {
        const char *name = g[i].impl->name;
        char ossl_path[80];
        snprintf(ossl_path, sizeof(ossl_path), "openssl@%s", name);
        if (!plan_aes_impl_has_mode(g[i].impl, m))
            continue;
        for (size_t b = 0; b < nbits; b++) {
            for (size_t s = 0; s < nsizes; s++) {
                size_t n = sizes[s];
                double ours = lookup("aes", m->name, bits[b], n, n, name);
                printf(" %-14s %5d %6zu |", name, bits[b], n);
                speed(r, ours);
                if (with_ossl) {
                    double ossl = lookup("aes", m->name, bits[b], n, n, ossl_path);
                    printf(" |");
                    speed(r, ossl);
                    cell(ossl / ours);
                }
                if (with_tbl && g[i].table_column) {
                    double tbl = lookup("aes", m->name, bits[b], n, n,
                                        "openssl@table");
                    printf(" |");
                    speed(r, tbl);
                    cell(tbl / ours);
                }
                putchar('\n');
            }
        }
    }
}

/*
 * Per implementation: ours, OpenSSL under that implementation's mask, the
 * ratio, and "vs C" (tcrypt's "change": how much faster than the C).  Then
 * OpenSSL with OPENSSL_ia32cap unset, its fastest path.
 */
void report_sha1_table(const struct report_run *r, const struct bench_mode *m,
                       const struct casm_sha1_impl *const *impls, size_t n)
{
    char why[512];
    size_t nsizes;
    const size_t *sizes = options_sizes(r->o, 1, &nsizes);

    printf("\n%s\n", m->title);
    if (plan_mode_skip(r->o, m, why, sizeof(why))) {
        printf("  skipped: %s\n", why);
        return;
    }
    legend(r, r->have_ossl);
    if (r->have_ossl)
        printf("  vs C = ours over the C code, as tcrypt's \"change\"; impl "
               "openssl = OpenSSL with OPENSSL_ia32cap unset (its best)\n");
    printf(" %-14s %5s %6s%s%s\n", "", "", "", ours_head,
           r->have_ossl ? ossl_head : "");
    printf(" %-14s %5s %6s%s%s |    vs C\n", "impl", "block", "update",
           ours_cols, r->have_ossl ? ossl_cols : "");
    for (size_t i = 0; i <= n; i++) {
        /* i == n: the row of OpenSSL's best, when there is one. */
        if (i == n && !r->have_ossl)
            break;
        const char *name = i < n ? impls[i]->name : "openssl";
        char ossl_path[80];
        snprintf(ossl_path, sizeof(ossl_path), i < n ? "openssl@%s" : "%s", name);
        for (size_t b = 0; b < nsizes; b++) {
            for (size_t u = 0; u <= b; u++) {
                size_t bytes = sizes[b], upd = sizes[u];
                if (!plan_sha1_update_fits(bytes, upd))
                    continue;
                double v = i < n ? lookup("sha1", "sha1", 0, bytes, upd, name) : NAN;
                double c = lookup("sha1", "sha1", 0, bytes, upd, "c");
                printf(" %-14s %5zu %6zu |", name, bytes, upd);
                speed(r, v);
                if (r->have_ossl) {
                    double o = lookup("sha1", "sha1", 0, bytes, upd, ossl_path);
                    printf(" |");
                    speed(r, o);
                    cell(i < n ? o / v : NAN);
                }
                printf(" |");
                if (isnan(c) || isnan(v))
                    printf(" %7s", "-");
                else
                    printf(" %+6.0f%%", (c / v - 1) * 100);
                putchar('\n');
            }
        }
    }
}

/* --- CSV ------------------------------------------------------------------ */

static const char *csv_final[OPT_MAX];
static char *csv_tmp[OPT_MAX];
static FILE *csv_file[OPT_MAX];
static size_t n_csv;

/* Removes the temporaries not yet renamed (atexit, and on a signal). */
static void csv_discard(void)
{
    for (size_t i = 0; i < n_csv; i++)
        if (csv_tmp[i])
            unlink(csv_tmp[i]);
}

static void csv_on_signal(int sig)
{
    csv_discard();
    signal(sig, SIG_DFL);
    raise(sig);
}

void report_csv_open(const struct bench_options *o)
{
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
        csv_final[n_csv] = o->csv[i];
        csv_tmp[n_csv] = tmp;
        csv_file[n_csv++] = f;
        if (n_csv == 1) {
            atexit(csv_discard);
            signal(SIGINT, csv_on_signal);
            signal(SIGTERM, csv_on_signal);
            signal(SIGHUP, csv_on_signal);
        }
    }
}

void report_csv_commit(double tsc_mhz)
{
    for (size_t i = 0; i < n_csv; i++) {
        FILE *f = csv_file[i];
        fprintf(f, "table,mode,bits,bytes,update,path,cycles_per_byte,mb_per_s\n");
        for (size_t k = 0; k < nrows; k++) {
            const struct row *r = &rows[k];
            fprintf(f, "%s,%s,%d,%zu,%zu,%s,%.6g,%.6g\n", r->table, r->mode,
                    r->bits, r->bytes, r->update, r->path, r->cpb,
                    tsc_mhz / r->cpb);
        }
        if (ferror(f) | fclose(f) || rename(csv_tmp[i], csv_final[i]) != 0) {
            fprintf(stderr, "bench: error writing %s: %s\n", csv_final[i],
                    strerror(errno));
            exit(3);
        }
        free(csv_tmp[i]);
        csv_tmp[i] = NULL;
    }
}
