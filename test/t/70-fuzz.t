#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# Runs each libFuzzer target (test/fuzz/fuzz_*.c, built into build/fuzz/ by
# test/fuzz/fuzz.mk) for a few seconds from a seed corpus generated here,
# two at a time.  One test line per target with the number of executions;
# a crash, sanitizer report or mismatch fails it and prints libFuzzer's
# output and where the failing input was saved.  SKIP when clang or its
# libFuzzer runtime is missing (then the targets are not built).
#
# Environment: BUILD (default "build"); FUZZ_TIME seconds per target
# (default 10); FUZZ_JOBS targets at once (default 2); FUZZ_RUNS, when set,
# caps each target at that many executions; FUZZ_TARGETS, a space-separated
# subset to run; FUZZ_CC (default clang).  The mutation seed is fixed
# (-seed=1), but libFuzzer's choices also depend on timing, so a failure
# is reproduced from the input it saved, not by running the test again.
use strict;
use warnings;
use Digest::SHA qw(sha256);
use File::Path qw(make_path);
use File::Temp qw(tempdir tempfile);
use FindBin;
use POSIX qw(_exit);
use Time::HiRes qw(time);
use lib "$FindBin::Bin/../lib";
use ImplRuns qw(result finish);
use Toolchain qw(missing);

my $build = $ENV{BUILD} // 'build';
my $time  = $ENV{FUZZ_TIME} // 10;
my $jobs  = $ENV{FUZZ_JOBS} // 2;
my $runs  = $ENV{FUZZ_RUNS};

# Target => libFuzzer's longest input.  The constant-time AES core is slow,
# so fuzz_aes_cores gets shorter data to keep its execution rate up.
my %max_len = (fuzz_aes_cores => 1024, fuzz_modes => 2048,
               fuzz_sha1 => 4096, fuzz_ia32cap => 128);
my @targets = sort keys %max_len;
if (defined $ENV{FUZZ_TARGETS}) {
    my %want = map { $_ => 1 } split ' ', $ENV{FUZZ_TARGETS};
    die "FUZZ_TARGETS: unknown target $_\n" for grep { !$max_len{$_} } keys %want;
    @targets = grep { $want{$_} } @targets;
}

sub diag { print "#   $_\n" for @_ }

# --- seeds -----------------------------------------------------------------
# Deterministic pseudo-random bytes, SHA-256 in counter mode over a label.
sub prng_bytes {
    my ($label, $n) = @_;
    my $out = '';
    $out .= sha256("$label/" . length($out)) while length($out) < $n;
    return substr($out, 0, $n);
}

# Seeds follow each target's input layout (the comment at the top of its
# source): structured first bytes, pseudo-random key/IV/data after them.
sub seeds {
    my ($target) = @_;
    my @s;
    if ($target eq 'fuzz_aes_cores') {
        # Every key size x mode x direction; 0..5 blocks of data.
        for my $sel (0 .. 15) {
            push @s, chr($sel) . prng_bytes("cores$sel", 52 + 16 * ($sel % 6));
        }
    } elsif ($target eq 'fuzz_modes') {
        # Every mode x key size, lengths around block boundaries, some in
        # place, misaligned, split, or with the counter near a carry.
        my @lens = (0, 15, 16, 17, 33, 64, 100, 300);
        for my $mode (0 .. 4) {
            for my $v (0 .. 7) {
                my $flags = ($v % 3) | ($v & 1) << 2 | ($v * 5 % 16) << 3
                          | ($v == 7) << 7;
                my $nsplit = $v % 4;
                # $v 4..7: buffers flush against the guard page at the start
                push @s, pack('C3', $mode, $flags, $nsplit | ($v & 4))
                       . prng_bytes("modes$mode.$v", 2 * $nsplit + 80 + $lens[$v]);
            }
        }
    } elsif ($target eq 'fuzz_sha1') {
        # Lengths around the 55/56-byte padding edge and block multiples.
        my @lens = (0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 129, 1000);
        for my $i (0 .. $#lens) {
            my $nsplit = $i % 8;
            # odd $i: message and SHA_CTX against the guard page at the start
            push @s, chr(($i % 2) << 7 | $nsplit << 4 | $i % 16)
                   . prng_bytes("sha1.$i", 2 * $nsplit + $lens[$i]);
        }
    } else {
        # The values test/t/30-ia32cap.t checks against OpenSSL, over a
        # made-up detected vector, and the variable unset.
        my $cpu = pack('L4', 0x178bfbff, 0x7ef83a0b, 0xf1bf97a9, 0x00405f5e);
        push @s, $cpu . "\x01";
        push @s, $cpu . "\x00" . $_ for (
            '~0x200000000000000', '~0x200020200000000:~0', ':~0x20000000',
            '0x1234:0x5600000078', '~0x1000000', '', 'garbage', '12abc',
            '~:~0x20', '0x10:0x20:0x30', '011064', '0129', '0XaBcDeF',
            '18446744073709551617', '0x1ffffffffffffffff', '~0x400:~0',
            ':0xffffffff00000000');
    }
    return @s;
}

# --- availability ----------------------------------------------------------
# The build's probe decides; with the tools there, a missing target fails below.
my $skip = missing('FUZZ');
if (defined $skip) {
    result(1, "$_: libFuzzer run", "SKIP $skip") for @targets;
    finish();
}
my @missing = grep { !-x "$build/fuzz/$_" } @targets;
for my $t (@missing) {
    result(0, "$t: $build/fuzz/$t is missing (run make tests)");
}
my @present = grep { -x "$build/fuzz/$_" } @targets;

# --- runs ------------------------------------------------------------------
my $artifacts = "$build/fuzz/artifacts";
make_path($artifacts);

# Starts one target in the background; returns its bookkeeping.
sub start {
    my ($target) = @_;
    my $corpus = tempdir(CLEANUP => 1);
    my @seeds = seeds($target);
    for my $i (0 .. $#seeds) {
        open(my $fh, '>:raw', sprintf('%s/seed-%03d', $corpus, $i))
            or die "$corpus: $!\n";
        print $fh $seeds[$i];
        close $fh;
    }
    my ($ofh, $log) = tempfile(UNLINK => 1);
    my @cmd = ("$build/fuzz/$target", '-seed=1', "-max_total_time=$time",
               "-max_len=$max_len{$target}", '-timeout=10',
               '-print_final_stats=1', "-artifact_prefix=$artifacts/$target-",
               defined $runs ? "-runs=$runs" : (), $corpus);
    my $pid = fork() // die "fork: $!\n";
    if ($pid == 0) {
        open(STDOUT, '>&', $ofh) && open(STDERR, '>&', $ofh)
            or do { print STDERR "$target: redirect: $!\n"; _exit(127) };
        exec(@cmd) or do { print STDERR "cannot run $cmd[0]: $!\n"; _exit(127) };
    }
    return { target => $target, pid => $pid, log => $log, t0 => time,
             seeds => scalar @seeds };
}

my @queue = @present;
my (%running, %done);
while (@queue || %running) {
    while (@queue && keys %running < $jobs) {
        my $r = start(shift @queue);
        $running{ $r->{pid} } = $r;
    }
    my $pid = waitpid(-1, 0);
    last if $pid <= 0;
    my $r = delete $running{$pid} or next;
    $r->{status}  = $?;
    $r->{elapsed} = time - $r->{t0};
    $done{ $r->{target} } = $r;
}

for my $target (@present) {
    my $r = $done{$target};
    open(my $fh, '<', $r->{log}) or die "$r->{log}: $!\n";
    my @out = <$fh>;
    close $fh;
    my $text = join '', @out;
    my ($execs) = $text =~ /stat::number_of_executed_units:\s*(\d+)/;
    ($execs) = $text =~ /^Done (\d+) runs/m unless defined $execs;
    my ($cov, $corp) = ('?', '?');
    ($cov, $corp) = ($1, $2) while $text =~ /\bcov: (\d+) ft: \d+ corp: (\d+)/g;
    my $n = $execs // 'an unknown number of';
    my $secs = sprintf('%.1f s', $r->{elapsed});

    if ($r->{status} == 0 && defined $execs) {
        result(1, "$target: $n executions in $secs, no crash or mismatch"
                  . " ($r->{seeds} seeds, coverage $cov, corpus $corp)");
        next;
    }
    my $why = $r->{status} & 127 ? 'killed by signal ' . ($r->{status} & 127)
            : $r->{status}       ? 'exit status ' . ($r->{status} >> 8)
            :                      'no final statistics';
    result(0, "$target: failed after $n executions in $secs ($why)");
    # The full report minus the progress lines, which only say "new
    # coverage found" and would bury the crash.
    diag(map { chomp; $_ } grep { !/^#\d+\s+(?:NEW|REDUCE|pulse|RELOAD)\b/ } @out);
    if ($text =~ /Test unit written to (\S+)/) {
        diag("failing input: $1", "reproduce: $build/fuzz/$target $1");
    }
}

finish();
