#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# The 64-bit layer's Win64 unwind from CFI alone (-DPERLASM_WIN64_UNWIND_FROM_CFI,
# docs/win64-unwind.md) on small texts in OpenSSL's raw dialect, for each
# Win64 flavour: the flag is read from the layer's command line, from the
# environment, and is off by default; a module's own .pdata/.xdata and its
# handler reference are dropped (kept with the mode off); a frame that
# realigns rsp and keeps the old rsp in a stack slot gets the generated
# handler, with a table; a plain push frame gets codes alone; Win64-only
# allocations and xmm saves without CFI are inferred, written as
# instructions or spelt out as .byte; a CFA expression of another shape
# is an error naming the function, with no output file.  Where the
# assembler is here, the output must assemble.
use strict;
use warnings;
use FindBin;
use File::Temp qw(tempdir);
use lib "$FindBin::Bin/../lib", "$FindBin::Bin/../../support/perl";
use Slurp qw(spew);
use ImplRuns qw(result finish);
use Toolchain qw(tool);

my $xlate = "$FindBin::Bin/../../perlasm/x86_64-xlate.pl";
my $tmp = tempdir(CLEANUP => 1);

# A realigned frame (its CFA read from a stack slot), a push frame with
# Win64-only xmm saves written without CFI, and tables of the module's own.
my $module = <<'EOT';
.text
.globl	realigned
.type	realigned,@function,2
realigned:
.cfi_startproc
	mov	%rsp,%rax
.cfi_def_cfa_register	%rax
	push	%rbx
.cfi_push	%rbx
	sub	$64,%rsp
	and	$-32,%rsp
	mov	%rax,40(%rsp)
.cfi_cfa_expression	%rsp+40,deref,+8
	mov	(%rdi),%rbx
	mov	40(%rsp),%rsi
.cfi_def_cfa	%rsi,8
	mov	-16(%rsi),%rbx
.cfi_restore	%rbx
	lea	(%rsi),%rsp
.cfi_def_cfa_register	%rsp
	ret
.cfi_endproc
.size	realigned,.-realigned
.globl	pushes
.type	pushes,@function,2
pushes:
.cfi_startproc
	push	%rbp
.cfi_push	%rbp
	lea	-40(%rsp),%rsp
	movaps	%xmm6,(%rsp)
	movaps	%xmm7,16(%rsp)
	xor	%ebp,%ebp
	movaps	(%rsp),%xmm6
	movaps	16(%rsp),%xmm7
	lea	40(%rsp),%rsp
	pop	%rbp
.cfi_pop	%rbp
	ret
.cfi_endproc
.size	pushes,.-pushes
.globl	spelt
.type	spelt,@abi-omnipotent
spelt:
.cfi_startproc
	.byte	0x48,0x83,0xec,0x18		# sub	$0x18,%rsp
	.byte	0x44,0x0f,0x29,0x0c,0x24	# movaps	%xmm9,(%rsp)
	xor	%eax,%eax
	movaps	(%rsp),%xmm9
	lea	0x18(%rsp),%rsp
	ret
.cfi_endproc
.size	spelt,.-spelt
.type	own_handler,@abi-omnipotent
own_handler:
	ret
.size	own_handler,.-own_handler
.section	.pdata
.align	4
	.rva	.LSEH_begin_realigned
	.rva	.LSEH_end_realigned
	.rva	.LSEH_info_realigned
.section	.xdata
.align	8
.LSEH_info_realigned:
	.byte	9,0,0,0
	.rva	own_handler
EOT

# Does the output keep the module's own .xdata entry and its handler?
sub own_tables {
    my ($file) = @_;
    my $text = -e $file ? do { local (@ARGV, $/) = $file; <> } : '';
    return names_own_handler($text) && $text !~ /perlasm_win64_cfi_handler/;
}

# An RVA of own_handler (.rva, or DD with wrt ..imagebase or IMAGEREL).
sub names_own_handler {
    my ($text) = @_;
    return $text =~ /^\s*(?:\.rva|DD)\s+(?:IMAGEREL\s+)?own_handler\b/mi;
}

sub translate {
    my ($text, $env, @args) = @_;
    my $in = "$tmp/in.pl";
    spew($in, $text);
    local @ENV{ keys %$env } = values %$env;
    my $out = qx{'$^X' '$xlate' @args < '$in' 2>&1};
    return ($? >> 8, $out);
}

my %ASSEMBLE = (mingw64 => [ tool('MINGW64') ], nasm => [ tool('NASM') ]);
for my $flavour (qw(mingw64 nasm masm)) {
    my $ext = $flavour eq 'mingw64' ? 's' : 'asm';
    my $file = "$tmp/out.$flavour.$ext";
    my ($st, $err) = translate($module, {}, $flavour, $file);
    result($st == 0 && own_tables($file), "$flavour, mode off: the module's own tables and handler stand");

    ($st, $err) = translate($module, {}, $flavour, '-DPERLASM_WIN64_UNWIND_FROM_CFI', $file);
    my $text = -e $file ? do { local (@ARGV, $/) = $file; <> } : '';
    result($st == 0 && $text ne '', "$flavour, -DPERLASM_WIN64_UNWIND_FROM_CFI: translated")
        or print "# $err";
    result($text ne '' && !names_own_handler($text),
           "$flavour: the module's .pdata/.xdata and its handler reference are dropped");
    result($text =~ /Win64 unwind from CFI: realigned: handler in \d+ of \d+ regions/
           && $text =~ /^perlasm_win64_cfi_handler:?/m,
           "$flavour: the realigned frame gets the generated handler, which is emitted");
    result($text =~ /Win64 unwind from CFI: pushes: codes$/m,
           "$flavour: the push frame with inferred xmm saves gets codes alone");
    # UWOP_SAVE_XMM128 (8) for xmm6 (info 6): byte 0x68 in its codes.
    result($text =~ /\b(0x68|104)\b/, "$flavour: the xmm6 save written without CFI is described");
    # The same for xmm9 (0x98), which only the spelt-out function saves.
    result($text =~ /Win64 unwind from CFI: spelt: codes$/m && $text =~ /\b(0x98|152)\b/,
           "$flavour: an allocation and an xmm save spelt as .byte are described");
    my $as = $ASSEMBLE{$flavour};
    if (!$as || !@$as || !defined $as->[0]) {
        result(1, "$flavour: assembles", 'SKIP no assembler for this flavour here');
    } else {
        my @cmd = $flavour eq 'nasm' ? (@$as, '-f', 'win64', '-Werror', '-o', "$file.o", $file)
                                      : (@$as, '-c', '-Wa,--fatal-warnings', '-o', "$file.o", $file);
        my $log = qx{@cmd 2>&1};
        result($? == 0 && $log !~ /\S/, "$flavour: assembles") or print "# $log";
    }
}

my ($st, $err) = translate($module, { PERLASM_WIN64_UNWIND_FROM_CFI => 1 }, 'mingw64', "$tmp/env.s");
result($st == 0 && -s "$tmp/env.s", 'the environment variable turns the mode on too');
($st, $err) = translate($module, { PERLASM_WIN64_UNWIND_FROM_CFI => 0 }, 'mingw64', "$tmp/env0.s");
result($st == 0 && own_tables("$tmp/env0.s"), 'the environment variable set to 0 leaves it off');

(my $odd = $module) =~ s/\.cfi_cfa_expression\t%rsp\+40,deref,\+8/.cfi_cfa_expression\t%rsp+40,deref,deref/;
($st, $err) = translate($odd, {}, 'mingw64', '-DPERLASM_WIN64_UNWIND_FROM_CFI', "$tmp/odd.s");
result($st != 0 && $err =~ /1 of 3 functions cannot be described: realigned \(.*CFA expression/
       && !-e "$tmp/odd.s",
       'a CFA expression of another shape: an error naming the function, no output')
    or print "# $err";
finish();
