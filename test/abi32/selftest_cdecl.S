/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Hand-written i386 functions for the self-test of the 32-bit ABI and CFI
 * checkers (selftest_cdecl.c): well-behaved ones, one deliberate ABI
 * violation per cdecl rule, and functions whose CFI is wrong at a known
 * instruction (a global label marks it).  Written by hand, not through the
 * layer, because the layer would not let most of them be written.
 */
	.text

	.macro FUNC name
	.globl	\name
	.type	\name,@function
	.p2align 4
\name:
	.cfi_startproc
	.endm

	.macro ENDFUNC name
	.cfi_endproc
	.size	\name,.-\name
	.endm

	.macro MARK name
	.globl	\name
\name:
	.endm

/* --- well-behaved --------------------------------------------------------- */

/* Sum of eight stack arguments. */
FUNC st32_sum8
	movl	4(%esp), %eax
	addl	8(%esp), %eax
	addl	12(%esp), %eax
	addl	16(%esp), %eax
	addl	20(%esp), %eax
	addl	24(%esp), %eax
	addl	28(%esp), %eax
	addl	32(%esp), %eax
	ret
ENDFUNC st32_sum8

/* 6x + 15: saves and clobbers every callee-saved register. */
FUNC st32_saveall
	pushl	%ebp
	.cfi_adjust_cfa_offset 4
	.cfi_offset %ebp, -8
	pushl	%ebx
	.cfi_adjust_cfa_offset 4
	.cfi_offset %ebx, -12
	pushl	%esi
	.cfi_adjust_cfa_offset 4
	.cfi_offset %esi, -16
	pushl	%edi
	.cfi_adjust_cfa_offset 4
	.cfi_offset %edi, -20
	movl	20(%esp), %eax
	leal	1(%eax), %ebx
	leal	2(%eax), %esi
	leal	3(%eax), %edi
	leal	4(%eax), %ebp
	addl	%ebx, %eax
	addl	%esi, %eax
	addl	%edi, %eax
	addl	%ebp, %eax
	addl	20(%esp), %eax
	addl	$5, %eax
	popl	%edi
	.cfi_adjust_cfa_offset -4
	.cfi_restore %edi
	popl	%esi
	.cfi_adjust_cfa_offset -4
	.cfi_restore %esi
	popl	%ebx
	.cfi_adjust_cfa_offset -4
	.cfi_restore %ebx
	popl	%ebp
	.cfi_adjust_cfa_offset -4
	.cfi_restore %ebp
	ret
ENDFUNC st32_saveall

/* st32_saveall(a) + st32_saveall(b) = 6a + 6b + 30: a nested frame. */
FUNC st32_caller
	pushl	%ebx
	.cfi_adjust_cfa_offset 4
	.cfi_offset %ebx, -8
	subl	$8, %esp
	.cfi_adjust_cfa_offset 8
	pushl	16(%esp)
	.cfi_adjust_cfa_offset 4
	call	st32_saveall
	movl	%eax, %ebx
	movl	24(%esp), %eax
	movl	%eax, (%esp)
	call	st32_saveall
	addl	%ebx, %eax
	addl	$12, %esp
	.cfi_adjust_cfa_offset -12
	popl	%ebx
	.cfi_adjust_cfa_offset -4
	.cfi_restore %ebx
	ret
ENDFUNC st32_caller

/* x, through call/pop (a push, not a frame) and a local subroutine that
 * the function's own CFI describes as a deeper stack. */
FUNC st32_local
	call	1f
1:	.cfi_adjust_cfa_offset 4
	popl	%ecx
	.cfi_adjust_cfa_offset -4
	movl	4(%esp), %eax
	call	2f
	ret
2:	.cfi_adjust_cfa_offset 4
	notl	%eax
	notl	%eax
	ret
ENDFUNC st32_local

/* x * 2: an ebp frame with the stack realigned to 64 (CFA from ebp). */
FUNC st32_frame
	pushl	%ebp
	.cfi_adjust_cfa_offset 4
	.cfi_offset %ebp, -8
	movl	%esp, %ebp
	.cfi_def_cfa_register %ebp
	andl	$-64, %esp
	subl	$128, %esp
	movl	8(%ebp), %eax
	movl	%eax, 64(%esp)
	addl	64(%esp), %eax
	leave
	.cfi_def_cfa %esp, 4
	.cfi_restore %ebp
	ret
ENDFUNC st32_frame

/* n iterations of two instructions (the step-limit tests): 2n + 3 steps. */
FUNC st32_loop
	movl	4(%esp), %ecx
	xorl	%eax, %eax
1:	incl	%eax
	loop	1b
	ret
ENDFUNC st32_loop

/* x + 1 through a helper with a private register convention (it clobbers
 * ebx, which this function saved for its caller), as aes-586's rounds. */
FUNC st32_private
	pushl	%ebx
	.cfi_adjust_cfa_offset 4
	.cfi_offset %ebx, -8
	movl	8(%esp), %eax
	call	st32_private_helper
	popl	%ebx
	.cfi_adjust_cfa_offset -4
	.cfi_restore %ebx
	ret
ENDFUNC st32_private

FUNC st32_private_helper
	movl	$7, %ebx
	MARK st32_private_helper_after
	leal	1(%eax), %eax
	ret
ENDFUNC st32_private_helper

/* The same without saving ebx: its caller's ebx is lost. */
FUNC st32_private_bad
	movl	4(%esp), %eax
	call	st32_private_helper
	decl	%eax
	ret
ENDFUNC st32_private_bad

/* --- ABI violations ---------------------------------------------------------- */

	.macro CLOBBER name, reg
FUNC \name
	movl	4(%esp), %eax
	MARK \name\()_after
	movl	$0x5a5a5a5a, \reg
	ret
ENDFUNC \name
	.endm
	CLOBBER st32_bad_ebx, %ebx
	CLOBBER st32_bad_esi, %esi
	CLOBBER st32_bad_edi, %edi
	CLOBBER st32_bad_ebp, %ebp

FUNC st32_bad_df
	movl	4(%esp), %eax
	std
	ret
ENDFUNC st32_bad_df

/* Pops its argument as stdcall would: esp 4 bytes high. */
FUNC st32_bad_esp_high
	movl	4(%esp), %eax
	ret	$4
ENDFUNC st32_bad_esp_high

/* Returns with esp 8 bytes low. */
FUNC st32_bad_esp_low
	movl	4(%esp), %eax
	popl	%ecx
	.cfi_adjust_cfa_offset -4
	.cfi_register %eip, %ecx
	subl	$8, %esp
	.cfi_adjust_cfa_offset 8
	jmp	*%ecx
ENDFUNC st32_bad_esp_low

/* MMX without emms: the x87 stack is left full. */
FUNC st32_bad_emms
	movl	4(%esp), %eax
	movd	%eax, %mm0
	movd	%mm0, %eax
	ret
ENDFUNC st32_bad_emms

/* Leaves the x87 control word with round-to-zero. */
FUNC st32_bad_fcw
	subl	$4, %esp
	.cfi_adjust_cfa_offset 4
	fnstcw	(%esp)
	orw	$0x0c00, (%esp)
	fldcw	(%esp)
	addl	$4, %esp
	.cfi_adjust_cfa_offset -4
	movl	4(%esp), %eax
	ret
ENDFUNC st32_bad_fcw

/* Leaves MXCSR with round-to-zero. */
FUNC st32_bad_mxcsr
	subl	$4, %esp
	.cfi_adjust_cfa_offset 4
	stmxcsr	(%esp)
	orl	$0x6000, (%esp)
	ldmxcsr	(%esp)
	addl	$4, %esp
	.cfi_adjust_cfa_offset -4
	movl	4(%esp), %eax
	ret
ENDFUNC st32_bad_mxcsr

/* --- wrong CFI in ABI-correct functions --------------------------------------- */

/* x: the push is not described. */
FUNC st32_bad_cfi_push
	pushl	%ebx
	MARK st32_bad_cfi_push_after
	movl	8(%esp), %eax
	popl	%ebx
	ret
ENDFUNC st32_bad_cfi_push

/* x + 1: saves esi, the CFI says edi. */
FUNC st32_bad_cfi_reg
	pushl	%esi
	.cfi_adjust_cfa_offset 4
	.cfi_offset %edi, -8
	MARK st32_bad_cfi_reg_after
	movl	8(%esp), %esi
	leal	1(%esi), %eax
	popl	%esi
	.cfi_adjust_cfa_offset -4
	.cfi_restore %edi
	ret
ENDFUNC st32_bad_cfi_reg

/* x: correct itself, calls st32_bad_cfi_push (fails at depth 1). */
FUNC st32_calls_bad
	subl	$8, %esp
	.cfi_adjust_cfa_offset 8
	pushl	12(%esp)
	.cfi_adjust_cfa_offset 4
	call	st32_bad_cfi_push
	addl	$12, %esp
	.cfi_adjust_cfa_offset -12
	ret
ENDFUNC st32_calls_bad

/* x + 1 with no CFI at all (no FDE covers it). */
	.globl	st32_no_cfi
	.type	st32_no_cfi,@function
	.p2align 4
st32_no_cfi:
	movl	4(%esp), %eax
	incl	%eax
	ret
	.size	st32_no_cfi,.-st32_no_cfi

/* Reads address 0. */
FUNC st32_crash
	xorl	%eax, %eax
	MARK st32_crash_load
	movl	(%eax), %eax
	ret
ENDFUNC st32_crash

	.section .note.GNU-stack,"",@progbits
