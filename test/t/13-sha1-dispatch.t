#!/usr/bin/perl
# SHA-1 dispatch on CPUs this machine is not: build/test/kat_sha1 run under
# qemu-x86_64 -cpu MODEL.  For each model the capability words the library
# sees (build/test/capdump, run under the same model) decide which
# implementation must be chosen: the first in the registry whose needs are
# met.  The run checks that casm_sha1_impl() names it and that every vector
# passes through it and through the public SHA1() (sha1_block_data_order,
# the assembly dispatcher).  Natively too, with OPENSSL_ia32cap unset.
# SKIP when qemu-x86_64 (qemu-user) is missing.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use ImplRuns qw(result registry run_child finish in_path);

my $build = $ENV{BUILD} // 'build';
$ENV{VECTORS} //= '../shared/vectors';
my $kat = "$build/test/kat_sha1";
my $capdump = "$build/test/capdump";
my @entries = registry($kat);

# What the library would pick given capability words.
sub expected {
    my (@caps) = @_;
    for my $e (@entries) {
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
my $qemu = in_path('qemu-x86_64');
# Westmere: SSSE3 but no AVX; Haswell: AVX2 + BMI, no SHA-NI (if qemu's
# TCG can run them); qemu64: no SSSE3 at all, so the integer code.
push @runs, map { [ "qemu -cpu $_", [ $qemu, '-cpu', $_ ] ] } qw(Westmere Haswell qemu64)
    if $qemu;

my %picked;
for my $run (@runs) {
    my ($where, $prefix) = @$run;
    my @caps = caps_under(@$prefix);
    my $want = @caps == 4 ? expected(@caps) : undef;
    unless (result(defined $want, "$where: capability words read (" . join(' ', map { sprintf '%08x', $_ } @caps) . ')')) {
        next;
    }
    $picked{$want}++;
    run_child("$where: dispatch picks $want and all SHA-1 vectors pass",
              { OPENSSL_ia32cap => undef }, @$prefix, $kat, '--impl', $want, '--expect-dispatch');
}
if ($qemu) {
    result(keys(%picked) >= 3, 'the runs exercised at least three different implementations ('
           . join(', ', sort keys %picked) . ')');
} else {
    result(1, 'dispatch under older CPU models', 'SKIP qemu-x86_64 not installed (qemu-user)');
}
finish();
