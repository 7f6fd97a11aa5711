/* SPDX-License-Identifier: Apache-2.0 */
#include "timing.h"

#include <stdlib.h>

#include "tsc.h"
#include "../support/lib/ossl.h"

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

void timing_measure(struct job **jobs, int njobs, int runs, int fastest,
                    uint64_t min_cycles, double *cpb)
{
    uint64_t n[TIMING_MAX_JOBS];
    double samples[TIMING_MAX_JOBS][OPT_RUNS];
    if (njobs < 1 || njobs > TIMING_MAX_JOBS || runs < 1 || runs > OPT_RUNS)
        bench_fail("internal: %d jobs of %d runs (at most %d of %d)", njobs,
                   runs, TIMING_MAX_JOBS, OPT_RUNS);
    for (int i = 0; i < njobs; i++) {
        /* Doubling the batch until it is long enough also warms up. */
        for (n[i] = 1; batch(jobs[i], n[i]) < min_cycles; n[i] *= 2)
            ;
        batch(jobs[i], n[i]);
    }
    for (int r = 0; r < runs; r++)
        for (int i = 0; i < njobs; i++)
            samples[i][r] = (double)batch(jobs[i], n[i]) /
                            ((double)n[i] * (double)jobs[i]->len);
    for (int i = 0; i < njobs; i++) {
        qsort(samples[i], (size_t)runs, sizeof(double), cmp_double);
        cpb[i] = samples[i][fastest ? 0 : runs / 2];
    }
}
