/* SPDX-License-Identifier: Apache-2.0 */
#include "plan.h"

#include <stdio.h>
#include <string.h>

size_t plan_key_sizes(const struct bench_options *o, const struct bench_mode *m,
                      int bits[3])
{
    static const int all[] = { 128, 192, 256 };
    size_t n = 0;
    for (size_t i = 0; i < 3; i++)
        if (options_bits_selected(o, all[i]) &&
            !(m->op == OP_XTS && all[i] == 192))
            bits[n++] = all[i];
    return n;
}

int plan_aes_impl_has_mode(const struct casm_aes_impl *impl,
                           const struct bench_mode *m)
{
    return m->op != OP_OCB || impl->ocb_enc != NULL;
}

int plan_aes_impl_has_work(const struct bench_options *o,
                           const struct casm_aes_impl *impl)
{
    int bits[3];
    for (size_t i = 0; i < bench_mode_count; i++) {
        const struct bench_mode *m = &bench_modes[i];
        if (m->op != OP_SHA1 && options_mode_selected(o, m) &&
            plan_key_sizes(o, m, bits) > 0 && plan_aes_impl_has_mode(impl, m))
            return 1;
    }
    return 0;
}

/* Selected AES entries that have what m needs (and that this CPU runs,
 * if need_cpu): their count, and their names as "a, b". */
static size_t aes_impls_for(const struct bench_options *o,
                            const struct bench_mode *m, int need_cpu,
                            char *names, size_t len)
{
    size_t n = 0, used = 0;
    names[0] = '\0';
    for (size_t i = 0; i < casm_aes_impl_count; i++) {
        const struct casm_aes_impl *impl = casm_aes_impls[i];
        if (!options_impl_selected(o, impl->name) ||
            (need_cpu && !casm_cpu_has(impl->need)) ||
            !plan_aes_impl_has_mode(impl, m))
            continue;
        int w = snprintf(names + used, len - used, "%s%s", n ? ", " : "",
                         impl->name);
        if (w > 0 && (size_t)w < len - used)
            used += (size_t)w;
        n++;
    }
    return n;
}

/* Selected entries of the AES or SHA-1 table (this CPU runs, if need_cpu). */
static size_t count_selected(const struct bench_options *o, int sha1,
                             int need_cpu)
{
    size_t n = 0;
    size_t count = sha1 ? casm_sha1_impl_count : casm_aes_impl_count;
    for (size_t i = 0; i < count; i++) {
        const char *name = sha1 ? casm_sha1_impls[i]->name : casm_aes_impls[i]->name;
        const unsigned int *need = sha1 ? casm_sha1_impls[i]->need
                                        : casm_aes_impls[i]->need;
        n += options_impl_selected(o, name) && (!need_cpu || casm_cpu_has(need));
    }
    return n;
}

const char *plan_mode_skip(const struct bench_options *o,
                           const struct bench_mode *m, char *why, size_t len)
{
    int sha1 = m->op == OP_SHA1;
    const char *what = sha1 ? "SHA-1" : "AES";
    char names[256];
    int bits[3];

    if (count_selected(o, sha1, 0) == 0)
        snprintf(why, len, "--impl names no %s implementation", what);
    else if (count_selected(o, sha1, 1) == 0)
        snprintf(why, len, "no selected %s implementation runs on this CPU", what);
    else if (!sha1 && plan_key_sizes(o, m, bits) == 0)
        /* Only XTS gets here: XTS-AES is defined for two key sizes. */
        snprintf(why, len, "XTS-AES has no 192-bit keys and --keybits "
                 "selects no other");
    else if (!sha1 && aes_impls_for(o, m, 1, names, sizeof(names)) == 0) {
        /* Only OCB gets here: it needs bulk functions. */
        struct bench_options any = { .n_impls = 0 };
        if (aes_impls_for(&any, m, 0, names, sizeof(names)) == 0)
            snprintf(why, len, "needs an implementation with OCB bulk "
                     "functions, and this build has none");
        else
            snprintf(why, len, "needs an implementation with OCB bulk "
                     "functions that this CPU runs (in this build: %s)", names);
    } else
        return NULL;
    return why;
}

int plan_sha1_update_fits(size_t bytes, size_t update)
{
    return update <= bytes && bytes % update == 0;
}

int plan_any_mode(const struct bench_options *o, int sha1)
{
    for (size_t i = 0; i < bench_mode_count; i++)
        if ((bench_modes[i].op == OP_SHA1) == sha1 &&
            options_mode_selected(o, &bench_modes[i]))
            return 1;
    return 0;
}

static void list_impl(const char *table, const char *name,
                      const unsigned int need[4], const char *need_name)
{
    if (casm_cpu_has(need))
        printf("impl %-4s %-14s runs\n", table, name);
    else
        printf("impl %-4s %-14s skipped: this CPU lacks %s\n", table, name,
               need_name);
}

void plan_list(const struct bench_options *o)
{
    for (size_t i = 0; i < casm_aes_impl_count; i++) {
        const struct casm_aes_impl *impl = casm_aes_impls[i];
        if (options_impl_selected(o, impl->name))
            list_impl("aes", impl->name, impl->need, impl->need_name);
    }
    for (size_t i = 0; i < casm_sha1_impl_count; i++) {
        const struct casm_sha1_impl *impl = casm_sha1_impls[i];
        if (options_impl_selected(o, impl->name))
            list_impl("sha1", impl->name, impl->need, impl->need_name);
    }
    for (size_t i = 0; i < bench_mode_count; i++) {
        const struct bench_mode *m = &bench_modes[i];
        const char *table = m->op == OP_SHA1 ? "sha1" : "aes";
        char why[512], names[256];
        if (!options_mode_selected(o, m))
            continue;
        if (plan_mode_skip(o, m, why, sizeof(why)))
            printf("mode %-4s %-14s skipped: %s\n", table, m->name, why);
        else if (m->op == OP_OCB) {
            aes_impls_for(o, m, 1, names, sizeof(names));
            printf("mode %-4s %-14s runs (with %s)\n", table, m->name, names);
        } else
            printf("mode %-4s %-14s runs\n", table, m->name);
    }
}
