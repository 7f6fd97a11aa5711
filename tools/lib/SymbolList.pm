# SPDX-License-Identifier: Apache-2.0
package SymbolList;
# Reads a symbols file, tools/openssl-symbols/MODULE.txt: what OpenSSL 3.0
# needs from a module, one symbol a line with the OpenSSL sources that use
# it:
#     SYMBOL  USER, USER, ...
#     missing: SYMBOL  USER, ...     a known gap in our module
# Blank lines and lines starting with # are comments.  The one parser of
# these files, for tools/openssl-dropin.pl and test/t/90-symbol-parity.t.
use strict;
use warnings;
use Exporter qw(import);

our @EXPORT_OK = qw(read_symbols);

# ({symbol, users => [...], missing => 0|1}, ...) in file order; dies
# naming FILE:LINE on a line of another shape.
sub read_symbols {
    my ($file) = @_;
    open(my $fh, '<', $file) or die "$file: $!\n";
    my @rows;
    while (my $line = <$fh>) {
        next if $line =~ /^\s*(#|$)/;
        chomp $line;
        my $missing = $line =~ s/^missing:\s*// ? 1 : 0;
        my ($sym, $users) = $line =~ /^(\w+)\s+(\S.*)$/
            or die "$file:$.: want 'SYMBOL  USER, ...' or 'missing: SYMBOL  USER, ...'\n";
        push @rows, { symbol => $sym, users => [ split /,\s*/, $users ], missing => $missing };
    }
    close $fh;
    return @rows;
}

1;
