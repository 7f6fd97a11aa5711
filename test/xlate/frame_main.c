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

#include "../abi/abi_check.h"
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

struct corpus_fn {
    const char *name;
    const void *fn;
    int nargs;
    uint64_t args[ABI_MAX_ARGS];
    uint64_t want;
    int bad_unwind;        /* negative control: the unwind check must fail */
};

static const struct corpus_fn corpus[] = {
    { "fc_leaf", (const void *)fc_leaf, 3, { 5, 7, 11 }, 5 + 14 + 33, 0 },
    { "fc_push_all", (const void *)fc_push_all, 1, { 0x1234 }, 0x1234 ^ 0x5a, 0 },
    { "fc_big_frame", (const void *)fc_big_frame, 1, { 3 }, 3 * 512, 0 },
    { "fc_xmm", (const void *)fc_xmm, 1, { 41 }, 42, 0 },
    { "fc_args10", (const void *)fc_args10, 10, { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 },
      1 + 4 + 9 + 16 + 25 + 36 + 49 + 64 + 81 + 100, 0 },
    { "fc_calls", (const void *)fc_calls, 1, { 10 }, 61, 0 },
    { "fc_raw", (const void *)fc_raw, 2, { 6, 7 }, 45, 0 },
    { "fc_bad_cfi", (const void *)fc_bad_cfi, 1, { 1 }, 8, 1 },
};

int main(int argc, char **argv)
{
    const char *label = argc > 1 ? argv[1] : "";
    unsigned long total_steps = 0;

    for (size_t i = 0; i < sizeof(corpus) / sizeof(corpus[0]); i++) {
        const struct corpus_fn *c = &corpus[i];
        char err[512] = "";
        uint64_t ret = 0;

        int rc = abi_call(c->fn, c->args, c->nargs, &ret, err, sizeof(err));
        if (tap_ok(rc == 0 && ret == c->want,
                   "%s%s: result and callee-saved state (ABI checker)", label,
                   c->name)) {
        } else if (rc != 0) {
            tap_diag("%s", err);
        } else {
            tap_diag("returned %" PRIu64 ", expected %" PRIu64, ret, c->want);
        }

        struct unwind_stats st = { 0, 0 };
#ifndef _WIN32
        const char *why = NULL;
        if (!unwind_check_available(&why)) {
            tap_skip(why, "%s%s: unwind check", label, c->name);
            continue;
        }
#endif
        err[0] = '\0';
        rc = unwind_check(c->fn, c->args, c->nargs, &st, err, sizeof(err));
        if (c->bad_unwind) {
            /*
             * The unannotated state begins right after push %rbx and must
             * be caught there: after endbr64 (4 bytes) and push (1) on
             * SysV; on Win64 the layer first stores rdi and rsi in the
             * shadow space (5 + 5), copies rsp to rax (3) and moves rcx
             * to rdi (3).
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
