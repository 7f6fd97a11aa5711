# SPDX-License-Identifier: Apache-2.0
# The unwind and section forms of OpenSSL's dialect that every flavour
# takes: constant expressions where the layer needs a number,
# .cfi_register (which Win64 codes cannot say: the output says so) and a
# start-up call in section .init.  test/t/60-xlate.t assembles it in every
# flavour and reads the ELF build's frame table; frames Win64 codes cannot
# describe at all are in own_seh_corpus.s.
.text
.globl	cc_sums
.type	cc_sums,@abi-omnipotent
.align	2*8
cc_sums:
.cfi_startproc
	endbranch
	push	%rbx
.cfi_push	%rbx
	sub	$128+24,%rsp
.cfi_adjust_cfa_offset	128+24
	mov	%rdi,(32*5+8)-16(%rsp)
	lea	(1<<4)|8(%rdi),%rax
	lea	0x8f1bbcdc(%rdi,%rsi),%eax	# a 32-bit displacement written unsigned
	add	$128+24,%rsp
.cfi_adjust_cfa_offset	-(128+24)
	pop	%rbx
.cfi_pop	%rbx
	ret
.cfi_endproc
.size	cc_sums,.-cc_sums

# A CRYPTOGAMS-style allocation and prologue marker.
.globl	cc_alloca
.type	cc_alloca,@abi-omnipotent
.align	16
cc_alloca:
.cfi_startproc
	endbranch
	sub	$8*2,%rsp
.cfi_alloca	8*2
.cfi_end_prologue
	mov	%rdi,8(%rsp)
	mov	8(%rsp),%rax
	add	$8*2,%rsp
.cfi_adjust_cfa_offset	-8*2
	ret
.cfi_endproc
.size	cc_alloca,.-cc_alloca

# rbx kept in r8 across cpuid.
.globl	cc_keep_rbx
.type	cc_keep_rbx,@abi-omnipotent
.align	16
cc_keep_rbx:
.cfi_startproc
	endbranch
	mov	%rbx,%r8
.cfi_register	%rbx,%r8
	xor	%eax,%eax
	cpuid
	mov	%r8,%rbx
.cfi_restore	%rbx
	ret
.cfi_endproc
.size	cc_keep_rbx,.-cc_keep_rbx

.section	.init
	call	cc_keep_rbx
.text
	nop
