/* SPDX-License-Identifier: Apache-2.0 */
#include "table.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plan.h"

/* Three significant digits (more above 1000), 7 wide; "-" if not measured. */
static void cell(double v)
{
    if (isnan(v) || isinf(v))
        printf(" %7s", "-");
    else
        printf(" %7.*f", v < 1 ? 3 : v < 10 ? 2 : v < 100 ? 1 : 0, v);
}

/* c/B and MB/s of one figure. */
static void speed(const struct table_run *r, double cpb)
{
    cell(cpb);
    cell(r->tsc_mhz / cpb);
}

/* A column group: " |" and its cells, 8 characters each. */
#define GROUP_WIDTH(cells) (2 + 8 * (cells))
static const char ours_cols[] = " |     c/B    MB/s";
static const char worst_col[] = "   worst";
static const char ossl_cols[] = " |     c/B    MB/s   ratio";
static const char bound_col[] = " | of bound";

/* A group's heading: " |" and label centred over width - 2 characters. */
static void group_head(const char *label, int width)
{
    int room = width - 2, len = (int)strlen(label);
    int left = len < room ? (room - len) / 2 : 0;
    printf(" |%*s%s%*s", left, "", label, room - len - left > 0 ? room - len - left : 0, "");
}

/* Ours: c/B and MB/s of the median, and with several placements the
 * worst placement's c/B. */
static int ours_width(const struct table_run *r)
{
    return GROUP_WIDTH(r->o->placements > 1 ? 3 : 2);
}

static void ours_cells(const struct table_run *r, const struct figure *f)
{
    speed(r, f ? f->cpb : NAN);
    if (r->o->placements > 1)
        cell(f ? f->worst : NAN);
}

/* The last column, the bound's c/B over the row's ("-" without a
 * bound); returns the fraction, NAN if none. */
static double of_bound(double bound, double cpb)
{
    double f = bound / cpb;
    if (isnan(f) || isinf(f)) {
        printf(" | %8s", "-");
        return NAN;
    }
    printf(" | %8.2f", f);
    return f;
}

/* The worst placement's speed as a fraction of the median's; NAN with
 * one placement. */
static double steadiness(const struct table_run *r, const struct figure *f)
{
    return r->o->placements > 1 && f ? f->cpb / f->worst : NAN;
}

static void legend(const struct table_run *r, int with_ossl)
{
    printf("  c/B = TSC cycles per byte, MB/s = 10^6 bytes per second at "
           "%.1f MHz%s\n", r->tsc_mhz,
           with_ossl ? "; ratio = OpenSSL's c/B / ours, > 1 means ours is "
                       "faster" : "");
    if (r->o->placements > 1)
        printf("  c/B and MB/s: the median of %d stack placements; worst = "
               "the slowest placement's c/B\n", r->o->placements);
}

void table_aes(const struct table_run *r, const struct bench_mode *m,
               const struct aes_group *g, size_t ng)
{
    char why[512], label[96];
    int bits[3];
    size_t nbits = plan_key_sizes(r->o, m, bits), nsizes;
    const size_t *sizes = options_sizes(r->o, 0, &nsizes);
    size_t nlibs = m->evp != NULL ? r->refs->n : 0;
    int with_tbl = 0;

    printf("\n%s%s\n", m->title, m->evp ? "" : "; OpenSSL has no LRW");
    if (plan_mode_skip(r->o, m, why, sizeof(why))) {
        printf("  skipped: %s\n", why);
        return;
    }
    for (size_t i = 0; i < ng; i++)
        with_tbl |= nlibs > 0 && g[i].table_column &&
                    plan_aes_impl_has_mode(g[i].impl, m);
    legend(r, nlibs > 0);
    printf(" %-14s %5s %6s", "", "", "");
    group_head("ours", ours_width(r));
    for (size_t l = 0; l < nlibs; l++)
        group_head(r->refs->version[l], GROUP_WIDTH(3));
    for (size_t l = 0; with_tbl && l < nlibs; l++) {
        snprintf(label, sizeof(label), "%s table", r->refs->version[l]);
        group_head(label, GROUP_WIDTH(3));
    }
    printf("\n %-14s %5s %6s%s%s", "impl", "bits", "bytes", ours_cols,
           r->o->placements > 1 ? worst_col : "");
    for (size_t l = 0; l < nlibs * (with_tbl ? 2 : 1); l++)
        printf("%s", ossl_cols);
    printf("%s\n", bound_col);
    for (size_t i = 0; i < ng; i++) {
        const char *name = g[i].impl->name;
        char ossl_path[80];
        snprintf(ossl_path, sizeof(ossl_path), "openssl@%s", name);
        if (!plan_aes_impl_has_mode(g[i].impl, m))
            continue;
        for (size_t b = 0; b < nbits; b++) {
            for (size_t s = 0; s < nsizes; s++) {
                size_t n = sizes[s];
                const struct figure *ours = figures_find(r->figs, "aes", m->name,
                                                         bits[b], n, n, name, 0);
                double cpb = ours ? ours->cpb : NAN;
                double ratio[OPT_MAX_OPENSSL];
                for (size_t l = 0; l < OPT_MAX_OPENSSL; l++)
                    ratio[l] = NAN;
                printf(" %-14s %5d %6zu |", name, bits[b], n);
                ours_cells(r, ours);
                for (size_t l = 0; l < nlibs; l++) {
                    double ossl = figures_lookup(r->figs, "aes", m->name, bits[b],
                                                 n, n, ossl_path, (int)l);
                    printf(" |");
                    speed(r, ossl);
                    cell(ratio[l] = ossl / cpb);
                }
                for (size_t l = 0; with_tbl && l < nlibs; l++) {
                    if (!g[i].table_column) {
                        printf("%*s", GROUP_WIDTH(3), "");
                        continue;
                    }
                    double tbl = figures_lookup(r->figs, "aes", m->name, bits[b],
                                                n, n, "openssl@table", (int)l);
                    printf(" |");
                    speed(r, tbl);
                    cell(ratio[l] = tbl / cpb);     /* the like-for-like one */
                }
                double f = of_bound(bound_aes_cpb(r->bounds, g[i].impl, m,
                                                  bits[b]), cpb);
                putchar('\n');
                char row[SUMMARY_ROW_MAX];
                snprintf(row, sizeof(row), "(%s %s AES-%d %zu B)", name,
                         m->name, bits[b], n);
                summary_add(r->summary, summary_aes_family(g[i].impl), ratio,
                            f, steadiness(r, ours), row);
            }
        }
    }
}

/*
 * Per implementation: ours, each OpenSSL under that implementation's
 * mask, the ratio, and "vs C" (tcrypt's "change": how much faster than
 * the C).  Then OpenSSL with OPENSSL_ia32cap unset, its fastest path.
 */
void table_sha1(const struct table_run *r, const struct bench_mode *m,
                const struct casm_sha1_impl *const *impls, size_t n)
{
    char why[512];
    size_t nsizes, nlibs = r->refs->n;
    const size_t *sizes = options_sizes(r->o, 1, &nsizes);

    printf("\n%s\n", m->title);
    if (plan_mode_skip(r->o, m, why, sizeof(why))) {
        printf("  skipped: %s\n", why);
        return;
    }
    legend(r, nlibs > 0);
    if (nlibs > 0)
        printf("  vs C = ours over the C code, as tcrypt's \"change\"; impl "
               "openssl = OpenSSL with OPENSSL_ia32cap unset (its best)\n");
    printf(" %-14s %5s %6s", "", "", "");
    group_head("ours", ours_width(r));
    for (size_t l = 0; l < nlibs; l++)
        group_head(r->refs->version[l], GROUP_WIDTH(3));
    printf("\n %-14s %5s %6s%s%s", "impl", "block", "update", ours_cols,
           r->o->placements > 1 ? worst_col : "");
    for (size_t l = 0; l < nlibs; l++)
        printf("%s", ossl_cols);
    printf(" |    vs C%s\n", bound_col);
    for (size_t i = 0; i <= n; i++) {
        /* i == n: the row of OpenSSL's best, when there is one. */
        if (i == n && nlibs == 0)
            break;
        const char *name = i < n ? impls[i]->name : "openssl";
        char ossl_path[80];
        snprintf(ossl_path, sizeof(ossl_path), i < n ? "openssl@%s" : "%s", name);
        for (size_t b = 0; b < nsizes; b++) {
            for (size_t u = 0; u <= b; u++) {
                size_t bytes = sizes[b], upd = sizes[u];
                if (!plan_sha1_update_fits(bytes, upd))
                    continue;
                const struct figure *ours = i < n ?
                    figures_find(r->figs, "sha1", "sha1", 0, bytes, upd, name, 0) : NULL;
                double v = ours ? ours->cpb : NAN;
                double c = figures_lookup(r->figs, "sha1", "sha1", 0, bytes,
                                          upd, "c", 0);
                double ratio[OPT_MAX_OPENSSL];
                for (size_t l = 0; l < OPT_MAX_OPENSSL; l++)
                    ratio[l] = NAN;
                printf(" %-14s %5zu %6zu |", name, bytes, upd);
                ours_cells(r, ours);
                for (size_t l = 0; l < nlibs; l++) {
                    double o = figures_lookup(r->figs, "sha1", "sha1", 0,
                                              bytes, upd, ossl_path, (int)l);
                    printf(" |");
                    speed(r, o);
                    cell(ratio[l] = i < n ? o / v : NAN);
                }
                printf(" |");
                if (isnan(c) || isnan(v))
                    printf(" %7s", "-");
                else
                    printf(" %+6.0f%%", (c / v - 1) * 100);
                double f = of_bound(i < n ? bound_sha1_cpb(r->bounds, impls[i])
                                          : NAN, v);
                putchar('\n');
                if (i == n)
                    continue;
                /* An entry with no mask of its own that the dispatcher
                 * would not pick (the C) is beside OpenSSL's best path, not
                 * its own: that ratio stays out of the summary. */
                if (!impls[i]->force_clear && impls[i] != casm_sha1_best())
                    for (size_t l = 0; l < OPT_MAX_OPENSSL; l++)
                        ratio[l] = NAN;
                char row[SUMMARY_ROW_MAX];
                snprintf(row, sizeof(row), "(%s %zu/%zu)", name, bytes, upd);
                summary_add(r->summary, summary_sha1_family(impls[i]), ratio,
                            f, steadiness(r, ours), row);
            }
        }
    }
}
