#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# The native replay of 32-bit AES calls (bench/x86mca/Replay64.pm and
# native32.c, the measured half of `make bench-x86mca`): every traced call
# of the C reference and of aes-586 (small_footprint and unrolled; full
# tables, compact MMX/SSE and, SSE masked off, compact integer), at every
# key size and in each of ECB and CBC, both directions, rewritten for
# 64-bit mode and run natively, must compute what the C AES computes;
# a replay with one instruction left out must be caught; and instructions
# 64-bit mode cannot run must be refused, not passed through.
# What needs a missing tool is a counted SKIP naming it.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use lib "$FindBin::Bin/../../bench/x86mca";
use ImplRuns qw(result finish);
use Toolchain qw(missing);
use Replay64;

my $build = $ENV{BUILD} // 'build';
my $b32 = "$build/bench32";
my $why = missing('QEMU_I386', 'CC32');

my $nosse = 'ia32cap=~0x2000000:~0';
my @specs = ("c=$b32/trace32_c",
             map { ("$_-sse=$b32/trace32_$_,path=compact", "$_-int=$b32/trace32_$_,path=compact,$nosse",
                    "$_=$b32/trace32_$_,path=full") } qw(small unrolled));
my $rows = 1 + 3 * 2;
my $want = $rows * 4 * 3;       # rows x (ecb, cbc) x (enc, dec) x key sizes

sub x86mca {
    my (@opt) = @_;
    my $out = `$^X bench/x86mca.pl --native $b32/native32 --verify-only --bits 128,192,256 @opt @specs 2>&1`;
    return ($? >> 8, $out);
}

if ($why) {
    result(1, 'native replays of every traced call', "SKIP $why");
    result(1, 'a replay missing one instruction is caught', "SKIP $why");
} else {
    my ($rc, $out) = x86mca();
    result($rc == 0 && $out =~ /all (\d+) computed the C AES's result/ && $1 == $want,
           "native replays of every traced call ($want) compute the C AES's result")
        or print map { "#   $_\n" } split /\n/, $out;
    ($rc, $out) = x86mca('--drop', 300);
    result($rc != 0 && $out =~ /computed a wrong result/,
           'a replay missing one instruction is caught')
        or print map { "#   $_\n" } split /\n/, $out;
}

# The rewrite itself: what 64-bit mode would run differently is refused.
for my $insn ('mov %gs:0x14,%eax', 'pusha', 'pop %esp', 'lcall $0x23,$0x0', 'mov %rax,%rbx') {
    my $ok = eval { Replay64::rewrite($insn, 0, 0); 1 };
    result(!$ok && $@ =~ /Replay64: "\Q$insn\E"/, "the replay refuses \"$insn\"");
}
my $push = Replay64::rewrite('push 0x1c(%esp)', 0, 0);
result($push =~ /^\tmovl 0x1c\(%esp\),%r8d\n\tlea -4\(%rsp\),%rsp\n\tmovl %r8d,\(%rsp\)\n$/,
       'push MEM reads its operand before the 4-byte esp step');
my $call = Replay64::rewrite('call 8049abc', 0x8049123, 0);
result($call =~ /movl \$0x8049123,\(%rsp\)/, 'a call pushes its own return address');
finish();
