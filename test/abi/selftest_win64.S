/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Functions for the Win64 checker self-test (selftest_win64.c), in mingw
 * GNU as with .seh_* unwind directives.  The nasm twin is
 * selftest_win64_nasm.asm.
 *
 * Good functions must pass abi_call and unwind_check.  The gas_bad_*
 * ones are negative controls: each breaks one rule, and the test checks
 * that the right checker reports it, naming the register and, for unwind
 * errors, the first wrong instruction (the global label <name>_fail).
 * All are straight-line code, so the test also knows how many instructions
 * the single-stepper must see.
 */

/* FUNC(name): global function symbol, 16-byte aligned. */
#define FUNC(name) \
	.globl name; .def name; .scl 2; .type 32; .endef; .p2align 4; name:
/* MARK(name): a global label the C side uses as an expected offset. */
#define MARK(name) .globl name; name:

	.text

/* Leaf without .pdata: returns the sum of its ten arguments. */
FUNC(gas_sum10)
	leaq	(%rcx,%rdx), %rax
	addq	%r8, %rax
	addq	%r9, %rax
	addq	0x28(%rsp), %rax	/* arg 5: above return address + shadow */
	addq	0x30(%rsp), %rax
	addq	0x38(%rsp), %rax
	addq	0x40(%rsp), %rax
	addq	0x48(%rsp), %rax
	addq	0x50(%rsp), %rax
	ret

/* Pushes all eight callee-saved GPRs, clobbers them, restores them. */
	.seh_proc gas_push_all
FUNC(gas_push_all)
	pushq	%rbx
	.seh_pushreg %rbx
	pushq	%rbp
	.seh_pushreg %rbp
	pushq	%rdi
	.seh_pushreg %rdi
	pushq	%rsi
	.seh_pushreg %rsi
	pushq	%r12
	.seh_pushreg %r12
	pushq	%r13
	.seh_pushreg %r13
	pushq	%r14
	.seh_pushreg %r14
	pushq	%r15
	.seh_pushreg %r15
	subq	$8, %rsp		/* rsp 16-aligned */
	.seh_stackalloc 8
	.seh_endprologue
	xorl	%ebx, %ebx
	xorl	%ebp, %ebp
	xorl	%edi, %edi
	xorl	%esi, %esi
	xorl	%r12d, %r12d
	xorl	%r13d, %r13d
	xorl	%r14d, %r14d
	xorl	%r15d, %r15d
	addq	$8, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rsi
	popq	%rdi
	popq	%rbp
	popq	%rbx
	ret
	.seh_endproc

/*
 * Frame pointer with a large frame (ALLOC_LARGE), realigned to 64 bytes in
 * the body: from the realignment on, only rbp can unwind it.
 */
	.seh_proc gas_frame
FUNC(gas_frame)
	pushq	%rbp
	.seh_pushreg %rbp
	pushq	%rbx
	.seh_pushreg %rbx
	subq	$0x1008, %rsp
	.seh_stackalloc 0x1008
	leaq	0x80(%rsp), %rbp
	.seh_setframe %rbp, 0x80
	.seh_endprologue
	andq	$-64, %rsp
	movq	%rcx, (%rsp)
	movq	%rcx, 0x800(%rsp)
	movq	%rsp, %rbx
	movq	0x800(%rbx), %rax
	leaq	0x1008-0x80(%rbp), %rsp	/* epilogue: lea, pops, ret */
	popq	%rbx
	popq	%rbp
	ret
	.seh_endproc

/* Saves xmm6-xmm15 with movaps into its frame and clobbers them. */
	.seh_proc gas_xmm
FUNC(gas_xmm)
	subq	$0xa8, %rsp
	.seh_stackalloc 0xa8
	movaps	%xmm6, 0x00(%rsp)
	.seh_savexmm %xmm6, 0x00
	movaps	%xmm7, 0x10(%rsp)
	.seh_savexmm %xmm7, 0x10
	movaps	%xmm8, 0x20(%rsp)
	.seh_savexmm %xmm8, 0x20
	movaps	%xmm9, 0x30(%rsp)
	.seh_savexmm %xmm9, 0x30
	movaps	%xmm10, 0x40(%rsp)
	.seh_savexmm %xmm10, 0x40
	movaps	%xmm11, 0x50(%rsp)
	.seh_savexmm %xmm11, 0x50
	movaps	%xmm12, 0x60(%rsp)
	.seh_savexmm %xmm12, 0x60
	movaps	%xmm13, 0x70(%rsp)
	.seh_savexmm %xmm13, 0x70
	movaps	%xmm14, 0x80(%rsp)
	.seh_savexmm %xmm14, 0x80
	movaps	%xmm15, 0x90(%rsp)
	.seh_savexmm %xmm15, 0x90
	.seh_endprologue
	pxor	%xmm6, %xmm6
	pcmpeqd	%xmm7, %xmm7
	pxor	%xmm8, %xmm8
	pcmpeqd	%xmm9, %xmm9
	pxor	%xmm10, %xmm10
	pcmpeqd	%xmm11, %xmm11
	pxor	%xmm12, %xmm12
	pcmpeqd	%xmm13, %xmm13
	pxor	%xmm14, %xmm14
	pcmpeqd	%xmm15, %xmm15
	movaps	0x00(%rsp), %xmm6
	movaps	0x10(%rsp), %xmm7
	movaps	0x20(%rsp), %xmm8
	movaps	0x30(%rsp), %xmm9
	movaps	0x40(%rsp), %xmm10
	movaps	0x50(%rsp), %xmm11
	movaps	0x60(%rsp), %xmm12
	movaps	0x70(%rsp), %xmm13
	movaps	0x80(%rsp), %xmm14
	movaps	0x90(%rsp), %xmm15
	addq	$0xa8, %rsp
	ret
	.seh_endproc

/*
 * Saves rbx and rsi with mov (UWOP_SAVE_NONVOL) into its caller's shadow
 * space, above the return address, as MSVC does.
 */
	.seh_proc gas_savereg
FUNC(gas_savereg)
	subq	$0x28, %rsp
	.seh_stackalloc 0x28
	movq	%rbx, 0x30(%rsp)
	.seh_savereg %rbx, 0x30
	movq	%rsi, 0x38(%rsp)
	.seh_savereg %rsi, 0x38
	.seh_endprologue
	movq	%rcx, %rbx
	movq	%rdx, %rsi
	leaq	(%rbx,%rsi), %rax
	movq	0x30(%rsp), %rbx
	movq	0x38(%rsp), %rsi
	addq	$0x28, %rsp
	ret
	.seh_endproc

/*
 * Calls gas_sum10 (a leaf without .pdata) with ten arguments, then
 * gas_push_all; returns the sum.  Exercises depth tracking.
 */
	.seh_proc gas_caller
FUNC(gas_caller)
	pushq	%rbx
	.seh_pushreg %rbx
	subq	$0x60, %rsp		/* shadow 32 + 6 stack args, aligned */
	.seh_stackalloc 0x60
	.seh_endprologue
	movl	$1, %ecx
	movl	$2, %edx
	movl	$3, %r8d
	movl	$4, %r9d
	movq	$5, 0x20(%rsp)
	movq	$6, 0x28(%rsp)
	movq	$7, 0x30(%rsp)
	movq	$8, 0x38(%rsp)
	movq	$9, 0x40(%rsp)
	movq	$10, 0x48(%rsp)
	call	gas_sum10
	movq	%rax, %rbx
	call	gas_push_all
	movq	%rbx, %rax
	addq	$0x60, %rsp
	popq	%rbx
	ret
	.seh_endproc

/* ---- negative controls ------------------------------------------------- */

/* Clobbers rsi without saving it (a leaf). */
FUNC(gas_bad_rsi)
	movq	%rcx, %rsi
MARK(gas_bad_rsi_fail)
	ret

/* Clobbers xmm7 without saving it. */
FUNC(gas_bad_xmm7)
	movq	%rcx, %xmm7
MARK(gas_bad_xmm7_fail)
	ret

/* Returns with the direction flag set (unwinding is still right). */
FUNC(gas_bad_df)
	std
	ret

/* Pushes rbx but the unwind info says rsi. */
	.seh_proc gas_bad_pushreg
FUNC(gas_bad_pushreg)
	pushq	%rbx
	.seh_pushreg %rsi
	.seh_endprologue
MARK(gas_bad_pushreg_fail)
	xorl	%ebx, %ebx
	popq	%rbx
	ret
	.seh_endproc

/* Allocates 32 bytes without .seh_stackalloc. */
	.seh_proc gas_bad_noalloc
FUNC(gas_bad_noalloc)
	pushq	%rbx
	.seh_pushreg %rbx
	subq	$0x20, %rsp
	.seh_endprologue
MARK(gas_bad_noalloc_fail)
	nop
	addq	$0x20, %rsp
	popq	%rbx
	ret
	.seh_endproc

/* No .pdata (so a leaf to the unwinder), yet it pushes a register. */
FUNC(gas_bad_leafpush)
	pushq	%rbx
MARK(gas_bad_leafpush_fail)
	popq	%rbx
	ret

/* Returns with rsp 8 bytes too low: the trampoline must survive it. */
FUNC(gas_bad_rsp)
	popq	%r11
MARK(gas_bad_rsp_fail)
	pushq	%r11
	pushq	%r11
	ret

/*
 * Declares rbp as frame register but never sets it: RtlVirtualUnwind
 * computes the frame from the caller's random rbp and faults.  The
 * checker must report that instead of crashing.
 */
	.seh_proc gas_bad_fpreg
FUNC(gas_bad_fpreg)
	pushq	%rbp
	.seh_pushreg %rbp
	nop				/* where "movq %rsp, %rbp" should be */
	.seh_setframe %rbp, 0
	.seh_endprologue
MARK(gas_bad_fpreg_fail)
	nop
	popq	%rbp
	ret
	.seh_endproc
