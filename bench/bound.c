/* SPDX-License-Identifier: Apache-2.0 */
#include "bound.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cpuid/capset.h"
#include "tsc.h"

/*
 * The loops.  Each is one asm statement, so the compiler can neither
 * reorder nor drop its instructions: a body of twelve instructions run
 * `n` times, on register contents that do not matter (AES and SHA rounds
 * of any bits take the same time).  "Independent" bodies give each of
 * xmm0..xmm11 its own chain, keyed by xmm12: twelve in flight covers
 * latency x issue rate on the cores in question (4 x 2 = 8 aesenc on
 * AMD Zen 4, 3 x 2 = 6 on recent Intel cores).  "Chain" bodies feed each
 * instruction the previous one's result.  The clock loop is a chain of
 * register adds, one core cycle each on every x86 core, so its TSC cycles
 * per add are the TSC/core clock ratio the bound figures are read with.
 */
#define EACH12(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11)
#define INSNS_PER_ROUND 12

#define AESENC_XMM(i)  "aesenc %%xmm12, %%xmm" #i "\n\t"
#define VAESENC_YMM(i) "vaesenc %%ymm12, %%ymm" #i ", %%ymm" #i "\n\t"
#define VAESENC_ZMM(i) "vaesenc %%zmm12, %%zmm" #i ", %%zmm" #i "\n\t"
#define AESENC_CHAIN(i) "aesenc %%xmm12, %%xmm0\n\t"
#define SHA1_XMM(i)    "sha1rnds4 $0, %%xmm12, %%xmm" #i "\n\t"
#define SHA1_CHAIN(i)  "sha1rnds4 $0, %%xmm12, %%xmm0\n\t"
#define ADD_CHAIN(i)   "add %%rcx, %%rax\n\t"

/* A loop of n rounds of BODY; wide bodies end with vzeroupper, so no
 * later legacy-SSE code pays for dirty upper halves. */
#define BOUND_LOOP(name, BODY, tail) \
    static void name(uint64_t n) \
    { \
        __asm__ volatile("1:\n\t" EACH12(BODY) "dec %0\n\t" "jnz 1b\n\t" tail \
                         : "+r"(n) \
                         : \
                         : "rax", "rcx", "cc", "xmm0", "xmm1", "xmm2", \
                           "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", \
                           "xmm9", "xmm10", "xmm11", "xmm12"); \
    }

BOUND_LOOP(loop_aes_xmm, AESENC_XMM, "")
BOUND_LOOP(loop_aes_ymm, VAESENC_YMM, "vzeroupper\n\t")
BOUND_LOOP(loop_aes_zmm, VAESENC_ZMM, "vzeroupper\n\t")
BOUND_LOOP(loop_aes_chain, AESENC_CHAIN, "")
BOUND_LOOP(loop_sha1, SHA1_XMM, "")
BOUND_LOOP(loop_sha1_chain, SHA1_CHAIN, "")
BOUND_LOOP(loop_clock, ADD_CHAIN, "")

typedef void bound_loop_f(uint64_t n);

static const struct bound_loop {
    const char *name, *what;
    bound_loop_f *loop;
    unsigned int need[4];
    const char *need_name;
} loops[BOUND_KINDS] = {
    [BOUND_AES_XMM] = { "aesenc-xmm", "aesenc xmm, 12 independent",
                        loop_aes_xmm, CAPSET(AESNI), "AESNI" },
    [BOUND_AES_YMM] = { "aesenc-ymm", "vaesenc ymm, 12 independent",
                        loop_aes_ymm, CAPSET(VAES, AVX), "VAES, AVX" },
    [BOUND_AES_ZMM] = { "aesenc-zmm", "vaesenc zmm, 12 independent",
                        loop_aes_zmm, CAPSET(VAES, AVX512F), "VAES, AVX512F" },
    [BOUND_AES_LATENCY] = { "aesenc-latency", "aesenc xmm, one chain",
                            loop_aes_chain, CAPSET(AESNI), "AESNI" },
    [BOUND_SHA1] = { "sha1rnds4", "sha1rnds4, 12 independent",
                     loop_sha1, CAPSET(SHA), "SHA" },
    [BOUND_SHA1_LATENCY] = { "sha1rnds4-latency", "sha1rnds4, one chain",
                             loop_sha1_chain, CAPSET(SHA), "SHA" },
    [BOUND_CLOCK] = { "clock", "add, one chain: TSC cycles per core cycle",
                      loop_clock, CAPSET(NONE), "" },
};

/*
 * Each loop: a warm-up of about a millisecond (a wide unit may need to
 * power up), then the fastest of BURSTS x REPS runs of ROUNDS rounds, the
 * bursts a millisecond apart.  The fastest run is the one nothing slowed:
 * on a shared machine interrupts and other work only ever add time, so
 * the minimum stays put where a median would not, and spreading the runs
 * out lets a busy spell of a neighbour pass.
 */
#define ROUNDS 2000
#define BURSTS 4
#define REPS 10
#define WARMUP_ROUNDS 200000

static double measure_one(const struct bound_loop *l)
{
    const struct timespec gap = { 0, 1000000 };
    uint64_t best = UINT64_MAX;
    l->loop(WARMUP_ROUNDS);
    for (int burst = 0; burst < BURSTS; burst++) {
        nanosleep(&gap, NULL);
        for (int r = 0; r < REPS; r++) {
            uint64_t t0 = tsc_start();
            l->loop(ROUNDS);
            uint64_t t = tsc_stop() - t0;
            best = t < best ? t : best;
        }
    }
    return (double)best / ((double)ROUNDS * INSNS_PER_ROUND);
}

void bound_measure(struct bounds *b)
{
    for (int k = 0; k < BOUND_KINDS; k++)
        b->tsc[k] = casm_cpu_has(loops[k].need) ? measure_one(&loops[k]) : NAN;
}

void bound_print(const struct bounds *b)
{
    double clock = b->tsc[BOUND_CLOCK];
    for (int k = 0; k < BOUND_KINDS; k++) {
        const struct bound_loop *l = &loops[k];
        if (isnan(b->tsc[k]))
            printf("bound %-18s - skipped: this CPU lacks %s\n", l->name,
                   l->need_name);
        else if (k == BOUND_CLOCK)
            printf("bound %-18s %.4f (%s)\n", l->name, b->tsc[k], l->what);
        else
            printf("bound %-18s %.4f TSC cycles per instruction = %.3f core "
                   "cycles (%s)\n", l->name, b->tsc[k], b->tsc[k] / clock,
                   l->what);
    }
}

void bound_header(const struct bounds *b)
{
    printf("  bound loops, TSC cycles per instruction (bound.c; "
           "- = not on this CPU; clock: per core cycle):");
    for (int k = 0; k < BOUND_KINDS; k++) {
        if (isnan(b->tsc[k]))
            printf(" %s -", loops[k].name);
        else
            printf(" %s %.3f", loops[k].name, b->tsc[k]);
    }
    printf("\n");
}

/* Whether need holds every bit of set. */
static int needs_all(const unsigned int need[4], const unsigned int set[4])
{
    for (int w = 0; w < 4; w++)
        if ((need[w] & set[w]) != set[w])
            return 0;
    return 1;
}

int bound_aes_width(const struct casm_aes_impl *impl)
{
    static const unsigned int zmm[4] = CAPSET(VAES, AVX512F);
    static const unsigned int ymm[4] = CAPSET(VAES);
    static const unsigned int xmm[4] = CAPSET(AESNI);
    return needs_all(impl->need, zmm) ? BOUND_AES_ZMM
         : needs_all(impl->need, ymm) ? BOUND_AES_YMM
         : needs_all(impl->need, xmm) ? BOUND_AES_XMM : -1;
}

int bound_sha1_shani(const struct casm_sha1_impl *impl)
{
    static const unsigned int sha[4] = CAPSET(SHA);
    return needs_all(impl->need, sha);
}

int bound_sha1_simd(const struct casm_sha1_impl *impl)
{
    static const unsigned int ssse3[4] = CAPSET(SSSE3);
    return needs_all(impl->need, ssse3);
}

/*
 * The bounds, in one place.  Every formula counts only the instructions a
 * row cannot do without and charges each at what the loops measured:
 *
 *  - AES, parallel modes (ECB, CBC decryption, CTR, XTS, LRW, OCB): each
 *    16-byte block takes Nr round instructions (Nr = 10, 12, 14 for 128,
 *    192, 256-bit keys: Nr - 1 aesenc and one aesenclast, which issue
 *    alike), and a ymm or zmm instruction rounds 2 or 4 blocks at once, so
 *        c/B = Nr x t(width) / (16 x blocks per instruction)
 *    with t the independent loop's time at the entry's width: xmm for
 *    AES-NI entries, ymm for entries needing VAES (and AVX2), zmm for
 *    entries needing VAES and AVX512F.  Decryption uses aesdec, assumed
 *    to issue as aesenc does (it does on the cores we know).
 *  - AES, CBC encryption and CCM: each block's rounds start from the
 *    previous block's result (CCM's CBC-MAC; its counter blocks run
 *    beside that chain), so a block costs Nr round latencies:
 *        c/B = Nr x latency(aesenc) / 16
 *    whatever the entry's width (these functions are xmm code).
 *  - SHA-NI: a 64-byte block is 80 rounds, 20 sha1rnds4, each on the
 *    state the previous one wrote (one message has no second chain to
 *    interleave), so
 *        c/B = 20 x latency(sha1rnds4) / 64
 *    sha1nexte, sha1msg1, sha1msg2 and the adds work off the chain and
 *    are assumed to hide beside it.
 *  - Table and C AES, and SHA-1 without SHA-NI: no bound (no single
 *    instruction does the work).
 */
/* Round instructions per block, and blocks per instruction of a width. */
static double aes_rounds(int bits) { return bits / 32 + 6; }
static double blocks_per_insn(int width)
{
    return width == BOUND_AES_ZMM ? 4 : width == BOUND_AES_YMM ? 2 : 1;
}

double bound_aes_cpb(const struct bounds *b, const struct casm_aes_impl *impl,
                     const struct bench_mode *m, int bits)
{
    int width = bound_aes_width(impl);
    if (m->op == OP_SHA1 || width < 0)
        return NAN;
    if (m->op == OP_CCM || (m->op == OP_CBC && m->enc))
        return aes_rounds(bits) * b->tsc[BOUND_AES_LATENCY] / 16;
    return aes_rounds(bits) * b->tsc[width] / (16 * blocks_per_insn(width));
}

double bound_sha1_cpb(const struct bounds *b, const struct casm_sha1_impl *impl)
{
    return bound_sha1_shani(impl) ? 20 * b->tsc[BOUND_SHA1_LATENCY] / 64 : NAN;
}

double bound_of_figure(const struct bounds *b, const struct figure *r)
{
    if (strcmp(r->table, "sha1") == 0) {
        const struct casm_sha1_impl *impl = casm_sha1_impl_by_name(r->path);
        return impl ? bound_sha1_cpb(b, impl) : NAN;
    }
    const struct casm_aes_impl *impl = casm_aes_impl_by_name(r->path);
    for (size_t i = 0; impl && i < bench_mode_count; i++)
        if (strcmp(bench_modes[i].name, r->mode) == 0)
            return bound_aes_cpb(b, impl, &bench_modes[i], r->bits);
    return NAN;
}
