#!/usr/bin/perl
# The 32-bit (i386 cdecl) ABI checker and per-instruction CFI checker
# (test/abi32), under qemu-i386 (this kernel cannot execute 32-bit code):
#  - their self-test: well-behaved functions pass; one deliberate violation
#    per cdecl rule (ebx, esi, edi, ebp, DF, esp, emms, x87 control word,
#    MXCSR) and wrong CFI are each caught, at the exact instruction;
#  - every exported function of the x86asm corpus, -fPIC and not, through
#    both, and the list of functions checked equals the object's exports.
# What needs a missing tool is a counted SKIP naming it.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use ImplRuns qw(result run_child finish in_path);

my $build = $ENV{BUILD} // 'build';
my $qemu  = in_path('qemu-i386');
my $bin   = "$build/test/abi32";

sub skip_reason {
    my ($prog) = @_;
    return 'qemu-i386 not installed (qemu-user)' unless $qemu;
    return 'not built: gcc -m32 missing (gcc-multilib)' unless -x $prog;
    return undef;
}

sub under_qemu {
    my ($desc, $prog, @args) = @_;
    my $why = skip_reason($prog);
    return result(1, $desc, "SKIP $why") if $why;
    return run_child($desc, {}, $qemu, $prog, @args);
}

under_qemu('32-bit ABI and CFI checker self-test', "$bin/selftest_cdecl");

# The program's list against what the object exports: no function left out.
my %obj = (pic => "$build/x86asm/corpus.elf.o", nopic => "$build/abi32/corpus.nopic.o");
for my $v (qw(pic nopic)) {
    my $prog = "$bin/corpus_abi_$v";
    under_qemu("x86asm corpus ($v): every function through both checkers", $prog);
    if (my $why = skip_reason($prog)) {
        result(1, "x86asm corpus ($v): every export is checked", "SKIP $why");
        next;
    }
    my @exports = sort map { /^[0-9a-f]+ T (\w+)$/ ? $1 : () } `nm -g --defined-only $obj{$v}`;
    my @checked = sort map { chomp; $_ } `$qemu $prog --list`;
    result(@exports >= 6 && "@exports" eq "@checked",
           "x86asm corpus ($v): the " . scalar(@exports) . " exports are the functions checked")
        or print "#   exports: @exports\n#   checked: @checked\n";
}
finish();
