#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# AES-NI key schedules byte-equal to OpenSSL's (build/test/aesni_keysched,
# which links OpenSSL's own aesni_set_*_key out of libcrypto.a, renamed).
# One run natively with OPENSSL_ia32cap unset; the program compares both of
# OpenSSL's schedule generators itself.  SKIP when there is no libcrypto.a
# or the CPU has no AES-NI.
#
# Environment: BUILD (default "build"), KEYSCHED_KEYS, KEYSCHED_SEED.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use ImplRuns qw(run_child finish);

my $build = $ENV{BUILD} // 'build';
run_child('aesni_set_encrypt_key / aesni_set_decrypt_key equal OpenSSL\'s, AES-128/192/256',
          { OPENSSL_ia32cap => undef }, "$build/test/aesni_keysched");
finish();
