#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# SysV/ELF ABI and unwind checkers (support/abi/abi_sysv.c) against the
# hand-written functions of test/abi/selftest_sysv.S: the well-behaved
# ones pass both checkers, every negative control is reported with the
# right register or instruction offset.  One subtest; the program skips
# everything, naming libunwind-dev, when built without libunwind-ptrace.
#
# Environment: BUILD (default "build"); ABI_SEED passes through (seed of
# the random register values).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use ImplRuns qw(run_child finish);

my $build = $ENV{BUILD} // 'build';
run_child('SysV ABI and unwind checker self-test', {},
          "$build/test/abi/selftest_sysv");
finish();
