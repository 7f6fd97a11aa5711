#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# Licensing a fork can rely on, and documents a newcomer can trust:
#  - LICENSE holds the Apache License 2.0, and every source file git tracks
#    (C, headers, Perl, make, shell, assembly, gnuplot) says so in an SPDX
#    line near its top;
#  - no text file git tracks (code, comments, output, documents) cites an
#    issue number;
#  - README.md, ARCHITECTURE.md and docs/*.md point at no file outside the
#    repository (but the vectors' default) and link only to files that
#    exist; every `make TARGET` the README names is one that `make help`
#    lists;
#  - README.md stays within 300 lines and ARCHITECTURE.md within 400, with
#    no line over 200 characters in either;
#  - every section of docs/performance.md that holds figures names its
#    date, its CPU (vendor, and family and model or that they were not
#    recorded) and its command (or that it was not recorded).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use ImplRuns qw(result finish);

my $root = "$FindBin::Bin/../..";
chdir $root or die "$root: $!\n";

open(my $lic, '<', 'LICENSE') or die "LICENSE: $!\n";
my $text = do { local $/; <$lic> };
close $lic;
result($text =~ /Apache License\s+Version 2\.0, January 2004/ && $text =~ /END OF TERMS AND CONDITIONS/,
       'LICENSE is the Apache License, Version 2.0, in full');

my $SOURCE = qr{(\.(c|h|pl|pm|t|mk|sh|s|S|gp|in)|(^|/)Makefile|^\.ci/run)$};
my @files = grep { /$SOURCE/ && -f } split /\0/, `git ls-files -z`;
my @lacking;
for my $f (@files) {
    open(my $fh, '<', $f) or die "$f: $!\n";
    my $head = join '', grep { defined } map { scalar <$fh> } 1 .. 5;
    close $fh;
    push @lacking, $f unless $head =~ /SPDX-License-Identifier: Apache-2\.0/;
}
result(@files > 100 && !@lacking, scalar(@files) . ' source files carry SPDX-License-Identifier: Apache-2.0')
    or print map { "#   no SPDX line: $_\n" } @lacking[0 .. ($#lacking < 19 ? $#lacking : 19)];

my @tracked = grep { -f && -T } split /\0/, `git ls-files -z`;
my @issues;
for my $f (@tracked) {
    open(my $fh, '<', $f) or die "$f: $!\n";
    while (my $line = <$fh>) {
        push @issues, "$f:$.: $1" if $line =~ /\b(issues? #?\d+)/i;
    }
}
result(@tracked > 100 && !@issues, scalar(@tracked) . ' tracked text files cite no issue numbers')
    or print map { "#   $_\n" } @issues;

# Whether a path relative to the top of the tree leaves it.
sub escapes {
    my ($path) = @_;
    my $depth = 0;
    for my $part (split m{/+}, $path) {
        next if $part eq '.' || $part eq '';
        $depth += $part eq '..' ? -1 : 1;
        return 1 if $depth < 0;
    }
    return 0;
}

# --- the documents -----------------------------------------------------------------
my @docs = ('README.md', 'ARCHITECTURE.md', glob('docs/*.md'));
my (@outside, @dead);
for my $doc (@docs) {
    open(my $fh, '<', $doc) or die "$doc: $!\n";
    (my $dir = $doc) =~ s{[^/]*$}{};
    while (my $line = <$fh>) {
        push @outside, "$doc:$.: $_" for grep { escapes("$dir$_") }
                                            $line =~ m{(?<![\w/.])(\.\./[\w./-]+)}g;
        push @outside, "$doc:$.: DESIGN.md" if $line =~ /DESIGN\.md/;
        for my $target ($line =~ /\]\(([^)#\s]+)(?:#[^)]*)?\)/g) {
            next if $target =~ m{^\w+://};
            push @dead, "$doc:$.: $target" unless -e "$dir$target";
        }
    }
    close $fh;
}
result(!@outside, 'they name no file outside the repository') or print map { "#   $_\n" } @outside;
result(!@dead, 'their links lead to files that exist') or print map { "#   $_\n" } @dead;

my $help = `make -s help 2>&1`;
my %listed = map { $_ => 1 } $help =~ /^\s{2}([a-z][\w-]*)/mg;
open(my $rd, '<', 'README.md') or die "README.md: $!\n";
my %named = map { $_ => 1 } grep { !/^[A-Z]/ } do { local $/; <$rd> } =~ /`make ([a-z][\w-]*)/g;
my @unlisted = grep { !$listed{$_} } sort keys %named;
result(keys(%named) >= 5 && !@unlisted, 'every `make TARGET` in the README (' . join(' ', sort keys %named) . ') is in make help')
    or print "#   not in make help: @unlisted\n";

my %limit = ('README.md' => 300, 'ARCHITECTURE.md' => 400);
for my $doc (sort keys %limit) {
    open(my $fh, '<', $doc) or die "$doc: $!\n";
    my @lines = <$fh>;
    close $fh;
    my @long = grep { length($lines[$_ - 1]) - 1 > 200 } 1 .. @lines;
    result(@lines <= $limit{$doc} && !@long,
           "$doc: " . scalar(@lines) . " lines (at most $limit{$doc}), none over 200 characters")
        or print map { "#   $doc:$_: " . (length($lines[$_ - 1]) - 1) . " characters\n" } @long;
}

# A section is a '##' heading and what follows up to the next one; one
# that holds a table or a code block of figures must say when, where and how.
open(my $perf, '<', 'docs/performance.md') or die "docs/performance.md: $!\n";
my @sections = split /^(?=##+ )/m, do { local $/; <$perf> };
close $perf;
my (@undated, $checked);
my $parent = '';
for my $sec (@sections) {
    my ($level, $title) = $sec =~ /^(#+) (.*)/ or next;
    # A subsection inherits what its section's heading says.
    $parent = $title if $level eq '##';
    next unless $sec =~ /^\|.*\|\s*$|^```/m;
    $checked++;
    my $text = $level eq '##' ? $sec : "$parent\n$sec";
    my @lack;
    push @lack, 'a date' unless $text =~ /\b20\d\d-\d\d-\d\d\b/;
    push @lack, 'a CPU' unless $text =~ /\b(Intel|AMD)\b/
        && $text =~ /family \d+ model \d+|family \d+\b|family\s+and\s+model\s+were\s+not\s+recorded/;
    push @lack, 'a command' unless $text =~ /```sh|`(make|build\/bench\/bench|perl) [^`]*`|commands?\s+(was|were)\s+not\s+recorded/;
    push @undated, "$title: lacks " . join(', ', @lack) if @lack;
}
result($checked && $checked >= 8 && !@undated,
       "docs/performance.md: each of its $checked sections with figures names date, CPU and command")
    or print map { "#   $_\n" } @undated;
finish();
