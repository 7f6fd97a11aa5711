#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# Every assembly implementation of the library (each SHA-1 variant, later
# each AES path) through the ABI checker and the single-step unwind
# checker, natively on ELF and under wine64 for the mingw64 and nasm
# flavours.  Win64 runs SKIP when mingw-w64, nasm or wine64 is missing.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use ImplRuns qw(run_child finish);
use WineRun qw(wine_flavours);

my $build = $ENV{BUILD} // 'build';
run_child('elf: assembly implementations, SysV checkers', { OPENSSL_ia32cap => undef },
          "$build/test/abi/module_abi", 'elf: ');
wine_flavours('assembly implementations, Win64 checkers', sub { "$build/test/win64/module_abi_$_[0].exe" });
finish();
