# SPDX-License-Identifier: Apache-2.0
# A whole file's bytes in and out, for the tests, tools and benchmark
# scripts:
#   slurp(FILE)         -> its contents, or undef (with $! set) when it
#                          cannot be read
#   slurp_or_die(FILE)  -> its contents, or dies with "FILE: reason"
#   spew(FILE, TEXT...) writes the texts as FILE's bytes, or dies with
#                          "FILE: reason"
package Slurp;

use strict;
use warnings;
use Exporter 'import';

our @EXPORT_OK = qw(slurp slurp_or_die spew);

sub slurp {
    my ($file) = @_;
    open(my $fh, '<:raw', $file) or return undef;
    local $/;
    return scalar(<$fh>) // '';
}

sub slurp_or_die {
    my ($file) = @_;
    return slurp($file) // die "$file: $!\n";
}

sub spew {
    my ($file, @text) = @_;
    open(my $fh, '>:raw', $file) or die "$file: $!\n";
    print $fh @text;
    close $fh or die "$file: $!\n";
}

1;
