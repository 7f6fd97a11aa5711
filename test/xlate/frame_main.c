/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Runs the frame corpus (frame_corpus.s, translated by the 64-bit layer)
 * through the ABI and unwind checkers.  The same source is built for SysV
 * (ELF, native) and for Win64 (mingw64 and nasm flavours, under wine), so
 * one list of functions proves every ABI.  Prints TAP.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../../support/abi/abi_check.h"
#include "../../support/lib/code_handle.h"
#include "../lib/tap.h"

uint64_t fc_leaf(uint64_t, uint64_t, uint64_t);
uint64_t fc_push_all(uint64_t);
uint64_t fc_big_frame(uint64_t);
uint64_t fc_xmm(uint64_t);
uint64_t fc_args10(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t,
                   uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
uint64_t fc_calls(uint64_t);
uint64_t fc_raw(uint64_t, uint64_t);
uint64_t fc_bad_cfi(uint64_t);

/* The corpus's prototype shapes: each entry keeps its function with its
 * exact type, and the one conversion to a code address is code_handle's. */
typedef uint64_t fc_fn1(uint64_t);
typedef uint64_t fc_fn2(uint64_t, uint64_t);
typedef uint64_t fc_fn3(uint64_t, uint64_t, uint64_t);
typedef uint64_t fc_fn10(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t,
                         uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
CODE_HANDLE_SHAPE(fc_handle1, fc_fn1 *, 1)
CODE_HANDLE_SHAPE(fc_handle2, fc_fn2 *, 2)
CODE_HANDLE_SHAPE(fc_handle3, fc_fn3 *, 3)
CODE_HANDLE_SHAPE(fc_handle10, fc_fn10 *, 10)

struct corpus_fn {
    const char *name;
    fc_fn1 *f1;            /* exactly one of f1, f2, f3, f10 is set */
    fc_fn2 *f2;
    fc_fn3 *f3;
    fc_fn10 *f10;
    uint64_t args[ABI_MAX_ARGS];
    uint64_t want;
    int bad_unwind;        /* negative control: the unwind check must fail */
};

static const struct corpus_fn corpus[] = {
    { "fc_leaf", .f3 = fc_leaf, .args = { 5, 7, 11 }, .want = 5 + 14 + 33 },
    { "fc_push_all", .f1 = fc_push_all, .args = { 0x1234 }, .want = 0x1234 ^ 0x5a },
    { "fc_big_frame", .f1 = fc_big_frame, .args = { 3 }, .want = 3 * 512 },
    { "fc_xmm", .f1 = fc_xmm, .args = { 41 }, .want = 42 },
    { "fc_args10", .f10 = fc_args10, .args = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 },
      .want = 1 + 4 + 9 + 16 + 25 + 36 + 49 + 64 + 81 + 100 },
    { "fc_calls", .f1 = fc_calls, .args = { 10 }, .want = 61 },
    { "fc_raw", .f2 = fc_raw, .args = { 6, 7 }, .want = 45 },
    { "fc_bad_cfi", .f1 = fc_bad_cfi, .args = { 1 }, .want = 8, .bad_unwind = 1 },
};

static struct code_handle handle_of(const struct corpus_fn *c)
{
    return c->f1 ? fc_handle1(c->f1) : c->f2 ? fc_handle2(c->f2)
         : c->f3 ? fc_handle3(c->f3) : fc_handle10(c->f10);
}

int main(int argc, char **argv)
{
    const char *label = argc > 1 ? argv[1] : "";
    unsigned long total_steps = 0;

    for (size_t i = 0; i < sizeof(corpus) / sizeof(corpus[0]); i++) {
        const struct corpus_fn *c = &corpus[i];
        char err[512] = "";
        uint64_t ret = 0;

        const struct code_handle fn = handle_of(c);
        int rc = abi_call(fn.code, c->args, fn.nargs, &ret, err, sizeof(err));
        if (tap_ok(rc == 0 && ret == c->want,
                   "%s%s: result and callee-saved state (ABI checker)", label,
                   c->name)) {
        } else if (rc != 0) {
            tap_diag("%s", err);
        } else {
            tap_diag("returned %" PRIu64 ", expected %" PRIu64, ret, c->want);
        }

        struct unwind_stats st = { 0 };
#ifndef _WIN32
        const char *why = NULL;
        if (!unwind_check_available(&why)) {
            tap_skip(why, "%s%s: unwind check", label, c->name);
            continue;
        }
#endif
        err[0] = '\0';
        rc = unwind_check(fn.code, c->args, fn.nargs, &st, err, sizeof(err));
        if (c->bad_unwind) {
            /*
             * The unannotated state begins right after push %rbx and must
             * be caught there: after endbr64 (4 bytes) and push (1) on
             * SysV; on Win64 the layer first stores rdi and rsi in the
             * shadow space (5 + 5), copies rsp to rax (3) and moves rcx to
             * rdi (3), as OpenSSL's layer does.
             */
#ifdef _WIN32
            const char *where = "fn+0x15";
#else
            const char *where = "fn+0x5";
#endif
            tap_ok(rc != 0 && strstr(err, where) != NULL,
                   "%s%s: negative control, the missing CFI is reported at "
                   "%s", label, c->name, where);
            tap_diag("checker said: %s", rc ? err : "(nothing)");
        } else {
            if (!tap_ok(rc == 0 && st.steps > 0,
                        "%s%s: unwinds correctly at each of %lu instructions",
                        label, c->name, st.steps))
                tap_diag("%s", err);
            total_steps += st.steps;
        }
    }
    tap_diag("%s%lu instructions single-stepped, each unwound and checked",
             label, total_steps);
    return tap_done();
}
