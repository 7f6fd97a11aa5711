#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# OCB: RFC 7253 Appendix A, the bulk functions aesni_ocb_encrypt/decrypt
# against a C model, and a differential against OpenSSL's AES-OCB
# (build/test/ocb; see test/ocb.c).  OPENSSL_ia32cap unset, so every entry
# with OCB bulk functions that the CPU has is reached (aesni_ocb_encrypt
# itself takes the widest VAES path from 16 blocks when VAES is there);
# then with VAES cleared, so the xmm code runs for every length; then the
# same under qemu-x86_64 -cpu Westmere: AES-NI without BMI1, where the
# tzcnt of the bulk functions executes as bsf (fewer random cases: qemu
# is slower).
# SKIP for that run when qemu-x86_64 (qemu-user) is missing.  OCB_CASES,
# OCB_SEED pass through.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib", "$FindBin::Bin/../../perlasm/lib";
use Common::IA32Cap;
use ImplRuns qw(result run_child finish);
use Toolchain qw(tool missing);

my $build = $ENV{BUILD} // 'build';
run_child('AES-OCB through the bulk functions', { OPENSSL_ia32cap => undef },
          "$build/test/ocb");
my $no_vaes = Common::IA32Cap::clear_mask('vaes');
run_child("AES-OCB with VAES cleared (xmm code only), OPENSSL_ia32cap=$no_vaes",
          { OPENSSL_ia32cap => $no_vaes }, "$build/test/ocb");
if (my $qemu = tool('QEMU_X86_64')) {
    run_child('AES-OCB under qemu -cpu Westmere (AES-NI, no BMI1: tzcnt runs as bsf)',
              { OPENSSL_ia32cap => undef, OCB_CASES => $ENV{OCB_CASES} // 2000 },
              $qemu, '-cpu', 'Westmere', "$build/test/ocb");
} else {
    result(1, 'AES-OCB under qemu -cpu Westmere', 'SKIP ' . missing('QEMU_X86_64'));
}
finish();
