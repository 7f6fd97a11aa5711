/* SPDX-License-Identifier: Apache-2.0 */
/* The functions of test/x86asm/corpus.pl, for the C programs that call
 * them (corpus_main.c, test/abi32/corpus_abi.c). */
#ifndef TEST_X86ASM_CORPUS_H
#define TEST_X86ASM_CORPUS_H

#include <stdint.h>

uint32_t corpus_sum(uint32_t a, uint32_t b, uint32_t c, uint32_t d);
uint32_t corpus_loop(const uint32_t *p, uint32_t n);
uint32_t corpus_sse2(const uint8_t *a, const uint8_t *b, uint8_t *out, uint32_t i);
uint32_t corpus_table(uint32_t i);
uint32_t corpus_global(void);
uint32_t corpus_flags(uint32_t x);

/* Defined by the caller: corpus_global increments it. */
extern uint32_t corpus_counter;

#endif
