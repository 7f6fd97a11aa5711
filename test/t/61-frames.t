#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# The frame corpus (test/xlate/frame_corpus.s) translated by the 64-bit
# layer for each ABI, run through the ABI checker and the single-step
# unwind checker: natively on ELF (libunwind), and under wine64 for the
# mingw64 and nasm flavours (RtlVirtualUnwind).  Win64 runs SKIP when
# mingw-w64, nasm or wine64 is missing.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use ImplRuns qw(run_child finish);
use WineRun qw(wine_flavours);

my $build = $ENV{BUILD} // 'build';
run_child('elf: frame corpus, SysV checkers', {}, "$build/test/xlate/frames_elf", 'elf: ');
wine_flavours('frame corpus, Win64 checkers', sub { "$build/test/xlate/frames_$_[0].exe" });
finish();
