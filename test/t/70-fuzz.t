#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# Runs each libFuzzer target (test/fuzz/fuzz_*.c, built into build/fuzz/ by
# test/fuzz/fuzz.mk) for a few seconds from a seed corpus generated here,
# two at a time.  One test line per target with the number of executions;
# a crash, sanitizer report or mismatch fails it and prints libFuzzer's
# output and where the failing input was saved.  SKIP when clang or its
# libFuzzer runtime is missing (then the targets are not built).  The
# seeds and the runner are test/lib/FuzzRun.pm's, shared with
# test/t/71-fuzz32.t and tools/fuzz-long.pl.
#
# Environment: BUILD (default "build"); FUZZ_TIME seconds per target
# (default 10); FUZZ_JOBS targets at once (default 2); FUZZ_RUNS, when set,
# caps each target at that many executions; FUZZ_TARGETS, a space-separated
# subset to run; FUZZ_CC (default clang).  The mutation seed is fixed
# (-seed=1), but libFuzzer's choices also depend on timing, so a failure
# is reproduced from the input it saved, not by running the test again.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use FuzzRun;
use ImplRuns qw(result finish);
use Toolchain qw(missing);

my $build = $ENV{BUILD} // 'build';

my @targets = FuzzRun::targets();
if (defined $ENV{FUZZ_TARGETS}) {
    my %known = map { $_ => 1 } @targets;
    my %want = map { $_ => 1 } split ' ', $ENV{FUZZ_TARGETS};
    die "FUZZ_TARGETS: unknown target $_\n" for grep { !$known{$_} } keys %want;
    @targets = grep { $want{$_} } @targets;
}

# The build's probe decides; with the tools there, a missing target fails.
if (defined(my $skip = missing('FUZZ'))) {
    result(1, "$_: libFuzzer run", "SKIP $skip") for @targets;
    finish();
}
result(0, "$_: $build/fuzz/$_ is missing (run make tests)")
    for grep { !-x "$build/fuzz/$_" } @targets;

FuzzRun::test_targets(dir => "$build/fuzz",
                      targets => [ grep { -x "$build/fuzz/$_" } @targets ],
                      time => $ENV{FUZZ_TIME} // 10, jobs => $ENV{FUZZ_JOBS} // 2,
                      runs => $ENV{FUZZ_RUNS});
finish();
