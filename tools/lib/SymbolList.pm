# SPDX-License-Identifier: Apache-2.0
package SymbolList;
# Reads a symbols file, tools/openssl-symbols/MODULE.txt: what OpenSSL
# needs from a module, one symbol a line with the OpenSSL sources that use
# it:
#     SYMBOL  USER, USER, ...
#     missing: SYMBOL  USER, ...     a known gap in our module
# One file serves every OpenSSL series of SERIES.  What only some of them
# need carries the series in brackets: a user as "USER [3.5]", a symbol
# as "SYMBOL [3.5]  USER, ..." (several: "[3.0 3.5]").  Untagged, a line
# or user holds for all.  Blank lines and lines starting with # are
# comments.  The one parser of these files, for tools/openssl-dropin.pl
# and test/t/90-symbol-parity.t.
use strict;
use warnings;
use Exporter qw(import);

our @EXPORT_OK = qw(SERIES read_symbols);

# The OpenSSL release series whose needs the files record.
use constant SERIES => qw(3.0 3.5);

# ({symbol, users => [...], missing => 0|1}, ...) in file order; with
# SERIES given, only what that series needs.  Dies naming FILE:LINE on a
# line of another shape or a tag naming an unknown series.
sub read_symbols {
    my ($file, $series) = @_;
    die "read_symbols: unknown OpenSSL series '$series' (known: @{[ SERIES ]})\n"
        if defined $series && !grep { $_ eq $series } SERIES;
    open(my $fh, '<', $file) or die "$file: $!\n";
    my @rows;
    while (my $line = <$fh>) {
        next if $line =~ /^\s*(#|$)/;
        chomp $line;
        my $missing = $line =~ s/^missing:\s*// ? 1 : 0;
        my ($sym, $tag, $users) = $line =~ /^(\w+)(?:\s+\[([^\]]*)\])?\s+(\S.*)$/
            or die "$file:$.: want 'SYMBOL [SERIES]  USER, ...' or 'missing: SYMBOL  USER, ...'\n";
        next unless in_series($file, $tag, $series);
        my @users;
        for my $user (split /,\s*/, $users) {
            my $utag = $user =~ s/\s*\[([^\]]*)\]$// ? $1 : undef;
            push @users, $user if in_series($file, $utag, $series);
        }
        push @rows, { symbol => $sym, users => \@users, missing => $missing };
    }
    close $fh;
    return @rows;
}

# Whether a tag ("3.0 3.5", or undef for none) covers SERIES (undef: any).
sub in_series {
    my ($file, $tag, $series) = @_;
    return 1 unless defined $tag;
    my @named = split /[\s,]+/, $tag;
    for my $s (@named) {
        die "$file:$.: unknown OpenSSL series '$s' in [$tag] (known: @{[ SERIES ]})\n"
            unless grep { $_ eq $s } SERIES;
    }
    die "$file:$.: empty series tag []\n" unless @named;
    return !defined $series || grep { $_ eq $series } @named;
}

1;
