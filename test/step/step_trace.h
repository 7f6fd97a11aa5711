/* SPDX-License-Identifier: Apache-2.0 */
/*
 * In-process single-stepping for x86_64 (Linux): a call made with the trap
 * flag set raises SIGTRAP after every instruction, and the handler hands
 * the address of the next one to an observer.  The tests use it to see
 * which code a call really ran (which path, which vector width), not just
 * what it computed.
 */
#ifndef TEST_STEP_TRACE_H
#define TEST_STEP_TRACE_H

#include <stddef.h>
#include <stdint.h>

typedef void step_call_fn(void *arg);
/* Runs in the signal handler: only reads memory and writes to ctx. */
typedef void step_observer_fn(const unsigned char *rip, void *ctx);

/*
 * Calls fn(arg) with the trap flag set; on_step(rip, ctx) sees each
 * instruction executed from fn's entry until the flag is cleared after it
 * returns.  Returns the number of steps, 0 if the trap could not be set up.
 */
unsigned long step_trace(step_call_fn *fn, void *arg,
                         step_observer_fn *on_step, void *ctx);

/*
 * The run-time range [start, start + size) of the function symbol `name`
 * of this program, from its ELF symbol table (so hidden symbols too);
 * 0 if there is none.
 */
int step_function_range(const char *name, uintptr_t *start, size_t *size);

#endif
