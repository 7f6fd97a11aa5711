/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The smallest check of the 256-bit VAES round instructions: for each of
 * vaesenc, vaesenclast, vaesdec and vaesdeclast on ymm, with a different
 * state and round key in each 128-bit lane, every lane must equal the
 * legacy-SSE instruction (aesenc, ...) applied to that lane alone.  The
 * instructions are defined lane by lane, so this holds on any CPU with
 * VAES and AVX2.
 *
 * It exists because qemu-x86_64 7.2's TCG breaks it: its vaesenc and
 * vaesdec (not the *last forms) compute lane 1 from lane 0's state, so
 * under `qemu-x86_64 -cpu max` lane 1 comes out as lane 0's round with
 * lane 1's key.  test/t/13-dispatch.t runs this program natively (it must
 * pass) and under -cpu max, and when qemu fails it, runs the known answers
 * for `max` with VAES removed and names the skip (test/README.md).
 * qemu-i386 shares the helper: the -m32 build, build/m32/small/vaes_lanes,
 * fails the same way, and the 32-bit tests read it (test/lib/QemuVaes.pm,
 * 84-aesni-x86.t, 87-dispatch32.t).
 */
#include <stdio.h>
#include <string.h>

#include "cpuid/capset.h"
#include "impl.h"
#include "lib/tap.h"

#if defined(__x86_64__) || defined(__i386__)
/* -m32 code may name xmm registers in asm only where SSE is enabled. */
#if defined(__i386__)
#define LANE_FN __attribute__((target("sse2")))
#else
#define LANE_FN
#endif
/* Lane 1 differs from lane 0 in every byte, state and key alike. */
static unsigned char state[32], key[32];

/* One VEX.256 instruction on (state, key), and the SSE one per lane. */
#define ROUND_PAIR(name)                                                     \
    LANE_FN static void name##_ymm(unsigned char out[32])                    \
    {                                                                        \
        __asm__ volatile("vmovdqu %1, %%ymm0\n\t"                            \
                         "vmovdqu %2, %%ymm1\n\t"                            \
                         "v" #name " %%ymm1, %%ymm0, %%ymm0\n\t"             \
                         "vmovdqu %%ymm0, %0\n\t"                            \
                         "vzeroupper"                                        \
                         : "=m"(*(unsigned char(*)[32])out)                  \
                         : "m"(state), "m"(key) : "xmm0", "xmm1");           \
    }                                                                        \
    LANE_FN static void name##_xmm(const unsigned char *s,                   \
                                   const unsigned char *k,                   \
                                   unsigned char out[16])                    \
    {                                                                        \
        __asm__ volatile("movdqu %1, %%xmm0\n\t"                             \
                         "movdqu %2, %%xmm1\n\t"                             \
                         #name " %%xmm1, %%xmm0\n\t"                         \
                         "movdqu %%xmm0, %0"                                 \
                         : "=m"(*(unsigned char(*)[16])out)                  \
                         : "m"(*(const unsigned char(*)[16])s),              \
                           "m"(*(const unsigned char(*)[16])k)               \
                         : "xmm0", "xmm1");                                  \
    }

ROUND_PAIR(aesenc)
ROUND_PAIR(aesenclast)
ROUND_PAIR(aesdec)
ROUND_PAIR(aesdeclast)

static void check(const char *name, void (*ymm)(unsigned char[32]),
                  void (*xmm)(const unsigned char *, const unsigned char *,
                              unsigned char[16]))
{
    unsigned char got[32], want[32];
    ymm(got);
    xmm(state, key, want);
    xmm(state + 16, key + 16, want + 16);
    int lane0 = memcmp(got, want, 16) == 0, lane1 = memcmp(got + 16, want + 16, 16) == 0;
    if (!tap_ok(lane0 && lane1, "v%s ymm: each lane equals %s on that lane", name, name)) {
        tap_diag("lane 0 %s, lane 1 %s", lane0 ? "right" : "WRONG", lane1 ? "right" : "WRONG");
        tap_hexdump("expected", want, 32);
        tap_hexdump("got     ", got, 32);
    }
}

#endif

int main(void)
{
#if !defined(__x86_64__) && !defined(__i386__)
    tap_skip_all("the check is written for x86 (32- and 64-bit)");
#else
    static const unsigned int need[4] = CAPSET(AESNI, AVX2, VAES);
    if (!casm_cpu_has(need))
        tap_skip_all("this CPU has no VAES with AVX2 (OPENSSL_ia32cap_P)");
    for (int i = 0; i < 32; i++) {
        state[i] = (unsigned char)(7 * i + 1);
        key[i] = (unsigned char)(0x80 ^ (13 * i + 5));
    }
    check("aesenc", aesenc_ymm, aesenc_xmm);
    check("aesenclast", aesenclast_ymm, aesenclast_xmm);
    check("aesdec", aesdec_ymm, aesdec_xmm);
    check("aesdeclast", aesdeclast_ymm, aesdeclast_xmm);
    return tap_done();
#endif
}
