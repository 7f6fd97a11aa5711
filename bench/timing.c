/* SPDX-License-Identifier: Apache-2.0 */
#include "timing.h"

#include <alloca.h>
#include <stdlib.h>

#include "tsc.h"
#include "../support/lib/ossl.h"

#define PAGE 4096
#define STACK_ALIGN 16

static uint64_t batch(struct job *j, uint64_t n)
{
    int bad = 0;
    uint64_t t0 = tsc_start();
    for (uint64_t i = 0; i < n; i++)
        bad |= j->op(j);
    uint64_t t = tsc_stop() - t0;
    if (bad)
        bench_fail("%s failed while timing (%s)", j->what, ossl_error());
    return t;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One placement's measurement, run below the moved stack. */
struct placement {
    struct job **jobs;
    int njobs, runs, fastest;
    uint64_t *n;                   /* each job's batch length */
    double *figure;                /* out: each job's figure here */
    char *frame;                   /* out: where the measuring frame was */
};

static void measure_here(void *arg)
{
    struct placement *p = arg;
    double samples[TIMING_MAX_JOBS][OPT_RUNS];
    p->frame = __builtin_frame_address(0);
    for (int i = 0; i < p->njobs; i++)
        batch(p->jobs[i], p->n[i]);             /* warm-up at this placement */
    for (int r = 0; r < p->runs; r++)
        for (int i = 0; i < p->njobs; i++)
            samples[i][r] = (double)batch(p->jobs[i], p->n[i]) /
                            ((double)p->n[i] * (double)p->jobs[i]->len);
    for (int i = 0; i < p->njobs; i++) {
        qsort(samples[i], (size_t)p->runs, sizeof(double), cmp_double);
        p->figure[i] = samples[i][p->fastest ? 0 : p->runs / 2];
    }
}

/* Calls fn(arg) with the stack offset bytes lower than with offset 0:
 * alloca rounds offset + 1 up to the stack alignment, so the difference
 * between two calls is the difference of their offsets. */
static __attribute__((noinline)) void below(size_t offset, void (*fn)(void *),
                                            void *arg)
{
    char *pad = alloca(offset + 1);
    /* The pad must exist even though nothing reads it. */
    __asm__ volatile("" : : "r"(pad) : "memory");
    fn(arg);
}

void timing_measure(struct job **jobs, int njobs, const struct bench_options *o,
                    uint64_t min_cycles, struct timing_result *res)
{
    uint64_t n[TIMING_MAX_JOBS];
    double figure[OPT_MAX_PLACEMENTS][TIMING_MAX_JOBS];
    char *frame0 = NULL;
    int places = o->placements;
    if (njobs < 1 || njobs > TIMING_MAX_JOBS || o->runs < 1 || o->runs > OPT_RUNS ||
        places < 1 || places > OPT_MAX_PLACEMENTS)
        bench_fail("internal: %d jobs of %d runs at %d placements (at most %d "
                   "of %d at %d)", njobs, o->runs, places, TIMING_MAX_JOBS,
                   OPT_RUNS, OPT_MAX_PLACEMENTS);
    for (int i = 0; i < njobs; i++)
        /* Doubling the batch until it is long enough also warms up. */
        for (n[i] = 1; batch(jobs[i], n[i]) < min_cycles; n[i] *= 2)
            ;
    for (int k = 0; k < places; k++) {
        size_t offset = (size_t)k * PAGE / (size_t)places / STACK_ALIGN * STACK_ALIGN;
        struct placement p = { jobs, njobs, o->runs, o->fastest, n, figure[k], NULL };
        below(offset, measure_here, &p);
        if (k == 0)
            frame0 = p.frame;
        else if ((size_t)(frame0 - p.frame) != offset)
            bench_fail("internal: placement %d moved the stack by %td bytes, "
                       "not %zu", k, frame0 - p.frame, offset);
    }
    for (int i = 0; i < njobs; i++) {
        double v[OPT_MAX_PLACEMENTS];
        for (int k = 0; k < places; k++)
            v[k] = figure[k][i];
        qsort(v, (size_t)places, sizeof(double), cmp_double);
        res[i].cpb = places % 2 ? v[places / 2]
                                : (v[places / 2 - 1] + v[places / 2]) / 2;
        res[i].worst = v[places - 1];
    }
}
