/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CPU capability vector with OpenSSL 3.5's layout and environment override.
 * Words 0-3 are OpenSSL 3.0's whole array, so code built against either
 * reads the same bits; word by word, perlasm/lib/Common/IA32Cap.pm:
 *   0-1   CPUID.1 EDX, ECX (word 0 bit 10 set once initialised, 28 shared
 *         cache, 30 Intel)
 *   2-4   CPUID.(EAX=7,ECX=0) EBX, ECX, EDX
 *   5-8   CPUID.(EAX=7,ECX=1) EAX, EDX, EBX, ECX (when leaf 7 has sub-leaf 1)
 *   9     CPUID.(EAX=0x24,ECX=0):EBX (only when word 6 has AVX10)
 *
 * AVX, AVX2, AVX-IFMA and AVX-512 bits are cleared when XGETBV shows the
 * OS does not save their register state.
 */
#ifndef PERLASM_X86_IA32CAP_H
#define PERLASM_X86_IA32CAP_H

#define CASM_IA32CAP_WORDS 10
extern unsigned int OPENSSL_ia32cap_P[CASM_IA32CAP_WORDS];

/*
 * The bits used by this project, CAP_W<word>_<NAME>, generated from the one
 * table both the C code and the assembly read (perlasm/lib/Common/IA32Cap.pm).
 */
#include "ia32cap_bits.h"

/*
 * The value OPENSSL_ia32cap_P takes given what CPUID reported (`cpuid`) and
 * the environment variable's text (`env`, NULL when unset), with OpenSSL
 * 3.5's rules:
 *   env = F0[:F1[:F2[:F3[:F4]]]], Fk covering words 2k and 2k+1 as one
 *   64-bit value (low word first); each F is "[~]V", V 0x-hex, 0-octal or
 *   decimal, parsed up to the first character that is not a digit of its
 *   base; "~V" clears V's bits, a bare "V" replaces the pair.
 *   F0: "~V" or empty keeps the detected words (less V's bits), anything
 *   else replaces words 0-1 and leaves words 2-9 at 0 before F1-F4 apply.
 *   F1-F4: empty with another ":" after it keeps its pair; absent or empty
 *   at the end zeroes its pair; more than five fields are ignored.
 *   Then word 9 is zeroed unless word 6 still has AVX10.
 * Words 0-3 come out as OpenSSL 3.0 gives them for every string but
 * "F0::...", where 3.0 zeroes words 2-3 and 3.5 keeps them.
 * Bit 10 of word 0 is always set in the result.
 */
void casm_ia32cap_apply(const unsigned int cpuid[CASM_IA32CAP_WORDS],
                        const char *env,
                        unsigned int out[CASM_IA32CAP_WORDS]);

/* 1 if every bit of need[] (words 0-3) is set in OPENSSL_ia32cap_P. */
int casm_cpu_has(const unsigned int need[4]);

/* What CPUID/XGETBV report on this CPU, before the environment mask. */
void casm_ia32cap_detect(unsigned int out[CASM_IA32CAP_WORDS]);

#endif
