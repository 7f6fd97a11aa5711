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
# OpenSSL 3.0's own aes-586 (generated from the tree `make openssl-source`
# caches, its globals renamed ossl586_AES_*) is replayed the same way on
# its three paths, and the measured table prints it beside ours; without
# the tree those are a counted SKIP.
# What needs a missing tool is a counted SKIP naming it.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use lib "$FindBin::Bin/../../bench/x86mca";
use ImplRuns qw(result finish);
use Toolchain qw(missing tool);
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

# OpenSSL's aes-586: the object's globals are the renamed ones, its
# "full" path reaches its T-table code (a shorter CBC trace than its
# compact code's), its replays compute the C AES's result, and the
# measured table gives its figure beside ours with a ratio and a summary.
my $tree = $ENV{OPENSSL_SRC} // `sh '$FindBin::Bin/../../tools/openssl-source.sh' --cached 2>/dev/null`;
chomp $tree;
my $owhy = $why // (!$tree || !-f "$tree/crypto/aes/asm/aes-586.pl"
                    ? 'no OpenSSL 3.0 source tree (run `make openssl-source`)' : undef);
$owhy //= "$b32/trace32_openssl not built (make tests)" unless -x "$b32/trace32_openssl";
my @ossl = ("ossl-sse=$b32/trace32_openssl,path=compact,only=native",
            "ossl-int=$b32/trace32_openssl,path=compact,$nosse,only=native",
            "ossl-full=$b32/trace32_openssl,path=full,only=native");
my @otests = ('OpenSSL\'s aes-586 object exports only renamed globals',
              'OpenSSL\'s full path runs its T-tables (shorter CBC trace than its compact path)',
              'native replays of OpenSSL\'s aes-586 compute the C AES\'s result',
              'the measured table prints OpenSSL\'s aes-586 beside ours, with ratios and a summary');
if ($owhy) {
    result(1, $_, "SKIP $owhy") for @otests;
} else {
    my @g = map { /^\s*[0-9a-f]+ [TDBC] (\S+)$/ ? $1 : () } `nm $b32/openssl/aes-586.o`;
    my @want = map { "ossl586_AES_$_" } qw(cbc_encrypt decrypt encrypt set_decrypt_key set_encrypt_key);
    result("@{[sort grep { !/^OPENSSL_ia32cap_P$/ } @g]}" eq "@want", $otests[0])
        or print "#   globals: @g\n";
    my %n;
    for my $p (qw(compact full)) {
        for (`@{[tool("QEMU_I386")]} $b32/trace32_openssl 128 512 $p 2>&1`) {
            $n{$p} = $1 if /^trace \S+ cbc-enc 128 512 (\d+)$/;
        }
    }
    result(($n{full} // 0) > 0 && ($n{compact} // 0) > 1.5 * $n{full}, $otests[1])
        or print "#   cbc-enc 512-byte trace: compact ", $n{compact} // '-', ", full ", $n{full} // '-', "\n";
    my $out = `$^X bench/x86mca.pl --native $b32/native32 --verify-only --bits 128,192,256 --cbc-bytes 512 @ossl 2>&1`;
    result($? == 0 && $out =~ /all (\d+) computed the C AES's result/ && $1 == 3 * 4 * 3, $otests[2])
        or print map { "#   $_\n" } split /\n/, $out;
    $out = `$^X bench/x86mca.pl --native $b32/native32 --bits 128 --cbc-bytes 512 "small-int=$b32/trace32_small,path=compact,$nosse,only=native,vs=ossl-int" $ossl[1] 2>&1`;
    my @r = $out =~ /^  small-int compact +(?:ecb|cbc)-(?:enc|dec) +128 +([\d.]+) +[\d.]+ +([\d.]+) +([\d.]+)$/mg;
    result($? == 0 && @r == 12 && !grep({ $_ <= 0 } @r) && $out =~ /vs OSSL/
           && $out !~ /^  ossl-int/m && $out =~ /lowest ratio \d+\.\d+ \(small-int compact \S+ AES-128\)/,
           $otests[3])
        or print map { "#   $_\n" } split /\n/, $out;
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
result(Replay64::rewrite('pushf', 0, 0) =~ /pushfq.*lea -4\(%rsp\),%rsp\n\tmovl %r8d,\(%rsp\)\n$/s
       && Replay64::rewrite('popf', 0, 0) =~ /^\tmovl \(%rsp\),%r8d\n\tlea 4\(%rsp\),%rsp\n.*popfq\n$/s,
       'pushf and popf move a 4-byte slot');
result(Replay64::rewrite('rep movsl %ds:(%esi),%es:(%edi)', 0, 0) eq "\trep movsl (%esi),(%edi)\n"
       && !eval { Replay64::rewrite('movl %es:(%edi),%eax', 0, 0); 1 },
       'a string instruction loses its implicit segments; other segment operands are still refused');
finish();
