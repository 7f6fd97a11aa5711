#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# tools/native-paths.pl, the summary `make test` ends with: which SIMD
# paths (the registry's entries that need a capability) this host runs
# natively and which it does not.  Under several OPENSSL_ia32cap masks,
# which make the host look like CPUs without AVX-512, without words 2-3
# (no AVX2, VAES, SHA-NI) or without anything:
#   - every such entry is named exactly once, as executed or not;
#   - an entry is "not executed" exactly when the test programs skip it
#     (PROG --impl NAME says "1..0 # SKIP NAME needs ..."), the library's
#     own decision, which the script does not share code with;
#   - any path not executed brings the loud "NOT EXECUTED NATIVELY" lines,
#     none brings "not executed natively: none";
# and a build directory without the programs is one error, exit non-zero.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use lib "$FindBin::Bin/../../perlasm/lib";
use Common::IA32Cap;
use ImplRuns qw(result registry set_env finish);

my $build = $ENV{BUILD} // 'build';
my $script = "$FindBin::Bin/../../tools/native-paths.pl";
my %registry = map { $_ => [ registry("$build/test/$_") ] } qw(kat_aes kat_sha1);

# Each entry that needs something, as the summary names it.
my @entries = map { my $p = $_; map { [ $p, $_->[0] ] } grep { grep { $_ } @{ $_->[2] } } @{ $registry{$p} } }
              sort keys %registry;
if (!@entries) {
    result(1, 'the summary', 'SKIP the registries have no entry that needs a capability (NO_ASM build)');
    finish();
}

my @masks = (undef, Common::IA32Cap::clear_mask('avx512f'), ':0', '0:0');
my $loud = 0;
for my $mask (@masks) {
    my $what = defined $mask ? "OPENSSL_ia32cap=$mask" : 'OPENSSL_ia32cap unset';
    local %ENV = %ENV;
    set_env({ OPENSSL_ia32cap => $mask, VECTORS => '/nonexistent' });
    my @out = `$^X $script $build 2>&1`;
    next unless result($? == 0 && @out >= 3, "$what: the summary runs") or print map { "#   $_" } @out;
    print map { "#   $_" } @out;
    my ($caps) = `$build/test/capdump` =~ /^(\S+ \S+ \S+ \S+)$/m;
    result($out[0] =~ /\(capability words \Q$caps\E\b/, "$what: it reports capdump's words ($caps)");
    my ($yes) = map { /^  executed natively on this host: (.*)$/ ? $1 : () } @out;
    my ($no) = map { /^  \*\*\* NOT EXECUTED NATIVELY on this host: (.*)$/ ? $1 : () } @out;
    my @wrong;
    for my $e (@entries) {
        my ($prog, $name) = @$e;
        my $skipped = `$build/test/$prog --impl $name 2>&1` =~ /^1\.\.0 # SKIP \Q$name\E needs /m;
        my $in_yes = () = ($yes // '') =~ /\(\Q$name\E\)/g;
        my $in_no = () = ($no // '') =~ /\(\Q$name\E: lacks [A-Z0-9 ]+\)/g;
        push @wrong, "$prog $name: the programs " . ($skipped ? 'skip' : 'run')
                     . " it; the summary names it $in_yes time(s) as executed, $in_no as not"
            unless $in_yes + $in_no == 1 && $in_no == ($skipped ? 1 : 0);
    }
    result(!@wrong, "$what: each path is named once, as not executed exactly when the programs skip it")
        or print map { "#   $_\n" } @wrong;
    if (defined $no) {
        $loud++;
        result((grep { /^  \*\*\* no test here ran these paths on hardware/ } @out) == 1,
               "$what: the paths not executed are said loudly");
    } else {
        result((grep { /^  not executed natively: none$/ } @out) == 1, "$what: nothing is said to be missing");
    }
}
result($loud > 0, "the masks exercised the \"NOT EXECUTED NATIVELY\" wording ($loud of " . scalar(@masks) . ')');

my @err = `$^X $script $build/no-such-dir 2>&1`;
result($? != 0 && @err == 1 && $err[0] =~ /capdump is missing/, 'no programs: one error naming capdump, exit non-zero')
    or print map { "#   $_" } @err;
finish();
