# SPDX-License-Identifier: Apache-2.0
# Runs a known-answer test program (test/PROG.c) for every implementation in
# its registry: under the implementation's force mask with --expect-dispatch
# (so the dispatcher's choice is checked too), or with OPENSSL_ia32cap unset
# when no mask reaches it.  With $ct, also runs build/test/ct/PROG, the same
# program linked with the constant-time AES core behind the "c" entry.
# With $both_xts_forms, each VAES entry runs once more with OpenSSL's
# Intel bit inverted (IntelBit.pm), reaching its other XTS tweak loop.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use lib "$FindBin::Bin/../../perlasm/lib";
use ImplRuns qw(result registry run_child mask_env describe_mask finish);
use IntelBit qw(run_flipped);

sub kat_runs {
    my ($prog, $ct, $both_xts_forms) = @_;
    my $build = $ENV{BUILD} // 'build';
    $ENV{VECTORS} //= 'test/vectors';

    my $bin = "$build/test/$prog";
    my @entries = registry($bin);
    for my $e (@entries) {
        my ($name, $mask) = @$e;
        run_child("$prog --impl $name, " . describe_mask($mask),
                  mask_env($mask), $bin, '--impl', $name,
                  defined $mask ? '--expect-dispatch' : ());
        run_flipped($name, "$prog --impl $name", "$build/test/capdump", $mask, $bin, '--impl', $name)
            if $both_xts_forms;
    }
    if ($ct) {
        my ($c) = grep { $_->[0] eq 'c' } @entries;
        result(defined $c, 'registry has the "c" implementation');
        run_child("constant-time core: $prog --impl c, " . describe_mask($c->[1]),
                  mask_env($c->[1]), "$build/test/ct/$prog", '--impl', 'c',
                  defined $c->[1] ? '--expect-dispatch' : ()) if $c;
    }
    finish();
}

1;
