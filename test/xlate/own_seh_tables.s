# SPDX-License-Identifier: Apache-2.0
# Hand-written Win64 tables for own_seh_corpus.s, as OpenSSL's modules
# append them: entries from OpenSSL's .LSEH_begin_/.LSEH_end_ labels (raw
# functions) or the module's own.  The UNWIND_INFO is a minimal one: the
# test checks labels and which functions the layer leaves alone, not
# these tables' unwinding.
.section	.pdata
.align	4
	.rva	.LSEH_begin_cc_expr
	.rva	.LSEH_end_cc_expr
	.rva	.LSEH_info_cc_expr
	.rva	cc_rax_frame
	.rva	.Lcc_rax_frame_end
	.rva	.LSEH_info_cc_rax_frame
.section	.xdata
.align	8
.LSEH_info_cc_expr:
.byte	1,0,0,0
.LSEH_info_cc_rax_frame:
.byte	1,0,0,0
