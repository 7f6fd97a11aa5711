; SPDX-License-Identifier: Apache-2.0
; Functions for the Win64 checker self-test (selftest_win64.c), nasm -f win64.
; The GNU as twin is selftest_win64.S; same functions, nasm_ prefix.
;
; nasm has no unwind directives, so .pdata and .xdata are written by hand
; here (format summary at the top of abi_win64.c):
;   .pdata  per function: dd begin, end, unwind-info, each "wrt ..imagebase"
;           (an ADDR32NB relocation = RVA once linked)
;   .xdata  UNWIND_INFO: version|flags, prologue size, slot count,
;           frame register|offset/16 << 4, then 16-bit code slots sorted
;           by descending prologue offset, padded to an even count (the
;           slot count excludes the padding).
; Prologue offsets are differences of .text labels (label after each
; prologue instruction minus the function start); nasm folds them to
; constants even though they are emitted in .xdata.
;
; Some good functions deliberately use the long encodings (SAVE_NONVOL_FAR,
; SAVE_XMM128_FAR, ALLOC_LARGE with a 32-bit size) for small values, so the
; unwinder's handling of those opcodes is exercised at run time.

default rel

%define UWOP_PUSH_NONVOL     0
%define UWOP_ALLOC_LARGE     1
%define UWOP_ALLOC_SMALL     2
%define UWOP_SET_FPREG       3
%define UWOP_SAVE_NONVOL     4
%define UWOP_SAVE_NONVOL_FAR 5
%define UWOP_SAVE_XMM128     8
%define UWOP_SAVE_XMM128_FAR 9

; Windows register numbers in unwind codes.
%define R_RBX 3
%define R_RBP 5
%define R_RSI 6
%define R_RDI 7
%define R_R12 12
%define R_R13 13
%define R_R14 14
%define R_R15 15

; UNWIND_HDR prologue_size, slots, frame_reg, frame_offset_bytes
%macro UNWIND_HDR 4
	db	1			; version 1, no flags
	db	%1
	db	%2
	db	(%3) | (((%4) / 16) << 4)
%endmacro

; UWCODE end_of_instruction_offset, op, info
%macro UWCODE 3
	db	%1, (%2) | ((%3) << 4)
%endmacro

; PDATA func: the RUNTIME_FUNCTION for func (func_end and func_xdata).
%macro PDATA 1
	dd	%1 wrt ..imagebase
	dd	%1_end wrt ..imagebase
	dd	%1_xdata wrt ..imagebase
%endmacro

section .text code align=16

; ---- good functions --------------------------------------------------------

; Leaf without .pdata: the sum of its ten arguments.
global nasm_sum10
align 16
nasm_sum10:
	lea	rax, [rcx+rdx]
	add	rax, r8
	add	rax, r9
	add	rax, [rsp+0x28]		; arg 5: above return address + shadow
	add	rax, [rsp+0x30]
	add	rax, [rsp+0x38]
	add	rax, [rsp+0x40]
	add	rax, [rsp+0x48]
	add	rax, [rsp+0x50]
	ret

; Pushes all eight callee-saved GPRs, clobbers them, restores them.
global nasm_push_all
align 16
nasm_push_all:
	push	rbx
.p1:	push	rbp
.p2:	push	rdi
.p3:	push	rsi
.p4:	push	r12
.p5:	push	r13
.p6:	push	r14
.p7:	push	r15
.p8:	sub	rsp, 8
.p9:
	xor	ebx, ebx
	xor	ebp, ebp
	xor	edi, edi
	xor	esi, esi
	xor	r12d, r12d
	xor	r13d, r13d
	xor	r14d, r14d
	xor	r15d, r15d
	add	rsp, 8
	pop	r15
	pop	r14
	pop	r13
	pop	r12
	pop	rsi
	pop	rdi
	pop	rbp
	pop	rbx
	ret
nasm_push_all_end:

; Frame pointer, large frame (ALLOC_LARGE), realigned to 64 in the body;
; saves rdi/xmm6 with the FAR codes and xmm9/r12 with the short ones.
global nasm_frame
align 16
nasm_frame:
	push	rbp
.p1:	push	rbx
.p2:	sub	rsp, 0x1008
.p3:	lea	rbp, [rsp+0x80]
.p4:	mov	[rsp+0x10], rdi
.p5:	movaps	[rsp+0x20], xmm6
.p6:	movaps	[rsp+0x30], xmm9
.p7:	mov	[rsp+0x48], r12
.p8:
	and	rsp, -64
	mov	rbx, rcx
	xor	edi, edi
	pxor	xmm6, xmm6
	pcmpeqd	xmm9, xmm9
	xor	r12d, r12d
	mov	[rsp], rcx
	mov	rax, [rsp]
	mov	rdi, [rbp-0x80+0x10]
	movaps	xmm6, [rbp-0x80+0x20]
	movaps	xmm9, [rbp-0x80+0x30]
	mov	r12, [rbp-0x80+0x48]
	lea	rsp, [rbp+0x1008-0x80]	; epilogue: lea, pops, ret
	pop	rbx
	pop	rbp
	ret
nasm_frame_end:

; Saves xmm6-xmm15 with movaps; the allocation is described with the
; 32-bit form of ALLOC_LARGE.
global nasm_xmm
align 16
nasm_xmm:
	sub	rsp, 0xa8
.p1:	movaps	[rsp+0x00], xmm6
.p2:	movaps	[rsp+0x10], xmm7
.p3:	movaps	[rsp+0x20], xmm8
.p4:	movaps	[rsp+0x30], xmm9
.p5:	movaps	[rsp+0x40], xmm10
.p6:	movaps	[rsp+0x50], xmm11
.p7:	movaps	[rsp+0x60], xmm12
.p8:	movaps	[rsp+0x70], xmm13
.p9:	movaps	[rsp+0x80], xmm14
.p10:	movaps	[rsp+0x90], xmm15
.p11:
	pxor	xmm6, xmm6
	pcmpeqd	xmm7, xmm7
	pxor	xmm8, xmm8
	pcmpeqd	xmm9, xmm9
	pxor	xmm10, xmm10
	pcmpeqd	xmm11, xmm11
	pxor	xmm12, xmm12
	pcmpeqd	xmm13, xmm13
	pxor	xmm14, xmm14
	pcmpeqd	xmm15, xmm15
	movaps	xmm6, [rsp+0x00]
	movaps	xmm7, [rsp+0x10]
	movaps	xmm8, [rsp+0x20]
	movaps	xmm9, [rsp+0x30]
	movaps	xmm10, [rsp+0x40]
	movaps	xmm11, [rsp+0x50]
	movaps	xmm12, [rsp+0x60]
	movaps	xmm13, [rsp+0x70]
	movaps	xmm14, [rsp+0x80]
	movaps	xmm15, [rsp+0x90]
	add	rsp, 0xa8
	ret
nasm_xmm_end:

; Saves rbx and rsi with mov (SAVE_NONVOL) into the caller's shadow space.
global nasm_savereg
align 16
nasm_savereg:
	sub	rsp, 0x28
.p1:	mov	[rsp+0x30], rbx
.p2:	mov	[rsp+0x38], rsi
.p3:
	mov	rbx, rcx
	mov	rsi, rdx
	lea	rax, [rbx+rsi]
	mov	rbx, [rsp+0x30]
	mov	rsi, [rsp+0x38]
	add	rsp, 0x28
	ret
nasm_savereg_end:

; Calls nasm_sum10 (leaf, no .pdata) with ten arguments, then nasm_push_all.
global nasm_caller
align 16
nasm_caller:
	push	rbx
.p1:	sub	rsp, 0x60		; shadow 32 + 6 stack args, aligned
.p2:
	mov	ecx, 1
	mov	edx, 2
	mov	r8d, 3
	mov	r9d, 4
	mov	qword [rsp+0x20], 5
	mov	qword [rsp+0x28], 6
	mov	qword [rsp+0x30], 7
	mov	qword [rsp+0x38], 8
	mov	qword [rsp+0x40], 9
	mov	qword [rsp+0x48], 10
	call	nasm_sum10
	mov	rbx, rax
	call	nasm_push_all
	mov	rax, rbx
	add	rsp, 0x60
	pop	rbx
	ret
nasm_caller_end:

; ---- negative controls -------------------------------------------------------

; Clobbers rsi without saving it (a leaf).
global nasm_bad_rsi, nasm_bad_rsi_fail
align 16
nasm_bad_rsi:
	mov	rsi, rcx
nasm_bad_rsi_fail:
	ret

; Clobbers xmm7 without saving it.
global nasm_bad_xmm7, nasm_bad_xmm7_fail
align 16
nasm_bad_xmm7:
	movq	xmm7, rcx
nasm_bad_xmm7_fail:
	ret

; Returns with the direction flag set.
global nasm_bad_df
align 16
nasm_bad_df:
	std
	ret

; Pushes rbx; the table says rsi.
global nasm_bad_pushreg, nasm_bad_pushreg_fail
align 16
nasm_bad_pushreg:
	push	rbx
nasm_bad_pushreg_fail:
	xor	ebx, ebx
	pop	rbx
	ret
nasm_bad_pushreg_end:

; Allocates 32 bytes; the table has no ALLOC_SMALL for it.
global nasm_bad_noalloc, nasm_bad_noalloc_fail
align 16
nasm_bad_noalloc:
	push	rbx
.p1:	sub	rsp, 0x20
nasm_bad_noalloc_fail:
	nop
	add	rsp, 0x20
	pop	rbx
	ret
nasm_bad_noalloc_end:

; Codes in ascending instead of descending order: after both pushes the
; unwinder pops them in the wrong order and swaps rbx and rsi.
global nasm_bad_order, nasm_bad_order_fail
align 16
nasm_bad_order:
	push	rbx
.p1:	push	rsi
nasm_bad_order_fail:
	nop
	pop	rsi
	pop	rbx
	ret
nasm_bad_order_end:

; ---- unwind tables ------------------------------------------------------------

section .xdata rdata align=4

nasm_push_all_xdata:
	UNWIND_HDR nasm_push_all.p9 - nasm_push_all, 9, 0, 0
	UWCODE	nasm_push_all.p9 - nasm_push_all, UWOP_ALLOC_SMALL, 0	; 8 = 0*8+8
	UWCODE	nasm_push_all.p8 - nasm_push_all, UWOP_PUSH_NONVOL, R_R15
	UWCODE	nasm_push_all.p7 - nasm_push_all, UWOP_PUSH_NONVOL, R_R14
	UWCODE	nasm_push_all.p6 - nasm_push_all, UWOP_PUSH_NONVOL, R_R13
	UWCODE	nasm_push_all.p5 - nasm_push_all, UWOP_PUSH_NONVOL, R_R12
	UWCODE	nasm_push_all.p4 - nasm_push_all, UWOP_PUSH_NONVOL, R_RSI
	UWCODE	nasm_push_all.p3 - nasm_push_all, UWOP_PUSH_NONVOL, R_RDI
	UWCODE	nasm_push_all.p2 - nasm_push_all, UWOP_PUSH_NONVOL, R_RBP
	UWCODE	nasm_push_all.p1 - nasm_push_all, UWOP_PUSH_NONVOL, R_RBX
	dw	0						; pad to even

nasm_frame_xdata:
	UNWIND_HDR nasm_frame.p8 - nasm_frame, 15, R_RBP, 0x80
	UWCODE	nasm_frame.p8 - nasm_frame, UWOP_SAVE_NONVOL, R_R12
	dw	0x48 / 8
	UWCODE	nasm_frame.p7 - nasm_frame, UWOP_SAVE_XMM128, 9
	dw	0x30 / 16
	UWCODE	nasm_frame.p6 - nasm_frame, UWOP_SAVE_XMM128_FAR, 6
	dd	0x20						; unscaled
	UWCODE	nasm_frame.p5 - nasm_frame, UWOP_SAVE_NONVOL_FAR, R_RDI
	dd	0x10						; unscaled
	UWCODE	nasm_frame.p4 - nasm_frame, UWOP_SET_FPREG, 0
	UWCODE	nasm_frame.p3 - nasm_frame, UWOP_ALLOC_LARGE, 0
	dw	0x1008 / 8
	UWCODE	nasm_frame.p2 - nasm_frame, UWOP_PUSH_NONVOL, R_RBX
	UWCODE	nasm_frame.p1 - nasm_frame, UWOP_PUSH_NONVOL, R_RBP
	dw	0						; pad to even

nasm_xmm_xdata:
	UNWIND_HDR nasm_xmm.p11 - nasm_xmm, 23, 0, 0
	UWCODE	nasm_xmm.p11 - nasm_xmm, UWOP_SAVE_XMM128, 15
	dw	0x90 / 16
	UWCODE	nasm_xmm.p10 - nasm_xmm, UWOP_SAVE_XMM128, 14
	dw	0x80 / 16
	UWCODE	nasm_xmm.p9 - nasm_xmm, UWOP_SAVE_XMM128, 13
	dw	0x70 / 16
	UWCODE	nasm_xmm.p8 - nasm_xmm, UWOP_SAVE_XMM128, 12
	dw	0x60 / 16
	UWCODE	nasm_xmm.p7 - nasm_xmm, UWOP_SAVE_XMM128, 11
	dw	0x50 / 16
	UWCODE	nasm_xmm.p6 - nasm_xmm, UWOP_SAVE_XMM128, 10
	dw	0x40 / 16
	UWCODE	nasm_xmm.p5 - nasm_xmm, UWOP_SAVE_XMM128, 9
	dw	0x30 / 16
	UWCODE	nasm_xmm.p4 - nasm_xmm, UWOP_SAVE_XMM128, 8
	dw	0x20 / 16
	UWCODE	nasm_xmm.p3 - nasm_xmm, UWOP_SAVE_XMM128, 7
	dw	0x10 / 16
	UWCODE	nasm_xmm.p2 - nasm_xmm, UWOP_SAVE_XMM128, 6
	dw	0x00 / 16
	UWCODE	nasm_xmm.p1 - nasm_xmm, UWOP_ALLOC_LARGE, 1
	dd	0xa8						; 32-bit size
	dw	0						; pad to even

nasm_savereg_xdata:
	UNWIND_HDR nasm_savereg.p3 - nasm_savereg, 5, 0, 0
	UWCODE	nasm_savereg.p3 - nasm_savereg, UWOP_SAVE_NONVOL, R_RSI
	dw	0x38 / 8
	UWCODE	nasm_savereg.p2 - nasm_savereg, UWOP_SAVE_NONVOL, R_RBX
	dw	0x30 / 8
	UWCODE	nasm_savereg.p1 - nasm_savereg, UWOP_ALLOC_SMALL, (0x28 - 8) / 8
	dw	0						; pad to even

nasm_caller_xdata:
	UNWIND_HDR nasm_caller.p2 - nasm_caller, 2, 0, 0
	UWCODE	nasm_caller.p2 - nasm_caller, UWOP_ALLOC_SMALL, (0x60 - 8) / 8
	UWCODE	nasm_caller.p1 - nasm_caller, UWOP_PUSH_NONVOL, R_RBX

nasm_bad_pushreg_xdata:
	UNWIND_HDR nasm_bad_pushreg_fail - nasm_bad_pushreg, 1, 0, 0
	UWCODE	nasm_bad_pushreg_fail - nasm_bad_pushreg, UWOP_PUSH_NONVOL, R_RSI ; wrong: rbx
	dw	0						; pad to even

nasm_bad_noalloc_xdata:
	UNWIND_HDR nasm_bad_noalloc_fail - nasm_bad_noalloc, 1, 0, 0
	UWCODE	nasm_bad_noalloc.p1 - nasm_bad_noalloc, UWOP_PUSH_NONVOL, R_RBX
	dw	0						; (ALLOC_SMALL for sub rsp,0x20 missing)

nasm_bad_order_xdata:
	UNWIND_HDR nasm_bad_order_fail - nasm_bad_order, 2, 0, 0
	UWCODE	nasm_bad_order.p1 - nasm_bad_order, UWOP_PUSH_NONVOL, R_RBX		; wrong order:
	UWCODE	nasm_bad_order_fail - nasm_bad_order, UWOP_PUSH_NONVOL, R_RSI	; must come first

section .pdata rdata align=4
	PDATA	nasm_push_all
	PDATA	nasm_frame
	PDATA	nasm_xmm
	PDATA	nasm_savereg
	PDATA	nasm_caller
	PDATA	nasm_bad_pushreg
	PDATA	nasm_bad_noalloc
	PDATA	nasm_bad_order
