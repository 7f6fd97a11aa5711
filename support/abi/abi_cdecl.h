/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ABI and CFI checkers for 32-bit (i386 cdecl) assembly functions, run
 * under qemu-i386 (so on any kernel, whether or not it runs 32-bit code).
 *
 *   abi32_call      calls fn(args[0..nargs-1]) through abi_trampoline_cdecl
 *                   (trampoline_cdecl.pl) with random values in ebx, esi,
 *                   edi and ebp, and checks after the return that they are
 *                   back, esp is where it was, DF is clear, the x87 stack is
 *                   empty (MMX code ends with emms) and the x87 control word
 *                   and MXCSR are unchanged.  esp is 16-byte aligned at the
 *                   call, as gcc -m32 assumes.
 *   unwind32_check  runs the same call single-stepped (the trap flag, caught
 *                   by a SIGTRAP handler in this process: qemu-i386 emulates
 *                   it); at every instruction of fn and of anything it calls,
 *                   unwinds from the signal context with libgcc's DWARF
 *                   unwinder (_Unwind_Backtrace) up to fn's caller, and
 *                   checks each return address, each caller's esp (the CFA)
 *                   and ebx, esi, edi, ebp against their values when that
 *                   frame was entered.
 *   trace32_call    single-steps the same call and records the address of
 *                   every instruction fn (and its callees) executed: the
 *                   instruction counts and llvm-mca input of the 32-bit
 *                   benchmark (bench/x86mca.pl).
 *
 * Each returns 0 when all is well, else -1 with a one-line explanation in
 * err ("at fn+0x1c (step 7): unwound ebx = ...").
 */
#ifndef TEST_ABI32_ABI_CDECL_H
#define TEST_ABI32_ABI_CDECL_H

#include <stddef.h>
#include <stdint.h>

#include "abi_common.h"

#define ABI32_MAX_ARGS 8

/* *ret (if ret) gets edx:eax. */
int abi32_call(const void *fn, const uint32_t *args, int nargs, uint64_t *ret,
               char *err, size_t errlen);
int unwind32_check(const void *fn, const uint32_t *args, int nargs,
                   struct unwind_stats *st, char *err, size_t errlen);
/* eips[0..*n-1] (at most cap are stored; *n counts them all). */
int trace32_call(const void *fn, const uint32_t *args, int nargs,
                 uint32_t *eips, size_t cap, size_t *n, char *err, size_t errlen);

/* Unwinding from a function fn calls goes on up to fn's caller: every
 * return address and caller esp on the way is checked, and ebx, esi, edi,
 * ebp at each caller (cdecl callees), or with on != 0 only at fn's caller
 * (callees with private register conventions, as aes-586's rounds). */
void unwind32_set_private_callees(int on);
/* From unwind32_coverage_start on, every instruction of the program that
 * unwind32_check or trace32_call steps is recorded; unwind32_coverage_write
 * writes their addresses (hex, one a line, ascending) to file.  0 or -1. */
int unwind32_coverage_start(void);
int unwind32_coverage_write(const char *file);

#endif
