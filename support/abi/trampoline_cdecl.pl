#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# cdecl (i386 SysV) call trampoline for the 32-bit ABI and CFI checkers
# (abi_cdecl.c), generated through the 32-bit layer like any module:
#   perl support/abi/trampoline_cdecl.pl elf OUTPUT
#
#   void abi_trampoline_cdecl(const void *fn, struct abi_cdecl_io *io);
#
# Pushes io->args[0..7] (esp 16-byte aligned at the call, as gcc -m32
# assumes), loads ebx esi edi ebp from io->cs_in and calls fn.  What fn
# left (callee-saved registers, eax:edx, eflags, the esp difference) is
# stored into io, DF is cleared, and the trampoline returns to C.
#
# fn may return with any esp, so the code it returns to cannot know where
# its frame is until it has reloaded esp from abi_cdecl_saved (a C global,
# reached by absolute address because no register can be trusted yet).
# That landing pad therefore lies outside the function: it has no FDE and
# the layer does not track it (it refuses esp loads inside functions, as
# their CFI could not follow).  Nothing unwinds through it: the checkers
# stop at fn's return.  The object is not position independent: link
# with -no-pie.
use strict;
use warnings;
use FindBin;
push(@INC, "$FindBin::Bin/../../perlasm");
require "x86asm.pl";

&asm_init($ARGV[0]);

# struct abi_cdecl_io, mirrored (abi_cdecl.c checks the offsets).
my %IO = (args => 0, cs_in => 32, cs_out => 48, eax => 64, edx => 68,
          eflags => 72, esp_delta => 76, call_esp => 80);
my @CALLEE_SAVED = qw(ebx esi edi ebp);
my $NARGS = 8;
# uint32_t abi_cdecl_saved[3]: esp at the call, io, esp after fn returned.
my ($SAVED_ESP, $SAVED_IO, $FN_ESP) = map { "abi_cdecl_saved+" . 4 * $_ } 0 .. 2;
# Entry esp is 12 mod 16 after our four pushes; 44 bytes more make it 0.
my $FRAME = 4 * $NARGS + 12;

&external_label("abi_cdecl_saved");

&function_begin("abi_trampoline_cdecl");
	&mov	("eax", &wparam(0));			# fn
	&mov	("ecx", &wparam(1));			# io
	&sub	("esp", $FRAME);
	for my $i (0 .. $NARGS - 1) {
		&mov	("edx", &DWP($IO{args} + 4 * $i, "ecx"));
		&mov	(&DWP(4 * $i, "esp"), "edx");
	}
	&mov	(&DWP($IO{call_esp}, "ecx"), "esp");
	&mov	(&DWP($SAVED_ESP), "esp");
	&mov	(&DWP($SAVED_IO), "ecx");
	&mov	($CALLEE_SAVED[$_], &DWP($IO{cs_in} + 4 * $_, "ecx")) for 0 .. 3;
	&call	("eax");
	# Out of the function (the layer refuses one that runs off its end);
	# a jmp keeps fn's flags.
	&jmp	(&label("landing"));
&function_end_B("abi_trampoline_cdecl");

# The landing pad (see above).  Movs first: they keep fn's flags intact.
&set_label("landing");
	&mov	(&DWP($FN_ESP), "esp");
	&mov	("esp", &DWP($SAVED_ESP));
	&pushfd	();
	&push	("ecx");
	&mov	("ecx", &DWP($SAVED_IO));
	&mov	(&DWP($IO{eax}, "ecx"), "eax");
	&mov	(&DWP($IO{edx}, "ecx"), "edx");
	&mov	(&DWP($IO{cs_out} + 4 * $_, "ecx"), $CALLEE_SAVED[$_]) for 0 .. 3;
	&pop	("edx");				# fn's ecx: not checked
	&pop	("edx");
	&mov	(&DWP($IO{eflags}, "ecx"), "edx");
	&cld	();
	&mov	("edx", &DWP($FN_ESP));
	&sub	("edx", &DWP($SAVED_ESP));
	&mov	(&DWP($IO{esp_delta}, "ecx"), "edx");
	&add	("esp", $FRAME);
	&pop	($_) for qw(edi esi ebx ebp);
	&ret	();

&asm_finish();
