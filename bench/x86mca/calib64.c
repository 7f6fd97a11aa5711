/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A check of the 32-bit estimates' method on code that can be timed here:
 * the x86_64 C AES (path "c") and table assembly (aes-x86_64's AES_*,
 * path "asm"), traced the same way (trap flag, every executed address;
 * natively, no qemu needed) so bench/x86mca.pl can replay them through
 * llvm-mca, and timed, so estimates, and the speedup of assembly over C
 * that the 32-bit target is stated in, can be set against measurements.
 * Linked -no-pie with the 64-bit archive.
 *
 *   calib64 BITS CBC_BYTES          traces, in trace32.c's format (CBC at
 *                                   least 1024 bytes: see main)
 *   calib64 --time BITS CBC_BYTES   measured core cycles per byte:
 *                                   "measured PATH MODE BITS BYTES CPB"
 * Core cycles: TSC cycles times the core/TSC clock ratio, measured on a
 * chain of dependent adds (one core cycle each).  Both are the fastest of
 * many short batches: on a loaded shared machine longer ones include other
 * processes' time.
 */
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <x86intrin.h>

#include <openssl/aes.h>

#include "aes/aes_c.h"

#define MAX_BYTES 4096
#define MAX_TRACE 1000000

static unsigned char in[MAX_BYTES], out[MAX_BYTES], iv[16];
static AES_KEY ekey, dkey;

typedef void call_fn(const void *arg);

/* One traced call: addresses from fn's entry until it returns. */
static struct {
    uintptr_t fn, ret;
    int phase;              /* 0 before fn, 1 in fn, 2 done */
    size_t n;
    uintptr_t eips[MAX_TRACE];
} T;

static void on_trap(int sig, siginfo_t *si, void *ucv)
{
    greg_t *g = ((ucontext_t *)ucv)->uc_mcontext.gregs;
    uintptr_t rip = (uintptr_t)g[REG_RIP];
    (void)sig, (void)si;
    if (T.phase == 0 && rip == T.fn) {
        T.phase = 1;
        T.ret = *(const uintptr_t *)(uintptr_t)g[REG_RSP];
    } else if (T.phase == 1 && rip == T.ret) {
        T.phase = 2;
    }
    if (T.phase == 1 && T.n < MAX_TRACE)
        T.eips[T.n++] = rip;
    if (T.phase == 2)
        g[REG_EFL] &= ~(greg_t)0x100;
}

typedef void block_fn(const unsigned char *in, unsigned char *out, const AES_KEY *key);
typedef void cbc_fn(const unsigned char *in, unsigned char *out, size_t len,
                    const AES_KEY *key, unsigned char *ivec, const int enc);
typedef int set_key_fn(const unsigned char *user, const int bits, AES_KEY *key);

static const struct path {
    const char *name;
    set_key_fn *set_enc, *set_dec;
    block_fn *enc, *dec;
    cbc_fn *cbc;
} paths[] = {
    { "c", aes_c_set_encrypt_key, aes_c_set_decrypt_key, aes_c_encrypt, aes_c_decrypt,
      aes_c_cbc_encrypt },
    { "asm", AES_set_encrypt_key, AES_set_decrypt_key, AES_encrypt, AES_decrypt,
      AES_cbc_encrypt },
};

enum op { ENC, DEC, CBC_ENC, CBC_DEC };

struct job {
    const struct path *path;
    const char *mode;
    enum op op;
    unsigned bytes;
};

/* A function's entry address, the one conversion from code to a number
 * (what the trap handler compares rip with). */
#define CODE_ADDR(f) code_addr(&(f), sizeof(f))
static uintptr_t code_addr(const void *fp, size_t size)
{
    uintptr_t a;
    _Static_assert(sizeof(block_fn *) == sizeof(a), "a code address fits a uintptr_t");
    if (size != sizeof(a))
        abort();
    memcpy(&a, fp, sizeof(a));
    return a;
}

static uintptr_t job_fn(const struct job *j)
{
    return j->op == ENC ? CODE_ADDR(j->path->enc) : j->op == DEC ? CODE_ADDR(j->path->dec)
         : CODE_ADDR(j->path->cbc);
}

static void job_run(const struct job *j)
{
    switch (j->op) {
    case ENC: j->path->enc(in, out, &ekey); break;
    case DEC: j->path->dec(in, out, &dkey); break;
    case CBC_ENC: j->path->cbc(in, out, j->bytes, &ekey, iv, 1); break;
    case CBC_DEC: j->path->cbc(in, out, j->bytes, &dkey, iv, 0); break;
    }
}

static void trace(const struct job *j, unsigned bits)
{
    memset(&T, 0, offsetof(__typeof__(T), eips));
    T.fn = job_fn(j);
    __asm__ volatile("pushfq\n\torq $0x100,(%%rsp)\n\tpopfq" ::: "cc", "memory");
    job_run(j);
    __asm__ volatile("pushfq\n\tandq $~0x100,(%%rsp)\n\tpopfq" ::: "cc", "memory");
    if (T.phase != 2 || T.n >= MAX_TRACE) {
        fprintf(stderr, "calib64: %s: the trace did not complete\n", j->mode);
        exit(1);
    }
    printf("trace %s %s %u %u %zu\n", j->path->name, j->mode, bits, j->bytes, T.n);
    for (size_t i = 0; i < T.n; i++)
        printf("%lx\n", (unsigned long)T.eips[i]);
}

#define BATCHES 301

/* Core cycles per TSC cycle: 2^14 iterations of 16 dependent adds. */
static double core_per_tsc(void)
{
    uint64_t best = UINT64_MAX;
    for (int r = 0; r < BATCHES; r++) {
        uint64_t n = 1u << 14, x = 0, t = __rdtsc();
        __asm__ volatile("1:\n\t"
                         ".rept 16\n\taddq $1, %0\n\t.endr\n\t"
                         "decq %1\n\tjnz 1b" : "+r"(x), "+r"(n) :: "cc");
        t = __rdtsc() - t;
        if (t < best)
            best = t;
    }
    return (double)(16u << 14) / (double)best;
}

static void measure(const struct job *j, unsigned bits, double ratio)
{
    uint64_t best = UINT64_MAX, reps = 1;
    for (;;) {      /* batches of at least 100000 TSC cycles (~50 us) */
        uint64_t t = __rdtsc();
        for (uint64_t i = 0; i < reps; i++)
            job_run(j);
        if (__rdtsc() - t > 100000)
            break;
        reps *= 2;
    }
    for (int s = 0; s < BATCHES; s++) {
        uint64_t t = __rdtsc();
        for (uint64_t i = 0; i < reps; i++)
            job_run(j);
        t = __rdtsc() - t;
        if (t < best)
            best = t;
    }
    printf("measured %s %s %u %u %.3f\n", j->path->name, j->mode, bits, j->bytes,
           (double)best * ratio / (double)(reps * j->bytes));
}

int main(int argc, char **argv)
{
    int timing = argc > 1 && strcmp(argv[1], "--time") == 0;
    unsigned char key[32];
    unsigned bits, bytes;
    struct sigaction sa;

    if (argc != 3 + timing || (bits = (unsigned)atoi(argv[1 + timing]),
                               bits != 128 && bits != 192 && bits != 256)
        || (bytes = (unsigned)atoi(argv[2 + timing])) == 0 || bytes % 16 || bytes > MAX_BYTES) {
        fprintf(stderr, "usage: %s [--time] 128|192|256 CBC_BYTES\n", argv[0]);
        return 2;
    }
    /* aes-x86_64's AES_cbc_encrypt takes its full tables from 512 bytes
     * (shorter is its compact path, which ECB already checks). */
    if (bytes < 1024)
        bytes = 1024;
    for (unsigned i = 0; i < sizeof(key); i++)
        key[i] = (unsigned char)(i * 37 + 11);
    for (unsigned i = 0; i < sizeof(in); i++)
        in[i] = (unsigned char)(i * 101 + 7);
    memset(&sa, 0, sizeof(sa));
    sa.sa_flags = SA_SIGINFO;
    sa.sa_sigaction = on_trap;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTRAP, &sa, NULL);
    double ratio = timing ? core_per_tsc() : 0;
    for (size_t p = 0; p < sizeof(paths) / sizeof(paths[0]); p++) {
        const struct path *t = &paths[p];
        const struct job jobs[4] = {
            { t, "ecb-enc", ENC, 16 },
            { t, "ecb-dec", DEC, 16 },
            { t, "cbc-enc", CBC_ENC, bytes },
            { t, "cbc-dec", CBC_DEC, bytes },
        };
        if (t->set_enc(key, (int)bits, &ekey) != 0 || t->set_dec(key, (int)bits, &dkey) != 0) {
            fprintf(stderr, "calib64: %s key schedule failed\n", t->name);
            return 1;
        }
        for (int i = 0; i < 4; i++) {
            if (timing)
                measure(&jobs[i], bits, ratio);
            else
                trace(&jobs[i], bits);
        }
    }
    return 0;
}
