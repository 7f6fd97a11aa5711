/*
 * Win64 ABI trampoline for test/abi/abi_win64.c (x86_64-w64-mingw32 GNU as,
 * run through the C preprocessor).
 *
 *   void abi_win64_trampoline(struct w64_io *io);
 *
 * Calls io->fn(io->args[0..9]) the Win64 way: rcx rdx r8 r9, arguments 5..10
 * on the stack above the 32-byte shadow space, rsp 16-byte aligned at the
 * call.  Before the call it loads io's random values into every callee-saved
 * register (rbx rbp rdi rsi r12-r15, xmm6-xmm15) and ORs io->tf into RFLAGS
 * (0x100 sets the trap flag: single-step from fn's first instruction).
 * After the return it stores rax, the callee-saved registers, RFLAGS and rsp
 * back into io, then restores its caller's registers.
 *
 * The callee may return with rsp anywhere: the io pointer is kept in a
 * static variable and the call-time rsp inside io, so nothing after the
 * call depends on the callee's rsp.  Not reentrant (one static io pointer);
 * the test programs are single-threaded.
 *
 * The io layout is mirrored by struct w64_io in abi_win64.c, which checks
 * these offsets with _Static_assert.
 */

#define IO_GPR_IN     0     /* rbx rbp rdi rsi r12 r13 r14 r15 to load */
#define IO_GPR_OUT    64    /* the same registers after the call */
#define IO_XMM_IN     128   /* xmm6..xmm15 to load, 16 bytes each */
#define IO_XMM_OUT    288   /* xmm6..xmm15 after the call */
#define IO_ARGS       448   /* ten 64-bit arguments */
#define IO_FN         528
#define IO_TF         536   /* ORed into RFLAGS just before the call */
#define IO_RAX        544   /* fn's return value */
#define IO_RFLAGS     552   /* RFLAGS right after the return */
#define IO_RSP_CALL   560   /* rsp at the call instruction */
#define IO_RSP_AFTER  568   /* rsp right after the return */

/*
 * Frame below the eight pushes: 32 bytes shadow space + 6 stack arguments
 * (80 bytes) for the callee, then xmm6-xmm15 (160 bytes, 16-aligned), and 8
 * more so that rsp is 16-aligned (entry rsp is 8 mod 16; eight pushes keep
 * it 8 mod 16).
 */
#define OUT_ARGS      32
#define XMM_SAVE      80
#define FRAME         248

	.text
	.globl	abi_win64_trampoline
	.def	abi_win64_trampoline; .scl 2; .type 32; .endef
	.p2align 4
	.seh_proc abi_win64_trampoline
abi_win64_trampoline:
	pushq	%rbp
	.seh_pushreg %rbp
	pushq	%rbx
	.seh_pushreg %rbx
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
	subq	$FRAME, %rsp
	.seh_stackalloc FRAME
	movaps	%xmm6, XMM_SAVE+0x00(%rsp)
	.seh_savexmm %xmm6, XMM_SAVE+0x00
	movaps	%xmm7, XMM_SAVE+0x10(%rsp)
	.seh_savexmm %xmm7, XMM_SAVE+0x10
	movaps	%xmm8, XMM_SAVE+0x20(%rsp)
	.seh_savexmm %xmm8, XMM_SAVE+0x20
	movaps	%xmm9, XMM_SAVE+0x30(%rsp)
	.seh_savexmm %xmm9, XMM_SAVE+0x30
	movaps	%xmm10, XMM_SAVE+0x40(%rsp)
	.seh_savexmm %xmm10, XMM_SAVE+0x40
	movaps	%xmm11, XMM_SAVE+0x50(%rsp)
	.seh_savexmm %xmm11, XMM_SAVE+0x50
	movaps	%xmm12, XMM_SAVE+0x60(%rsp)
	.seh_savexmm %xmm12, XMM_SAVE+0x60
	movaps	%xmm13, XMM_SAVE+0x70(%rsp)
	.seh_savexmm %xmm13, XMM_SAVE+0x70
	movaps	%xmm14, XMM_SAVE+0x80(%rsp)
	.seh_savexmm %xmm14, XMM_SAVE+0x80
	movaps	%xmm15, XMM_SAVE+0x90(%rsp)
	.seh_savexmm %xmm15, XMM_SAVE+0x90
	.seh_endprologue

	movq	%rcx, abi_win64_io(%rip)
	movq	%rsp, IO_RSP_CALL(%rcx)

	/* Arguments 5..10 go above the callee's shadow space. */
	movq	IO_ARGS+0x20(%rcx), %rax
	movq	%rax, OUT_ARGS+0x00(%rsp)
	movq	IO_ARGS+0x28(%rcx), %rax
	movq	%rax, OUT_ARGS+0x08(%rsp)
	movq	IO_ARGS+0x30(%rcx), %rax
	movq	%rax, OUT_ARGS+0x10(%rsp)
	movq	IO_ARGS+0x38(%rcx), %rax
	movq	%rax, OUT_ARGS+0x18(%rsp)
	movq	IO_ARGS+0x40(%rcx), %rax
	movq	%rax, OUT_ARGS+0x20(%rsp)
	movq	IO_ARGS+0x48(%rcx), %rax
	movq	%rax, OUT_ARGS+0x28(%rsp)

	movdqu	IO_XMM_IN+0x00(%rcx), %xmm6
	movdqu	IO_XMM_IN+0x10(%rcx), %xmm7
	movdqu	IO_XMM_IN+0x20(%rcx), %xmm8
	movdqu	IO_XMM_IN+0x30(%rcx), %xmm9
	movdqu	IO_XMM_IN+0x40(%rcx), %xmm10
	movdqu	IO_XMM_IN+0x50(%rcx), %xmm11
	movdqu	IO_XMM_IN+0x60(%rcx), %xmm12
	movdqu	IO_XMM_IN+0x70(%rcx), %xmm13
	movdqu	IO_XMM_IN+0x80(%rcx), %xmm14
	movdqu	IO_XMM_IN+0x90(%rcx), %xmm15

	movq	IO_GPR_IN+0x00(%rcx), %rbx
	movq	IO_GPR_IN+0x08(%rcx), %rbp
	movq	IO_GPR_IN+0x10(%rcx), %rdi
	movq	IO_GPR_IN+0x18(%rcx), %rsi
	movq	IO_GPR_IN+0x20(%rcx), %r12
	movq	IO_GPR_IN+0x28(%rcx), %r13
	movq	IO_GPR_IN+0x30(%rcx), %r14
	movq	IO_GPR_IN+0x38(%rcx), %r15

	movq	IO_FN(%rcx), %r10
	movq	IO_TF(%rcx), %rax
	movq	IO_ARGS+0x08(%rcx), %rdx
	movq	IO_ARGS+0x10(%rcx), %r8
	movq	IO_ARGS+0x18(%rcx), %r9
	/*
	 * Setting TF with popfq traps after the instruction that follows it,
	 * so the handler sees one stop at the call, then fn's first
	 * instruction.
	 */
	pushfq
	orq	%rax, (%rsp)
	popfq
	movq	IO_ARGS+0x00(%rcx), %rcx
	call	*%r10
	.globl	abi_win64_trampoline_ret
abi_win64_trampoline_ret:
	movq	abi_win64_io(%rip), %rcx
	movq	%rax, IO_RAX(%rcx)
	movq	%rsp, IO_RSP_AFTER(%rcx)
	movq	IO_RSP_CALL(%rcx), %rsp		/* fn may have unbalanced rsp */
	pushfq
	popq	IO_RFLAGS(%rcx)
	cld

	movq	%rbx, IO_GPR_OUT+0x00(%rcx)
	movq	%rbp, IO_GPR_OUT+0x08(%rcx)
	movq	%rdi, IO_GPR_OUT+0x10(%rcx)
	movq	%rsi, IO_GPR_OUT+0x18(%rcx)
	movq	%r12, IO_GPR_OUT+0x20(%rcx)
	movq	%r13, IO_GPR_OUT+0x28(%rcx)
	movq	%r14, IO_GPR_OUT+0x30(%rcx)
	movq	%r15, IO_GPR_OUT+0x38(%rcx)
	movdqu	%xmm6, IO_XMM_OUT+0x00(%rcx)
	movdqu	%xmm7, IO_XMM_OUT+0x10(%rcx)
	movdqu	%xmm8, IO_XMM_OUT+0x20(%rcx)
	movdqu	%xmm9, IO_XMM_OUT+0x30(%rcx)
	movdqu	%xmm10, IO_XMM_OUT+0x40(%rcx)
	movdqu	%xmm11, IO_XMM_OUT+0x50(%rcx)
	movdqu	%xmm12, IO_XMM_OUT+0x60(%rcx)
	movdqu	%xmm13, IO_XMM_OUT+0x70(%rcx)
	movdqu	%xmm14, IO_XMM_OUT+0x80(%rcx)
	movdqu	%xmm15, IO_XMM_OUT+0x90(%rcx)

	movaps	XMM_SAVE+0x00(%rsp), %xmm6
	movaps	XMM_SAVE+0x10(%rsp), %xmm7
	movaps	XMM_SAVE+0x20(%rsp), %xmm8
	movaps	XMM_SAVE+0x30(%rsp), %xmm9
	movaps	XMM_SAVE+0x40(%rsp), %xmm10
	movaps	XMM_SAVE+0x50(%rsp), %xmm11
	movaps	XMM_SAVE+0x60(%rsp), %xmm12
	movaps	XMM_SAVE+0x70(%rsp), %xmm13
	movaps	XMM_SAVE+0x80(%rsp), %xmm14
	movaps	XMM_SAVE+0x90(%rsp), %xmm15
	/* Canonical epilogue (add, pops, ret) so unwinders recognise it. */
	addq	$FRAME, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rsi
	popq	%rdi
	popq	%rbx
	popq	%rbp
	ret
	.seh_endproc

	.bss
	.p2align 3
abi_win64_io:
	.space	8
