#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# SysV x86_64 call trampoline for the ABI and unwind checkers (abi_sysv.c),
# generated through the 64-bit layer like any module:
#   perl support/abi/trampoline_sysv.pl elf OUTPUT
#
#   void abi_trampoline_sysv(const void *fn, struct abi_sysv_io *io);
#
# Loads rbx rbp r12-r15 from io->cs_in, passes io->args[0..9] (six in
# registers, four on the stack, rsp 16-byte aligned at the call) and calls
# fn.  Afterwards it stores what fn left in the callee-saved registers,
# rax, rflags, MXCSR, the x87 control word and the rsp difference into io,
# repairs what a misbehaving fn may have broken (rsp, DF, MXCSR, x87 control
# word) and returns through the frame helper's epilogue.  fn may return
# with any rsp: ours comes back from a static copy (the checkers are
# single-threaded).  abi_trampoline_sysv_call labels the call and
# abi_trampoline_sysv_ret the return address, for the ptrace tracer.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../../perlasm/lib";
use X64::Module;

X64::Module::pipe_output(@ARGV);

# struct abi_sysv_io, mirrored (abi_sysv.c checks the offsets).
my %IO = (args => 0, cs_in => 80, cs_out => 128, rax => 176, rflags => 184,
          rsp_delta => 192, call_rsp => 200, mxcsr_in => 208,
          mxcsr_out => 212, fcw_in => 216, fcw_out => 218);
my @CALLEE_SAVED = qw(rbx rbp r12 r13 r14 r15);
my @ARG_REGS = qw(rdi rsi rdx rcx r8 r9);
my $IO_SLOT = 32;          # io pointer; below it the four stack arguments

my $load_cs  = join '', map { "\tmov\t" . ($IO{cs_in} + 8 * $_) . "(%rsi),%$CALLEE_SAVED[$_]\n" } 0 .. 5;
my $store_cs = join '', map { "\tmov\t%$CALLEE_SAVED[$_]," . ($IO{cs_out} + 8 * $_) . "(%rsi)\n" } 0 .. 5;
my $stack_args = join '', map { "\tmov\t" . (8 * $_) . "(%rsi),%rax\n\tmov\t%rax," . (8 * ($_ - 6)) . "(%rsp)\n" } 6 .. 9;
# rsi (io) last: it is the second argument register.
my $reg_args = join '', map { "\tmov\t" . (8 * $_) . "(%rsi),%$ARG_REGS[$_]\n" } 0, 2 .. 5, 1;

print <<___;
.text
.globl	abi_trampoline_sysv
.globl	abi_trampoline_sysv_call
.globl	abi_trampoline_sysv_ret
.function abi_trampoline_sysv, args=2, save=rbx:rbp:r12:r13:r14:r15, stack=40
	mov	%rsi,$IO_SLOT(%rsp)
$stack_args
	mov	%rsp,$IO{call_rsp}(%rsi)
	mov	%rsp,abi_sysv_saved_rsp(%rip)
	stmxcsr	$IO{mxcsr_in}(%rsi)
	fnstcw	$IO{fcw_in}(%rsi)
	mov	%rdi,%r11
$load_cs
$reg_args
abi_trampoline_sysv_call:
	call	*%r11
abi_trampoline_sysv_ret:
	# Nothing may touch fn's flags before they are saved: movs keep them.
	mov	%rsp,%r9
	mov	abi_sysv_saved_rsp(%rip),%rsp
	pushfq
.cfi_adjust_cfa_offset	8
	pop	%r10
.cfi_adjust_cfa_offset	-8
	cld
	mov	$IO_SLOT(%rsp),%rsi
$store_cs
	mov	%rax,$IO{rax}(%rsi)
	mov	%r10,$IO{rflags}(%rsi)
	sub	%rsp,%r9
	mov	%r9,$IO{rsp_delta}(%rsi)
	stmxcsr	$IO{mxcsr_out}(%rsi)
	fnstcw	$IO{fcw_out}(%rsi)
	# Give C back the modes it had, whatever fn did to them.
	ldmxcsr	$IO{mxcsr_in}(%rsi)
	fldcw	$IO{fcw_in}(%rsi)
	.return
.endfunction

.bss
.align	8
abi_sysv_saved_rsp:
.zero	8
___
X64::Module::finish();
