#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# Checks a test-vector directory against its SHA256SUMS before the tests
# read it, so a damaged or missing file stops `make test` at once, with one
# line naming it, instead of as failures scattered through the run.
#
#   perl tools/check-vectors.pl DIR
#
# Exit 0 with one summary line; exit 1 with one line naming the first bad
# file (or the missing SHA256SUMS).
use strict;
use warnings;
use Digest::SHA;

my $dir = shift // 'test/vectors';
my $sums = "$dir/SHA256SUMS";

sub fail { print STDERR "test vectors: $_[0]\n"; exit 1 }

open my $fh, '<', $sums or fail("$sums: $!");
my $n = 0;
while (my $line = <$fh>) {
    chomp $line;
    next if $line eq '';
    my ($want, $name) = $line =~ /^([0-9a-f]{64}) [ *](\S.*)$/
        or fail("$sums:$.: not a sha256sum line");
    my $path = "$dir/$name";
    -f $path or fail("$path: missing (listed in $sums)");
    my $got = Digest::SHA->new(256)->addfile($path, 'b')->hexdigest;
    $got eq $want or fail("$path: SHA-256 differs from $sums (the file was altered or damaged)");
    $n++;
}
$n or fail("$sums lists no files");
print "test vectors: $n files in $dir match SHA256SUMS\n";
