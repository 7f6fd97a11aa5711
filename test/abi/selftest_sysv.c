/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Self-test of the SysV ABI and unwind checkers (abi_sysv.c) on the
 * hand-written functions of selftest_sysv.S: every well-behaved function
 * passes both checkers and returns the right value, and every negative
 * control is reported, naming the right register or instruction offset.
 * The checks themselves are selftest_core.h's, shared with the cdecl end.
 */
#include "../../support/abi/abi_check.h"

#include <errno.h>
#include <sys/wait.h>

#define ST_WORD         uint64_t
#define ST_MAX_ARGS     ABI_MAX_ARGS
#define ST_CALL         abi_call
#define ST_UNWIND       unwind_check
#define ST_UNWIND_INFO  "unwind info"
#include "selftest_core.h"

/* Functions of selftest_sysv.S (declared as bytes: only addresses are used). */
extern const char st_sum8[], st_poly10[], st_saveall[], st_frame[],
    st_caller[], st_recurse[], st_getpc[], st_align[], st_loop[], st_bad_r12[],
    st_bad_r12_after[], st_bad_df[], st_bad_mxcsr[], st_bad_rsp_low[],
    st_bad_rsp_high[], st_bad_cfi_push[], st_bad_cfi_push_after[],
    st_bad_cfi_reg[], st_bad_cfi_reg_after[], st_calls_bad[], st_no_cfi[],
    st_crash[], st_crash_load[];

static const struct good goods[] = {
    { "st_sum8", st_sum8, 8,
      { 0x1111, 0x2222, 0x3333, 0x4444, 0x5555, 0x6666, 0x7777, 0x8888 }, 0x1111 * 36 },
    { "st_poly10", st_poly10, 10,       /* the sum of (i + 1) * args[i] */
      { 1000001, 2000003, 3000005, 4000007, 5000009, 6000011, 7000013,
        8000015, 9000017, 10000019 }, 385000715 },
    { "st_saveall", st_saveall, 1, { UINT64_C(0x0123456789abcdef) },
      6 * UINT64_C(0x0123456789abcdef) + 15 },
    { "st_frame", st_frame, 1, { 77 }, 77 * (127 * 128 / 2) },
    { "st_caller", st_caller, 2, { 1000, 2000 }, 6 * 1000 + 6 * 2000 + 2 },
    { "st_recurse", st_recurse, 1, { 20 }, 20 * 21 / 2 },
    { "st_getpc", st_getpc, 1, { 42 }, 42 },
    { "st_align", st_align, 0, { 0 }, 0 },
};

int main(void)
{
    const char *why = NULL;
    char err[512], needle[200];

    if (!unwind_check_available(&why))
        tap_skip_all("unwind checker not available: %s", why);
    seed_from_env();

    /* Well-behaved functions: both checkers pass, results are right. */
    for (size_t i = 0; i < sizeof(goods) / sizeof(goods[0]); i++)
        good_passes(&goods[i]);

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
    bad_args_refused(st_sum8);

    /* Every traced child was reaped. */
    errno = 0;
    tap_ok(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD,
           "no child process left behind");

    total_diag();
    return tap_done();
}
