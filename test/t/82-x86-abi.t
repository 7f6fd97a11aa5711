#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# The 32-bit (i386 cdecl) ABI checker and per-instruction CFI checker
# (test/abi32), under qemu-i386 (any kernel, i386-capable or not):
#  - their self-test: well-behaved functions pass; one deliberate violation
#    per cdecl rule (ebx, esi, edi, ebp, DF, esp, emms, x87 control word,
#    MXCSR) and wrong CFI are each caught, at the exact instruction;
#  - every exported function of the x86asm corpus, -fPIC and not and the
#    macosx flavour's code retargeted to ELF, through both, and the list
#    of functions checked equals the object's exports;
#  - every global function of every aes-586 variant (small_footprint and
#    unrolled; -fPIC, non-PIC and 386; the macosx flavour's code retargeted
#    to ELF), its results equal to aes_core.c's,
#    with the compact path's MMX/SSE code and, SSE masked off through
#    OPENSSL_ia32cap, its integer code; the list equals the object's globals;
#    and in the variants stepped at every key size, every instruction of
#    every aes-586 function (private ones included) was single-stepped;
#  - layer constructs the corpus lacks (test/abi32/layer_probe.pl): an ebp
#    frame left by leave unwinds right at every instruction.
# What needs a missing tool is a counted SKIP naming it.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use ImplRuns qw(result run_child finish);
use StepCoverage qw(unstepped);
use Toolchain qw(tool missing);
use File::Temp qw(tempdir);

my $root  = "$FindBin::Bin/../..";
my $build = $ENV{BUILD} // 'build';
my $qemu  = tool('QEMU_I386');
my $cc32  = tool('CC32');
my $bin   = "$build/test/abi32";

# A missing tool is a SKIP; a program missing with its tools there is a
# failure (run_child reports it).
sub skip_reason { return missing('QEMU_I386', 'CC32') }

sub under_qemu {
    my ($desc, $env, $prog, @args) = @_;
    my $why = skip_reason();
    return result(1, $desc, "SKIP $why") if $why;
    return run_child($desc, $env, $qemu, $prog, @args);
}

# The program's --list against the object's global functions.
sub same_functions {
    my ($desc, $obj, $prog, $min) = @_;
    if (my $why = skip_reason()) { return result(1, $desc, "SKIP $why") }
    my @globals = sort map { /^[0-9a-f]+ T (\w+)$/ ? $1 : () } `nm -g --defined-only $obj 2>&1`;
    my @checked = sort map { chomp; $_ } `$qemu $prog --list 2>&1`;
    result(@globals >= $min && "@globals" eq "@checked",
           "$desc: the " . scalar(@globals) . " global functions are the ones checked")
        or print "#   $obj: @globals\n#   $prog --list: @checked\n";
}

under_qemu('32-bit ABI and CFI checker self-test', {}, "$bin/selftest_cdecl");

my $tmp = tempdir(CLEANUP => 1);
my %corpus = (pic => "$build/x86asm/corpus.elf.o", nopic => "$build/abi32/corpus.nopic.o",
              macosx => "$build/x86asm/corpus.macosx-elf.o");
for my $v (qw(pic nopic macosx)) {
    my $prog = "$bin/corpus_abi_$v";
    under_qemu("x86asm corpus ($v): every function through both checkers", {}, $prog,
               '--coverage', "$tmp/corpus.$v");
    same_functions("x86asm corpus ($v)", $corpus{$v}, $prog, 6);
    every_instruction("x86asm corpus ($v)", $corpus{$v}, $prog, 50, "$tmp/corpus.$v");
}

sub every_instruction {
    my ($desc, $obj, $prog, $min, @cover) = @_;
    if (my $why = skip_reason()) { return result(1, "$desc: every instruction stepped", "SKIP $why") }
    my ($total, $missed) = unstepped($obj, $prog, @cover);
    result($total >= $min && !@$missed,
           "$desc: all $total instructions of its functions single-stepped, CFI checked at each")
        or print map { "#   never stepped: $_\n" } @$missed[0 .. ($#$missed < 9 ? $#$missed : 9)];
}

# aes-586: the pairs of variants differ in rounds (small_footprint, unrolled)
# and in addressing (-fPIC or not; 386 has no MMX/SSE; the macosx flavour's
# code, retargeted to ELF, reaches its data through non-lazy pointers, and
# its CFI is the one a Mach-O object would carry).  Every call is
# checked everywhere; single-stepping, slow under qemu, covers every key
# size where the rounds differ (and then every instruction must have been
# stepped), and AES-128 only where just the addressing differs.
my $NO_SSE = '~0x2000000:~0';       # word 0 bit 25 (SSE) off, words 2-3 kept
if (!-e "$root/crypto/aes/asm/aes-586.pl") {
    result(1, 'aes-586 through both checkers', 'SKIP crypto/aes/asm/aes-586.pl not in this tree');
} else {
    for my $v (qw(small unrolled small-nopic unrolled-nopic small-386 unrolled-386
                  small-macosx unrolled-macosx)) {
        my ($prog, $obj) = ("$bin/aes586_abi_$v", "$build/m32/gen/aes-586-$v.o");
        my $full = $v !~ /nopic|macosx/;
        my @cover = map { "$tmp/$v.$_" } 1, 2;
        my @step = $full ? ('--dispatch') : ('--aes128-only');
        under_qemu("aes-586 $v: every function through both checkers", {}, $prog, @step,
                   '--coverage', $cover[0]);
        if ($v =~ /386/) {
            pop @cover;
        } else {
            under_qemu("aes-586 $v, SSE masked off: the integer compact path through both checkers",
                       { OPENSSL_ia32cap => $NO_SSE }, $prog, '--compact-only',
                       grep({ !/dispatch/ } @step), '--coverage', $cover[1]);
        }
        same_functions("aes-586 $v", $obj, $prog, 5);
        every_instruction("aes-586 $v", $obj, $prog, 500, @cover) if $full;
    }
}
# The layer probe: ebp frames left by leave, which the layer models exactly.
{
    my $desc = 'layer probe: the CFI of an ebp frame left by leave';
    my $src = "$tmp/layer_probe.s";
    my $gen = `$^X $root/test/abi32/layer_probe.pl elf $src 2>&1`;
    if (my $why = skip_reason()) {
        result(1, $desc, "SKIP $why");
    } elsif ($?) {
        result(0, "$desc: the layer failed") or print "#   $gen";
    } else {
        my @objs = map { "$build/abi32/$_.o" } qw(layer_probe abi_cdecl trampoline_cdecl tap);
        my $out = `as --32 --fatal-warnings -o $tmp/lp.o $src 2>&1 && $cc32 -no-pie -o $tmp/lp @objs $tmp/lp.o 2>&1 && $qemu $tmp/lp 2>&1`;
        my @ok = $out =~ /^ok \d+ - \w+: CFI right at all/mg;
        result($? == 0 && @ok == 3, "$desc: each probe run unwinds right at every instruction")
            or print map { "#   $_\n" } grep { /^not ok|^#/ } split /\n/, $out;
    }
}
finish();
