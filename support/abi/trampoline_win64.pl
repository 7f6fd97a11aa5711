#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# Win64 call trampoline for support/abi/abi_win64.c, generated through the
# 64-bit layer (flavours mingw64 and nasm):
#   perl support/abi/trampoline_win64.pl mingw64|nasm OUTPUT
#
#   void abi_win64_trampoline(struct w64_io *io);
#
# Calls io->fn(io->args[0..9]) the Win64 way: rcx rdx r8 r9, arguments 5..10
# above the 32-byte shadow space, rsp 16-byte aligned at the call.  Before
# the call it loads io's random values into every callee-saved register
# (rbx rbp rdi rsi r12-r15, xmm6-xmm15) and ORs io->tf into RFLAGS (0x100:
# single-step from fn's first instruction).  After the return it stores
# rax, the callee-saved registers, RFLAGS and rsp into io.  The frame
# helper saves and restores the caller's registers (xmm6-15 included) and
# writes the unwind tables.  fn may return with any rsp: the io pointer is
# kept in a static and the call-time rsp inside io (single-threaded).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../../perlasm/lib";
use X64::Module;

X64::Module::pipe_output(@ARGV);

# struct w64_io, mirrored (abi_win64.c checks the offsets).
my %IO = (gpr_in => 0, gpr_out => 64, xmm_in => 128, xmm_out => 288,
          args => 448, fn => 528, tf => 536, rax => 544, rflags => 552,
          rsp_call => 560, rsp_after => 568);
my @GPR = qw(rbx rbp rdi rsi r12 r13 r14 r15);
my $OUT_ARGS = 32;         # the callee's stack arguments, above its shadow space

my $stack_args = join '', map {
    "\tmov\t" . ($IO{args} + 8 * $_) . "(%rcx),%rax\n"
  . "\tmov\t%rax," . ($OUT_ARGS + 8 * ($_ - 4)) . "(%rsp)\n" } 4 .. 9;
my $load_xmm  = join '', map { "\tmovdqu\t" . ($IO{xmm_in} + 16 * ($_ - 6)) . "(%rcx),%xmm$_\n" } 6 .. 15;
my $store_xmm = join '', map { "\tmovdqu\t%xmm$_," . ($IO{xmm_out} + 16 * ($_ - 6)) . "(%rcx)\n" } 6 .. 15;
my $load_gpr  = join '', map { "\tmov\t" . ($IO{gpr_in} + 8 * $_) . "(%rcx),%$GPR[$_]\n" } 0 .. 7;
my $store_gpr = join '', map { "\tmov\t%$GPR[$_]," . ($IO{gpr_out} + 8 * $_) . "(%rcx)\n" } 0 .. 7;

print <<___;
.text
.globl	abi_win64_trampoline
.globl	abi_win64_trampoline_ret
.function abi_win64_trampoline, args=1, save=rbx:rbp:r12:r13:r14:r15, xmm=6-15, stack=80
	mov	%rdi,%rcx
	mov	%rcx,abi_win64_io(%rip)
	mov	%rsp,$IO{rsp_call}(%rcx)
$stack_args
$load_xmm
$load_gpr
	mov	$IO{fn}(%rcx),%r10
	mov	$IO{tf}(%rcx),%rax
	mov	@{[ $IO{args} + 8 ]}(%rcx),%rdx
	mov	@{[ $IO{args} + 16 ]}(%rcx),%r8
	mov	@{[ $IO{args} + 24 ]}(%rcx),%r9
	# TF set by popfq traps after the next instruction: the handler sees
	# one stop at the call, then fn's first instruction.
	pushfq
.cfi_adjust_cfa_offset	8
	or	%rax,(%rsp)
	popfq
.cfi_adjust_cfa_offset	-8
	mov	$IO{args}(%rcx),%rcx
	call	*%r10
abi_win64_trampoline_ret:
	mov	abi_win64_io(%rip),%rcx
	mov	%rax,$IO{rax}(%rcx)
	mov	%rsp,$IO{rsp_after}(%rcx)
	mov	$IO{rsp_call}(%rcx),%rsp
	pushfq
.cfi_adjust_cfa_offset	8
	popq	$IO{rflags}(%rcx)
.cfi_adjust_cfa_offset	-8
	cld
$store_gpr
$store_xmm
	.return
.endfunction

.bss
.align	8
abi_win64_io:
.zero	8
___
X64::Module::finish();
