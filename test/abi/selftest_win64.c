/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Self-test of the Win64 ABI and unwind checkers (abi_win64.c), TAP on
 * stdout.  Built with x86_64-w64-mingw32-gcc and run under wine64 by
 * test/t/51-abi-win64.t.
 *
 * The functions come from selftest_win64.S (GNU as, .seh_* directives) and
 * selftest_win64_nasm.asm (nasm, hand-written .pdata/.xdata).  Good ones
 * must pass both checkers, return the right value and be single-stepped
 * through exactly as many instructions as they execute.  Negative controls
 * must be reported by the right checker, with the right register and, for
 * unwind errors, at the right instruction (the asm exports a <name>_fail
 * label there).
 */
#include "../../support/abi/abi_check.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FN(name) extern void name(void)
#define MARK(name) extern const unsigned char name[]

FN(gas_sum10); FN(gas_push_all); FN(gas_frame); FN(gas_xmm);
FN(gas_savereg); FN(gas_caller);
FN(gas_bad_rsi); FN(gas_bad_xmm7); FN(gas_bad_df); FN(gas_bad_pushreg);
FN(gas_bad_noalloc); FN(gas_bad_leafpush); FN(gas_bad_rsp);
FN(gas_bad_fpreg);
MARK(gas_bad_rsi_fail); MARK(gas_bad_xmm7_fail); MARK(gas_bad_pushreg_fail);
MARK(gas_bad_noalloc_fail); MARK(gas_bad_leafpush_fail);
MARK(gas_bad_rsp_fail); MARK(gas_bad_fpreg_fail);

FN(nasm_sum10); FN(nasm_push_all); FN(nasm_frame); FN(nasm_xmm);
FN(nasm_savereg); FN(nasm_caller);
FN(nasm_bad_rsi); FN(nasm_bad_xmm7); FN(nasm_bad_df); FN(nasm_bad_pushreg);
FN(nasm_bad_noalloc); FN(nasm_bad_order);
MARK(nasm_bad_rsi_fail); MARK(nasm_bad_xmm7_fail);
MARK(nasm_bad_pushreg_fail); MARK(nasm_bad_noalloc_fail);
MARK(nasm_bad_order_fail);

enum ret_kind { RET_ANY, RET_SUM, RET_ARG0, RET_ARG0_PLUS_1, RET_55 };

struct tcase {
    const char *name;
    void (*fn)(void);
    enum ret_kind ret;
    unsigned long steps;   /* instructions executed, callees included */
    const char *abi_err;   /* NULL: abi_call passes; else in its message */
    const char *unw_err;   /* NULL: unwind_check passes; else in its message */
    const unsigned char *fail_at; /* first instruction unwind_check blames */
};

#define GOOD(name, ret, steps) { #name, name, ret, steps, NULL, NULL, NULL }

static const struct tcase cases[] = {
    GOOD(gas_sum10, RET_SUM, 10),
    GOOD(gas_push_all, RET_ANY, 27),
    GOOD(gas_frame, RET_ARG0, 13),
    GOOD(gas_xmm, RET_ANY, 33),
    GOOD(gas_savereg, RET_ARG0_PLUS_1, 10),
    GOOD(gas_caller, RET_55, 19 + 10 + 27),
    { "gas_bad_rsi", gas_bad_rsi, RET_ANY, 2, "rsi changed", "rsi after unwinding",
      gas_bad_rsi_fail },
    { "gas_bad_xmm7", gas_bad_xmm7, RET_ANY, 2, "xmm7 changed", "xmm7 after unwinding",
      gas_bad_xmm7_fail },
    { "gas_bad_df", gas_bad_df, RET_ANY, 2, "direction flag", NULL, NULL },
    { "gas_bad_pushreg", gas_bad_pushreg, RET_ANY, 4, NULL, "rsi after unwinding",
      gas_bad_pushreg_fail },
    { "gas_bad_noalloc", gas_bad_noalloc, RET_ANY, 6, NULL, "return address",
      gas_bad_noalloc_fail },
    { "gas_bad_leafpush", gas_bad_leafpush, RET_ANY, 3, NULL, "return address",
      gas_bad_leafpush_fail },
    { "gas_bad_rsp", gas_bad_rsp, RET_ANY, 4, "stack pointer off by -8",
      "return address", gas_bad_rsp_fail },
    { "gas_bad_fpreg", gas_bad_fpreg, RET_ANY, 5, NULL, "RtlVirtualUnwind faulted",
      gas_bad_fpreg_fail },

    GOOD(nasm_sum10, RET_SUM, 10),
    GOOD(nasm_push_all, RET_ANY, 27),
    GOOD(nasm_frame, RET_ARG0, 24),
    GOOD(nasm_xmm, RET_ANY, 33),
    GOOD(nasm_savereg, RET_ARG0_PLUS_1, 10),
    GOOD(nasm_caller, RET_55, 19 + 10 + 27),
    { "nasm_bad_rsi", nasm_bad_rsi, RET_ANY, 2, "rsi changed", "rsi after unwinding",
      nasm_bad_rsi_fail },
    { "nasm_bad_xmm7", nasm_bad_xmm7, RET_ANY, 2, "xmm7 changed",
      "xmm7 after unwinding", nasm_bad_xmm7_fail },
    { "nasm_bad_df", nasm_bad_df, RET_ANY, 2, "direction flag", NULL, NULL },
    { "nasm_bad_pushreg", nasm_bad_pushreg, RET_ANY, 4, NULL, "rsi after unwinding",
      nasm_bad_pushreg_fail },
    { "nasm_bad_noalloc", nasm_bad_noalloc, RET_ANY, 6, NULL, "return address",
      nasm_bad_noalloc_fail },
    { "nasm_bad_order", nasm_bad_order, RET_ANY, 6, NULL, "rbx after unwinding",
      nasm_bad_order_fail },
};
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
        snprintf(where, sizeof(where), "fn+0x%lx:",
                 (unsigned long)(t->fail_at - (const unsigned char *)code_ptr(t->fn)));
        if (!tap_ok(rc != 0 && strncmp(err, where, strlen(where)) == 0
                        && strstr(err, t->unw_err) != NULL && st.steps == t->steps,
                    "unwind_check %s reports \"%s\" at %s", t->name, t->unw_err,
                    where))
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
    _putenv("ABI_MAX_STEPS=5");
    if (!tap_ok(unwind_check(code_ptr(gas_xmm), args, ABI_MAX_ARGS, &st, err,
                             sizeof(err)) != 0
                    && strstr(err, "gave up after 5 instructions") != NULL
                    && st.steps == 5,
                "ABI_MAX_STEPS=5 stops unwind_check gas_xmm after 5 steps"))
        tap_diag("  %lu steps: %s", st.steps, err);
    _putenv("ABI_MAX_STEPS=");
    if (!tap_ok(unwind_check(code_ptr(gas_xmm), args, ABI_MAX_ARGS, &st, err,
                             sizeof(err)) == 0 && st.steps == 33,
                "then unwind_check gas_xmm runs all 33 steps again"))
        tap_diag("  %lu steps: %s", st.steps, err);

    /* Argument validation. */
    tap_ok(abi_call(code_ptr(gas_sum10), args, ABI_MAX_ARGS + 1, NULL, err,
                    sizeof(err)) != 0 && strstr(err, "nargs") != NULL,
           "abi_call refuses %d arguments", ABI_MAX_ARGS + 1);
    tap_ok(unwind_check(NULL, args, 0, &st, err, sizeof(err)) != 0,
           "unwind_check refuses a NULL function");
    return tap_done();
}
