/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Self-test of the 32-bit ABI and CFI checkers (abi_cdecl.c) on the
 * hand-written functions of selftest_cdecl.S, under qemu-i386: every
 * well-behaved function passes both checkers and returns the right value;
 * every negative control is reported, naming the rule, the register or
 * the exact instruction.  The checks shared with the SysV end are
 * test/abi/selftest_core.h's.
 */
#include "../../support/abi/abi_cdecl.h"

#include <unistd.h>

#define ST_WORD         uint32_t
#define ST_MAX_ARGS     ABI32_MAX_ARGS
#define ST_CALL         abi32_call
#define ST_UNWIND       unwind32_check
#define ST_UNWIND_INFO  "CFI"
#include "../abi/selftest_core.h"

/* Functions of selftest_cdecl.S (declared as bytes: only addresses are used). */
extern const char st32_sum8[], st32_saveall[], st32_caller[], st32_local[],
    st32_frame[], st32_loop[], st32_bad_ebx[], st32_bad_ebx_after[],
    st32_bad_esi[], st32_bad_edi[], st32_bad_ebp[], st32_bad_ebp_after[],
    st32_bad_df[], st32_bad_esp_high[], st32_bad_esp_low[], st32_bad_emms[],
    st32_bad_fcw[], st32_bad_mxcsr[], st32_bad_cfi_push[],
    st32_bad_cfi_push_after[], st32_bad_cfi_reg[], st32_bad_cfi_reg_after[],
    st32_calls_bad[], st32_no_cfi[], st32_crash[], st32_crash_load[],
    st32_private[], st32_private_helper[], st32_private_helper_after[],
    st32_private_bad[];

static const struct good goods[] = {
    { "st32_sum8", st32_sum8, 8, { 1, 20, 300, 4000, 50000, 600000, 7000000, 80000000 },
      87654321 },
    { "st32_saveall", st32_saveall, 1, { 1000 }, 6 * 1000 + 15 },
    { "st32_caller", st32_caller, 2, { 100, 2000 }, 6 * 100 + 6 * 2000 + 30 },
    { "st32_local", st32_local, 1, { 0xdeadbeef }, 0xdeadbeef },
    { "st32_frame", st32_frame, 1, { 21 }, 42 },
    { "st32_loop", st32_loop, 1, { 50 }, 50 },
};

int main(void)
{
    char err[512], needle[200];

    seed_from_env();

    /* Well-behaved functions: both checkers pass, results are right. */
    for (size_t i = 0; i < sizeof(goods) / sizeof(goods[0]); i++)
        good_passes(&goods[i]);

    /* One violation per cdecl rule. */
    abi_must_fail("st32_bad_ebx", st32_bad_ebx, 5, "ebx not preserved", NULL);
    abi_must_fail("st32_bad_esi", st32_bad_esi, 6, "esi not preserved", NULL);
    abi_must_fail("st32_bad_edi", st32_bad_edi, 7, "edi not preserved", NULL);
    abi_must_fail("st32_bad_ebp", st32_bad_ebp, 8, "ebp not preserved", NULL);
    abi_must_fail("st32_bad_df", st32_bad_df, 9, "direction flag", NULL);
    abi_must_fail("st32_bad_esp_high", st32_bad_esp_high, 10, "esp not restored", "+4 bytes");
    abi_must_fail("st32_bad_esp_low", st32_bad_esp_low, 11, "esp not restored", "-8 bytes");
    abi_must_fail("st32_bad_emms", st32_bad_emms, 12, "x87 register stack not empty", "emms");
    abi_must_fail("st32_bad_fcw", st32_bad_fcw, 13, "x87 control word", NULL);
    abi_must_fail("st32_bad_mxcsr", st32_bad_mxcsr, 14, "MXCSR", NULL);
    /* The checker itself must still be sound after those. */
    {
        uint32_t a = 3;
        uint64_t ret = 0;
        int rc = abi32_call(st32_saveall, &a, 1, &ret, err, sizeof(err));
        if (!tap_ok(rc == 0 && (uint32_t)ret == 33,
                    "abi32_call still passes st32_saveall after the violations"))
            tap_diag("abi32_call: %s, returned %" PRIu64, rc ? err : "ok", ret);
    }
    /* A clobbered register also unwinds wrong ("same value" is a lie). */
    unwind_must_fail("st32_bad_ebx", st32_bad_ebx, 5,
                     offset(st32_bad_ebx_after, st32_bad_ebx) + 5, "unwound ebx");
    unwind_must_fail("st32_bad_ebp", st32_bad_ebp, 8,
                     offset(st32_bad_ebp_after, st32_bad_ebp) + 5, "unwound ebp");
    /* These break no unwinding rule. */
    unwind_must_pass("st32_bad_df", st32_bad_df, 9);
    unwind_must_pass("st32_bad_esp_high", st32_bad_esp_high, 10);
    unwind_must_pass("st32_bad_esp_low", st32_bad_esp_low, 11);

    /* Wrong CFI in ABI-correct functions, caught at the exact instruction. */
    abi_must_pass("st32_bad_cfi_push", st32_bad_cfi_push, 20, 20);
    unwind_must_fail("st32_bad_cfi_push", st32_bad_cfi_push, 20,
                     offset(st32_bad_cfi_push_after, st32_bad_cfi_push),
                     "unwound return address");
    abi_must_pass("st32_bad_cfi_reg", st32_bad_cfi_reg, 21, 22);
    unwind_must_fail("st32_bad_cfi_reg", st32_bad_cfi_reg, 21,
                     offset(st32_bad_cfi_reg_after, st32_bad_cfi_reg), "unwound edi");
    abi_must_pass("st32_calls_bad", st32_calls_bad, 22, 22);
    snprintf(needle, sizeof(needle), "depth 1, callee+0x%lx, callee at fn-0x%lx "
             "called from fn+0x7)", offset(st32_bad_cfi_push_after, st32_bad_cfi_push),
             offset(st32_calls_bad, st32_bad_cfi_push));
    unwind_must_fail("st32_calls_bad", st32_calls_bad, 22,
                     offset(st32_bad_cfi_push_after, st32_calls_bad), needle);
    abi_must_pass("st32_no_cfi", st32_no_cfi, 23, 24);
    unwind_must_fail("st32_no_cfi", st32_no_cfi, 23, 0, "no unwind info (FDE)");

    /* A callee with a private register convention: wrong by cdecl rules at
     * its own frame, right at fn's caller (what private_callees checks). */
    snprintf(needle, sizeof(needle), "depth 1, callee+0x%lx", offset(st32_private_helper_after,
             st32_private_helper));
    unwind_must_fail("st32_private, cdecl callees", st32_private, 30,
                     offset(st32_private_helper_after, st32_private), needle);
    unwind32_set_private_callees(1);
    unwind_must_pass("st32_private, private callees", st32_private, 30);
    abi_must_fail("st32_private_bad", st32_private_bad, 31, "ebx not preserved", NULL);
    unwind_must_fail("st32_private_bad, private callees", st32_private_bad, 31,
                     offset(st32_private_helper_after, st32_private_bad),
                     "2 frames up: unwound ebx");
    unwind32_set_private_callees(0);

    /* A crash inside fn is reported, not fatal. */
    unwind_must_fail("st32_crash", st32_crash, 0, offset(st32_crash_load, st32_crash),
                     "signal 11");

    /* The step limit; st32_loop(n) is 2n + 3 instructions long. */
    unwind_set_step_limit(1000);
    unwind_must_fail("st32_loop(1000000), limit 1000", st32_loop, 1000000, ANY_OFFSET,
                     "step limit reached: 1000 instructions");
    unwind_set_step_limit(2002);
    unwind_must_fail("st32_loop(1000), limit 2002", st32_loop, 1000, ANY_OFFSET,
                     "step limit reached: 2002 instructions");
    unwind_set_step_limit(2003);
    unwind_must_pass("st32_loop(1000), limit 2003", st32_loop, 1000);
    unwind_set_step_limit(20000000UL);

    /* The instruction trace the benchmark uses. */
    {
        uint32_t eips[16], x = 5;
        size_t n = 0;
        int rc = trace32_call(st32_loop, &x, 1, eips, 16, &n, err, sizeof(err));
        tap_ok(rc == 0 && n == 13 && eips[0] == (uintptr_t)st32_loop
               && eips[2] == eips[4] && eips[3] == eips[5],
               "trace32_call: st32_loop(5) runs 13 instructions, from its entry, "
               "looping (got %zu)", n);
    }

    /* Coverage: the addresses stepped, each once, in order. */
    {
        char path[] = "/tmp/selftest_cdecl.XXXXXX";
        unsigned lines = 0, first = 0, addr;
        int fd = mkstemp(path), rc;
        FILE *f;
        uint32_t x = 50;
        rc = fd >= 0 && unwind32_coverage_start() == 0
             && unwind32_check(st32_loop, &x, 1, NULL, err, sizeof(err)) == 0
             && unwind32_coverage_write(path) == 0;
        if (rc && (f = fopen(path, "r"))) {
            while (fscanf(f, "%x", &addr) == 1)
                if (lines++ == 0)
                    first = addr;
            fclose(f);
        }
        if (fd >= 0) {
            close(fd);
            unlink(path);
        }
        tap_ok(rc && lines == 5 && first == (uintptr_t)st32_loop,
               "coverage: st32_loop's 5 instructions recorded once each, from its entry "
               "(got %u)", lines);
    }

    /* Bad argument lists are refused, not run. */
    bad_args_refused(st32_sum8);

    total_diag();
    return tap_done();
}
