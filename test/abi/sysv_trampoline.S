/*
 * SysV x86_64 call trampoline for the ABI and unwind checkers (abi_sysv.c).
 *
 *   void abi_trampoline_sysv(const void *fn, struct abi_sysv_io *io);
 *
 * Saves the caller's callee-saved registers, loads rbx rbp r12-r15 from
 * io->cs_in, passes io->args[0..9] (six in registers, four on the stack,
 * rsp 16-byte aligned at the call) and calls fn.  After the return it
 * stores what fn left in the callee-saved registers, rax, rflags, MXCSR,
 * the x87 control word and the rsp difference into io, repairs what a
 * misbehaving fn may have broken (rsp, DF, MXCSR, x87 control word) and
 * returns to C.
 *
 * fn may return with any rsp: ours is reloaded from a thread-local copy,
 * since every register fn leaves us is either random or scratch.
 *
 * abi_trampoline_sysv_call labels the call instruction and
 * abi_trampoline_sysv_ret the return address, so a ptrace tracer can find
 * the call by single-stepping and know where fn returns to.
 *
 * The layout of struct abi_sysv_io is mirrored here; abi_sysv.c checks
 * the offsets with static assertions.
 */

#define IO_ARGS      0      /* uint64_t args[10] */
#define IO_CS_IN     80     /* uint64_t cs_in[6]: rbx rbp r12 r13 r14 r15 */
#define IO_CS_OUT    128    /* uint64_t cs_out[6] */
#define IO_RAX       176
#define IO_RFLAGS    184
#define IO_RSP_DELTA 192    /* rsp after the return minus rsp at the call */
#define IO_CALL_RSP  200    /* rsp at the call: fn is entered with this - 8 */
#define IO_MXCSR_IN  208
#define IO_MXCSR_OUT 212
#define IO_FCW_IN    216
#define IO_FCW_OUT   218

/* Frame below the six saved registers: io pointer, four stack arguments. */
#define F_IO         32
#define F_SIZE       40

	.section .tbss,"awT",@nobits
	.p2align 3
	.type	abi_sysv_saved_rsp, @object
	.size	abi_sysv_saved_rsp, 8
abi_sysv_saved_rsp:
	.zero	8

	.text
	.globl	abi_trampoline_sysv
	.type	abi_trampoline_sysv, @function
	.globl	abi_trampoline_sysv_call
	.globl	abi_trampoline_sysv_ret
	.p2align 4
abi_trampoline_sysv:
	.cfi_startproc
	endbr64
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_offset %rbp, -16
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	.cfi_offset %rbx, -24
	pushq	%r12
	.cfi_adjust_cfa_offset 8
	.cfi_offset %r12, -32
	pushq	%r13
	.cfi_adjust_cfa_offset 8
	.cfi_offset %r13, -40
	pushq	%r14
	.cfi_adjust_cfa_offset 8
	.cfi_offset %r14, -48
	pushq	%r15
	.cfi_adjust_cfa_offset 8
	.cfi_offset %r15, -56
	/* 8 (return address) + 48 + 40 = 96: rsp is 16-byte aligned below. */
	subq	$F_SIZE, %rsp
	.cfi_adjust_cfa_offset F_SIZE
	movq	%rsi, F_IO(%rsp)

	/* Arguments 7..10 go to 0..24(%rsp), where fn finds them at 8(%rsp). */
	movq	IO_ARGS+48(%rsi), %rax
	movq	%rax, 0(%rsp)
	movq	IO_ARGS+56(%rsi), %rax
	movq	%rax, 8(%rsp)
	movq	IO_ARGS+64(%rsi), %rax
	movq	%rax, 16(%rsp)
	movq	IO_ARGS+72(%rsi), %rax
	movq	%rax, 24(%rsp)

	movq	%rsp, IO_CALL_RSP(%rsi)
	movq	abi_sysv_saved_rsp@gottpoff(%rip), %rax
	movq	%rsp, %fs:(%rax)
	stmxcsr	IO_MXCSR_IN(%rsi)
	fnstcw	IO_FCW_IN(%rsi)

	movq	%rdi, %r11			/* fn */
	movq	IO_CS_IN+0(%rsi), %rbx
	movq	IO_CS_IN+8(%rsi), %rbp
	movq	IO_CS_IN+16(%rsi), %r12
	movq	IO_CS_IN+24(%rsi), %r13
	movq	IO_CS_IN+32(%rsi), %r14
	movq	IO_CS_IN+40(%rsi), %r15
	movq	IO_ARGS+0(%rsi), %rdi
	movq	IO_ARGS+16(%rsi), %rdx
	movq	IO_ARGS+24(%rsi), %rcx
	movq	IO_ARGS+32(%rsi), %r8
	movq	IO_ARGS+40(%rsi), %r9
	movq	IO_ARGS+8(%rsi), %rsi
abi_trampoline_sysv_call:
	call	*%r11
abi_trampoline_sysv_ret:
	/* Nothing here may touch fn's stack or flags before they are saved:
	 * movs leave the flags alone, and rsp comes back from the TLS copy. */
	movq	%rsp, %r9
	movq	abi_sysv_saved_rsp@gottpoff(%rip), %r11
	movq	%fs:(%r11), %rsp
	pushfq
	popq	%r10
	cld
	movq	F_IO(%rsp), %rsi
	movq	%rbx, IO_CS_OUT+0(%rsi)
	movq	%rbp, IO_CS_OUT+8(%rsi)
	movq	%r12, IO_CS_OUT+16(%rsi)
	movq	%r13, IO_CS_OUT+24(%rsi)
	movq	%r14, IO_CS_OUT+32(%rsi)
	movq	%r15, IO_CS_OUT+40(%rsi)
	movq	%rax, IO_RAX(%rsi)
	movq	%r10, IO_RFLAGS(%rsi)
	subq	%rsp, %r9
	movq	%r9, IO_RSP_DELTA(%rsi)
	stmxcsr	IO_MXCSR_OUT(%rsi)
	fnstcw	IO_FCW_OUT(%rsi)
	/* Give C back the modes it had, whatever fn did to them. */
	ldmxcsr	IO_MXCSR_IN(%rsi)
	fldcw	IO_FCW_IN(%rsi)

	addq	$F_SIZE, %rsp
	.cfi_adjust_cfa_offset -F_SIZE
	popq	%r15
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r15
	popq	%r14
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r14
	popq	%r13
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r13
	popq	%r12
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r12
	popq	%rbx
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbx
	popq	%rbp
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbp
	ret
	.cfi_endproc
	.size	abi_trampoline_sysv, .-abi_trampoline_sysv

	.section .note.GNU-stack,"",@progbits
