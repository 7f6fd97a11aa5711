#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# Every assembly implementation of the library (each SHA-1 variant, later
# each AES path) through the ABI checker and the single-step unwind
# checker, natively on ELF and under wine64 for the mingw64 and nasm
# flavours.  Win64 runs SKIP when mingw-w64, nasm or wine64 is missing.
# Everything runs twice: as detected, and with OpenSSL's Intel bit
# inverted, for the zmm VAES XTS code's other tweak loop (IntelBit.pm).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use lib "$FindBin::Bin/../../perlasm/lib";
use ImplRuns qw(result run_child finish);
use IntelBit qw(intel_flipped);
use WineRun qw(wine_flavours);

my $build = $ENV{BUILD} // 'build';
my $flipped = intel_flipped("$build/test/capdump", undef);
result(defined $flipped, 'capdump gives the words with OPENSSL_ia32cap unset');
for my $cap (undef, $flipped // ()) {
    local $ENV{OPENSSL_ia32cap} = $cap;
    delete $ENV{OPENSSL_ia32cap} unless defined $cap;
    my $what = defined $cap ? ', ' . IntelBit::describe($cap) . " (OPENSSL_ia32cap=$cap)" : '';
    run_child("elf: assembly implementations, SysV checkers$what", {},
              "$build/test/abi/module_abi", 'elf: ');
    wine_flavours("assembly implementations, Win64 checkers$what",
                  sub { "$build/test/win64/module_abi_$_[0].exe" });
}
finish();
