# SPDX-License-Identifier: Apache-2.0
# Frames Win64 unwind codes cannot describe, as OpenSSL's modules write
# them: the CFA based on rax, the CFA as a DWARF expression (an rsp saved
# in the frame).  On ELF and Mach-O their CFI says it; on Win64 such
# functions need SEH tables of their own (own_seh_tables.s, appended for
# the Win64 flavours by test/t/60-xlate.t), which refer to OpenSSL's
# .LSEH_begin_/.LSEH_end_ labels; the other functions get the layer's.
.text
# The CFA moves to rax, then two pushes: the register slots follow rsp,
# the CFA rule stays rax+8.
.globl	cc_rax_frame
.type	cc_rax_frame,@abi-omnipotent
.align	16
cc_rax_frame:
.cfi_startproc
	endbranch
	mov	%rsp,%rax
.cfi_def_cfa_register	%rax
	push	%rbx
.cfi_push	%rbx
	push	%rbp
.cfi_push	%rbp
	sub	$0x10,%rsp
.cfi_alloca	0x10
.cfi_end_prologue
	lea	(%rdi,%rsi),%rbx
	mov	%rbx,%rdx
	mov	-16(%rax),%rbp
.cfi_restore	%rbp
	mov	-8(%rax),%rbx
.cfi_restore	%rbx
	lea	(%rax),%rsp
.cfi_def_cfa_register	%rsp
	mov	%rdx,%rax
	ret
.Lcc_rax_frame_end:
.cfi_endproc
.size	cc_rax_frame,.-cc_rax_frame

# The frame realigned, the entry rsp kept at 40(%rsp).
.globl	cc_expr
.type	cc_expr,@function,2
.align	16
cc_expr:
.cfi_startproc
	push	%rbx
.cfi_push	%rbx
	mov	%rsp,%rax
	sub	$64,%rsp
	and	$-32,%rsp
	mov	%rax,8*5(%rsp)
.cfi_cfa_expression	%rsp+8*5,deref,+16
	lea	(%rdi,%rsi),%rbx
	mov	%rbx,%rdx
	mov	8*5(%rsp),%rsp
.cfi_def_cfa	%rsp,16
	pop	%rbx
.cfi_pop	%rbx
	mov	%rdx,%rax
	ret
.cfi_endproc
.size	cc_expr,.-cc_expr

# A raw function without CFI: on Win64 it ends at its .size, so data may
# follow.
.globl	cc_no_cfi
.type	cc_no_cfi,@function,1
.align	16
cc_no_cfi:
	lea	1(%rdi),%rax
	ret
.size	cc_no_cfi,.-cc_no_cfi
.data
.align	8
.Lcc_word:
.quad	0
.text

# The last pop annotated with the wrong register (keccak1600-x86_64 has
# this): r12's slot is below rsp by then, so on Win64 r12 counts as
# restored.
.globl	cc_wrong_pop
.type	cc_wrong_pop,@abi-omnipotent
.align	16
cc_wrong_pop:
.cfi_startproc
	endbranch
	push	%r12
.cfi_push	%r12
	push	%r13
.cfi_push	%r13
	lea	(%rdi),%rax
	pop	%r13
.cfi_pop	%r13
	pop	%r12
.cfi_pop	%r13
	ret
.cfi_endproc
.size	cc_wrong_pop,.-cc_wrong_pop
