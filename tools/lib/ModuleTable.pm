# SPDX-License-Identifier: Apache-2.0
package ModuleTable;
# Reads modules.txt, the table of assembly modules (its header says what
# each column means).  Everything that lists modules reads them here:
# tools/module-table.pl (the Makefile's include, the README's table),
# tools/openssl-dropin.pl and the tests.
use strict;
use warnings;
use Exporter qw(import);

our @EXPORT_OK = qw(read_table table_path readme_table);

# Column order of a row; a list column holds comma-separated words.
my @COLUMNS = qw(name arch script helpers flavours glue fallback define symbols replaces);
my %IS_LIST = map { $_ => 1 } qw(helpers flavours glue fallback);
my %ARCHES  = map { $_ => 1 } qw(x86_64 x86);

# The table of a checkout: ROOT/modules.txt.
sub table_path { my ($root) = @_; return "$root/modules.txt" }

# The rows in file order, each a hash of the columns (lists as array
# refs, "-" as undef or []); dies naming FILE:LINE on a malformed row.
sub read_table {
    my ($file) = @_;
    open(my $fh, '<', $file) or die "$file: $!\n";
    my (@rows, %seen);
    while (my $line = <$fh>) {
        next if $line =~ /^\s*(#|$)/;
        my @f = split ' ', $line;
        die "$file:$.: want " . scalar(@COLUMNS) . " columns (@COLUMNS), found " . scalar(@f) . "\n"
            unless @f == @COLUMNS;
        my %row;
        @row{@COLUMNS} = @f;
        for my $c (@COLUMNS) {
            if ($IS_LIST{$c}) { $row{$c} = $row{$c} eq '-' ? [] : [ split /,/, $row{$c} ] }
            elsif ($row{$c} eq '-') { $row{$c} = undef }
        }
        die "$file:$.: module name '$row{name}': letters, digits, - and _ only\n"
            unless $row{name} =~ /^[A-Za-z0-9_-]+$/;
        die "$file:$.: module $row{name} appears twice\n" if $seen{ $row{name} }++;
        die "$file:$.: $row{name}: arch '$row{arch}', want x86_64 or x86\n"
            unless $ARCHES{ $row{arch} };
        for my $c (qw(script symbols replaces)) {
            die "$file:$.: $row{name}: the $c column is required\n" unless defined $row{$c};
        }
        die "$file:$.: $row{name}: define '$row{define}' is not a C macro name\n"
            if defined $row{define} && $row{define} !~ /^[A-Z_][A-Z0-9_]*$/;
        push @rows, \%row;
    }
    close $fh;
    die "$file: no modules\n" unless @rows;
    return @rows;
}

# The README's module table (Markdown), one line per module, in table
# order.
sub readme_table {
    my @rows = @_;
    my @out = ('| module | arch | our script | replaces (in OpenSSL\'s build directory) | flavours |',
               '|---|---|---|---|---|');
    push @out, sprintf('| `%s` | %s | `%s` | `%s` | %s |', $_->{name}, $_->{arch}, $_->{script},
                       $_->{replaces}, join(', ', map { "`$_`" } @{ $_->{flavours} }))
        for @rows;
    return map { "$_\n" } @out;
}

1;
