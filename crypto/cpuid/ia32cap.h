/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CPU capability vector with OpenSSL's layout and environment override.
 *
 *   word 0: CPUID.1:EDX  (bit 10 set once initialised, 28 shared cache, 30 Intel)
 *   word 1: CPUID.1:ECX
 *   word 2: CPUID.(EAX=7,ECX=0):EBX
 *   word 3: CPUID.(EAX=7,ECX=0):ECX
 *
 * AVX, AVX2 and AVX-512 bits are cleared when XGETBV shows the OS does not
 * save their register state.
 */
#ifndef CRYPTO_ASM_IA32CAP_H
#define CRYPTO_ASM_IA32CAP_H

extern unsigned int OPENSSL_ia32cap_P[4];

/*
 * The bits used by this project, CAP_W<word>_<NAME>, generated from the one
 * table both the C code and the assembly read (perlasm/lib/Common/IA32Cap.pm).
 */
#include "ia32cap_bits.h"

/*
 * The value OPENSSL_ia32cap_P takes given what CPUID reported (`cpuid`) and
 * the environment variable's text (`env`, NULL when unset), with OpenSSL
 * 3.0's rules:
 *   env = [~]V0[:[~]V1], each number 0x-hex, 0-octal or decimal, parsed up
 *   to the first character that is not a digit of its base;
 *   "~V" clears V's bits from the detected value, a bare "V" replaces it;
 *   V0 covers words 0-1, V1 words 2-3; without ":V1" words 2-3 become 0.
 * Bit 10 of word 0 is always set in the result.
 */
void casm_ia32cap_apply(const unsigned int cpuid[4], const char *env,
                        unsigned int out[4]);

/* What CPUID/XGETBV report on this CPU, before the environment mask. */
void casm_ia32cap_detect(unsigned int out[4]);

#endif
