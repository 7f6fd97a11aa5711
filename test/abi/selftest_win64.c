/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Self-test of the Win64 ABI and unwind checkers (abi_win64.c), TAP on
 * stdout.  Built with x86_64-w64-mingw32-gcc and run under wine64 by
 * test/t/51-abi-win64.t.
 *
 * The functions come from selftest_win64.pl, generated through the 64-bit
 * layer once per flavour (mingw64_*, nasm_*).  Good ones must pass both
 * checkers, return the right value and be single-stepped through exactly
 * as many instructions as they execute.  Negative controls must be
 * reported by the right checker, with the right register and, for unwind
 * errors, at the right instruction (the asm exports a <name>_fail label
 * there).
 */
#include "../../support/abi/abi_check.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum ret_kind { RET_ANY, RET_SUM, RET_ARG0, RET_ARG0_PLUS_1, RET_55 };

/* Every function: name, what it returns, instructions executed (callees
 * included), what abi_call and unwind_check report (NULL: pass). */
#define CASES(X, F) \
    X(F##sum10, RET_SUM, 10, NULL, NULL) \
    X(F##push_all, RET_ANY, 27, NULL, NULL) \
    X(F##frame, RET_ARG0, 24, NULL, NULL) \
    X(F##xmm, RET_ANY, 33, NULL, NULL) \
    X(F##savereg, RET_ARG0_PLUS_1, 10, NULL, NULL) \
    X(F##caller, RET_55, 19 + 10 + 27, NULL, NULL) \
    X(F##bad_rsi, RET_ANY, 2, "rsi not preserved", "unwound rsi") \
    X(F##bad_xmm7, RET_ANY, 2, "xmm7 not preserved", "unwound xmm7") \
    X(F##bad_df, RET_ANY, 2, "direction flag", NULL) \
    X(F##bad_pushreg, RET_ANY, 4, NULL, "unwound rsi") \
    X(F##bad_noalloc, RET_ANY, 6, NULL, "return address") \
    X(F##bad_leafpush, RET_ANY, 3, NULL, "return address") \
    X(F##bad_rsp, RET_ANY, 4, "rsp not restored: fn returned with rsp -8", "return address") \
    X(F##bad_fpreg, RET_ANY, 5, NULL, "RtlVirtualUnwind faulted") \
    X(F##bad_order, RET_ANY, 6, NULL, "unwound rbx")

/* The functions, and the first instruction unwind_check must blame. */
#define DECLARE(name, ret, steps, abi, unw) \
    extern void name(void); extern const unsigned char name##_fail[];
CASES(DECLARE, mingw64_)
CASES(DECLARE, nasm_)

struct tcase {
    const char *name;
    void (*fn)(void);
    enum ret_kind ret;
    unsigned long steps;   /* instructions executed, callees included */
    const char *abi_err;   /* NULL: abi_call passes; else in its message */
    const char *unw_err;   /* NULL: unwind_check passes; else in its message */
    const unsigned char *fail_at; /* first instruction unwind_check blames */
};

#define ROW(name, ret, steps, abi, unw) { #name, name, ret, steps, abi, unw, name##_fail },
static const struct tcase cases[] = { CASES(ROW, mingw64_) CASES(ROW, nasm_) };
#define NCASES (sizeof(cases) / sizeof(cases[0]))

/* ISO C has no function-to-object pointer conversion; go through an integer. */
static const void *code_ptr(void (*fn)(void))
{
    return (const void *)(uintptr_t)fn;
}

static int ret_ok(enum ret_kind kind, const uint64_t *args, uint64_t got)
{
    uint64_t sum = 0;
    switch (kind) {
    case RET_SUM:
        for (int i = 0; i < ABI_MAX_ARGS; i++)
            sum += args[i];
        return got == sum;
    case RET_ARG0: return got == args[0];
    case RET_ARG0_PLUS_1: return got == args[0] + args[1];
    case RET_55: return got == 55;
    default: return 1;
    }
}

static void run_case(const struct tcase *t)
{
    uint64_t args[ABI_MAX_ARGS], ret = 0;
    struct unwind_stats st;
    char err[1024];
    int rc;

    for (int i = 0; i < ABI_MAX_ARGS; i++)
        args[i] = 0x1111111111111111ull * (uint64_t)(i + 1) + 0x0102030405060708ull;

    rc = abi_call(code_ptr(t->fn), args, ABI_MAX_ARGS, &ret, err, sizeof(err));
    if (t->abi_err == NULL) {
        if (!tap_ok(rc == 0 && ret_ok(t->ret, args, ret), "abi_call %s", t->name))
            tap_diag("  rc %d, rax 0x%llx: %s", rc, (unsigned long long)ret, err);
    } else {
        if (!tap_ok(rc != 0 && strstr(err, t->abi_err) != NULL,
                    "abi_call %s reports \"%s\"", t->name, t->abi_err))
            tap_diag("  rc %d", rc);
        tap_diag("  %s", rc ? err : "(no error reported)");
    }

    rc = unwind_check(code_ptr(t->fn), args, ABI_MAX_ARGS, &st, err, sizeof(err));
    if (t->unw_err == NULL) {
        if (!tap_ok(rc == 0 && st.steps == t->steps && st.unwinds == t->steps,
                    "unwind_check %s: %lu instructions", t->name, t->steps))
            tap_diag("  rc %d, %lu steps, %lu unwinds: %s", rc, st.steps,
                     st.unwinds, rc ? err : "");
    } else {
        char where[32];
        snprintf(where, sizeof(where), "at fn+0x%lx (",
                 (unsigned long)(t->fail_at - (const unsigned char *)code_ptr(t->fn)));
        if (!tap_ok(rc != 0 && strncmp(err, where, strlen(where)) == 0
                        && strstr(err, t->unw_err) != NULL && st.steps == t->steps,
                    "unwind_check %s reports \"%s\" %.*s", t->name, t->unw_err,
                    (int)strlen(where) - 2, where))
            tap_diag("  rc %d, %lu steps (want %lu)", rc, st.steps, t->steps);
        tap_diag("  %s", rc ? err : "(no error reported)");
    }
}

int main(void)
{
    uint64_t args[ABI_MAX_ARGS + 1] = { 0 };
    struct unwind_stats st;
    char err[1024];

    tap_plan((int)(2 * NCASES + 4));
    for (size_t i = 0; i < NCASES; i++)
        run_case(&cases[i]);

    /* The runaway guard stops stepping, and fn still completes. */
    unwind_set_step_limit(5);
    if (!tap_ok(unwind_check(code_ptr(mingw64_xmm), args, ABI_MAX_ARGS, &st, err,
                             sizeof(err)) != 0
                    && strstr(err, "step limit reached: 5 instructions") != NULL
                    && st.steps == 5,
                "a step limit of 5 stops unwind_check mingw64_xmm after 5 steps"))
        tap_diag("  %lu steps: %s", st.steps, err);
    unwind_set_step_limit(2000000);
    if (!tap_ok(unwind_check(code_ptr(mingw64_xmm), args, ABI_MAX_ARGS, &st, err,
                             sizeof(err)) == 0 && st.steps == 33,
                "then unwind_check mingw64_xmm runs all 33 steps again"))
        tap_diag("  %lu steps: %s", st.steps, err);

    /* Argument validation. */
    tap_ok(abi_call(code_ptr(mingw64_sum10), args, ABI_MAX_ARGS + 1, NULL, err,
                    sizeof(err)) != 0 && strstr(err, "nargs") != NULL,
           "abi_call refuses %d arguments", ABI_MAX_ARGS + 1);
    tap_ok(unwind_check(NULL, args, 0, &st, err, sizeof(err)) != 0,
           "unwind_check refuses a NULL function");
    return tap_done();
}
