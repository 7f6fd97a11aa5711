#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# What modules.txt says, in the forms the rest of the tree reads:
#
#   perl tools/module-table.pl --make FILE      make variables (the Makefile
#                                               includes FILE), rewritten
#                                               only when they change
#   perl tools/module-table.pl --list           name and arch, one a line
#   perl tools/module-table.pl --check-readme   exit 1 unless the module
#                                               tables of README.md and
#                                               docs/openssl-fork.md are
#                                               the table's
#   perl tools/module-table.pl --update-readme  rewrite those parts
#
# --table FILE reads another table, --readme FILE checks or updates only
# that file.
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use Getopt::Long qw(GetOptionsFromArray);
use lib dirname(abs_path($0)) . '/lib', dirname(abs_path($0)) . '/../support/perl';
use Slurp qw(slurp);
use ModuleTable qw(read_table table_path readme_table);

# The documents' part between these lines is generated.
use constant BEGIN_LINE => '<!-- module table: generated from modules.txt by'
                         . ' `perl tools/module-table.pl --update-readme`; do not edit -->';
use constant END_LINE   => '<!-- end of module table -->';
# The documents that show the table.
use constant DOCS => qw(README.md docs/openssl-fork.md);

exit main(@ARGV);

sub usage {
    print STDERR "usage: $0 [--table FILE] (--make FILE | --list | --check-readme"
               . " | --update-readme) [--readme FILE]\n";
    exit 2;
}

# Make variables, one assignment a line.  Helper globs become $(wildcard),
# so a new helper file is picked up without editing the table.
sub make_text {
    my @rows = @_;
    my @out = ('# Generated from modules.txt by tools/module-table.pl --make; do not edit.');
    push @out, 'TABLE_MODULES := ' . join(' ', map { $_->{name} } @rows);
    for my $arch (qw(x86_64 x86)) {
        push @out, "TABLE_MODULES_$arch := " . join(' ', map { $_->{arch} eq $arch ? $_->{name} : () } @rows);
    }
    for my $r (@rows) {
        my $n = $r->{name};
        my @helpers = map { /[*?[]/ ? "\$(wildcard $_)" : $_ } @{ $r->{helpers} };
        # The script's dispatch declaration, when it has one
        # (perlasm/lib/Common/Dispatch.pm), is read like a helper.
        push @helpers, '$(wildcard ' . ($r->{script} =~ s/\.pl$/.dispatch/r) . ')';
        push @out, "MODULE_$n := " . join(' ', $r->{script}, @helpers),
                   "MODULE_ARCH_$n := $r->{arch}",
                   "MODULE_FLAVOURS_$n := @{ $r->{flavours} }",
                   "MODULE_GLUE_$n := @{ $r->{glue} }",
                   "MODULE_FALLBACK_$n := @{ $r->{fallback} }",
                   'MODULE_DEFINE_' . $n . ' := ' . ($r->{define} // ''),
                   "MODULE_SYMBOLS_$n := $r->{symbols}",
                   "MODULE_REPLACES_$n := $r->{replaces}";
    }
    return join '', map { "$_\n" } @out;
}

sub write_if_changed {
    my ($file, $text) = @_;
    return if (slurp($file) // '') eq $text;
    open(my $fh, '>', "$file.tmp") or die "$file.tmp: $!\n";
    print $fh $text;
    close $fh or die "$file.tmp: $!\n";
    rename "$file.tmp", $file or die "$file: $!\n";
}

# README text with its generated part replaced by WANT; dies if the
# markers are missing.
sub readme_with {
    my ($readme, $text, $want) = @_;
    my ($begin, $end) = (BEGIN_LINE, END_LINE);
    $text =~ s/(^\Q$begin\E\n).*?(^\Q$end\E$)/$1$want$2/ms
        or die "$readme: no lines '$begin' ... '$end' around the module table\n";
    return $text;
}

sub main {
    my @argv = @_;
    my $root = abs_path(dirname(abs_path($0)) . '/..');
    my %opt = (table => table_path($root));
    GetOptionsFromArray(\@argv, \%opt, 'table=s', 'make=s', 'list', 'check-readme', 'update-readme',
                        'readme=s', 'help')
        or usage();
    usage() if $opt{help} || @argv
            || 1 != grep { defined $opt{$_} } qw(make list check-readme update-readme);

    my @rows = eval { read_table($opt{table}) };
    if ($@) { print STDERR "module-table: $@"; return 1 }

    if (defined $opt{make}) {
        write_if_changed($opt{make}, make_text(@rows));
        return 0;
    }
    if ($opt{list}) {
        print "$_->{name} $_->{arch}\n" for @rows;
        return 0;
    }
    my $stale = 0;
    for my $doc (defined $opt{readme} ? $opt{readme} : map { "$root/$_" } DOCS) {
        my $text = slurp($doc) // die "$doc: $!\n";
        my $want = readme_with($doc, $text, join('', readme_table(@rows)));
        if ($opt{'update-readme'}) {
            write_if_changed($doc, $want);
        } elsif ($want ne $text) {
            print STDERR "module-table: the module table of $doc is not modules.txt's;"
                       . " run perl tools/module-table.pl --update-readme\n";
            $stale = 1;
        }
    }
    return $stale;
}
