#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# Differential test against the system OpenSSL: test/diff_openssl through
# the dispatching API, then once per registry implementation under its
# force mask (so OpenSSL takes its equivalent path too; unset when it has
# none), the zmm VAES entry once more with OpenSSL's Intel bit inverted
# (its other XTS tweak loop; IntelBit.pm), then linked with the
# constant-time AES core.
#
# Environment: BUILD (default "build"); DIFF_SEED and DIFF_CASES pass
# through (the constant-time run takes at most 5000 cases: it is ~20x
# slower and the table core already runs the full count).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use lib "$FindBin::Bin/../../perlasm/lib";
use ImplRuns qw(result registry run_child mask_env describe_mask finish);
use IntelBit qw(run_flipped);

my $build = $ENV{BUILD} // 'build';
my $bin   = "$build/test/diff_openssl";
my $ct_cases = 5000;
$ct_cases = $ENV{DIFF_CASES}
    if defined $ENV{DIFF_CASES} && $ENV{DIFF_CASES} =~ /^\d+$/
    && $ENV{DIFF_CASES} < $ct_cases;

my @impls = registry($bin);
run_child('dispatching API, caller\'s OPENSSL_ia32cap', {}, $bin);
for my $impl (@impls) {
    my ($name, $mask) = @$impl;
    run_child("--impl $name, " . describe_mask($mask), mask_env($mask),
              $bin, '--impl', $name);
    run_flipped($name, "--impl $name", "$build/test/capdump", $mask, $bin, '--impl', $name);
}

my ($c) = grep { $_->[0] eq 'c' } @impls;
result(defined $c, 'registry has the "c" implementation');
run_child("constant-time core: --impl c, $ct_cases cases, " . describe_mask($c->[1]),
          { %{ mask_env($c->[1]) }, DIFF_CASES => $ct_cases },
          "$build/test/ct/diff_openssl", '--impl', 'c') if $c;
finish();
