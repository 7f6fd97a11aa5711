#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# The libFuzzer targets built -m32 over the 32-bit library (clang -m32 with
# ASan and UBSan, build/fuzz32/ by test/fuzz/fuzz32.mk), run under
# qemu-i386, whatever the host kernel runs: the same targets, seeds and
# runner as test/t/70-fuzz.t (test/lib/FuzzRun.pm), so every AES entry of
# the 32-bit registry qemu's CPU model has (aes-586's, aesni-x86's, the C)
# meets the plain references (aesni-x86's CCM64 and OCB bulk functions
# through fuzz_ccm_ocb), and SHA-1's 32-bit paths the update splits.
# One line per target; a crash, sanitizer report or mismatch fails it with
# the saved input named.
#
# Under qemu-user a 32-bit program cannot list the corpus directory (see
# FuzzRun::seed_inputs), so the seeds are named one by one; each line
# also checks that libFuzzer read every seed.
#
# First, build/fuzz32/x87_signal (test/fuzz/x87_signal.c): values on the
# x87 stack must survive a signal natively (when this kernel runs i386
# programs; a named SKIP otherwise).  Under qemu-i386 7.2 they do not, and
# libFuzzer's per-input timeout is a SIGALRM timer that then stops a long
# run with a SIGFPE inside libFuzzer (FuzzRun::x87_signal_check); when the
# check fails under qemu, a named SKIP says so and the runs below go with
# -timeout=0 (test/README.md).
#
# Negative control: fuzz_modes_planted, fuzz_modes linked with a wrapper
# around the 32-bit aesni_ecb_encrypt_xmm (the aesni row's ECB) that flips one output bit of calls
# of two blocks or more (test/fuzz/planted32.c), must stop on a MISMATCH
# under the same runner and save the input; that input fails the planted
# build again and passes the real one.
#
# SKIP (counted) when clang's i386 libFuzzer runtime, its 32-bit C++
# library, gcc -m32 or qemu-i386 is missing.
# Environment: BUILD; FUZZ_TIME seconds per target (default 10); FUZZ_JOBS
# (default 2); FUZZ_RUNS caps the executions per target.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use File::Temp qw(tempdir);
use Capture qw(capture);
use QemuVaes qw(i386_prefix);
use FuzzRun;
use ImplRuns qw(result finish);
use Toolchain qw(tool missing);

my $build = $ENV{BUILD} // 'build';
my $dir   = "$build/fuzz32";
my @targets = FuzzRun::targets();

if (defined(my $skip = missing('FUZZ32', 'CC32', 'QEMU_I386'))) {
    result(1, $_, "SKIP $skip") for 'native i386: the x87 stack survives signals',
                                   'qemu-i386: the x87 stack survives signals',
                                   'native i386: ASan holds 384 MiB',
                                   'qemu-i386 -R 0xc0000000: ASan holds 384 MiB';
    result(1, "qemu-i386: $_: libFuzzer run", "SKIP $skip") for @targets;
    result(1, 'qemu-i386: planted ECB fault reported', "SKIP $skip");
    finish();
}
# No LeakSanitizer (no ptrace under qemu-user) and a 3 GiB guest address
# space, ASan's idea of it (FuzzRun::qemu_i386 says why).
my ($qemu_cpu, $lane_fault) = i386_prefix(tool('QEMU_I386'), $build);
result(1, 'qemu-i386: aesni-x86\'s ymm (VAES) code in the targets', "SKIP $lane_fault") if $lane_fault;
my @qemu = FuzzRun::qemu_i386("@$qemu_cpu");
result(0, "$dir/$_ is missing (run make tests)")
    for grep { !-x "$dir/$_" } @targets, 'fuzz_modes_planted';

# --- values on the x87 stack across a signal ---------------------------------
my $probe = "$dir/x87_signal";
my $no_timer;
if (!-x $probe) {
    result(0, "$probe is missing (run make tests)");
} else {
    if (my $why = missing('RUN_I386')) {
        result(1, 'native i386: the x87 stack survives signals', "SKIP $why");
    } else {
        my ($bad, $out) = eval { FuzzRun::x87_signal_check($probe) };
        result(!$@ && !defined $bad, "native i386: the x87 stack survives signals ($probe)")
            or print map { "#   $_\n" } split /\n/, $@ || $out;
    }
    my ($lost, $out) = eval { FuzzRun::x87_signal_check(@qemu, $probe) };
    if ($@) {
        result(0, "qemu-i386 $probe: it did not run as it should");
        print map { "#   $_\n" } split /\n/, $@;
    } elsif (!defined $lost) {
        result(1, "qemu-i386: the x87 stack survives signals ($probe)");
    } else {
        (my $version = `$qemu[2] --version`) =~ s/\n.*//s;
        result(1, 'qemu-i386: the x87 stack survives signals',
               "SKIP $version loses x87 registers across a signal ($probe: $lost; "
               . 'test/README.md): the libFuzzer runs below go with -timeout=0');
        $no_timer = 1;
    }
}

# --- ASan's 32-bit memory and qemu's guest addresses --------------------------
# build/fuzz32/asan_highmem holds 384 MiB in 4 KiB blocks: natively, and
# under qemu with -R 0xc0000000 as the runs below have it; without the
# option qemu-i386 7.2 stops it with ASan's AddrIsInMem CHECK, shown as a
# note (FuzzRun::qemu_i386, test/README.md).
my $highmem = "$dir/asan_highmem";
if (!-x $highmem) {
    result(0, "$highmem is missing (run make tests)");
} else {
    if (my $why = missing('RUN_I386')) {
        result(1, 'native i386: ASan holds 384 MiB', "SKIP $why");
    } else {
        my ($nst, $nout) = capture('env', 'ASAN_OPTIONS=detect_leaks=0', $highmem);
        result($nst == 0 && $nout =~ /^384 MiB held/m, "native i386: ASan holds 384 MiB ($highmem)")
            or print map { "#   $_\n" } "exit $nst", split /\n/, $nout;
    }
    my ($qst, $qout) = capture(@qemu, $highmem);
    result($qst == 0 && $qout =~ /^384 MiB held/m, "qemu-i386 -R 0xc0000000: ASan holds 384 MiB ($highmem)")
        or print map { "#   $_\n" } "exit $qst", split /\n/, $qout;
    my @bare = grep { $_ ne '-R' && $_ ne '0xc0000000' } @qemu;
    my ($bst, $bout) = capture(@bare, $highmem);
    print $bst == 0 ? "# without -R 0xc0000000 qemu-i386 holds it too (the option may no longer be needed)\n"
        : $bout =~ /(CHECK failed: \S+ "[^"]*AddrIsInMem[^"]*")/
                    ? "# without -R 0xc0000000: ASan $1 (the fault the option avoids)\n"
                    : "# without -R 0xc0000000: exit $bst\n";
}

# Under the emulator a slow input can take far longer than natively.
FuzzRun::test_targets(dir => $dir, prefix => \@qemu, label => 'qemu-i386: ',
                      targets => [ grep { -x "$dir/$_" } @targets ], timeout => 120,
                      no_timer => $no_timer, name_seeds => 1,
                      time => $ENV{FUZZ_TIME} // 10, jobs => $ENV{FUZZ_JOBS} // 2,
                      runs => $ENV{FUZZ_RUNS});

# --- negative control ------------------------------------------------------
if (-x "$dir/fuzz_modes_planted") {
    my $corpus = tempdir(CLEANUP => 1);
    my $arts   = tempdir(CLEANUP => 1);
    FuzzRun::write_seeds('fuzz_modes', $corpus);
    my ($r) = FuzzRun::run_all(1, {
        target => 'fuzz_modes_planted',
        cmd => [ @qemu, "$dir/fuzz_modes_planted",
                 FuzzRun::options('fuzz_modes', "$arts/planted-", $no_timer ? 0 : 120),
                 (FuzzRun::seed_inputs($corpus))[0] // (),
                 '-max_total_time=60', $corpus ], limit => 600 });
    my $s = FuzzRun::summary($r->{log_text});
    my $why = FuzzRun::why($r->{status});
    result(!$r->{overran} && defined $why && $s->{mismatch} && defined $s->{input} && -s $s->{input},
           'qemu-i386: the planted ECB fault stops fuzz_modes_planted with a MISMATCH and a saved input')
        or print map { "#   $_\n" } ("status: " . ($why // 'clean exit'),
                                     FuzzRun::report_lines($r->{log_text}));
    my ($mismatch) = $r->{log_text} =~ /^(.*: MISMATCH: .*)$/m;
    my ($impl) = $r->{log_text} =~ /^impl "([^"]+)"/m;
    print "#   reported: $mismatch\n" if defined $mismatch;
    print "#   by implementation: $impl\n" if defined $impl;
    if (defined $s->{input} && -s $s->{input}) {
        my ($pst, $pout) = capture(@qemu, "$dir/fuzz_modes_planted", $s->{input});
        result($pst != 0 && $pout =~ /: MISMATCH: /,
               'qemu-i386: the saved input fails the planted build again')
            or print "#   exit $pst\n";
        my ($st, $out) = capture(@qemu, "$dir/fuzz_modes", $s->{input});
        result($st == 0, 'qemu-i386: the saved input passes the real fuzz_modes')
            or print map { "#   $_\n" } "exit $st", FuzzRun::report_lines($out);
    }
}
finish();
