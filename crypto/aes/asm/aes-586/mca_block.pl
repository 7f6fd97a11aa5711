#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# The instructions one AES block executes in FUNCTION of a GNU as file, in
# order, for llvm-mca (a quick estimate when choosing instruction forms;
# no 32-bit timing is possible on these machines):
#
#   perl crypto/aes/asm/aes-586/mca_block.pl FILE.s FUNCTION ROUNDS > trace.s
#   llvm-mca -mtriple=i686 -mcpu=znver3 -iterations=100 trace.s
#
# A function with a round loop (the first backward branch) runs its body
# ROUNDS-1 times; aes-586's unrolled rounds are entered at the label
# "from<15-ROUNDS>" (from1 = the fall-through for 14 rounds).  Everything
# else once, branches included as straight-line code, up to the first ret.
# Cycles per block = Total Cycles / iterations; per byte, / 16.
# endbr32 is left out: llvm-mca 14 gives it about 100 cycles of latency,
# where CPUs execute it as a NOP (and gcc's -m32 C here has none).  As in
# bench/x86mca.pl, what llvm-mca gets wrong about the stack is replayed as
# the CPU runs it: a call (gcc's PIC thunk; llvm-mca would charge 100
# cycles) as the push of its return address and the thunk's load of it, a
# pop as its load and a 1-cycle %esp update (llvm-mca gives %esp the load's
# 5 cycles), a ret as that update alone.
use strict;
use warnings;

my ($file, $func, $rounds) = @ARGV;
die "usage: $0 FILE.s FUNCTION ROUNDS\n" unless defined $rounds && $rounds =~ /^(10|12|14)$/;
open(my $fh, '<', $file) or die "$file: $!\n";
my @lines = <$fh>;
my ($start) = grep { $lines[$_] =~ /^\Q$func\E:/ } 0 .. $#lines;
die "$0: no function $func in $file\n" unless defined $start;

# The function's instructions; labels remembered by position.
my (@insn, %label);
for my $l (@lines[$start + 1 .. $#lines]) {
    last if $l =~ /^\s*\.size\s+\Q$func\E\b/ || $l =~ /^[A-Za-z_]\w*:/;
    if ($l =~ /^(\.?L\w+):/) { $label{$1} = @insn; next }
    next if $l =~ /^\s*(\.|#|$)/ || $l =~ /^\s*endbr32\b/;
    push @insn, $l;
}
my ($entry) = grep { /from(\d+)$/ && $1 == 15 - $rounds } keys %label;
my @trace;
if (grep { /from\d+$/ } keys %label) {
    # unrolled: the dispatch (up to its last conditional jump), then the
    # rounds from the entry label
    my ($first) = sort { $a <=> $b } map { $label{$_} } grep { /from\d+$/ } keys %label;
    my $dispatch_end = 0;
    $insn[$_] =~ /^\s*j(e|ne)\s/ and $dispatch_end = $_ + 1 for 0 .. $first - 1;
    my $from = $entry ? $label{$entry} : $dispatch_end;
    push @trace, @insn[0 .. $dispatch_end - 1], @insn[$from .. $#insn];
} else {
    my ($loop_end, $loop_start);
    for my $i (0 .. $#insn) {
        next unless $insn[$i] =~ /^\s*j\w+\s+(\S+)\s*$/ && defined $label{$1} && $label{$1} <= $i;
        ($loop_start, $loop_end) = ($label{$1}, $i);
        last;
    }
    die "$0: no round loop in $func\n" unless defined $loop_end;
    push @trace, @insn[0 .. $loop_start - 1];
    push @trace, @insn[$loop_start .. $loop_end] for 1 .. $rounds - 1;
    push @trace, @insn[$loop_end + 1 .. $#insn];
}
my ($ret) = grep { $trace[$_] =~ /^\s*ret/ } 0 .. $#trace;
for (@trace[0 .. ($ret // $#trace)]) {
    if (/^\s*call\s+__x86\.get_pc_thunk\.(\w\w)\s*$/) {
        print "\tpushl\t\$0\n\tmovl\t(%esp), %e$1\n\tleal\t4(%esp), %esp\n";
    } elsif (/^\s*call\b/) {
        die "$0: $func calls out (\"@{[ s/^\s+|\s+$//gr ]}\"); only PIC thunks can be replayed\n";
    } elsif (/^\s*popl?\s+(%\w+)\s*$/) {
        print "\tmovl\t(%esp), $1\n\tleal\t4(%esp), %esp\n";
    } elsif (/^\s*ret/) {
        print "\tleal\t4(%esp), %esp\n";
    } else {
        print;
    }
}
