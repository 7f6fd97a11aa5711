/* SPDX-License-Identifier: Apache-2.0 */
#include "summary.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bound.h"

/* Families follow what an entry needs, so a new entry finds its own. */
const char *summary_aes_family(const struct casm_aes_impl *impl)
{
    switch (bound_aes_width(impl)) {
    case BOUND_AES_ZMM: return "VAES zmm";
    case BOUND_AES_YMM: return "VAES ymm";
    case BOUND_AES_XMM: return "AES-NI xmm";
    default:
        return impl == casm_aes_impl_by_name("c") ? "C AES" : "table AES";
    }
}

const char *summary_sha1_family(const struct casm_sha1_impl *impl)
{
    if (bound_sha1_shani(impl))
        return "SHA-1 SHA-NI";
    if (bound_sha1_simd(impl))
        return "SHA-1 SIMD";
    return impl == casm_sha1_impl_by_name("c") ? "SHA-1 C" : "SHA-1 integer";
}

static void keep_lowest(struct summary_low *low, double v, const char *row)
{
    if (isnan(v) || isinf(v) || (!isnan(low->v) && low->v <= v))
        return;
    low->v = v;
    snprintf(low->row, sizeof(low->row), "%s", row);
}

void summary_add(struct summary *s, const char *family,
                 const double ratio[OPT_MAX_OPENSSL], double of_bound,
                 double steadiness, const char *row)
{
    size_t i = 0;
    while (i < s->n && strcmp(s->f[i].name, family) != 0)
        i++;
    if (i == s->n) {
        if (s->n == SUMMARY_FAMILIES)
            return;
        s->f[i].name = family;
        for (size_t l = 0; l < OPT_MAX_OPENSSL; l++)
            s->f[i].ratio[l].v = NAN;
        s->f[i].bound.v = s->f[i].steadiness.v = NAN;
        s->n++;
    }
    for (size_t l = 0; l < OPT_MAX_OPENSSL; l++)
        keep_lowest(&s->f[i].ratio[l], ratio[l], row);
    keep_lowest(&s->f[i].bound, of_bound, row);
    keep_lowest(&s->f[i].steadiness, steadiness, row);
}

/* Wide enough for most rows' text, so the second halves line up. */
#define SUMMARY_ROW_WIDTH 46

/* One half of a summary line; width pads the row's text (0: none). */
static void print_low(const char *what, const struct summary_low *low,
                      const char *none, int width)
{
    if (isnan(low->v))
        printf("  %s %6s %-*s", what, "-", width, none);
    else
        printf("  %s %6.3f %-*s", what, low->v, width, low->row);
}

void summary_print(const struct summary *s, const struct reference *refs,
                   int placements)
{
    if (s->n == 0)
        return;
    printf("\nSummary: per family, the lowest ratio against %s (for AES "
           "code needing no CPU feature, against OpenSSL's table path) and "
           "the lowest fraction of the bound, each with its row\n",
           refs->n ? refs->version[0] : "OpenSSL");
    for (size_t i = 0; i < s->n; i++) {
        const struct summary_family *f = &s->f[i];
        printf(" %-14s", f->name);
        print_low("lowest ratio", &f->ratio[0],
                  refs->n ? "(no OpenSSL equivalent)" : "(OpenSSL not measured)",
                  SUMMARY_ROW_WIDTH);
        print_low("lowest of bound", &f->bound, "(no bound)", 0);
        putchar('\n');
    }
    for (size_t l = 1; l < refs->n; l++) {
        printf("Against %s: per family, the lowest ratio, with its row\n",
               refs->version[l]);
        for (size_t i = 0; i < s->n; i++) {
            printf(" %-14s", s->f[i].name);
            print_low("lowest ratio", &s->f[i].ratio[l],
                      "(no OpenSSL equivalent)", 0);
            putchar('\n');
        }
    }
    if (placements > 1) {
        printf("Placement: per family, the lowest worst/median over %d stack "
               "placements (the slowest placement's speed as a fraction of "
               "the median's; 1 = placement does not matter), with its row\n",
               placements);
        for (size_t i = 0; i < s->n; i++) {
            printf(" %-14s", s->f[i].name);
            print_low("lowest worst/median", &s->f[i].steadiness, "(none)", 0);
            putchar('\n');
        }
    }
}
