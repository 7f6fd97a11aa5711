#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# Every length 0..1024 through every AES implementation against the C AES
# (build/test/every_length), with OPENSSL_ia32cap unset so each
# implementation the CPU has is reached directly.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use ImplRuns qw(run_child finish);

my $build = $ENV{BUILD} // 'build';
run_child('every length, every AES implementation', { OPENSSL_ia32cap => undef },
          "$build/test/every_length");
finish();
