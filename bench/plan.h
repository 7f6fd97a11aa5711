/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a run measures: the options' selection narrowed to what this build
 * and this CPU can run, with the reason for each thing left out.  --list
 * prints it; the parent process follows it.
 */
#ifndef BENCH_PLAN_H
#define BENCH_PLAN_H

#include <stddef.h>

#include "impl.h"
#include "options.h"

/* The selected AES key sizes mode m takes (XTS has no 192); the count. */
size_t plan_key_sizes(const struct bench_options *o, const struct bench_mode *m,
                      int bits[3]);

/* Whether impl has what mode m needs (OCB: bulk functions). */
int plan_aes_impl_has_mode(const struct casm_aes_impl *impl,
                           const struct bench_mode *m);

/* Whether impl has a selected mode to be measured in. */
int plan_aes_impl_has_work(const struct bench_options *o,
                           const struct casm_aes_impl *impl);

/* NULL when mode m measures something in this run, else why it does not. */
const char *plan_mode_skip(const struct bench_options *o,
                           const struct bench_mode *m, char *why, size_t len);

/* Whether SHA-1 is measured over `bytes` in updates of `update` bytes. */
int plan_sha1_update_fits(size_t bytes, size_t update);

/* Whether any selected mode is AES (sha1 = 0) or SHA-1 (sha1 = 1). */
int plan_any_mode(const struct bench_options *o, int sha1);

/* The --list output: selected implementations and modes, one a line. */
void plan_list(const struct bench_options *o);

#endif
