# SPDX-License-Identifier: Apache-2.0
# A whole file's bytes, for the tests, tools and benchmark scripts:
#   slurp(FILE)         -> its contents, or undef (with $! set) when it
#                          cannot be read
#   slurp_or_die(FILE)  -> its contents, or dies with "FILE: reason"
package Slurp;

use strict;
use warnings;
use Exporter 'import';

our @EXPORT_OK = qw(slurp slurp_or_die);

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

1;
