# SPDX-License-Identifier: Apache-2.0
# Runs a known-answer test program (test/PROG.c) for every implementation in
# its registry: under the implementation's force mask with --expect-dispatch
# (so the dispatcher's choice is checked too), or with OPENSSL_ia32cap unset
# when no mask reaches it.  With $ct, also runs build/test/ct/PROG, the same
# program linked with the constant-time AES core behind the "c" entry.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use ImplRuns qw(result registry run_child mask_env describe_mask finish);

sub kat_runs {
    my ($prog, $ct) = @_;
    my $build = $ENV{BUILD} // 'build';
    $ENV{VECTORS} //= '../shared/vectors';

    my $bin = "$build/test/$prog";
    my @entries = registry($bin);
    for my $e (@entries) {
        my ($name, $mask) = @$e;
        run_child("$prog --impl $name, " . describe_mask($mask),
                  mask_env($mask), $bin, '--impl', $name,
                  defined $mask ? '--expect-dispatch' : ());
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
