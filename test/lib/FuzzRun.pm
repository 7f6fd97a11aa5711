# SPDX-License-Identifier: Apache-2.0
# Running the libFuzzer targets (test/fuzz/fuzz_*.c), shared by
# test/t/70-fuzz.t (64-bit), test/t/71-fuzz32.t (-m32 under qemu-i386) and
# tools/fuzz-long.pl (the long run): each target's longest input, its seed
# corpus, the runs two at a time, and what libFuzzer's output says.
#
#   my @t = FuzzRun::targets();                 # sorted names
#   FuzzRun::write_seeds($target, $dir);        # seed-NNN files
#   my @done = FuzzRun::run_all($jobs, @runs);  # each run: { target, cmd }
#   my $s = FuzzRun::summary($run->{log_text}); # execs, cov, ft, corp, input
#   my ($lost, $out) = FuzzRun::x87_signal_check($prog, @qemu);
#   my @prefix = FuzzRun::qemu_i386(tool('QEMU_I386'));  # for build/fuzz32
package FuzzRun;
use strict;
use warnings;
use Digest::SHA qw(sha256);
use File::Temp qw(tempfile);
use POSIX qw(_exit);
use Time::HiRes qw(time);

# Target => libFuzzer's longest input.  The constant-time AES core is slow,
# so fuzz_aes_cores gets shorter data to keep its execution rate up.
my %max_len = (fuzz_aes_cores => 1024, fuzz_modes => 2048,
               fuzz_sha1 => 4096, fuzz_ia32cap => 160, fuzz_ccm_ocb => 2048);

sub targets { return sort keys %max_len }
sub max_len { my ($t) = @_; return $max_len{$t} }

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
    } elsif ($target eq 'fuzz_ccm_ocb') {
        # Key size x CCM/OCB x direction x in place, misaligned; 0..9
        # blocks; first block numbers at and around powers of two, and
        # near the top of a 32-bit size_t.
        my @start = (0, 1, 6, 14, 62, 254, 1022, 0xfffefff0);
        for my $sel (0 .. 31) {
            push @s, pack('CN', $sel | ($sel * 3 % 8) << 5, $start[$sel % 8])
                   . prng_bytes("ccm_ocb$sel", 80 + 16 * ($sel % 10) + $sel % 3);
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
        my $cpu = pack('L10', 0x178bfbff, 0x7ef83a0b, 0xf1bf97a9, 0x00405f5e, 0x00008400,
                       0x00800007, 0x00280000, 0x00000001, 0x00000020, 0x00070002);
        push @s, $cpu . "\x01";
        push @s, $cpu . "\x00" . $_ for (
            '~0x200000000000000', '~0x200020200000000:~0', ':~0x20000000',
            '0x1234:0x5600000078', '~0x1000000', '', 'garbage', '12abc',
            '~:~0x20', '0x10:0x20:0x30', '011064', '0129', '0XaBcDeF',
            '18446744073709551617', '0x1ffffffffffffffff', '~0x400:~0',
            ':0xffffffff00000000', '~0:~0:~0:~0:~0', '::::', ':::::', '::0',
            '~0:~0:~0:~0x80000:~0', '0x1234::~0:0x77:~0', '~0x400::~0x400:');
    }
    return @s;
}

# Writes the target's seeds into $dir as seed-000, seed-001, ...; returns
# how many.
sub write_seeds {
    my ($target, $dir) = @_;
    my @seeds = seeds($target);
    for my $i (0 .. $#seeds) {
        my $f = sprintf('%s/seed-%03d', $dir, $i);
        open(my $fh, '>:raw', $f) or die "$f: $!\n";
        print $fh $seeds[$i];
        close $fh or die "$f: $!\n";
    }
    return scalar @seeds;
}

# -seed_inputs= naming every file in $dir (sorted), as many as fit in one
# argument (Linux takes 128 KiB); returns the option (undef for no file)
# and how many files it names.
# Under qemu-user a 32-bit program cannot list a directory of this file
# system (its readdir fails: the host's 64-bit directory offsets do not fit
# the 32-bit ABI), so libFuzzer would read no corpus ("0 files found");
# named one by one, the files are read.
sub seed_inputs {
    my ($dir) = @_;
    opendir(my $dh, $dir) or die "$dir: $!\n";
    my @files = sort grep { !/^\./ } readdir $dh;
    closedir $dh;
    my ($arg, $n) = ('-seed_inputs=', 0);
    for my $f (@files) {
        last if length($arg) + length("$dir/$f") + 1 > 120_000;
        $arg .= ($n++ ? ',' : '') . "$dir/$f";
    }
    return ($n ? $arg : undef, $n);
}

# The libFuzzer options every run gets: fixed mutation seed, the target's
# longest input, final statistics, where a failing input goes.  $timeout
# 0 turns libFuzzer's per-input timeout off, and with it the SIGALRM timer
# that drives it (see x87_signal_check).
sub options {
    my ($target, $artifact_prefix, $timeout) = @_;
    return ('-seed=1', "-max_len=$max_len{$target}", "-timeout=$timeout",
            '-print_final_stats=1', "-artifact_prefix=$artifact_prefix");
}

# Runs the commands ($run->{cmd}, an array) $jobs at a time, each with its
# output in a temporary file.  A run still going $run->{limit} seconds
# after its start (when set) is killed and marked {overran}.  Fills in
# each run's status ($?), wall seconds, CPU seconds (its own and its
# children's, user + system) and log_text; returns the runs in the order
# given.
sub run_all {
    my ($jobs, @runs) = @_;
    my @queue = @runs;
    my %running;
    my $tick = POSIX::sysconf(POSIX::_SC_CLK_TCK()) || 100;
    while (@queue || %running) {
        while (@queue && keys %running < $jobs) {
            my $r = shift @queue;
            my ($ofh, $log) = tempfile(UNLINK => 1);
            my $pid = fork() // die "fork: $!\n";
            if ($pid == 0) {
                open(STDOUT, '>&', $ofh) && open(STDERR, '>&', $ofh)
                    or do { print STDERR "$r->{target}: redirect: $!\n"; _exit(127) };
                exec(@{ $r->{cmd} })
                    or do { print STDERR "cannot run $r->{cmd}[0]: $!\n"; _exit(127) };
            }
            @$r{qw(pid log t0)} = ($pid, $log, time);
            $running{$pid} = $r;
        }
        # Children's CPU times count a child once it is reaped, so the
        # growth across one waitpid is the reaped run's CPU.
        my (undef, undef, undef, $cu0, $cs0) = POSIX::times();
        my $pid = waitpid(-1, POSIX::WNOHANG());
        if ($pid == 0) {
            for my $r (values %running) {
                next unless defined $r->{limit} && time - $r->{t0} > $r->{limit};
                $r->{overran} = 1;
                kill 'KILL', $r->{pid};
            }
            Time::HiRes::sleep(0.2);
            next;
        }
        last if $pid < 0;
        my $status = $?;
        my (undef, undef, undef, $cu1, $cs1) = POSIX::times();
        my $r = delete $running{$pid} or next;
        $r->{status} = $status;
        $r->{wall}   = time - $r->{t0};
        $r->{cpu}    = ($cu1 + $cs1 - $cu0 - $cs0) / $tick;
        open(my $fh, '<', $r->{log}) or die "$r->{log}: $!\n";
        local $/;
        $r->{log_text} = <$fh>;
        close $fh;
    }
    return @runs;
}

# What libFuzzer's output says: executions (final statistics, else the
# "Done N runs" line), the last cov:/ft:/corp: figures, the saved input
# and whether a mismatch was printed.
sub summary {
    my ($text) = @_;
    my %s;
    ($s{execs}) = $text =~ /stat::number_of_executed_units:\s*(\d+)/;
    ($s{execs}) = $text =~ /^Done (\d+) runs/m unless defined $s{execs};
    @s{qw(cov ft corp)} = ($1, $2, $3)
        while $text =~ /\bcov: (\d+) ft: (\d+) corp: (\d+)/g;
    ($s{input}) = $text =~ /Test unit written to (\S+)/;
    ($s{loaded}) = $text =~ /INFO: seed corpus: files: (\d+)/;
    $s{mismatch} = $text =~ /: MISMATCH: / ? 1 : 0;
    return \%s;
}

# The command prefix for the -m32 ASan programs under qemu-i386 ($qemu:
# the emulator's command).  LeakSanitizer stops the threads with ptrace,
# which qemu-user lacks (a target would hang at exit), so leak detection
# is off.  -R 0xc0000000 gives the guest 3 GiB of address space: ASan
# takes qemu-i386's uname (i686) for a 3G/1G kernel and its memory to end
# at 0xbfffffff, while qemu would hand out addresses up to 4 GiB once the
# space below 0x40000000 is used up (some 200 MiB); the first allocation
# above 0xc0000000 stops the program with ASan's CHECK "AddrIsInMem(addr)"
# in its allocator (build/fuzz32/asan_highmem; test/README.md).
sub qemu_i386 {
    my ($qemu) = @_;
    return ('env', 'ASAN_OPTIONS=detect_leaks=0', split(' ', $qemu), '-R', '0xc0000000');
}

# Runs build/fuzz32/x87_signal (test/fuzz/x87_signal.c) as @cmd (the
# program, prefixed by an emulator or not) and returns (undef, output)
# when every value on the x87 stack survived the signals, (the first
# "not ok" line, output) when some did not, and dies when the program
# does not run as it should.  qemu-i386 7.2 loses them: libFuzzer's
# per-input timeout is a SIGALRM every timeout/2 + 1 seconds, and one
# that lands while libFuzzer picks the next input (logl on the x87 stack
# in libstdc++'s generate_canonical) stops the target with SIGFPE in
# std::piecewise_constant_distribution.  The 32-bit runs under such an
# emulator therefore go with -timeout=0 (no timer; test/README.md).
sub x87_signal_check {
    my (@cmd) = @_;
    require Capture;
    my ($st, $out) = Capture::capture(@cmd);
    my @lines = grep { /^(?:not )?ok \d+ - x87 stack/ } split /\n/, $out;
    die "@cmd: exit status $st, not the 8 TAP lines expected:\n$out"
        unless @lines == 8 && ($st == 0 || $st >> 8 == 1);
    my ($bad) = grep { /^not ok/ } @lines;
    die "@cmd: exit status $st disagrees with its TAP lines:\n$out"
        if ($st == 0) != !defined $bad;
    return ($bad, $out);
}

# The report of the emulator fault x87_signal_check describes, as the
# SIGFPE it causes in libFuzzer shows it: ASan's FPE inside
# std::piecewise_constant_distribution, below MutateAndTestOne; and the
# line that says so beside such a failure (it still counts as one).
sub x87_fault_report {
    my ($text) = @_;
    return $text =~ /AddressSanitizer: FPE\b/
        && $text =~ /#0 .*std::piecewise_constant_distribution/ ? 1 : 0;
}

sub x87_fault_note {
    return 'the SIGFPE in std::piecewise_constant_distribution is the emulator\'s: '
         . 'x87 registers lost across a signal (build/fuzz32/x87_signal, test/README.md)';
}

# "killed by signal N", "exit status N", or undef for a clean exit.
sub why {
    my ($status) = @_;
    return $status & 127 ? 'killed by signal ' . ($status & 127)
         : $status       ? 'exit status ' . ($status >> 8)
         :                 undef;
}

# libFuzzer's report without its progress lines, which only say "new
# coverage found" and would bury a crash.
sub report_lines {
    my ($text) = @_;
    return grep { !/^#\d+\s+(?:NEW|REDUCE|pulse|RELOAD)\b/ } split /\n/, $text;
}

# The test scripts' part: runs each of @$targets from $dir (prefixed by
# @$prefix, e.g. an emulator) for $time seconds ($runs executions at most
# when defined) from a fresh seed corpus, and prints one TAP line per
# target through ImplRuns::result; a failure prints libFuzzer's report and
# the saved input.  $timeout is the seconds one input may take (the run is
# killed 3 of them past $time); no_timer passes libFuzzer -timeout=0
# instead.  Returns the finished runs.
sub test_targets {
    my (%o) = @_;
    require File::Path;
    require ImplRuns;
    my ($dir, $artifacts) = ($o{dir}, "$o{dir}/artifacts");
    my $slow = $o{timeout} // 10;
    File::Path::make_path($artifacts);
    my @runs;
    for my $t (@{ $o{targets} }) {
        my $corpus = File::Temp::tempdir(CLEANUP => 1);
        my $n = write_seeds($t, $corpus);
        push @runs, { target => $t, seeds => $n,
                      cmd => [ @{ $o{prefix} // [] }, "$dir/$t",
                               options($t, "$artifacts/$t-", $o{no_timer} ? 0 : $slow),
                               $o{name_seeds} ? (seed_inputs($corpus))[0] // () : (),
                               "-max_total_time=$o{time}",
                               defined $o{runs} ? "-runs=$o{runs}" : (), $corpus ],
                      limit => $o{time} + 3 * $slow + 30 };
    }
    for my $r (run_all($o{jobs} // 2, @runs)) {
        my $s = summary($r->{log_text});
        my $n = $s->{execs} // 'an unknown number of';
        my $secs = sprintf('%.1f s', $r->{wall});
        my $label = ($o{label} // '') . $r->{target};
        my $why = $r->{overran} ? "still running after $r->{limit} s, killed"
                                : why($r->{status});
        # Every seed must have been read (see seed_inputs).
        $why //= 'libFuzzer read ' . ($s->{loaded} // 'none') . " of the $r->{seeds} seeds"
            if ($s->{loaded} // 0) != $r->{seeds};
        if (!defined $why && defined $s->{execs}) {
            ImplRuns::result(1, "$label: $n executions in $secs, no crash or mismatch"
                      . " ($r->{seeds} seeds, coverage " . ($s->{cov} // '?')
                      . ', corpus ' . ($s->{corp} // '?') . ')');
            next;
        }
        ImplRuns::result(0, "$label: failed after $n executions in $secs ("
                         . ($why // 'no final statistics') . ')');
        print "#   $_\n" for report_lines($r->{log_text});
        print "#   ", x87_fault_note(), "\n" if x87_fault_report($r->{log_text});
        if (defined $s->{input}) {
            print "#   failing input: $s->{input}\n";
            print "#   reproduce: ", join(" ", @{ $o{prefix} // [] }, "$dir/$r->{target}", $s->{input}), "\n";
        }
    }
    return @runs;
}

1;
