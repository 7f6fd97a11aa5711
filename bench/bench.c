/* SPDX-License-Identifier: Apache-2.0 */
/*
 * perlasm-x86 benchmark: cycles per byte and MB/s, ours next to OpenSSL's.
 * `bench --help` lists the options, `bench --list` what they select.
 *
 * Cycles are TSC cycles read with rdtsc (a fixed-rate clock, not the core
 * clock); MB/s are derived from the TSC rate, measured against
 * CLOCK_MONOTONIC at start-up.  Each figure is the median (--fastest: the
 * fastest) of repeated runs after a warm-up, on buffers that stay in cache.
 *
 * Every implementation is measured in its own child process: this program
 * again (/proc/self/exe) with the same options plus --child-ROLE NAME,
 * --child-tsc-hz HZ and, without OpenSSL, --child-no-openssl (child.h), and
 * with OPENSSL_ia32cap set to the implementation's force mask, or unset
 * when it has none, so each OpenSSL loaded in that child runs its
 * equivalent path.  Figures come back through a pipe (figures.h) and are
 * printed as tables (table.h) and CSV (csv.h), each row of ours with the
 * fraction of its bound (bound.h, measured here first), and closed by
 * one summary line per family (summary.h).  OpenSSL
 * is the system libcrypto.so.3, or up to two others --openssl names
 * (reference.h), through support/lib/ossl.c, so its columns are its own
 * code.  Before any timing, our output is checked against OpenSSL's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "impl.h"
#include "child.h"
#include "csv.h"
#include "figures.h"
#include "bound.h"
#include "options.h"
#include "plan.h"
#include "reference.h"
#include "summary.h"
#include "table.h"
#include "tsc.h"
#include "../support/lib/ossl.h"

#define TSC_CALIBRATION_SECONDS 0.1
#define MAX_AES_GROUPS 16
#define MAX_SHA1_IMPLS 16

/* The measuring parent's run: what each child is started with and what
 * comes back from it. */
struct parent {
    int argc;                      /* the user's command line, passed on */
    char **argv;
    double tsc_rate;               /* TSC ticks per second */
    struct bounds bounds;          /* the bound loops' figures (bound.h) */
    struct reference refs;         /* the OpenSSL libraries (n 0: none) */
    int have_ossl;
    struct figures figs;           /* every child's figures */
};

/* Runs this program as a child in `role` for `name` under OPENSSL_ia32cap
 * = mask (NULL: unset) and keeps the figures it sends. */
static void run_child(struct parent *p, const char *role, const char *name,
                      const char *mask)
{
    char role_opt[32], hz[32];
    const char **argv = malloc(((size_t)p->argc + 8) * sizeof(*argv));
    int argc = 0;
    if (argv == NULL)
        bench_fail("out of memory");
    snprintf(role_opt, sizeof(role_opt), "--child-%s", role);
    snprintf(hz, sizeof(hz), "%.0f", p->tsc_rate);
    argv[argc++] = "bench";
    for (int i = 1; i < p->argc; i++)
        argv[argc++] = p->argv[i];
    argv[argc++] = role_opt;
    argv[argc++] = name;
    argv[argc++] = "--child-tsc-hz";
    argv[argc++] = hz;
    if (!p->have_ossl)
        argv[argc++] = "--child-no-openssl";
    argv[argc] = NULL;

    int fd[2];
    if (pipe(fd) != 0)
        bench_fail("pipe failed");
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        bench_fail("fork failed");
    if (pid == 0) {
        dup2(fd[1], STDOUT_FILENO);
        close(fd[0]);
        close(fd[1]);
        if (mask)
            setenv("OPENSSL_ia32cap", mask, 1);
        else
            unsetenv("OPENSSL_ia32cap");
        execv("/proc/self/exe", (char *const *)argv);
        perror("bench: exec /proc/self/exe");
        _exit(127);
    }
    close(fd[1]);
    FILE *f = fdopen(fd[0], "r");
    char line[256];
    while (f && fgets(line, sizeof(line), f))
        figures_take(&p->figs, line);
    if (f)
        fclose(f);
    free(argv);
    int status;
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0)
        bench_fail("the measurement child (%s %s) failed; see above", role, name);
}

static void cpu_model(char *out, size_t len)
{
    snprintf(out, len, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[256];
    while (f && fgets(line, sizeof(line), f)) {
        if (strncmp(line, "model name", 10) == 0) {
            char *p = strchr(line, ':');
            if (p) {
                p += 1 + strspn(p + 1, " \t");
                p[strcspn(p, "\n")] = '\0';
                snprintf(out, len, "%s", p);
            }
            break;
        }
    }
    if (f)
        fclose(f);
}

/* How a child's OPENSSL_ia32cap is set, for the header lines. */
#define MASK_TEXT_MAX (CASM_FORCE_MASK_MAX + 32)
static const char *mask_text(const char *mask, char buf[MASK_TEXT_MAX])
{
    if (mask)
        snprintf(buf, MASK_TEXT_MAX, "OPENSSL_ia32cap=%s", mask);
    else
        snprintf(buf, MASK_TEXT_MAX, "OPENSSL_ia32cap unset");
    return buf;
}

static void print_header(const struct parent *p, const struct bench_options *o,
                         const char *ossl_err)
{
    char model[128];
    cpu_model(model, sizeof(model));
    printf("perlasm-x86 bench: TSC %.1f MHz (rdtsc against CLOCK_MONOTONIC); "
           "cycles are TSC cycles, not core cycles\n", p->tsc_rate / 1e6);
    printf("  each figure: the %s of %d runs after a warm-up, %g ms of "
           "timing in all (--seconds); warm caches\n",
           o->fastest ? "fastest" : "median", o->runs, o->seconds * 1e3);
    if (o->placements > 1)
        printf("  each figure at %d stack placements (the stack moved by k x "
               "4096 / %d bytes): the median of them, and the worst\n",
               o->placements, o->placements);
    if (p->have_ossl) {
        for (size_t l = 0; l < p->refs.n; l++) {
            ossl_use(p->refs.lib[l]);
            if (l == 0)
                printf("  CPU: %s; reference: %s (%s)\n", model,
                       ossl_version(), ossl_path());
            else
                printf("  second reference: %s (%s)\n", ossl_version(),
                       ossl_path());
        }
        ossl_use(p->refs.lib[0]);
    } else
        printf("  CPU: %s\n  OpenSSL: not measured, no ratios: cannot load "
               "libcrypto.so.3 (%s); install libssl3\n", model, ossl_err);
    /* Another busy thread on a sibling core skews every column. */
    double load;
    if (getloadavg(&load, 1) == 1 && load > 0.5)
        printf("  note: load average %.2f, other work shares the CPU; "
               "expect noise\n", load);
    bound_header(&p->bounds);
}

/* Selected AES modes' reason for measuring nothing at all, if any. */
static void say_table_skipped(const struct bench_options *o, int sha1)
{
    char why[512];
    for (size_t i = 0; i < bench_mode_count; i++) {
        const struct bench_mode *m = &bench_modes[i];
        if ((m->op == OP_SHA1) == sha1 && options_mode_selected(o, m)) {
            printf("  %s: skipped, %s\n", sha1 ? "SHA-1" : "AES",
                   plan_mode_skip(o, m, why, sizeof(why)) ? why : "nothing selected");
            return;
        }
    }
}

/* One child per selected AES implementation this CPU runs; fills g. */
static size_t measure_aes(struct parent *p, const struct bench_options *o,
                          struct aes_group *g)
{
    char text[MASK_TEXT_MAX];
    size_t ng = 0;
    int table_measured = 0;
    if (!plan_any_mode(o, 0))
        return 0;
    for (size_t i = 0; i < casm_aes_impl_count && ng < MAX_AES_GROUPS; i++) {
        const struct casm_aes_impl *impl = casm_aes_impls[i];
        if (!options_impl_selected(o, impl->name) ||
            !plan_aes_impl_has_work(o, impl))
            continue;           /* a table's own line says why */
        if (!casm_cpu_has(impl->need)) {
            printf("  AES %s: skipped, this CPU lacks %s\n", impl->name,
                   impl->need_name);
            continue;
        }
        char mask_buf[CASM_FORCE_MASK_MAX], table_buf[CASM_FORCE_MASK_MAX];
        const char *mask = casm_force_mask_text(impl->force_clear, mask_buf);
        /* OpenSSL's table-based AES, from the registry (casm_openssl_table_path). */
        const char *table_mask = casm_force_mask_text(casm_openssl_table_path, table_buf);
        int on_table = mask && strcmp(mask, table_mask) == 0;
        int needs_nothing = !(impl->need[0] | impl->need[1] | impl->need[2] | impl->need[3]);
        /* Paths that need no CPU feature (C, table assembly) are also
         * compared with OpenSSL's table path. */
        g[ng].impl = impl;
        g[ng].table_column = p->have_ossl && needs_nothing && !on_table;
        printf("  AES %s: %s with %s%s\n", impl->name,
               p->have_ossl ? "ours and OpenSSL measured" : "measured",
               mask_text(mask, text), on_table ? " (OpenSSL's table path)" : "");
        fprintf(stderr, "bench: measuring AES %s...\n", impl->name);
        run_child(p, "aes", impl->name, mask);
        if (g[ng].table_column && !table_measured) {
            printf("  OpenSSL table = OpenSSL with %s, its table path\n",
                   mask_text(table_mask, text));
            run_child(p, "ossl", "table", table_mask);
            table_measured = 1;
        }
        ng++;
    }
    if (ng == 0)
        say_table_skipped(o, 0);
    return ng;
}

/* One child per selected SHA-1 implementation, then OpenSSL's best. */
static size_t measure_sha1(struct parent *p, const struct bench_options *o,
                           const struct casm_sha1_impl **impls)
{
    char text[MASK_TEXT_MAX];
    size_t n = 0;
    if (!plan_any_mode(o, 1))
        return 0;
    for (size_t i = 0; i < casm_sha1_impl_count && n < MAX_SHA1_IMPLS; i++) {
        const struct casm_sha1_impl *impl = casm_sha1_impls[i];
        if (!options_impl_selected(o, impl->name))
            continue;
        if (!casm_cpu_has(impl->need)) {
            printf("  SHA-1 %s: skipped, this CPU lacks %s\n", impl->name,
                   impl->need_name);
            continue;
        }
        char mask_buf[CASM_FORCE_MASK_MAX];
        const char *mask = casm_force_mask_text(impl->force_clear, mask_buf);
        printf("  SHA-1 %s: %s with %s\n", impl->name,
               p->have_ossl ? "ours and OpenSSL measured" : "measured",
               mask_text(mask, text));
        fprintf(stderr, "bench: measuring SHA-1 %s...\n", impl->name);
        run_child(p, "sha1", impl->name, mask);
        impls[n++] = impl;
    }
    if (n == 0)
        say_table_skipped(o, 1);
    else if (p->have_ossl) {
        fprintf(stderr, "bench: measuring SHA-1 OpenSSL best...\n");
        run_child(p, "sha1", "-", NULL);
    }
    return n;
}

int main(int argc, char **argv)
{
    struct bench_options o;
    options_parse(&o, argc, argv);
    if (o.child_role)
        return child_main(&o);
    if (o.list) {
        plan_list(&o);
        return 0;
    }
    if (o.bound_only) {
        struct bounds b;
        bound_measure(&b);
        bound_print(&b);
        return 0;
    }
    char err[1024] = "";
    struct parent p = { .argc = argc, .argv = argv };
    if (reference_load(&o, &p.refs, err, sizeof(err)) != 0) {
        fprintf(stderr, "bench: %s\n", err);
        return 2;
    }
    p.have_ossl = p.refs.n > 0;
    struct csv_out csv;
    csv_open(&csv, &o);

    p.tsc_rate = tsc_hz(TSC_CALIBRATION_SECONDS);
    bound_measure(&p.bounds);
    print_header(&p, &o, err);

    struct aes_group groups[MAX_AES_GROUPS];
    const struct casm_sha1_impl *sha1_impls[MAX_SHA1_IMPLS];
    size_t ng = measure_aes(&p, &o, groups);
    size_t nsha1 = measure_sha1(&p, &o, sha1_impls);

    struct summary summary = { .n = 0 };
    struct table_run run = { &o, p.tsc_rate / 1e6, &p.refs, &p.figs,
                             &p.bounds, &summary };
    for (size_t m = 0; m < bench_mode_count; m++) {
        const struct bench_mode *mode = &bench_modes[m];
        if (!options_mode_selected(&o, mode))
            continue;
        if (mode->op != OP_SHA1 && ng > 0)
            table_aes(&run, mode, groups, ng);
        else if (mode->op == OP_SHA1 && nsha1 > 0)
            table_sha1(&run, mode, sha1_impls, nsha1);
    }
    summary_print(&summary, &p.refs, o.placements);
    if (o.n_csv > 0) {
        csv_commit(&csv, &p.figs, run.tsc_mhz, &p.bounds, &p.refs);
        for (size_t i = 0; i < o.n_csv; i++)
            printf("\n%zu figures written to %s", p.figs.n, o.csv[i]);
        putchar('\n');
    }
    figures_free(&p.figs);
    return 0;
}
