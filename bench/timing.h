/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The timing harness: median (or fastest) TSC cycles per byte of up to
 * TIMING_MAX_JOBS jobs, measured side by side, at one or more stack
 * placements.
 */
#ifndef BENCH_TIMING_H
#define BENCH_TIMING_H

#include <stdint.h>

#include "job.h"

#define TIMING_MAX_JOBS (1 + OPT_MAX_OPENSSL)   /* ours and each OpenSSL */

/* One job's figures: over the placements, the median and the slowest. */
struct timing_result {
    double cpb, worst;
};

/*
 * Each batch of a job runs at least min_cycles; o->runs batches of each,
 * alternating between the jobs, so a clock or load change during the
 * measurement hits all of them alike; a placement's figure is its runs'
 * median, or with o->fastest its fastest run.  That is done
 * o->placements times, the stack moved by k x 4096 / placements bytes
 * (rounded down to its 16-byte alignment) for the k-th, so the frames of
 * the timed code land at that many offsets within a page relative to the
 * buffers; res[i] has the median and the worst of jobs[i]'s placements.
 * Exits through bench_fail if an operation fails or the stack did not
 * move as asked.
 */
void timing_measure(struct job **jobs, int njobs, const struct bench_options *o,
                    uint64_t min_cycles, struct timing_result *res);

#endif
