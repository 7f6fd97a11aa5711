# SPDX-License-Identifier: Apache-2.0
# OpenSSL's perlasm dialect beyond plain instructions: symbol directives,
# common and external symbols, .picmeup, data directives, .previous and a
# raw function with .cfi_remember_state / .cfi_restore_state.
# test/t/60-xlate.t assembles it in every flavour.
.extern	dc_external
.comm	dc_common,64,32
.text
.globl	dc_hidden
.hidden	dc_hidden
.type	dc_hidden,@abi-omnipotent
.align	16
dc_hidden:
.cfi_startproc
	endbranch
	.picmeup	%rax
	lea	dc_table(%rip),%rcx
	movdqa	(%rcx),%xmm0
	push	%rbx
.cfi_push	%rbx
	test	%rdi,%rdi
	jz	.Ldc_skip
.cfi_remember_state
	pop	%rbx
.cfi_pop	%rbx
	jmp	dc_external
.Ldc_skip:
.cfi_restore_state
	pop	%rbx
.cfi_pop	%rbx
	ret
.cfi_endproc
.size	dc_hidden,.-dc_hidden

# A raw-dialect global entry without endbranch: as in OpenSSL's layer,
# the layer adds nothing (endbr64 goes where the text says endbranch).
.globl	dc_no_endbr
.type	dc_no_endbr,@abi-omnipotent
dc_no_endbr:
	lea	1(%rdi),%rax
	ret
.size	dc_no_endbr,.-dc_no_endbr

# A 32-bit base or index register in an address is its 64-bit register,
# as OpenSSL's layer takes it.
.globl	dc_index32
.type	dc_index32,@abi-omnipotent
dc_index32:
	endbranch
	lea	8(%edi,%esi,8),%rax
	ret
.size	dc_index32,.-dc_index32

# endbr64 only where an indirect branch can land (test/t/60-xlate.t checks
# each entry): frame-helper functions reached by direct calls and jumps
# only get none, those whose address is used (lea, a data directive), even
# after their body, get one; raw-dialect code gets one where it says
# endbranch (as OpenSSL's layer), never behind its back.
.type	dc_direct_only,@abi-omnipotent
dc_direct_only:
	lea	2(%rdi),%rax
	ret
.size	dc_direct_only,.-dc_direct_only

.type	dc_address_taken,@abi-omnipotent
dc_address_taken:
	endbranch
	lea	3(%rdi),%rax
	ret
.size	dc_address_taken,.-dc_address_taken

.function dc_frame_direct, args=1
	lea	4(%rdi),%rax
	.return
.endfunction

.function dc_frame_in_table, args=1
	lea	5(%rdi),%rax
	.return
.endfunction

.globl	dc_caller
.type	dc_caller,@abi-omnipotent
dc_caller:
	endbranch
	call	dc_direct_only
	call	dc_frame_direct
	lea	dc_address_taken(%rip),%rax
	call	*%rax
	test	%rax,%rax
	jnz	dc_direct_only
	jmp	dc_frame_direct
.size	dc_caller,.-dc_caller

.section	.rodata
.align	64
.type	dc_table,@object
dc_table:
.quad	0x0123456789abcdef,0xfedcba9876543210
.quad	dc_frame_in_table
.byte	0x1,0x2,0x3,0x4
.value	0x1234
.long	dc_hidden-dc_table_end
.asciz	"dialect"
dc_table_end:
.previous
	nop
