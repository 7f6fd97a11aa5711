#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# casm_aes_ctr's whole-block fast path and its fallbacks (the 2^32 and
# 2^128 counter wraps, key stream pending across calls) through every AES
# implementation against a counter mode built from the C AES block
# (build/test/ctr_stream): once with OPENSSL_ia32cap unset, so each
# implementation the CPU has is reached directly, then once under each
# registry entry's force mask (from kat_aes --list), which is what sends
# aesni's own entry points to their xmm code on a CPU with VAES.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use ImplRuns qw(registry run_child mask_env describe_mask finish);

my $build = $ENV{BUILD} // 'build';
my $bin   = "$build/test/ctr_stream";
run_child('CTR streaming and counter wraps, every AES implementation',
          { OPENSSL_ia32cap => undef }, $bin);
my %seen;
for my $impl (registry("$build/test/kat_aes")) {
    my ($name, $mask) = @$impl;
    next if !defined $mask || $seen{$mask}++;
    run_child("CTR streaming and counter wraps, as forced for $name: " . describe_mask($mask),
              mask_env($mask), $bin);
}
finish();
