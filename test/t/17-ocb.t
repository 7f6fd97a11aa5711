#!/usr/bin/perl
# OCB: RFC 7253 Appendix A, the bulk functions aesni_ocb_encrypt/decrypt
# against a C model, and a differential against OpenSSL's AES-OCB
# (build/test/ocb; see test/ocb.c).  OPENSSL_ia32cap unset, so every entry
# with OCB bulk functions that the CPU has is reached.  OCB_CASES,
# OCB_SEED pass through.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use ImplRuns qw(run_child finish);

my $build = $ENV{BUILD} // 'build';
run_child('AES-OCB through the bulk functions', { OPENSSL_ia32cap => undef },
          "$build/test/ocb");
finish();
