#!/usr/bin/env perl
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
use Getopt::Long qw(GetOptions);
use lib dirname(abs_path($0)) . '/lib';
use ModuleTable qw(read_table table_path readme_table);

my $ROOT  = abs_path(dirname(abs_path($0)) . '/..');
# The README part between these lines is generated.
my $BEGIN = '<!-- module table: generated from modules.txt by'
          . ' `perl tools/module-table.pl --update-readme`; do not edit -->';
my $END   = '<!-- end of module table -->';

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

sub slurp {
    my ($file) = @_;
    open(my $fh, '<', $file) or return undef;
    local $/;
    return scalar <$fh>;
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
    $text =~ s/(^\Q$BEGIN\E\n).*?(^\Q$END\E$)/$1$want$2/ms
        or die "$readme: no lines '$BEGIN' ... '$END' around the module table\n";
    return $text;
}

my %opt = (table => table_path($ROOT));
GetOptions(\%opt, 'table=s', 'make=s', 'list', 'check-readme', 'update-readme', 'readme=s', 'help')
    or usage();
usage() if $opt{help} || @ARGV
        || 1 != grep { $opt{$_} } qw(make list check-readme update-readme);

my @rows = eval { read_table($opt{table}) };
if ($@) { print STDERR "module-table: $@"; exit 1 }

if (defined $opt{make}) {
    write_if_changed($opt{make}, make_text(@rows));
} elsif ($opt{list}) {
    print "$_->{name} $_->{arch}\n" for @rows;
} else {
    my $stale = 0;
    for my $doc (defined $opt{readme} ? $opt{readme} : map { "$ROOT/$_" } qw(README.md docs/openssl-fork.md)) {
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
    exit 1 if $stale;
}
exit 0;
