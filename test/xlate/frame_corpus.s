# SPDX-License-Identifier: Apache-2.0
# Test functions for the frame helper and the raw dialect, run by
# test/xlate/frame_main.c through the ABI and unwind checkers on SysV (ELF)
# and Win64 (mingw64 and nasm flavours).  Each clobbers what it declares,
# so a frame that failed to save something is caught.
.text

# uint64_t fc_leaf(a, b, c): a + 2b + 3c, no frame at all.
.globl	fc_leaf
.function fc_leaf, args=3
	lea	(%rdi,%rsi,2),%rax
	lea	(%rdx,%rdx,2),%rdx
	add	%rdx,%rax
	.return
.endfunction

# uint64_t fc_push_all(a): clobbers every callee-saved GPR; returns a ^ 0x5a.
.globl	fc_push_all
.function fc_push_all, args=1, save=rbx:rbp:r12:r13:r14:r15
	mov	%rdi,%rax
	xor	$0x5a,%rax
	mov	$-1,%rbx
	mov	$-1,%rbp
	mov	$-1,%r12
	mov	$-1,%r13
	mov	$-1,%r14
	mov	$-1,%r15
	.return
.endfunction

# uint64_t fc_big_frame(n): a 4 KiB frame aligned to 64 through a frame
# pointer; fills it with n and returns the sum of its qwords plus
# (rsp & 63), which must be 0.
.globl	fc_big_frame
.function fc_big_frame, args=1, save=rbx, stack=4096, align=64
	xor	%ecx,%ecx
.Lfill:
	mov	%rdi,(%rsp,%rcx,8)
	inc	%rcx
	cmp	$512,%rcx
	jne	.Lfill
	xor	%eax,%eax
	xor	%ecx,%ecx
.Lsum:
	add	(%rsp,%rcx,8),%rax
	inc	%rcx
	cmp	$512,%rcx
	jne	.Lsum
	mov	%rsp,%rbx
	and	$63,%rbx
	add	%rbx,%rax
	.return
.endfunction

# uint64_t fc_xmm(a): clobbers xmm6-xmm15 (callee-saved on Win64); returns a + 1.
.globl	fc_xmm
.function fc_xmm, args=1, xmm=6-15
	pcmpeqd	%xmm6,%xmm6
	pcmpeqd	%xmm7,%xmm7
	pcmpeqd	%xmm8,%xmm8
	pcmpeqd	%xmm9,%xmm9
	pcmpeqd	%xmm10,%xmm10
	pcmpeqd	%xmm11,%xmm11
	pcmpeqd	%xmm12,%xmm12
	pcmpeqd	%xmm13,%xmm13
	pcmpeqd	%xmm14,%xmm14
	pcmpeqd	%xmm15,%xmm15
	lea	1(%rdi),%rax
	.return
.endfunction

# uint64_t fc_args10(a1..a10): sum of i * ai.
.globl	fc_args10
.function fc_args10, args=10, save=rbx
	mov	%rdi,%rax
	lea	(%rax,%rsi,2),%rax
	lea	(%rdx,%rdx,2),%rbx
	add	%rbx,%rax
	lea	(%rax,%rcx,4),%rax
	lea	(%r8,%r8,4),%rbx
	add	%rbx,%rax
	imul	$6,%r9,%rbx
	add	%rbx,%rax
	imul	$7,@arg7,%rbx
	add	%rbx,%rax
	mov	@arg8,%rbx
	shl	$3,%rbx
	add	%rbx,%rax
	imul	$9,@arg9,%rbx
	add	%rbx,%rax
	imul	$10,@arg10,%rbx
	add	%rbx,%rax
	.return
.endfunction

# uint64_t fc_calls(a): calls fc_leaf(a, a, a) from inside a frame, so the
# unwinder is exercised through two of our frames; returns 6a + 1.
.globl	fc_calls
.function fc_calls, args=1, save=rbx:r12, stack=32
	mov	%rdi,%r12
	mov	%rdi,%rsi
	mov	%rdi,%rdx
	call	fc_leaf_sysv
	lea	1(%rax),%rax
	.return
.endfunction

# fc_leaf with the SysV convention on every ABI: an internal helper, as
# the layer does not move arguments for @abi-omnipotent functions.
.type	fc_leaf_sysv,@abi-omnipotent
fc_leaf_sysv:
.cfi_startproc
	lea	(%rdi,%rsi,2),%rax
	lea	(%rdx,%rdx,2),%rdx
	add	%rdx,%rax
	ret
.cfi_endproc
.size	fc_leaf_sysv,.-fc_leaf_sysv

# uint64_t fc_raw(a, b): OpenSSL's raw dialect with hand-written CFI;
# returns a * b + 3 after clobbering rbx and rbp.
.globl	fc_raw
.type	fc_raw,@function,2
.align	16
fc_raw:
.cfi_startproc
	endbranch
	push	%rbx
.cfi_push	%rbx
	push	%rbp
.cfi_push	%rbp
	sub	$24,%rsp
.cfi_adjust_cfa_offset	24
	mov	%rdi,%rax
	imul	%rsi,%rax
	mov	%rax,8(%rsp)
	mov	$-1,%rbx
	mov	$-1,%rbp
	mov	8(%rsp),%rax
	add	$3,%rax
	add	$24,%rsp
.cfi_adjust_cfa_offset	-24
	pop	%rbp
.cfi_pop	%rbp
	pop	%rbx
.cfi_pop	%rbx
	ret
.cfi_endproc
.size	fc_raw,.-fc_raw

# Negative control: the push of rbx is not annotated, so every unwind
# after it is wrong.  The unwind checker must report it.
.globl	fc_bad_cfi
.type	fc_bad_cfi,@function,1
fc_bad_cfi:
.cfi_startproc
	endbranch
	push	%rbx
	mov	$-1,%rbx
	lea	7(%rdi),%rax
	pop	%rbx
	ret
.cfi_endproc
.size	fc_bad_cfi,.-fc_bad_cfi
