/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every exported function of the 32-bit layer's corpus (test/x86asm/
 * corpus.pl) through the cdecl ABI checker and the per-instruction CFI
 * checker (abi_cdecl.c), under qemu-i386.  Each case's result is compared
 * with a direct call's, so the checkers are known to have run the code.
 *   corpus_abi --list   prints the function names (test/t/82-x86-abi.t
 *                       compares them with the object's exports)
 *   corpus_abi --coverage FILE   writes the address of every instruction
 *                       single-stepped (82-x86-abi.t: all were)
 */
#include "../../support/abi/abi32_typed.h"
#include "../lib/tap.h"

#include <stdio.h>
#include <string.h>

#include "../x86asm/corpus.h"

uint32_t corpus_counter = 41;

static uint32_t words[9] = { 0x01020304, 5, 6, 7, 8, 9, 10, 11, 12 };
static uint8_t va[32], vb[32], vout[16];

#define PTR(p) ((uint32_t)(uintptr_t)(p))

/* The corpus's shapes, each a handle constructor (abi32_typed.h). */
typedef uint32_t u32x4_f(uint32_t, uint32_t, uint32_t, uint32_t);
typedef uint32_t loop_f(const uint32_t *, uint32_t);
typedef uint32_t sse2_f(const uint8_t *, const uint8_t *, uint8_t *, uint32_t);
typedef uint32_t u32_f(uint32_t);
typedef uint32_t u32v_f(void);
ABI32_SHAPE(u32x4, u32x4_f, 4)
ABI32_SHAPE(loop, loop_f, 2)
ABI32_SHAPE(sse2, sse2_f, 4)
ABI32_SHAPE(u32, u32_f, 1)
ABI32_SHAPE(u32v, u32v_f, 0)

enum which { SUM, LOOP, SSE2, TABLE, GLOBAL, FLAGS };

struct call {
    const char *name;       /* the exported symbol */
    const char *what;       /* which path the arguments take */
    enum which which;
    int nargs;
    uint32_t args[4];
};

static const struct call calls[] = {
    { "corpus_sum", "wparam after a push", SUM, 4, { 1, 20, 300, 4000 } },
    { "corpus_loop", "9 words", LOOP, 2, { PTR(words), 9 } },
    { "corpus_loop", "early return", LOOP, 2, { PTR(words), 0 } },
    { "corpus_sse2", "SSE2 and MMX", SSE2, 4, { PTR(va), PTR(vb), PTR(vout), 1 } },
    { "corpus_table", "picmeup table", TABLE, 1, { 13 } },
    { "corpus_global", "a C global", GLOBAL, 0, { 0 } },
    { "corpus_flags", "local call", FLAGS, 1, { 0x12345678 } },
};
#define NCALLS (sizeof(calls) / sizeof(calls[0]))

static struct code_handle handle(const struct call *c)
{
    switch (c->which) {
    case SUM: return abi32_u32x4(corpus_sum);
    case LOOP: return abi32_loop(corpus_loop);
    case SSE2: return abi32_sse2(corpus_sse2);
    case TABLE: return abi32_u32(corpus_table);
    case GLOBAL: return abi32_u32v(corpus_global);
    case FLAGS: break;
    }
    return abi32_u32(corpus_flags);
}

/* What a direct call returns (corpus_global: without its side effect). */
static uint32_t direct(const struct call *c)
{
    const uint32_t *a = c->args;
    switch (c->which) {
    case GLOBAL: {
        uint32_t r = corpus_global();
        corpus_counter--;
        return r;
    }
    case SUM:
        return corpus_sum(a[0], a[1], a[2], a[3]);
    case LOOP:
        return corpus_loop((const uint32_t *)(uintptr_t)a[0], a[1]);
    case SSE2:
        return corpus_sse2((const uint8_t *)(uintptr_t)a[0], (const uint8_t *)(uintptr_t)a[1],
                           (uint8_t *)(uintptr_t)a[2], a[3]);
    case TABLE:
        return corpus_table(a[0]);
    case FLAGS:
        break;
    }
    return corpus_flags(a[0]);
}

int main(int argc, char **argv)
{
    const char *coverage_file = argc > 2 && strcmp(argv[1], "--coverage") == 0 ? argv[2] : NULL;
    char err[512];

    if (argc > 1 && strcmp(argv[1], "--list") == 0) {
        for (size_t i = 0; i < NCALLS; i++)
            if (i == 0 || strcmp(calls[i].name, calls[i - 1].name) != 0)
                printf("%s\n", calls[i].name);
        return 0;
    }
    if (coverage_file && unwind32_coverage_start() != 0)
        tap_bail("no memory for the coverage map");
    for (unsigned i = 0; i < sizeof(va); i++) {
        va[i] = (uint8_t)(i * 7 + 1);
        vb[i] = (uint8_t)(i * 13 + 5);
    }
    for (size_t i = 0; i < NCALLS; i++) {
        const struct call *c = &calls[i];
        struct unwind_stats st;
        uint32_t want = direct(c), before = corpus_counter;
        uint64_t ret = 0;
        int rc = 0, k;
        for (k = 0; k < 8 && rc == 0; k++) {
            rc = abi32_call_fn(handle(c), c->args, c->nargs, &ret, err, sizeof(err));
            if (rc == 0 && (uint32_t)ret != want) {
                snprintf(err, sizeof(err), "returned 0x%08x, a direct call 0x%08x",
                         (unsigned)ret, (unsigned)want);
                rc = -1;
            }
            corpus_counter = before;
        }
        if (!tap_ok(rc == 0, "%s (%s): cdecl ABI kept, 8 calls with random registers",
                    c->name, c->what))
            tap_diag("%s: %s", c->name, err);
        rc = unwind32_check_fn(handle(c), c->args, c->nargs, &st, err, sizeof(err));
        if (!tap_ok(rc == 0 && st.steps > 0 && st.unwinds == st.steps,
                    "%s (%s): CFI right at all %lu instructions executed",
                    c->name, c->what, st.steps))
            tap_diag("%s: %s", c->name, err);
    }
    if (coverage_file && unwind32_coverage_write(coverage_file) != 0)
        tap_bail("cannot write %s", coverage_file);
    return tap_done();
}
