#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# AES-CCM (build/test/ccm): NIST CAVP CCM vectors through every AES
# implementation, the aesni_ccm64_* bulk functions against a C model at
# 0..64 blocks with counters across the 64-bit wrap, and whole CCM messages
# against OpenSSL's EVP AES-CCM.  The vectors come from Debian's
# python3-cryptography-vectors (or $CCM_VECTORS); without them those
# checks SKIP.
#
# Environment: BUILD (default "build"), CCM_VECTORS, CCM_CASES, DIFF_SEED.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use ImplRuns qw(run_child finish);

my $build = $ENV{BUILD} // 'build';
run_child('AES-CCM: NIST vectors, bulk functions against a model, against OpenSSL',
          { OPENSSL_ia32cap => undef }, "$build/test/ccm");
finish();
