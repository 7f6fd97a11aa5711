/* SPDX-License-Identifier: Apache-2.0 */
#include "tsc.h"

#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

double tsc_hz(double seconds)
{
    /* Each clock read sits right next to a TSC read; a sleep between the
     * pairs makes the few nanoseconds between them negligible. */
    double a = now();
    uint64_t t0 = tsc_start();
    struct timespec pause = { (time_t)seconds,
                              (long)((seconds - (double)(time_t)seconds) * 1e9) };
    nanosleep(&pause, NULL);
    uint64_t t1 = tsc_stop();
    double b = now();
    return (double)(t1 - t0) / (b - a);
}
