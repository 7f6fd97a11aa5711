#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# aesni-x86_64's fixed-width entries (NAME_vaes512, NAME_vaes256 of ECB,
# CBC decryption, CTR32, XTS and OCB) run at their width whatever the
# capability words say, while OpenSSL's names follow them.  The program
# (build/test/step/vaes_width) single-steps each call and decodes the
# widest vector instruction it executed; it runs twice:
#   - OPENSSL_ia32cap unset: each NAME_vaesW at exactly W bits, each NAME
#     at its mode's widest;
#   - OPENSSL_ia32cap clearing the wide paths' bits (AVX2, AVX-512 F/BW/VL,
#     VAES, VPCLMULQDQ; the text from `vaes_width --mask`, made from the
#     named capabilities): NAME_vaesW still at W, NAME at 128 bits at most
#     (the control that the observation tells the paths apart).
# Every entry's output also equals OpenSSL's name's.  A CPU without the
# wide paths' features is a counted SKIP.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use ImplRuns qw(result run_child finish);

my $build = $ENV{BUILD} // 'build';
my $prog  = "$build/test/step/vaes_width";
my $mask  = -x $prog ? `$prog --mask` : '';
chomp $mask;
result($mask =~ /^[~:0-9a-fx]+$/, "the wide paths' bits as an OPENSSL_ia32cap mask: '$mask'");

run_child('the fixed-width entries with the capability words as detected',
          { OPENSSL_ia32cap => undef }, $prog);
run_child("the fixed-width entries with OPENSSL_ia32cap=$mask",
          { OPENSSL_ia32cap => $mask }, $prog);
finish();
