#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# Win64 ABI and unwind checkers (support/abi/abi_win64.c): runs their
# self-test, build/test/win64/selftest_win64.exe (mingw-w64 + nasm objects),
# under wine64 as an indented subtest.  SKIP when x86_64-w64-mingw32-gcc,
# nasm or wine64 is missing.  Environment: BUILD (default "build"), WINE64.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use ImplRuns qw(result finish);
use WineRun qw(wine_missing wine_subtest);

my $build = $ENV{BUILD} // 'build';
if (my @missing = wine_missing()) {
    print '1..0 # SKIP missing ', join(', ', @missing), "\n";
    exit 0;
}
my (undef, $lines, $crlf) = wine_subtest('checker self-test under wine64',
                                         "$build/test/win64/selftest_win64.exe");
result($lines > 0 && $crlf == $lines,
       "wine's console output has CRLF line endings ($crlf of $lines lines; "
       . 'stripped before reading the TAP)');
finish();
