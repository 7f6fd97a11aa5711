/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The smallest check that a signal leaves the x87 register stack alone
 * (built -m32 into build/fuzz32/x87_signal).  For each depth 1..8 the
 * program pushes the integers depth..1 onto the x87 stack, spins until an
 * interval timer's SIGALRM has been handled, pops them and compares.  The
 * kernel saves and restores the FPU state around a handler, so natively
 * every round reads back what it pushed.
 *
 * It exists because qemu-i386 7.2 breaks it: after a handler returns, the
 * x87 registers can hold other values (typically the first signal taken
 * at a new stack depth).  libFuzzer's per-input timeout is such a signal
 * (a SIGALRM every timeout/2 + 1 seconds); when it lands while libFuzzer
 * is choosing the next input, its std::piecewise_constant_distribution
 * (libstdc++'s generate_canonical) divides by an integer computed with
 * logl on the x87 stack, gets 0 and stops the target with SIGFPE, a
 * "crash" in no code of ours.  test/t/71-fuzz32.t runs this program
 * natively (it must pass) and under qemu-i386; when qemu fails it, the
 * 32-bit fuzz runs (71-fuzz32.t, tools/fuzz-long.pl) go without
 * libFuzzer's timer (-timeout=0, FuzzRun.pm) and say so (test/README.md).
 *
 * Prints TAP, one line per depth; exit status 1 when a value changed.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

#define ROUNDS 20

#if defined(__i386__)
static volatile unsigned int signals;

static void on_alarm(int sig)
{
    (void)sig;
    signals++;
}

/*
 * One round at depth d (1..8): pushes d, d-1, ..., 1 (1 on top), waits
 * for the next signal, pops into out[0..d-1] (top first).  All in one
 * asm statement, so no compiled code runs while the stack is loaded.
 */
static void round_at(unsigned int d, int out[8])
{
    unsigned int seen = signals;
    int tmp;

    __asm__ volatile("movl %[d], %%ecx\n\t"
                     "1: movl %%ecx, %[tmp]\n\t"
                     "fildl %[tmp]\n\t"
                     "decl %%ecx\n\t"
                     "jnz 1b\n\t"
                     "2: cmpl %[seen], %[signals]\n\t"
                     "je 2b\n\t"
                     "xorl %%ecx, %%ecx\n\t"
                     "3: fistpl (%[out],%%ecx,4)\n\t"
                     "incl %%ecx\n\t"
                     "cmpl %[d], %%ecx\n\t"
                     "jne 3b"
                     : [tmp] "=m"(tmp)
                     : [d] "r"(d), [seen] "r"(seen), [signals] "m"(signals),
                       [out] "r"(out)
                     : "ecx", "memory", "cc");
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_alarm;
    if (sigaction(SIGALRM, &sa, NULL) != 0) {
        perror("sigaction");
        return 2;
    }
    struct itimerval every_ms = { { 0, 1000 }, { 0, 1000 } };
    if (setitimer(ITIMER_REAL, &every_ms, NULL) != 0) {
        perror("setitimer");
        return 2;
    }

    int failed = 0;
    printf("1..8\n");
    for (unsigned int d = 1; d <= 8; d++) {
        unsigned int bad = 0;
        char first[128] = "";
        for (unsigned int r = 0; r < ROUNDS; r++) {
            int out[8];
            round_at(d, out);
            for (unsigned int i = 0; i < d; i++) {
                if (out[i] == (int)i + 1)
                    continue;
                if (bad++ == 0)
                    snprintf(first, sizeof(first),
                             " (first: round %u, st(%u) = %d, pushed %u)",
                             r, i, out[i], i + 1);
                break;
            }
        }
        printf("%s %u - x87 stack %u deep: %u of %d rounds changed across a "
               "signal%s\n", bad ? "not ok" : "ok", d, d, bad, ROUNDS, first);
        failed |= bad != 0;
    }
    printf("# %u signals handled\n", signals);
    return failed;
}
#else
int main(void)
{
    printf("1..0 # SKIP an i386 program (build it -m32)\n");
    return 0;
}
#endif
