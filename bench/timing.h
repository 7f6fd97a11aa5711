/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The timing harness: median (or fastest) TSC cycles per byte of up to TIMING_MAX_JOBS
 * jobs, measured side by side.
 */
#ifndef BENCH_TIMING_H
#define BENCH_TIMING_H

#include <stdint.h>

#include "job.h"

#define TIMING_MAX_JOBS 2          /* ours and the reference */

/*
 * Each batch of a job runs at least min_cycles; `runs` batches of each
 * (at most OPT_RUNS), alternating between the jobs, so a clock or load
 * change during the measurement hits all of them alike.  cpb[i] is the
 * median of jobs[i], or with fastest its fastest run.  Exits through
 * bench_fail if an operation fails.
 */
void timing_measure(struct job **jobs, int njobs, int runs, int fastest,
                    uint64_t min_cycles, double *cpb);

#endif
