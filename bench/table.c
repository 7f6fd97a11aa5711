/* SPDX-License-Identifier: Apache-2.0 */
#include "table.h"

#include <math.h>
#include <stdio.h>

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

static const char ours_head[] = " |      ours      ";
static const char ours_cols[] = " |     c/B    MB/s";
static const char ossl_head[] = " |         OpenSSL        ";
static const char tbl_head[]  = " |      OpenSSL table     ";
static const char ossl_cols[] = " |     c/B    MB/s   ratio";
static const char bound_col[] = " | of bound";

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

static void legend(const struct table_run *r, int with_ossl)
{
    printf("  c/B = TSC cycles per byte, MB/s = 10^6 bytes per second at "
           "%.1f MHz%s\n", r->tsc_mhz,
           with_ossl ? "; ratio = OpenSSL's c/B / ours, > 1 means ours is "
                       "faster" : "");
}

void table_aes(const struct table_run *r, const struct bench_mode *m,
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
    printf(" %-14s %5s %6s%s%s%s%s\n", "impl", "bits", "bytes", ours_cols,
           with_ossl ? ossl_cols : "", with_tbl ? ossl_cols : "", bound_col);
    for (size_t i = 0; i < ng; i++) {
        const char *name = g[i].impl->name;
        char ossl_path[80];
        snprintf(ossl_path, sizeof(ossl_path), "openssl@%s", name);
        if (!plan_aes_impl_has_mode(g[i].impl, m))
            continue;
        for (size_t b = 0; b < nbits; b++) {
            for (size_t s = 0; s < nsizes; s++) {
                size_t n = sizes[s];
                double ours = figures_lookup(r->figs, "aes", m->name, bits[b],
                                             n, n, name);
                double ratio = NAN;
                printf(" %-14s %5d %6zu |", name, bits[b], n);
                speed(r, ours);
                if (with_ossl) {
                    double ossl = figures_lookup(r->figs, "aes", m->name,
                                                 bits[b], n, n, ossl_path);
                    printf(" |");
                    speed(r, ossl);
                    cell(ratio = ossl / ours);
                }
                if (with_tbl && g[i].table_column) {
                    double tbl = figures_lookup(r->figs, "aes", m->name,
                                                bits[b], n, n, "openssl@table");
                    printf(" |");
                    speed(r, tbl);
                    cell(ratio = tbl / ours);    /* the like-for-like one */
                } else if (with_tbl)
                    printf("%*s", (int)sizeof(ossl_cols) - 1, "");
                double f = of_bound(bound_aes_cpb(r->bounds, g[i].impl, m,
                                                  bits[b]), ours);
                putchar('\n');
                char row[SUMMARY_ROW_MAX];
                snprintf(row, sizeof(row), "(%s %s AES-%d %zu B)", name,
                         m->name, bits[b], n);
                summary_add(r->summary, summary_aes_family(g[i].impl), ratio,
                            f, row);
            }
        }
    }
}

/*
 * Per implementation: ours, OpenSSL under that implementation's mask, the
 * ratio, and "vs C" (tcrypt's "change": how much faster than the C).  Then
 * OpenSSL with OPENSSL_ia32cap unset, its fastest path.
 */
void table_sha1(const struct table_run *r, const struct bench_mode *m,
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
    printf(" %-14s %5s %6s%s%s |    vs C%s\n", "impl", "block", "update",
           ours_cols, r->have_ossl ? ossl_cols : "", bound_col);
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
                double v = i < n ? figures_lookup(r->figs, "sha1", "sha1", 0,
                                                  bytes, upd, name) : NAN;
                double c = figures_lookup(r->figs, "sha1", "sha1", 0, bytes,
                                          upd, "c");
                double ratio = NAN;
                printf(" %-14s %5zu %6zu |", name, bytes, upd);
                speed(r, v);
                if (r->have_ossl) {
                    double o = figures_lookup(r->figs, "sha1", "sha1", 0,
                                              bytes, upd, ossl_path);
                    printf(" |");
                    speed(r, o);
                    cell(ratio = i < n ? o / v : NAN);
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
                    ratio = NAN;
                char row[SUMMARY_ROW_MAX];
                snprintf(row, sizeof(row), "(%s %zu/%zu)", name, bytes, upd);
                summary_add(r->summary, summary_sha1_family(impls[i]), ratio,
                            f, row);
            }
        }
    }
}
