/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Self-test of the SysV ABI and unwind checkers (abi_sysv.c) on the
 * hand-written functions of selftest_sysv.S: every well-behaved function
 * passes both checkers and returns the right value, and every negative
 * control is reported, naming the right register or instruction offset.
 *
 * Environment: ABI_SEED (decimal or 0x-hex) seeds the random register
 * values; by default the checkers' fixed seed.
 */
#include "abi_check.h"
#include "../lib/tap.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

/* Functions of selftest_sysv.S (declared as bytes: only addresses are used). */
extern const char st_sum8[], st_poly10[], st_saveall[], st_frame[],
    st_caller[], st_recurse[], st_getpc[], st_align[], st_loop[], st_bad_r12[],
    st_bad_r12_after[], st_bad_df[], st_bad_mxcsr[], st_bad_rsp_low[],
    st_bad_rsp_high[], st_bad_cfi_push[], st_bad_cfi_push_after[],
    st_bad_cfi_reg[], st_bad_cfi_reg_after[], st_calls_bad[], st_no_cfi[],
    st_crash[], st_crash_load[];

#define ABI_CALLS 8     /* abi_call repeats: fresh random values each time */

struct good {
    const char *name;
    const char *fn;
    int nargs;
    uint64_t args[ABI_MAX_ARGS];
};

static const struct good goods[] = {
    { "st_sum8", st_sum8, 8,
      { 0x1111, 0x2222, 0x3333, 0x4444, 0x5555, 0x6666, 0x7777, 0x8888 } },
    { "st_poly10", st_poly10, 10,
      { 1000001, 2000003, 3000005, 4000007, 5000009, 6000011, 7000013,
        8000015, 9000017, 10000019 } },
    { "st_saveall", st_saveall, 1, { UINT64_C(0x0123456789abcdef) } },
    { "st_frame", st_frame, 1, { 77 } },
    { "st_caller", st_caller, 2, { 1000, 2000 } },
    { "st_recurse", st_recurse, 1, { 20 } },
    { "st_getpc", st_getpc, 1, { 42 } },
    { "st_align", st_align, 0, { 0 } },
};

/* What each well-behaved function should return. */
static uint64_t expected(const struct good *g)
{
    const uint64_t *a = g->args;
    uint64_t r = 0;
    if (g->fn == st_sum8) {
        for (int i = 0; i < 8; i++)
            r += a[i];
    } else if (g->fn == st_poly10) {
        for (int i = 0; i < 10; i++)
            r += (uint64_t)(i + 1) * a[i];
    } else if (g->fn == st_saveall) {
        r = 6 * a[0] + 15;
    } else if (g->fn == st_frame) {
        r = a[0] * (127 * 128 / 2);
    } else if (g->fn == st_caller) {
        r = 6 * a[0] + 6 * a[1] + 2;
    } else if (g->fn == st_recurse) {
        r = a[0] * (a[0] + 1) / 2;
    } else if (g->fn == st_getpc) {
        r = a[0];
    } else if (g->fn == st_align) {
        r = 0;
    }
    return r;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static unsigned long total_steps;
static double total_time;

/* unwind_check with timing and the step count in the diagnostics. */
static int run_unwind(const char *name, const void *fn, const uint64_t *args,
                      int nargs, char *err, size_t errlen)
{
    struct unwind_stats st;
    double t0 = now(), dt;
    int rc = unwind_check(fn, args, nargs, &st, err, errlen);
    dt = now() - t0;
    total_steps += st.steps;
    total_time += dt;
    /* Per-step cost only where the ~5 ms to fork and set up do not dominate. */
    if (st.steps >= 1000)
        tap_diag("%s: %lu instructions single-stepped, %lu unwinds checked, "
                 "%.1f ms (%.1f us/step)", name, st.steps, st.unwinds, dt * 1e3,
                 dt * 1e6 / (double)st.steps);
    else
        tap_diag("%s: %lu instructions single-stepped, %lu unwinds checked, %.1f ms",
                 name, st.steps, st.unwinds, dt * 1e3);
    if (rc != 0)
        tap_diag("%s: unwind_check: %s", name, err);
    return rc;
}

/* A negative control for abi_call: must fail, naming what it should. */
static void abi_must_fail(const char *name, const void *fn, uint64_t x,
                          const char *needle1, const char *needle2)
{
    char err[512] = "";
    uint64_t ret = 0;
    int rc = abi_call(fn, &x, 1, &ret, err, sizeof(err));
    tap_diag("%s: abi_call: %s", name, rc ? err : "(passed)");
    tap_ok(rc != 0 && strstr(err, needle1) && (!needle2 || strstr(err, needle2)),
           "%s: abi_call reports it, naming \"%s\"%s%s%s", name, needle1,
           needle2 ? " and \"" : "", needle2 ? needle2 : "", needle2 ? "\"" : "");
    tap_ok(ret == x, "%s: the trampoline survived and returned its value", name);
}

static void abi_must_pass(const char *name, const void *fn, uint64_t x, uint64_t want)
{
    char err[512] = "";
    uint64_t ret = 0;
    int rc = abi_call(fn, &x, 1, &ret, err, sizeof(err));
    if (!tap_ok(rc == 0 && ret == want, "%s: abi_call passes (only its unwind "
                "info is wrong) and returns %" PRIu64, name, want))
        tap_diag("%s: abi_call: %s, returned %" PRIu64, name, rc ? err : "ok", ret);
}

static void unwind_must_pass(const char *name, const void *fn, uint64_t x)
{
    char err[512] = "";
    tap_ok(run_unwind(name, fn, &x, 1, err, sizeof(err)) == 0,
           "%s: unwind_check passes (its unwind info is right)", name);
}

#define ANY_OFFSET LONG_MIN

/* A negative control for unwind_check: must fail "at fn+0xOFF (" (unless
 * off is ANY_OFFSET), naming needle (unless NULL). */
static void unwind_must_fail(const char *name, const void *fn, uint64_t x,
                             long off, const char *needle)
{
    char err[512] = "", at[40] = "";
    int rc = run_unwind(name, fn, &x, 1, err, sizeof(err));
    if (off != ANY_OFFSET)
        snprintf(at, sizeof(at), "at fn%c0x%lx (", off < 0 ? '-' : '+',
                 off < 0 ? (unsigned long)-off : (unsigned long)off);
    tap_ok(rc != 0 && strstr(err, at) && (!needle || strstr(err, needle)),
           "%s: unwind_check reports it%s%.*s%s%s%s", name,
           at[0] ? " " : "", at[0] ? (int)strlen(at) - 2 : 0, at,
           needle ? ", naming \"" : "", needle ? needle : "", needle ? "\"" : "");
}

static long offset(const char *label, const char *fn)
{
    return (long)((uintptr_t)label - (uintptr_t)fn);
}

int main(void)
{
    const char *why = NULL, *seed_env = getenv("ABI_SEED");
    char err[512], needle[200];

    if (!unwind_check_available(&why))
        tap_skip_all("unwind checker not available: %s", why);
    if (seed_env && *seed_env) {
        char *end;
        uint64_t seed = strtoull(seed_env, &end, 0);
        if (*end)
            tap_bail("ABI_SEED=%s is not a number", seed_env);
        abi_set_seed(seed);
        tap_diag("ABI_SEED=0x%" PRIx64, seed);
    }

    /* Well-behaved functions: both checkers pass, results are right. */
    for (size_t i = 0; i < sizeof(goods) / sizeof(goods[0]); i++) {
        const struct good *g = &goods[i];
        uint64_t want = expected(g), ret = 0;
        int rc = 0;
        for (int k = 0; k < ABI_CALLS && rc == 0; k++) {
            ret = 0;
            rc = abi_call(g->fn, g->args, g->nargs, &ret, err, sizeof(err));
            if (rc == 0 && ret != want)
                rc = 1;
        }
        if (!tap_ok(rc == 0, "%s: abi_call passes %d times, returning %" PRIu64,
                    g->name, ABI_CALLS, want))
            tap_diag("%s: %s, returned %" PRIu64, g->name,
                     rc < 0 ? err : "no violation", ret);
        tap_ok(run_unwind(g->name, g->fn, g->args, g->nargs, err, sizeof(err)) == 0,
               "%s: unwind_check passes", g->name);
    }

    /* ABI violations. */
    abi_must_fail("st_bad_r12", st_bad_r12, 5, "r12 not preserved", NULL);
    abi_must_fail("st_bad_df", st_bad_df, 6, "direction flag", NULL);
    abi_must_fail("st_bad_mxcsr", st_bad_mxcsr, 7, "MXCSR", NULL);
    abi_must_fail("st_bad_rsp_low", st_bad_rsp_low, 8, "rsp not restored", "-8 bytes");
    abi_must_fail("st_bad_rsp_high", st_bad_rsp_high, 9, "rsp not restored", "+24 bytes");
    /* The checker itself must still be sound after those. */
    {
        uint64_t ret = 0, a = 3;
        tap_ok(abi_call(st_saveall, &a, 1, &ret, err, sizeof(err)) == 0 && ret == 33,
               "abi_call still passes st_saveall after the violations");
    }
    /* A clobbered register also unwinds wrong ("same value" is a lie). */
    unwind_must_fail("st_bad_r12", st_bad_r12, 5,
                     offset(st_bad_r12_after, st_bad_r12), "unwound r12");
    /* The rest break no unwinding rule. */
    unwind_must_pass("st_bad_df", st_bad_df, 6);
    unwind_must_pass("st_bad_rsp_low", st_bad_rsp_low, 8);
    unwind_must_pass("st_bad_rsp_high", st_bad_rsp_high, 9);

    /* Wrong unwind info in ABI-correct functions. */
    abi_must_pass("st_bad_cfi_push", st_bad_cfi_push, 10, 10);
    unwind_must_fail("st_bad_cfi_push", st_bad_cfi_push, 10,
                     offset(st_bad_cfi_push_after, st_bad_cfi_push),
                     "unwound return address");
    abi_must_pass("st_bad_cfi_reg", st_bad_cfi_reg, 11, 12);
    unwind_must_fail("st_bad_cfi_reg", st_bad_cfi_reg, 11,
                     offset(st_bad_cfi_reg_after, st_bad_cfi_reg), "unwound r14");
    abi_must_pass("st_calls_bad", st_calls_bad, 12, 12);
    snprintf(needle, sizeof(needle), "depth 1, callee+0x%lx, callee at fn-0x%lx "
             "called from fn+0x8)", offset(st_bad_cfi_push_after, st_bad_cfi_push),
             offset(st_calls_bad, st_bad_cfi_push));
    unwind_must_fail("st_calls_bad", st_calls_bad, 12,
                     offset(st_bad_cfi_push_after, st_calls_bad), needle);
    abi_must_pass("st_no_cfi", st_no_cfi, 13, 14);
    /* Where libunwind notices is its business; that it does is ours. */
    unwind_must_fail("st_no_cfi", st_no_cfi, 13, ANY_OFFSET, NULL);

    /* A crash inside fn is reported, not fatal. */
    unwind_must_fail("st_crash", st_crash, 0, offset(st_crash_load, st_crash),
                     "signal 11");

    /* The step limit; st_loop(1000) is 2002 instructions long. */
    unwind_set_step_limit(1000);
    unwind_must_fail("st_loop(1000000), limit 1000", st_loop, 1000000, ANY_OFFSET,
                     "step limit reached: 1000 instructions");
    unwind_set_step_limit(2001);
    unwind_must_fail("st_loop(1000), limit 2001", st_loop, 1000, ANY_OFFSET,
                     "step limit reached: 2001 instructions");
    unwind_set_step_limit(2002);
    unwind_must_pass("st_loop(1000), limit 2002", st_loop, 1000);
    unwind_set_step_limit(50000000UL);

    /* Bad argument lists are refused, not run. */
    {
        uint64_t a[ABI_MAX_ARGS + 1] = { 0 }, ret;
        tap_ok(abi_call(st_sum8, a, ABI_MAX_ARGS + 1, &ret, err, sizeof(err)) != 0
               && strstr(err, "nargs 11"), "abi_call refuses 11 arguments");
        tap_ok(unwind_check(st_sum8, NULL, 2, NULL, err, sizeof(err)) != 0
               && strstr(err, "args NULL"), "unwind_check refuses a NULL args list");
    }

    /* Every traced child was reaped. */
    errno = 0;
    tap_ok(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD,
           "no child process left behind");

    tap_diag("total: %lu instructions single-stepped in %.2f s (%.1f us/step)",
             total_steps, total_time,
             total_steps ? total_time * 1e6 / (double)total_steps : 0.0);
    return tap_done();
}
