#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# casm_aes_ctr's whole-block fast path and its fallbacks (the 2^32 and
# 2^128 counter wraps, key stream pending across calls) through every AES
# implementation against a counter mode built from the C AES block
# (build/test/ctr_stream), with OPENSSL_ia32cap unset so each
# implementation the CPU has is reached directly.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use ImplRuns qw(run_child finish);

my $build = $ENV{BUILD} // 'build';
run_child('CTR streaming and counter wraps, every AES implementation',
          { OPENSSL_ia32cap => undef }, "$build/test/ctr_stream");
finish();
