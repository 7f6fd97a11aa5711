/* SPDX-License-Identifier: Apache-2.0 */
/* Calls every function of test/x86asm/corpus.pl (32-bit perlasm layer)
 * and prints TAP (test/lib/tap.h).  Built with gcc -m32 (run under qemu-i386) and with
 * mingw i686 (linked only: Win32 programs cannot run here). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../lib/tap.h"
#include "corpus.h"

uint32_t corpus_counter = 41;

static void check(int ok, const char *what, uint32_t got, uint32_t want)
{
    if (!tap_ok(ok, "%s", what))
        tap_diag("got 0x%08x, want 0x%08x", (unsigned)got, (unsigned)want);
}

#define CHECK(expr, want, what) do { uint32_t g_ = (expr), w_ = (want); \
        check(g_ == w_, what, g_, w_); } while (0)

static uint32_t ref_flags(uint32_t x)
{
    uint32_t ebx = (x << 8) | (x >> 24);
    uint32_t ecx;
    ebx = (ebx & ~0xffu) | ((ebx ^ x) & 0xffu);
    ecx = (x & 0xffffu) >> 3;
    return ~(ebx + ecx * 8 + 7);
}

int main(void)
{
    uint32_t v[9] = { 0x01020304, 5, 6, 7, 8, 9, 10, 11, 12 }, sum = 0;
    uint8_t a[32], b[32], out[16], want[16];
    uint32_t lanes[4] = { 1, 2, 3, 4 }, w;
    uint32_t tbl[8] = { 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80 };
    unsigned i;

    CHECK(corpus_sum(1, 20, 300, 4000), 4321, "corpus_sum: stack arguments through wparam");
    CHECK(corpus_sum(0xffffffff, 2, 0, 0), 1, "corpus_sum: wraps modulo 2^32");
    for (i = 0; i < 9; i++)
        sum += v[i];
    CHECK(corpus_loop(v, 9), sum, "corpus_loop: sum of 9 words");
    CHECK(corpus_loop(v, 0), 0, "corpus_loop: early return through function_end_A");
    CHECK(corpus_loop(v + 1, 1), 5, "corpus_loop: one word");

    for (i = 0; i < 32; i++) {
        a[i] = (uint8_t)(i * 7 + 1);
        b[i] = (uint8_t)(i * 13 + 5);
    }
    for (i = 0; i < 16; i += 4) {
        uint32_t x, y;
        memcpy(&x, a + 16 + i, 4);
        memcpy(&y, b + 16 + i, 4);
        x = (x ^ y) + lanes[i / 4];
        memcpy(want + i, &x, 4);
    }
    {
        uint32_t a1, b1, r;
        memcpy(&a1, a + 4, 4);
        memcpy(&b1, b + 4, 4);
        memcpy(&w, want, 4);
        r = corpus_sse2(a, b, out, 1);
        CHECK(memcmp(out, want, 16) == 0, 1, "corpus_sse2: xmm with base+index*scale memory operands");
        CHECK(r, w + a1 + b1, "corpus_sse2: MMX lanes and movd");
    }
    for (i = 0; i < 10; i++) {
        char what[64];
        snprintf(what, sizeof what, "corpus_table(%u): picmeup + read-only table", i);
        CHECK(corpus_table(i), tbl[i & 7], what);
    }
    CHECK(corpus_global(), 42, "corpus_global: a C global through picmeup");
    CHECK(corpus_counter, 42, "corpus_global: stored back");
    CHECK(corpus_flags(0x12345678), ref_flags(0x12345678), "corpus_flags: byte/word registers, local call");
    return tap_done();
}
