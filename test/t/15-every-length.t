#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# Every length 0..1024 through every AES implementation against the C AES
# (build/test/every_length), with OPENSSL_ia32cap unset so each
# implementation the CPU has is reached directly; then again with
# OpenSSL's Intel bit inverted, for the zmm VAES XTS code's other tweak
# loop (IntelBit.pm).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use lib "$FindBin::Bin/../../perlasm/lib";
use ImplRuns qw(result run_child finish);
use IntelBit qw(intel_flipped);

my $build = $ENV{BUILD} // 'build';
run_child('every length, every AES implementation', { OPENSSL_ia32cap => undef },
          "$build/test/every_length");
my $flipped = intel_flipped("$build/test/capdump", undef);
run_child('every length, every AES implementation, ' . IntelBit::describe($flipped)
          . " (OPENSSL_ia32cap=$flipped)", { OPENSSL_ia32cap => $flipped }, "$build/test/every_length")
    if result(defined $flipped, 'capdump gives the words with OPENSSL_ia32cap unset');
finish();
