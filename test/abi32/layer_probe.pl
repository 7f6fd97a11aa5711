#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# Constructs of the 32-bit layer whose CFI the corpus does not exercise,
# for test/t/82-x86-abi.t, which builds this module itself and runs each
# function through the CFI checker:
#   perl test/abi32/layer_probe.pl elf OUTPUT
use strict;
use warnings;
use FindBin;
push(@INC, "$FindBin::Bin/../../perlasm");
require "x86asm.pl";

&asm_init($ARGV[0]);

# uint32_t probe_leave(uint32_t x): x + 1, in an ebp frame left by leave.
&function_begin_B("probe_leave");
	&push	("ebp");
	&mov	("ebp", "esp");
	&sub	("esp", 16);
	&mov	("eax", &DWP(8, "ebp"));
	&inc	("eax");
	&leave	();
	&ret	();
&function_end_B("probe_leave");

# uint32_t probe_frame(uint32_t x): x + 2, from an ebp frame built inside a
# function_begin body, with a branch inside it, left by leave before
# function_end (ebp keeps the save slot function_begin gave it).
&function_begin("probe_frame");
	&mov	("eax", &wparam(0));
	&push	("ebp");
	&mov	("ebp", "esp");
	&sub	("esp", 8);
	&test	("eax", 1);
	&jz	(&label("even"));
	&push	("eax");
	&pop	("eax");
&set_label("even");
	&add	("eax", 2);
	&leave	();
&function_end("probe_frame");

&asm_finish();
