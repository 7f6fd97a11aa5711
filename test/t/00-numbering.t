#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# The scripts' names follow the numbering scheme of test/README.md, whose
# range table is read here so the scheme is written in one place:
#  - the table exists, its ranges ascend within 00-99 and do not overlap;
#  - every test/t/*.t is NN-name.t with NN inside a range;
#  - no two scripts share a number;
#  - every NN-name.t the tree mentions (docs, makefiles, comments) exists,
#    so a rename cannot leave its old name behind.
# The tree is what git tracks, or, outside a checkout, every text file but
# the build directory's.
use strict;
use warnings;
use FindBin;
use Cwd qw(abs_path);
use File::Find;
use Test::More;

my $root = abs_path("$FindBin::Bin/../..");
my $tdir = "$root/test/t";

# --- the ranges, from test/README.md ------------------------------------------
open(my $fh, '<', "$root/test/README.md") or die "test/README.md: $!\n";
my @ranges;    # [low, high, subject]
while (my $line = <$fh>) {
    push @ranges, [ $1 + 0, $2 + 0, $3 ] if $line =~ /^\|\s*(\d\d)-(\d\d)\s*\|\s*(.*?)\s*\|\s*$/;
}
close $fh;
my @bad_ranges = grep {
    my $i = $_;
    $ranges[$i][0] > $ranges[$i][1] || ($i > 0 && $ranges[$i][0] <= $ranges[$i - 1][1])
} 0 .. $#ranges;
ok(@ranges && !@bad_ranges, 'test/README.md has a range table, ascending and without overlaps')
    or diag('bad rows: ' . join(', ', map { sprintf '%02d-%02d', @{ $ranges[$_] }[0, 1] } @bad_ranges));

# --- each script's number -----------------------------------------------------
opendir(my $dh, $tdir) or die "$tdir: $!\n";
my @scripts = sort grep { /\.t\z/ } readdir $dh;
closedir $dh;
my %by_number;
for my $script (@scripts) {
    my ($n) = $script =~ /^(\d\d)-[a-z0-9]+(?:-[a-z0-9]+)*\.t\z/;
    if (!defined $n) {
        fail("$script is named NN-name.t (lower case, words joined by -)");
        next;
    }
    push @{ $by_number{$n} }, $script;
    my ($range) = grep { $_->[0] <= $n && $n <= $_->[1] } @ranges;
    ok($range, "$script: $n is in "
               . ($range ? sprintf('%02d-%02d', @$range[0, 1]) : 'no range of test/README.md'));
}
my @shared = grep { @{ $by_number{$_} } > 1 } sort keys %by_number;
ok(!@shared, 'no two scripts share a number')
    or diag(join '; ', map { "$_: @{ $by_number{$_} }" } @shared);

# --- names mentioned in the tree ----------------------------------------------
sub tracked_files {
    if (-e "$root/.git" && open(my $git, '-|', 'git', '-C', $root, 'ls-files', '-z')) {
        local $/ = "\0";
        my @files = map { chomp; "$root/$_" } <$git>;
        return @files if close $git;
    }
    my $build = abs_path($ENV{BUILD} // "$root/build") // '';
    my @files;
    find({ no_chdir => 1, wanted => sub {
        if (-d $_) {
            $File::Find::prune = 1 if $_ eq $build || (m{/\.[^/]+\z} && $_ ne $root);
            return;
        }
        push @files, $_ if -f $_ && -T $_;
    } }, $root);
    return @files;
}

my %exists = map { $_ => 1 } @scripts;
my @stale;
for my $file (sort(tracked_files())) {
    next unless -f $file && -T $file;
    open(my $in, '<', $file) or next;
    while (my $line = <$in>) {
        while ($line =~ /(?<![\w.-])(\d\d-[a-z0-9]+(?:-[a-z0-9]+)*\.t)\b/g) {
            push @stale, substr($file, length($root) + 1) . ":$.: $1" unless $exists{$1};
        }
    }
    close $in;
}
ok(!@stale, 'every NN-name.t the tree mentions is a script in test/t')
    or diag(join "\n", @stale);

done_testing();
