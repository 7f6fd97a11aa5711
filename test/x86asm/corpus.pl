#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# A small module written against the 32-bit perlasm API (perlasm/x86asm.pl),
# one function per construct; test/x86asm/corpus_main.c calls each one.
#   perl test/x86asm/corpus.pl FLAVOUR [-fPIC] OUTPUT
# CORPUS_TYPO=1 puts an unknown instruction on a known line (the error test).
use strict;
use warnings;
use FindBin;
push(@INC, "$FindBin::Bin/../../perlasm");
require "x86asm.pl";

our $x86only;
&asm_init($ARGV[0], $x86only = $ARGV[$#ARGV] eq "386");

# uint32_t corpus_sum(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
# Arguments read after a push and a stack allocation: &wparam follows the
# depth.
&function_begin("corpus_sum");
	&mov	("eax", &wparam(0));
	&push	("eax");
	&add	("eax", &wparam(1));
	&sub	("esp", 8);
	&add	("eax", &wparam(2));
	&mov	(&DWP(0, "esp"), "eax");
	&mov	("eax", &wparam(3));
	&add	("eax", &DWP(0, "esp"));
	&add	("esp", 12);
&frob	("eax") if $ENV{CORPUS_TYPO};
&function_end("corpus_sum");

# uint32_t corpus_loop(const uint32_t *p, uint32_t n): sum of p[0..n-1],
# 0 for n == 0 (an early return through function_end_A).
&function_begin("corpus_loop");
	&mov	("esi", &wparam(0));
	&mov	("ecx", &wparam(1));
	&xor	("eax", "eax");
	&test	("ecx", "ecx");
	&jnz	(&label("go"));
	&function_end_A();
&set_label("go");
	&xor	("edx", "edx");
&set_label("loop", 16);
	&add	("eax", &DWP(0, "esi", "edx", 4));
	&inc	("edx");
	&cmp	("edx", "ecx");
	&jb	(&label("loop"));
	&movzx	("edx", &BP(0, "esi"));		# byte 0 of p[0], added once more
	&add	("eax", "edx");
	&movzx	("edx", &WP(2, "esi"));		# and its upper half
	&sub	("eax", "edx");
	&movzx	("edx", &BP(0, "esi"));
	&sub	("eax", "edx");
	&movzx	("edx", &WP(2, "esi"));
	&add	("eax", "edx");
&function_end("corpus_loop");

# uint32_t corpus_sse2(const uint8_t *a, const uint8_t *b, uint8_t *out,
#                      uint32_t i): out[0..15] = a[16i..] ^ b[16i..] + (1,2,3,4) as
# 32-bit lanes; returns lane 0 of the result plus (a[0..7] + b[0..7]) as
# 32-bit MMX lanes, lane 1.  Bare function: no saved registers.
&function_begin_B("corpus_sse2");
	&mov	("eax", &wparam(0));
	&mov	("ecx", &wparam(1));
	&mov	("edx", &wparam(3));
	&shl	("edx", 4);
	&movdqu	("xmm0", &QWP(0, "eax", "edx", 1));
	&movdqu	("xmm1", &QWP(0, "ecx", "edx"));
	&pxor	("xmm0", "xmm1");
	&push	("ebx");
	&picmeup("ebx", &label("lanes"));
	&movdqa	("xmm2", &QWP(0, "ebx"));
	&paddd	("xmm0", "xmm2");
	&pop	("ebx");
	&mov	("edx", &wparam(2));
	&movdqu	(&QWP(0, "edx"), "xmm0");
	&movq	("mm0", &QWP(0, "eax"));
	&movq	("mm1", &QWP(0, "ecx"));
	&paddd	("mm0", "mm1");
	&psrlq	("mm0", 32);
	&movd	("ecx", "mm0");
	&emms	();
	&movd	("eax", "xmm0");
	&add	("eax", "ecx");
	&ret	();
&function_end_B("corpus_sse2");

# uint32_t corpus_table(uint32_t i): tbl[i & 7], tbl in read-only data.
&function_begin_B("corpus_table");
	&mov	("ecx", &wparam(0));
	&and	("ecx", 7);
	&picmeup("eax", &label("tbl"));
	&mov	("eax", &DWP(0, "eax", "ecx", 4));
	&ret	();
&function_end_B("corpus_table");

# uint32_t corpus_global(void): corpus_counter (a C global) + 1, stored back.
&function_begin_B("corpus_global");
	&picmeup("ecx", "corpus_counter");
	&mov	("eax", &DWP(0, "ecx"));
	&inc	("eax");
	&mov	(&DWP(0, "ecx"), "eax");
	&ret	();
&function_end_B("corpus_global");

# uint32_t corpus_flags(uint32_t x): a pushf/popf pair, byte and word
# registers, shifts and rotates, a call to a local label.
&function_begin("corpus_flags");
	&mov	("eax", &wparam(0));
	&pushf	();
	&popf	();
	&mov	("ebx", "eax");
	&rol	("ebx", 8);
	&xor	("bl", "al");
	&xor	("ecx", "ecx");
	&mov	("cx", "ax");
	&shr	("ecx", 3);
	&lea	("eax", &DWP(7, "ebx", "ecx", 8));
	&call	(&label("helper"));
	&jmp	(&label("out"));
&set_label("helper");
	&not	("eax");
	&ret	();
&set_label("out");
&function_end("corpus_flags");

	&rodata();
&align(16);
&set_label("lanes");
	&data_word(1, 2, 3, 4);
&set_label("tbl");
	&data_word(0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80);
	&data_byte(0x63, 0x6f, 0x72, 0x70, 0x75, 0x73, 0);
	&data_short(0x1234, 0xfffe);

&asm_finish();
