/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ABI and unwind checkers for assembly functions (the test rig).
 *
 * One interface, two implementations: SysV x86_64 (ELF, run natively) and
 * Win64 (mingw, run under wine64).  Every exported function of every module
 * is run through both checkers on both ABIs.
 *
 *   abi_call      calls fn(args[0..nargs-1]) through a trampoline that loads
 *                 random values into every callee-saved register (SysV:
 *                 rbx rbp r12-r15; Win64: also rdi rsi and xmm6-xmm15),
 *                 and after the return checks them, the direction flag and
 *                 that the stack pointer is back where it was.  The callee
 *                 is entered with the stack aligned as the ABI requires.
 *   unwind_check  runs the same call single-stepped (trap flag); at every
 *                 instruction of fn (and of anything it calls), unwinds one
 *                 frame with the platform unwinder (libunwind on ELF,
 *                 RtlLookupFunctionEntry + RtlVirtualUnwind on Win64) and
 *                 checks the return address, the caller's stack pointer and
 *                 every callee-saved register against their values at entry.
 *
 * Both return 0 when all is well, else -1 with a one-line explanation in
 * err (which register, which instruction offset from fn).
 */
#ifndef TEST_ABI_CHECK_H
#define TEST_ABI_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "abi_common.h"

#define ABI_MAX_ARGS 10

int abi_call(const void *fn, const uint64_t *args, int nargs, uint64_t *ret,
             char *err, size_t errlen);
int unwind_check(const void *fn, const uint64_t *args, int nargs,
                 struct unwind_stats *st, char *err, size_t errlen);

/*
 * 1 if unwind_check works in this build; else 0, and *why (if why) says
 * what is missing (SysV built without libunwind-ptrace).
 */
int unwind_check_available(const char **why);

#ifdef _WIN32
/*
 * Win64 (abi_win64.c): 0 (the default): at an instruction of a function
 * fn calls, unwind that function's frame and check it against its own
 * entry.  1: unwind every frame up to fn's caller and check against fn's
 * entry, for code whose internal helpers keep a private convention
 * (OpenSSL's clobber callee-saved registers that their caller saved).
 */
void unwind_set_chain(int on);
#endif

#endif
