#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# Dispatch on CPUs this machine is not: build/test/kat_sha1 and kat_aes run
# under qemu-x86_64 -cpu MODEL.  For each model the capability words the
# library sees (build/test/capdump, run under the same model) decide which
# implementation must be chosen: the first in the registry whose needs are
# met.  Each run checks that the dispatcher names it and that every vector
# passes through it and through the public entry points (SHA1() over the
# assembly sha1_block_data_order; AES_* when that implementation provides
# them).  Natively too, with OPENSSL_ia32cap unset.  SKIP when
# qemu-x86_64 (qemu-user) is missing.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use ImplRuns qw(result registry run_child finish);
use Toolchain qw(tool missing);

my $build = $ENV{BUILD} // 'build';
$ENV{VECTORS} //= '../shared/vectors';
my $capdump = "$build/test/capdump";
my %registry = map { $_ => [ registry("$build/test/$_") ] } qw(kat_sha1 kat_aes);

# What the library would pick given capability words.
sub expected {
    my ($prog, @caps) = @_;
    for my $e (@{ $registry{$prog} }) {
        my @need = @{ $e->[2] };
        return $e->[0] unless grep { ($caps[$_] & $need[$_]) != $need[$_] } 0 .. $#need;
    }
    return undef;
}

sub caps_under {
    my (@prefix) = @_;
    local $ENV{OPENSSL_ia32cap};
    delete $ENV{OPENSSL_ia32cap};
    my $out = `@prefix $capdump 2>/dev/null`;
    return map { hex } split ' ', ($out // '');
}

my @runs = ([ 'native', [] ]);
my $qemu = tool('QEMU_X86_64');
# Westmere: SSSE3 and AES-NI, no AVX; Haswell: AVX2 + BMI, no SHA-NI and
# no VAES (if qemu's TCG can run them); qemu64: no SSSE3 and no AES-NI, so
# the integer SHA-1 and the table AES.
push @runs, map { [ "qemu -cpu $_", [ $qemu, '-cpu', $_ ] ] } qw(Westmere Haswell qemu64)
    if $qemu;

my %picked;
for my $run (@runs) {
    my ($where, $prefix) = @$run;
    my @caps = caps_under(@$prefix);
    next unless result(@caps == 4, "$where: capability words read ("
                       . join(' ', map { sprintf '%08x', $_ } @caps) . ')');
    for my $prog (qw(kat_sha1 kat_aes)) {
        my $want = expected($prog, @caps);
        next unless result(defined $want, "$where: $prog has an implementation for this CPU");
        $picked{$prog}{$want}++;
        run_child("$where: $prog dispatch picks $want and all vectors pass",
                  { OPENSSL_ia32cap => undef }, @$prefix, "$build/test/$prog",
                  '--impl', $want, '--expect-dispatch');
    }
}
if ($qemu) {
    for my $prog (qw(kat_sha1 kat_aes)) {
        my @seen = sort keys %{ $picked{$prog} // {} };
        result(@seen >= 3, "$prog: the runs exercised at least three implementations (@seen)");
    }
} else {
    result(1, 'dispatch under older CPU models', 'SKIP ' . missing('QEMU_X86_64'));
}
finish();
