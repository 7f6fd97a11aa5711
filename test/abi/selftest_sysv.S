/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Hand-written functions for test/abi/selftest_sysv.c: well-behaved ones
 * that both checkers must pass, and negative controls that each break one
 * rule, which the checkers must report.  SysV x86_64, GNU as (AT&T).
 *
 * Labels named *_after mark the first instruction at which a broken
 * function's unwind information is wrong, so the test can check the
 * offset the unwind checker names.
 */

/* FUNC name: starts a global function with unwind info. */
.macro	FUNC name
	.globl	\name
	.type	\name, @function
	.p2align 4
\name:
	.cfi_startproc
	endbr64
.endm

.macro	ENDFUNC name
	.cfi_endproc
	.size	\name, .-\name
.endm

/* Records a push/pop of a callee-saved register in the unwind info. */
.macro	PUSH reg
	pushq	%\reg
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %\reg, 0
.endm

.macro	POP reg
	popq	%\reg
	.cfi_adjust_cfa_offset -8
	.cfi_restore %\reg
.endm

	.text

/* ---- well-behaved ---------------------------------------------------- */

/* uint64_t st_sum8(a, b, c, d, e, f, g, h): a + ... + h; g and h come on
 * the stack. */
FUNC st_sum8
	leaq	(%rdi,%rsi), %rax
	addq	%rdx, %rax
	addq	%rcx, %rax
	addq	%r8, %rax
	addq	%r9, %rax
	addq	8(%rsp), %rax
	addq	16(%rsp), %rax
	ret
ENDFUNC st_sum8

/* uint64_t st_poly10(a0, ..., a9): sum of (i + 1) * ai, so every argument
 * must arrive in its own place. */
FUNC st_poly10
	movq	%rdi, %rax
	leaq	(%rax,%rsi,2), %rax
	imulq	$3, %rdx, %rdx
	addq	%rdx, %rax
	leaq	(%rax,%rcx,4), %rax
	imulq	$5, %r8, %r8
	addq	%r8, %rax
	imulq	$6, %r9, %r9
	addq	%r9, %rax
	imulq	$7, 8(%rsp), %r10
	addq	%r10, %rax
	movq	16(%rsp), %r10
	leaq	(%rax,%r10,8), %rax
	imulq	$9, 24(%rsp), %r10
	addq	%r10, %rax
	imulq	$10, 32(%rsp), %r10
	addq	%r10, %rax
	ret
ENDFUNC st_poly10

/* uint64_t st_saveall(x): uses all six callee-saved registers, saving and
 * restoring them; returns 6x + 15. */
FUNC st_saveall
	PUSH	rbx
	PUSH	rbp
	PUSH	r12
	PUSH	r13
	PUSH	r14
	PUSH	r15
	movq	%rdi, %rbx
	leaq	1(%rdi), %rbp
	leaq	2(%rdi), %r12
	leaq	3(%rdi), %r13
	leaq	4(%rdi), %r14
	leaq	5(%rdi), %r15
	leaq	(%rbx,%rbp), %rax
	addq	%r12, %rax
	addq	%r13, %rax
	addq	%r14, %rax
	addq	%r15, %rax
	POP	r15
	POP	r14
	POP	r13
	POP	r12
	POP	rbp
	POP	rbx
	ret
ENDFUNC st_saveall

/* uint64_t st_frame(n): rbp frame, 64-byte aligned 8 KiB stack buffer;
 * returns n * (0 + 1 + ... + 127) plus (rsp mod 64) << 48, so a misaligned
 * frame shows in the result. */
FUNC st_frame
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	pushq	%rbx
	.cfi_offset %rbx, -24
	pushq	%r12
	.cfi_offset %r12, -32
	andq	$-64, %rsp
	subq	$8192, %rsp
	movq	%rsp, %r12
	andq	$63, %r12
	shlq	$48, %r12
	xorl	%ecx, %ecx
1:	movq	%rcx, %rbx
	imulq	%rdi, %rbx
	movq	%rcx, %rdx
	shlq	$6, %rdx			/* one qword per 64 bytes */
	movq	%rbx, (%rsp,%rdx)
	incq	%rcx
	cmpq	$128, %rcx
	jb	1b
	movq	%r12, %rax
	xorl	%ecx, %ecx
2:	movq	%rcx, %rdx
	shlq	$6, %rdx
	addq	(%rsp,%rdx), %rax
	incq	%rcx
	cmpq	$128, %rcx
	jb	2b
	leaq	-16(%rbp), %rsp
	popq	%r12
	.cfi_restore %r12
	popq	%rbx
	.cfi_restore %rbx
	popq	%rbp
	.cfi_def_cfa %rsp, 8
	.cfi_restore %rbp
	ret
ENDFUNC st_frame

/* uint64_t st_callee(x): 6x + 1, through r13 and r14. */
FUNC st_callee
	PUSH	r13
	PUSH	r14
	leaq	(%rdi,%rdi,2), %r13
	leaq	1(%r13), %r14
	leaq	(%r13,%r14), %rax
	POP	r14
	POP	r13
	ret
ENDFUNC st_callee

/* uint64_t st_caller(a, b): st_callee(a) + st_callee(b) = 6a + 6b + 2. */
FUNC st_caller
	PUSH	r12
	PUSH	rbx
	subq	$8, %rsp			/* rsp 16-byte aligned at the calls */
	.cfi_adjust_cfa_offset 8
	movq	%rsi, %rbx
	call	st_callee
	movq	%rax, %r12
	movq	%rbx, %rdi
	call	st_callee
	addq	%r12, %rax
	addq	$8, %rsp
	.cfi_adjust_cfa_offset -8
	POP	rbx
	POP	r12
	ret
ENDFUNC st_caller

/* uint64_t st_recurse(n): n + (n - 1) + ... + 1, recursively: the same
 * return address at several depths. */
FUNC st_recurse
	xorl	%eax, %eax
	testq	%rdi, %rdi
	jz	1f
	PUSH	rbx
	movq	%rdi, %rbx
	leaq	-1(%rdi), %rdi
	call	st_recurse
	addq	%rbx, %rax
	POP	rbx
1:	ret
ENDFUNC st_recurse

/* uint64_t st_getpc(x): x, after reading rip with "call 1f; 1: pop", a
 * call that is really a push. */
FUNC st_getpc
	call	1f
1:	.cfi_adjust_cfa_offset 8
	popq	%rax
	.cfi_adjust_cfa_offset -8
	leaq	1b(%rip), %rcx
	subq	%rcx, %rax
	addq	%rdi, %rax
	ret
ENDFUNC st_getpc

/* uint64_t st_align(void): (rsp + 8) mod 16 at entry, 0 if the caller
 * had rsp 16-byte aligned at the call. */
FUNC st_align
	leaq	8(%rsp), %rax
	andl	$15, %eax
	ret
ENDFUNC st_align

/* void st_loop(n): n iterations of nothing (step-limit test). */
FUNC st_loop
1:	decq	%rdi
	jnz	1b
	ret
ENDFUNC st_loop

/* ---- negative controls ------------------------------------------------ */

/* Returns x, leaving x in r12. */
FUNC st_bad_r12
	movq	%rdi, %r12
	.globl	st_bad_r12_after
st_bad_r12_after:
	movq	%rdi, %rax
	ret
ENDFUNC st_bad_r12

/* Returns x with the direction flag set. */
FUNC st_bad_df
	std
	movq	%rdi, %rax
	ret
ENDFUNC st_bad_df

/* Returns x with rounding toward zero left in MXCSR. */
FUNC st_bad_mxcsr
	stmxcsr	-8(%rsp)
	orl	$0x6000, -8(%rsp)
	ldmxcsr	-8(%rsp)
	movq	%rdi, %rax
	ret
ENDFUNC st_bad_mxcsr

/* Returns x with rsp 8 bytes below where the caller had it: the return
 * address is copied one slot down and returned through.  The unwind info
 * (correctly) still describes the original slot. */
FUNC st_bad_rsp_low
	subq	$8, %rsp
	.cfi_adjust_cfa_offset 8
	movq	8(%rsp), %rax
	movq	%rax, (%rsp)
	movq	%rdi, %rax
	ret
ENDFUNC st_bad_rsp_low

/* Returns x and pops 24 bytes of the caller's stack too (rsp misaligned). */
FUNC st_bad_rsp_high
	movq	%rdi, %rax
	ret	$24
ENDFUNC st_bad_rsp_high

/* Returns x; saves r12 with a push the unwind info does not record, so
 * the CFA is 8 bytes off until the pop. */
FUNC st_bad_cfi_push
	pushq	%r12
	.globl	st_bad_cfi_push_after
st_bad_cfi_push_after:
	movq	%rdi, %rax
	popq	%r12
	ret
ENDFUNC st_bad_cfi_push

/* Returns x + 1; saves r13 but the unwind info says r14 was saved. */
FUNC st_bad_cfi_reg
	pushq	%r13
	.cfi_adjust_cfa_offset 8
	.cfi_offset %r14, -16
	.globl	st_bad_cfi_reg_after
st_bad_cfi_reg_after:
	movq	%rdi, %r13
	leaq	1(%rdi), %rax
	popq	%r13
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r14
	ret
ENDFUNC st_bad_cfi_reg

/* Returns x; correct itself, but calls st_bad_cfi_push (fails at depth 1). */
FUNC st_calls_bad
	subq	$8, %rsp
	.cfi_adjust_cfa_offset 8
	call	st_bad_cfi_push
	addq	$8, %rsp
	.cfi_adjust_cfa_offset -8
	ret
ENDFUNC st_calls_bad

/* Returns x + 1, ABI-correct but with no unwind info at all. */
	.globl	st_no_cfi
	.type	st_no_cfi, @function
	.p2align 4
st_no_cfi:
	endbr64
	pushq	%rbx
	leaq	1(%rdi), %rbx
	movq	%rbx, %rax
	popq	%rbx
	ret
	.size	st_no_cfi, .-st_no_cfi

/* Loads from address 0. */
FUNC st_crash
	xorl	%eax, %eax
	.globl	st_crash_load
st_crash_load:
	movq	(%rax), %rax
	ret
ENDFUNC st_crash

	.section .note.GNU-stack,"",@progbits
