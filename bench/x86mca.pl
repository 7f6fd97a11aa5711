#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# The 32-bit AES benchmark, for any kernel: some kernels run i386
# programs and some (without IA-32 emulation) do not, so nothing here is
# timed in 32-bit mode.  At start it runs one trace program with no
# arguments to see which kind this kernel is, and says so; where it runs
# them, `make bench-aes586-direct` (bench/x86mca/aes586_direct.c) times
# aes-586 directly in 32-bit mode, the check on these figures.
# For each program (bench/x86mca/trace32.c linked with one implementation)
# every call is single-stepped under qemu-i386, and the instructions it
# executed, in order, are given to llvm-mca (-mtriple=i686 -mcpu=znver3),
# which estimates the core cycles they take.  The first program is the
# reference (the C AES); the others are compared with it.
#
#   perl bench/x86mca.pl [--bits 128,256] [--cbc-bytes 256]
#        [--native NATIVE32 [--verify-only] [--drop N]] SPEC...
#   SPEC: NAME=PROGRAM[,path=PATH][,ia32cap=MASK][,arch=x86_64][,only=native]
#         [,vs=OTHER]
#     PROGRAM prints a trace per path (trace32.c: "c", or aes-586's
#     "compact" and "full"), or only PATH; MASK is run's OPENSSL_ia32cap
#     (e.g. ~0x2000000:~0 for aes-586's integer compact path).
#     arch=x86_64: a 64-bit program (calib64.c), run natively and also
#     timed (PROGRAM --time): the method's check against a measurement.
#     only=native: measured natively (--native) only, no estimate.
#     vs=OTHER: in the measured table, OTHER's figure (the spec named
#     OTHER, one path, only=native; OpenSSL's aes-586) is printed beside
#     this row's with the ratio OTHER's c/B / this one's, and OTHER gets no
#     row of its own; a summary line gives the lowest ratio and its row.
#
# Straight-line replay: branch targets mean nothing to llvm-mca, so a
# taken branch costs only its uop.  It models a call as 100 cycles of
# latency, which is not what a call costs, so each call is replayed as the
# push of its return address and each ret as the pop (lea 4(%esp),%esp);
# and endbr32 as 100 uops (about 50 cycles), where CPUs run it as a NOP, so
# it is replayed as one.  It also gives a pop's stack pointer update the
# latency of its load (5 cycles), so four pops in a row cost 20 cycles of
# %esp chain; the CPU's stack engine updates %esp at decode.  So each pop
# is replayed as its load and a 1-cycle lea, the latency llvm-mca already
# gives a push.
# Memory dependencies are not in the model, so each trace is replayed
# twice: loads never waiting for stores (llvm-mca's default; too kind to
# code that spills and reloads, as 32-bit C does) and every load waiting
# for the stores before it (-noalias=false; too harsh on table lookups).
# The truth lies between; both are printed.
#
# --native: the same traces also run natively, rewritten for 64-bit mode
# (bench/x86mca/Replay64.pm) and run by NATIVE32 (bench/x86mca/native32.c),
# which checks each replay's result against the C AES and times it: real
# cycles on this CPU for the instructions the 32-bit calls execute, in
# 64-bit mode (what the rewrite changes is listed in Replay64.pm).
# --verify-only runs the checks and no timing; --drop N leaves instruction
# N out of every replay, for the test that shows a broken replay is
# caught.
use strict;
use warnings;
use Getopt::Long;
use FindBin;
use lib "$FindBin::Bin/x86mca", "$FindBin::Bin/../support/perl";
use Replay64;
use X86Disasm qw(by_address next_addresses);

my $MCA_TRIPLE = 'i686';
my $MCA_CPU    = 'znver3';
my $SIM_INSNS  = 30_000;        # replay each trace about this many instructions

my @bits = (128);
my $cbc_bytes = 256;
my ($native, $verify_only, $drop);
my $NATIVE_ROUNDS = 5;          # timed runs per replay, interleaved; the fastest is kept
GetOptions('bits=s' => sub { @bits = split /,/, $_[1] }, 'cbc-bytes=i' => \$cbc_bytes,
           'native=s' => \$native, 'verify-only' => \$verify_only, 'drop=i' => \$drop)
    or die "usage: $0 [--bits 128,256] [--cbc-bytes N] NAME=PROGRAM[,path=P][,ia32cap=M]...\n";
die "usage: $0 [--bits 128,256] [--cbc-bytes N] NAME=PROGRAM[,path=P][,ia32cap=M]...\n" unless @ARGV;
my @impls;
for (@ARGV) {
    my ($name, $spec) = /^([^=,]+)=(.+)$/ or die "$0: \"$_\" is not NAME=PROGRAM[,...]\n";
    my ($prog, @kv) = split /,/, $spec;
    my %o = map { /^(path|ia32cap|arch|only|vs)=(.*)$/ ? ($1 => $2) : die "$0: bad option \"$_\" in $name\n" } @kv;
    die "$0: $name: arch must be x86_64 if given\n" if defined $o{arch} && $o{arch} ne 'x86_64';
    die "$0: $name: only must be native if given\n" if defined $o{only} && $o{only} ne 'native';
    push @impls, { name => $name, prog => $prog, %o };
}
my %versus = map { defined $_->{vs} ? ($_->{vs} => 1) : () } @impls;
for my $v (keys %versus) {
    my ($o) = grep { $_->{name} eq $v } @impls;
    die "$0: vs=$v names no spec\n" unless $o;
    die "$0: $v (a vs= figure) must be only=native\n" unless ($o->{only} // '') eq 'native';
}

sub in_path {
    my ($cmd) = @_;
    for (split /:/, $ENV{PATH} // '') { return "$_/$cmd" if -x "$_/$cmd" }
    return undef;
}

print "\n32-bit AES (i386): llvm-mca ESTIMATES" . ($native ? ", then MEASUREMENTS in 64-bit mode" : '') . "\n";
# A 32-bit trace program run with no arguments prints its usage (exit 2)
# where the kernel runs i386 programs.
my ($prog32) = map { $_->{prog} } grep { !$_->{arch} && -x $_->{prog} } @impls;
if ($prog32 && system("$prog32 >/dev/null 2>&1") >= 0 && $? >> 8 == 2) {
    print "  This kernel also runs 32-bit programs: what is measured here is checked\n"
        . "  by calling the code directly in 32-bit mode (make bench-aes586-direct).\n";
} else {
    print "  This kernel cannot execute 32-bit code, so nothing runs in 32-bit mode here.\n";
}
my $qemu = in_path('qemu-i386');
my $mca  = in_path('llvm-mca');
my @missing = ((!$qemu ? 'qemu-i386 (qemu-user)' : ()), (!$mca && !$verify_only ? 'llvm-mca (llvm)' : ()),
               (map { -x $_->{prog} ? () : "$_->{prog} (make bench-x86mca)" } @impls));
if (@missing) {
    print "  skipped: missing @missing\n";
    exit 0;
}
print <<"EOT" unless $verify_only;
  Each call was single-stepped under qemu-i386 and the instructions it
  executed, in order, were replayed through llvm-mca -mtriple=$MCA_TRIPLE
  -mcpu=$MCA_CPU (LLVM's Zen 3 model): estimated core
  cycles per byte with branches always predicted, and loads never waiting
  for stores ("free") or every load waiting for the stores before it
  ("ordered"); the truth lies between.  "insn/B" is exact: instructions
  executed per byte.
  ecb = one AES_encrypt/AES_decrypt call per block (repeated calls overlap);
  cbc = one AES_cbc_encrypt call of $cbc_bytes bytes.  The method check at the
  end replays 64-bit code that can also be timed here: read the 32-bit
  speedups with the errors it shows.
EOT

# The replayed form of one executed instruction (see the header).
sub replayed {
    my ($insn, $x64) = @_;
    my ($sp, $w, $s) = $x64 ? ('%rsp', 8, 'q') : ('%esp', 4, 'l');
    return "push$s \$0" if $insn =~ /^call/;
    return 'nop' if $insn =~ /^endbr(32|64)$/;
    return "mov$s ($sp),$1\nlea$s $w($sp),$sp" if $insn =~ /^pop[lq]? (%\w+)$/;
    return "lea$s " . ($w + ($insn =~ /^ret[lq]? \$0x([0-9a-f]+)/ ? hex $1 : 0)) . "($sp),$sp"
        if $insn =~ /^ret/;
    return $insn =~ /^(j\w+|loop\w*) [0-9a-f]+$/ ? "$1 0" : $insn;
}

# {"path mode bits" => {bytes, count, eips}} from one run of the program,
# and those keys in the program's order.
sub traces {
    my ($impl, $bits) = @_;
    my ($prog, %t, @order, $cur) = ($impl->{prog});
    local $ENV{OPENSSL_ia32cap} = $impl->{ia32cap} if defined $impl->{ia32cap};
    open(my $fh, '-|', ($impl->{arch} ? () : $qemu), $prog, $bits, $cbc_bytes, $impl->{path} // ())
        or die "$0: $prog: $!\n";
    while (<$fh>) {
        if (/^trace (\S+) (\S+) (\d+) (\d+) (\d+)$/) {
            $cur = $t{"$1 $2 $3"} = { path => $1, bytes => $4, count => $5, eips => [] };
            push @order, "$1 $2 $3";
        } elsif (/^([0-9a-f]+)$/ && $cur) {
            push @{ $cur->{eips} }, hex $1;
        }
    }
    close $fh or die "$0: $prog $bits $cbc_bytes failed (exit " . ($? >> 8) . ")\n";
    for (values %t) {
        die "$0: $prog: a trace is short\n" unless @{ $_->{eips} } == $_->{count};
    }
    return (\%t, \@order);
}

# Estimated cycles of one replay of the trace: (free, ordered).
sub mca_cycles {
    my ($name, $tr, $text, $x64) = @_;
    my $src = '';
    my $triple = $x64 ? 'x86_64' : $MCA_TRIPLE;
    for my $a (@{ $tr->{eips} }) {
        my $i = $text->{$a} // die sprintf("%s: no instruction at 0x%x in the disassembly\n", $name, $a);
        $src .= replayed($i, $x64) . "\n";
    }
    my $it = int($SIM_INSNS / @{ $tr->{eips} }) || 1;
    my $file = "/tmp/x86mca.$$.s";
    open(my $fh, '>', $file) or die "$0: $file: $!\n";
    print $fh $src;
    close $fh;
    my @c;
    for my $alias ('true', 'false') {
        my $out = `$mca -mtriple=$triple -mcpu=$MCA_CPU -iterations=$it -noalias=$alias $file 2>&1`;
        my ($cycles) = $out =~ /^Total Cycles:\s+(\d+)/m;
        if ($? || !$cycles) {
            unlink $file;
            die "$0: llvm-mca failed on $name:\n$out";
        }
        push @c, $cycles / $it;
    }
    unlink $file;
    return @c;
}


# One trace, rewritten for 64-bit mode and built into a shared object;
# its result checked by NATIVE32 (which dies on a wrong one).
my $replay_no = 0;
sub native_replay {
    my ($impl, $row, $mode, $bits, $tr, $text, $next) = @_;
    my @insns = map { [$text->{$_}, $next->{$_} // 0] } @{ $tr->{eips} };
    my $base = "/tmp/x86mca.$$." . $replay_no++;
    open(my $fh, '>', "$base.S") or die "$0: $base.S: $!\n";
    print $fh Replay64::source(insns => \@insns, nargs => $mode =~ /^cbc/ ? 6 : 3,
                               name => 'replay', drop => $drop);
    close $fh;
    my $cc = $ENV{CC} // 'cc';
    my $err = `$cc -shared -o $base.so $base.S 2>&1`;
    unlink "$base.S";
    die "$0: $row $mode $bits: the 64-bit replay does not assemble:\n$err" if $?;
    my $r = { row => $row, mode => $mode, bits => $bits, bytes => $tr->{bytes},
              prog => $impl->{prog}, so => "$base.so" };
    my $out = `$native $impl->{prog} $base.so $mode $bits $tr->{bytes} 2>&1`;
    if ($? || $out !~ /^ok /m) {
        unlink "$base.so";
        die "$0: $row $mode $bits: the native replay failed: $out";
    }
    return $r;
}

# Measured core cycles per byte of a 64-bit program:
# {"NAME PATH" => {"mode bits" => c/B}}.
sub measured {
    my ($impl, $bits) = @_;
    my %m;
    for (`$impl->{prog} --time $bits $cbc_bytes`) {
        next unless /^measured (\S+) (\S+) (\d+) \d+ ([\d.]+)$/;
        $m{"$impl->{name} $1"}{"$2 $3"} = $4;
    }
    die "$0: $impl->{prog} --time failed\n" if $? || !%m;
    return \%m;
}

# Rows: one per implementation and path, in the order given; 64-bit
# programs go to the method check.
my @modes = qw(ecb-enc ecb-dec cbc-enc cbc-dec);
my (%est, %meas, @rows, @checks, @replays, @native_rows, %row_impl, %impl_row);
END { unlink map { $_->{so} } @replays }
for my $impl (@impls) {
    my $x64 = $impl->{arch};
    next if $x64 && $verify_only;
    next if $impl->{only} && !$native;
    my $text = by_address($impl->{prog});
    my $next = $native && !$x64 ? next_addresses($text) : undef;
    for my $b (@bits) {
        my ($t, $order) = traces($impl, $b);
        # Single-stepping stops after each iteration of a rep-prefixed
        # string instruction: one execution, as the CPU runs it.
        for my $tr (values %$t) {
            my $e = $tr->{eips};
            @$e = @$e[grep { !$_ || $e->[$_] != $e->[$_ - 1] || ($text->{ $e->[$_] } // '') !~ /^rep/ } 0 .. $#$e];
            $tr->{count} = @$e;
        }
        if ($x64) {
            my $m = measured($impl, $b);
            for my $row (keys %$m) { $meas{$row}{$_} = $m->{$row}{$_} for keys %{ $m->{$row} } }
        }
        for my $key (@$order) {
            my ($path, $m) = split ' ', $key;
            my $row = $path eq 'c' && !$x64 ? $impl->{name} : "$impl->{name} $path";
            my $list = $x64 ? \@checks : $impl->{only} ? [] : \@rows;
            push @$list, $row unless grep { $_ eq $row } @$list;
            push @native_rows, $row if $native && !$x64 && !grep { $_ eq $row } @native_rows;
            $row_impl{$row} = $impl;
            $impl_row{ $impl->{name} } //= $row;
            my $tr = $t->{$key};
            push @replays, native_replay($impl, $row, $m, $b, $tr, $text, $next) if $native && !$x64;
            next if $verify_only || $impl->{only};
            my @c = map { $_ / $tr->{bytes} } mca_cycles("$row $m $b", $tr, $text, $x64);
            $est{$row}{"$m $b"} = { insn_b => $tr->{count} / $tr->{bytes}, cb => \@c };
        }
    }
}

if ($verify_only) {
    die "$0: --verify-only needs --native\n" unless $native;
    print "  native replays: all ", scalar(@replays), " computed the C AES's result\n";
    exit 0;
}

if (@rows) {
    my $ref = $rows[0];
    printf "\n  %-26s %-7s %4s %7s %15s %15s\n", '', '', '', '', 'est c/B', 'speedup';
    printf "  %-26s %-7s %4s %7s %7s %7s %7s %7s\n", 'implementation', 'mode', 'bits', 'insn/B',
        'free', 'ordered', 'free', 'ordered';
    for my $b (@bits) {
        for my $m (@modes) {
            for my $row (@rows) {
                my $e = $est{$row}{"$m $b"} or die "$0: no $m $b trace for $row\n";
                my @r = map { $est{$ref}{"$m $b"}{cb}[$_] / $e->{cb}[$_] } 0, 1;
                printf "  %-26s %-7s %4d %7.1f %7.2f %7.2f %7.2f %7.2f\n", $row, $m, $b,
                    $e->{insn_b}, @{ $e->{cb} }, @r;
            }
        }
    }
    print "\n  speedup = ${ref}'s est c/B / this one's.  The aim for the assembly: at most\n"
        . "  1/1.8 of the C reference's c/B, i.e. speedup >= 1.80.\n";
}

# The method where it can be checked: 64-bit code, replayed the same way
# (-mtriple=x86_64) and timed on this machine; the speedups against the
# first such row, measured and estimated.
if (@checks) {
    my $ref = $checks[0];
    print "\n  Method check on 64-bit code, which can be timed here: measured core c/B\n"
        . "  (TSC cycles, fastest of 301 short batches, times the core/TSC clock ratio\n"
        . "  from a chain of dependent adds) against the same replay's estimates.\n";
    printf "  %-26s %-7s %4s %7s %23s %23s\n", '', '', '', '', 'c/B', "speedup over $ref";
    printf "  %-26s %-7s %4s %7s %7s %7s %7s %7s %7s %7s\n", 'implementation', 'mode', 'bits',
        'insn/B', 'meas', 'free', 'ordered', 'meas', 'free', 'ordered';
    for my $b (@bits) {
        for my $m (@modes) {
            for my $row (@checks) {
                my $e = $est{$row}{"$m $b"} or die "$0: no $m $b trace for $row\n";
                my $r = $est{$ref}{"$m $b"};
                my ($mr, $mm) = ($meas{$ref}{"$m $b"} // 0, $meas{$row}{"$m $b"} // 0);
                printf "  %-26s %-7s %4d %7.1f %7.2f %7.2f %7.2f %7.2f %7.2f %7.2f\n", $row, $m, $b,
                    $e->{insn_b}, $mm, @{ $e->{cb} }, ($mm ? $mr / $mm : 0),
                    map { $r->{cb}[$_] / $e->{cb}[$_] } 0, 1;
            }
        }
    }
}

# The 32-bit calls, measured: each replay timed $NATIVE_ROUNDS times, the
# rounds interleaved across all replays so that a slow spell of this
# shared machine does not fall on one row only; the fastest is kept.
if (@replays) {
    my %cb;
    for my $round (1 .. $NATIVE_ROUNDS) {
        for my $r (@replays) {
            my $out = `$native $r->{prog} $r->{so} $r->{mode} $r->{bits} $r->{bytes} --time 2>&1`;
            my ($v) = $out =~ /^measured \S+ \d+ \d+ ([\d.]+)$/m;
            die "$0: $r->{row} $r->{mode} $r->{bits}: native timing failed: $out" if $? || !defined $v;
            my $k = "$r->{row}\0$r->{mode} $r->{bits}";
            $cb{$k} = $v if !defined $cb{$k} || $v < $cb{$k};
        }
    }
    my $ref = $rows[0] // $native_rows[0];
    print "\n  MEASURED: the same 32-bit instructions run natively on this CPU (in 64-bit\n"
        . "  mode: bench/x86mca/Replay64.pm), each replay's result checked against the\n"
        . "  C AES; TSC cycles per byte, fastest of 3001 short batches in each of\n"
        . "  $NATIVE_ROUNDS interleaved runs.  speedup = ${ref}'s c/B / this one's.\n";
    print "  OpenSSL = OpenSSL 3.0's own aes-586 (its perlasm, its x86asm.pl), traced\n"
        . "  and replayed the same way in the same run, on the path of the row: -sse\n"
        . "  its AES_* with SSE (compact, MMX), -int with SSE masked off (compact,\n"
        . "  integer), full its AES_cbc_encrypt on the T-tables (it has no full-table\n"
        . "  one-block entry: its ECB is AES_encrypt/AES_decrypt, compact with SSE);\n"
        . "  vs OSSL = OpenSSL's c/B / ours, > 1 means ours is faster.\n" if %versus;
    printf "  %-26s %-7s %4s %9s %8s%s\n", 'implementation', 'mode', 'bits', 'TSC c/B', 'speedup',
        %versus ? sprintf(' %9s %8s', 'OpenSSL', 'vs OSSL') : '';
    my $low;
    for my $b (@bits) {
        for my $m (@modes) {
            for my $row (@native_rows) {
                next if $versus{ $row_impl{$row}{name} };
                my $v = $cb{"$row\0$m $b"} // die "$0: no native $m $b figure for $row\n";
                my $col = '';
                if (defined(my $vs = $row_impl{$row}{vs})) {
                    my $o = $cb{"$impl_row{$vs}\0$m $b"} // die "$0: no native $m $b figure for $vs\n";
                    $col = sprintf ' %9.2f %8.2f', $o, $o / $v;
                    $low = { r => $o / $v, row => "$row $m AES-$b" } if !$low || $o / $v < $low->{r};
                }
                printf "  %-26s %-7s %4d %9.2f %8.2f%s\n", $row, $m, $b, $v, $cb{"$ref\0$m $b"} / $v, $col;
            }
        }
    }
    printf "\n  Summary: aes-586 vs OpenSSL's aes-586, lowest ratio %.3f (%s)\n", $low->{r}, $low->{row}
        if $low;
}
