/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The checks the SysV and cdecl self-tests (selftest_sysv.c,
 * test/abi32/selftest_cdecl.c) make of their checker, written once.  The
 * including file names its end first:
 *
 *   ST_WORD         an argument (uint64_t, uint32_t)
 *   ST_MAX_ARGS     how many the trampoline passes
 *   ST_CALL         the ABI checker (abi_call, abi32_call)
 *   ST_UNWIND       the unwind checker (unwind_check, unwind32_check)
 *   ST_UNWIND_INFO  what that end calls unwind info ("unwind info", "CFI")
 *
 * Environment: ABI_SEED (decimal or 0x-hex) seeds the random register
 * values; by default the checkers' fixed seed.
 */
#ifndef TEST_ABI_SELFTEST_CORE_H
#define TEST_ABI_SELFTEST_CORE_H

#include "../lib/tap.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ST_STR(x) #x
#define ST_NAME(x) ST_STR(x)
#define ABI_CALLS 8     /* the ABI checker's repeats: fresh random values each time */
#define ANY_OFFSET LONG_MIN

/* A well-behaved function and what it returns. */
struct good {
    const char *name;
    const char *fn;
    int nargs;
    ST_WORD args[ST_MAX_ARGS];
    ST_WORD want;
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static unsigned long total_steps;
static double total_time;

/* The unwind checker with timing and the step count in the diagnostics. */
static int run_unwind(const char *name, const void *fn, const ST_WORD *args,
                      int nargs, char *err, size_t errlen)
{
    struct unwind_stats st = { 0 };
    double t0 = now(), dt;
    int rc = ST_UNWIND(fn, args, nargs, &st, err, errlen);
    dt = now() - t0;
    total_steps += st.steps;
    total_time += dt;
    tap_diag("%s: %lu instructions single-stepped, %lu unwinds checked, %.1f ms",
             name, st.steps, st.unwinds, dt * 1e3);
    if (rc != 0)
        tap_diag("%s: " ST_NAME(ST_UNWIND) ": %s", name, err);
    return rc;
}

/* Both checkers pass g, ABI_CALLS times and once, and it returns g->want. */
static void good_passes(const struct good *g)
{
    char err[512] = "";
    uint64_t ret = 0;
    int rc = 0;
    for (int k = 0; k < ABI_CALLS && rc == 0; k++) {
        rc = ST_CALL(g->fn, g->args, g->nargs, &ret, err, sizeof(err));
        if (rc == 0 && (ST_WORD)ret != g->want)
            rc = 1;
    }
    if (!tap_ok(rc == 0, "%s: " ST_NAME(ST_CALL) " passes %d times, returning %"
                PRIu64, g->name, ABI_CALLS, (uint64_t)g->want))
        tap_diag("%s: %s, returned %" PRIu64, g->name, rc < 0 ? err : "no violation",
                 (uint64_t)(ST_WORD)ret);
    tap_ok(run_unwind(g->name, g->fn, g->args, g->nargs, err, sizeof(err)) == 0,
           "%s: " ST_NAME(ST_UNWIND) " passes", g->name);
}

/* A negative control for the ABI checker: must fail, naming what it should,
 * and the trampoline must still hand back fn's return value. */
static void abi_must_fail(const char *name, const void *fn, ST_WORD x,
                          const char *needle1, const char *needle2)
{
    char err[512] = "";
    uint64_t ret = 0;
    int rc = ST_CALL(fn, &x, 1, &ret, err, sizeof(err));
    tap_diag("%s: " ST_NAME(ST_CALL) ": %s", name, rc ? err : "(passed)");
    tap_ok(rc != 0 && strstr(err, needle1) && (!needle2 || strstr(err, needle2)),
           "%s: " ST_NAME(ST_CALL) " reports it, naming \"%s\"%s%s%s", name, needle1,
           needle2 ? " and \"" : "", needle2 ? needle2 : "", needle2 ? "\"" : "");
    tap_ok((ST_WORD)ret == x, "%s: the trampoline survived and returned its value", name);
}

static void abi_must_pass(const char *name, const void *fn, ST_WORD x, ST_WORD want)
{
    char err[512] = "";
    uint64_t ret = 0;
    int rc = ST_CALL(fn, &x, 1, &ret, err, sizeof(err));
    if (!tap_ok(rc == 0 && (ST_WORD)ret == want, "%s: " ST_NAME(ST_CALL) " passes "
                "(only its " ST_UNWIND_INFO " is wrong) and returns %" PRIu64, name,
                (uint64_t)want))
        tap_diag("%s: " ST_NAME(ST_CALL) ": %s, returned %" PRIu64, name,
                 rc ? err : "ok", (uint64_t)(ST_WORD)ret);
}

static void unwind_must_pass(const char *name, const void *fn, ST_WORD x)
{
    char err[512] = "";
    tap_ok(run_unwind(name, fn, &x, 1, err, sizeof(err)) == 0,
           "%s: " ST_NAME(ST_UNWIND) " passes (its " ST_UNWIND_INFO " is right)", name);
}

/* A negative control for the unwind checker: must fail "at fn+0xOFF ("
 * (unless off is ANY_OFFSET), naming needle (unless NULL). */
static void unwind_must_fail(const char *name, const void *fn, ST_WORD x,
                             long off, const char *needle)
{
    char err[512] = "", at[40] = "";
    int rc = run_unwind(name, fn, &x, 1, err, sizeof(err));
    if (off != ANY_OFFSET)
        snprintf(at, sizeof(at), "at fn%c0x%lx (", off < 0 ? '-' : '+',
                 off < 0 ? (unsigned long)-off : (unsigned long)off);
    tap_ok(rc != 0 && strstr(err, at) && (!needle || strstr(err, needle)),
           "%s: " ST_NAME(ST_UNWIND) " reports it%s%.*s%s%s%s", name,
           at[0] ? " " : "", at[0] ? (int)strlen(at) - 2 : 0, at,
           needle ? ", naming \"" : "", needle ? needle : "", needle ? "\"" : "");
}

/* The checker refuses a bad argument list rather than run it. */
static void bad_args_refused(const void *fn)
{
    ST_WORD a[ST_MAX_ARGS + 1] = { 0 };
    uint64_t ret;
    char err[512] = "", many[16];
    snprintf(many, sizeof(many), "nargs %d", ST_MAX_ARGS + 1);
    tap_ok(ST_CALL(fn, a, ST_MAX_ARGS + 1, &ret, err, sizeof(err)) != 0
           && strstr(err, many), ST_NAME(ST_CALL) " refuses %d arguments", ST_MAX_ARGS + 1);
    tap_ok(ST_UNWIND(fn, NULL, 2, NULL, err, sizeof(err)) != 0
           && strstr(err, "args NULL"), ST_NAME(ST_UNWIND) " refuses a NULL args list");
}

static long offset(const char *label, const char *fn)
{
    return (long)((uintptr_t)label - (uintptr_t)fn);
}

static void seed_from_env(void)
{
    const char *seed_env = getenv("ABI_SEED");
    char *end;
    unsigned long long seed;
    if (!seed_env || !*seed_env)
        return;
    seed = strtoull(seed_env, &end, 0);
    if (*end)
        tap_bail("ABI_SEED=%s is not a number", seed_env);
    abi_set_seed(seed);
    tap_diag("ABI_SEED=0x%llx", seed);
}

static void total_diag(void)
{
    tap_diag("total: %lu instructions single-stepped in %.2f s (%.1f us/step)",
             total_steps, total_time,
             total_steps ? total_time * 1e6 / (double)total_steps : 0.0);
}

#endif
