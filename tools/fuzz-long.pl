#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# make fuzz-long: the long libFuzzer run.  Every target that is built
# (build/fuzz/fuzz_* natively; build/fuzz32/fuzz_* under qemu-i386 when the
# 32-bit fuzz build and qemu-i386 exist) gets an equal share of a total
# budget of fuzzing seconds, two targets at a time, each from its own
# persistent corpus under BUILD/fuzz-long/ARCH/TARGET/corpus (seeded with
# test/lib/FuzzRun.pm's seeds when empty, grown by every run).  With two
# targets at a time on two free cores the budget is the CPU time spent;
# the table shows both.  Prints per target: executions, libFuzzer's last
# cov: and ft: figures, the corpus size, crashes, wall and CPU seconds;
# writes the same table as Markdown to BUILD/fuzz-long/summary.md (the
# rows of docs/testing.md, "Long fuzzing run", come from it) and each run's whole
# output to its log.txt.  A crash, sanitizer report or mismatch names
# the saved input and makes the exit status 1.
#
# Under a qemu-i386 that loses the x87 registers across a signal (the
# check is build/fuzz32/x87_signal, run first), the i386 targets go
# without libFuzzer's per-input timeout, whose SIGALRM timer would stop
# them with a SIGFPE inside libFuzzer (FuzzRun::x87_signal_check); an
# input that hangs is then caught by the run's own limit (its share + 600
# s, killed and counted as a crash).  The output and summary.md say so.
# Such a SIGFPE, if it still happens, counts as a crash like any other,
# with a line naming the emulator fault beside it.
#
#   tools/fuzz-long.pl [--build DIR] [--seconds N] [--jobs N] [--targets "a b"]
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../test/lib";
use File::Path qw(make_path);
use Getopt::Long;
use POSIX qw(strftime);
use FuzzRun;
use Toolchain qw(tool missing);

my ($build, $seconds, $jobs, $only) = ('build', 3600, 2, undef);
GetOptions('build=s' => \$build, 'seconds=i' => \$seconds, 'jobs=i' => \$jobs,
           'targets=s' => \$only) && $seconds > 0 && $jobs > 0
    or die "usage: $0 [--build DIR] [--seconds N>0] [--jobs N>0] [--targets 'a b']\n";
$ENV{BUILD} = $build;   # Toolchain.pm reads BUILD/toolchain.txt

my %want = map { $_ => 1 } split ' ', $only // '';
my %known = map { $_ => 1 } FuzzRun::targets();
die "--targets: unknown target $_ (known: @{[ FuzzRun::targets() ]})\n" for grep { !$known{$_} } sort keys %want;
my @names = grep { !%want || $want{$_} } FuzzRun::targets();

# Each architecture: the directory, the command prefix, the timeout per input.
my (@arch, @notes);
if (!missing('FUZZ')) {
    push @arch, { arch => 'x86_64', dir => "$build/fuzz", prefix => [], timeout => 10,
                  name_seeds => 0 };
} else {
    print "skipped x86_64: ", missing('FUZZ'), "\n";
}
if (my $why = missing('FUZZ32', 'CC32', 'QEMU_I386')) {
    print "skipped i386: $why\n";
} else {
    my @qemu = split ' ', tool('QEMU_I386');
    my $probe = "$build/fuzz32/x87_signal";
    die "$probe is missing (make fuzz-long builds it)\n" unless -x $probe;
    my ($lost) = FuzzRun::x87_signal_check(@qemu, $probe);
    if (defined $lost) {
        (my $version = `$qemu[0] --version`) =~ s/\n.*//s;
        push @notes, "i386: $version loses x87 registers across a signal ($probe: $lost), "
                   . 'so the i386 targets ran with -timeout=0 (no SIGALRM timer; test/README.md); '
                   . 'a hang would be killed at the run\'s limit.';
        print "$notes[-1]\n";
    }
    push @arch, { arch => 'i386', dir => "$build/fuzz32",
                  prefix => [ FuzzRun::qemu_i386(tool('QEMU_I386')) ],   # its comment says why
                  timeout => defined $lost ? 0 : 120,
                  name_seeds => 1 };  # no readable directory (FuzzRun::seed_inputs)
}

my @runs;
for my $a (@arch) {
    for my $t (@names) {
        my $bin = "$a->{dir}/$t";
        die "$bin is missing (make fuzz-long builds it)\n" unless -x $bin;
        my $base = "$build/fuzz-long/$a->{arch}/$t";
        my ($corpus, $arts) = ("$base/corpus", "$base/artifacts");
        make_path($corpus, $arts);
        opendir(my $dh, $corpus) or die "$corpus: $!\n";
        my $seeded = grep { !/^\./ } readdir $dh;
        closedir $dh;
        FuzzRun::write_seeds($t, $corpus) unless $seeded;
        my ($named, $n) = $a->{name_seeds} ? FuzzRun::seed_inputs($corpus) : ();
        print "$a->{arch} $t: $n of the corpus files named (one argument's worth)\n"
            if $a->{name_seeds} && $n < $seeded;
        push @runs, { target => $t, arch => $a->{arch}, base => $base, corpus => $corpus,
                      cmd => [ @{ $a->{prefix} }, $bin,
                               FuzzRun::options($t, "$arts/", $a->{timeout}),
                               $named // (), $corpus ] };
    }
}
die "no fuzz target to run\n" unless @runs;
my $share = int($seconds / @runs) || 1;
for my $r (@runs) {
    push @{ $r->{cmd} }, "-max_total_time=$share";
    $r->{limit} = $share + 600;     # a run that overruns this much hangs
}
printf "%d targets, %d s each (%d s in all), %d at a time\n",
       scalar @runs, $share, $share * @runs, $jobs;

my (@rows, $failed);
for my $r (FuzzRun::run_all($jobs, @runs)) {
    open(my $fh, '>', "$r->{base}/log.txt") or die "$r->{base}/log.txt: $!\n";
    print $fh $r->{log_text};
    close $fh;
    my $s = FuzzRun::summary($r->{log_text});
    opendir(my $dh, $r->{corpus}) or die "$r->{corpus}: $!\n";
    my $files = grep { !/^\./ } readdir $dh;
    closedir $dh;
    my $why = $r->{overran} ? "still running after $r->{limit} s, killed"
                            : FuzzRun::why($r->{status});
    my $ok = !defined $why && defined $s->{execs};
    push @rows, [ $r->{target}, $r->{arch}, $s->{execs} // '?', $s->{cov} // '?',
                  $s->{ft} // '?', $files, $ok ? 0 : 1,
                  sprintf('%.0f', $r->{wall}), sprintf('%.0f', $r->{cpu}) ];
    next if $ok;
    $failed++;
    print "FAILED $r->{arch} $r->{target}: ", $why // 'no final statistics', "\n";
    print "  $_\n" for FuzzRun::report_lines($r->{log_text});
    if ($r->{arch} eq 'i386' && FuzzRun::x87_fault_report($r->{log_text})) {
        print "  ", FuzzRun::x87_fault_note(), "\n";
        push @notes, "$r->{arch} $r->{target}: crash counted; " . FuzzRun::x87_fault_note() . '.';
    }
    print "  saved input: $s->{input}\n" if defined $s->{input};
    print "  whole output: $r->{base}/log.txt\n";
}

my @head = ('target', 'arch', 'executions', 'cov', 'ft', 'corpus', 'crashes', 'wall s', 'CPU s');
printf "%-16s %-7s %12s %6s %7s %7s %8s %7s %7s\n", @head;
printf "%-16s %-7s %12s %6s %7s %7s %8s %7s %7s\n", @$_ for @rows;

my $cpu = do { open(my $fh, '<', '/proc/cpuinfo'); my ($m) = grep { /^model name/ } <$fh>;
               defined $m ? (split /:\s*/, $m, 2)[1] : "unknown CPU\n" };
chomp $cpu;
my $md = "$build/fuzz-long/summary.md";
open(my $out, '>', $md) or die "$md: $!\n";
print $out "`make fuzz-long FUZZ_LONG_SECONDS=$seconds` on ", strftime('%Y-%m-%d', gmtime),
           ", $cpu, $jobs at a time:\n\n";
print $out '| ', join(' | ', @head), " |\n", '|', '---|' x @head, "\n";
print $out '| ', join(' | ', @$_), " |\n" for @rows;
print $out "\n", join("\n", @notes), "\n" if @notes;
close $out or die "$md: $!\n";
print "table: $md\n";
exit($failed ? 1 : 0);
