#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# How heavy the verification kit is against the product, in lines of the
# files git tracks (prose, .md and .txt, and the test vectors' data left
# out everywhere):
#
#   product  crypto/ perlasm/ include/ tools/ mk/ Makefile, less the tools
#            that only verify (@KIT_TOOLS)
#   kit      test/ (less test/vectors/), bench/, support/ and @KIT_TOOLS
#
#   perl tools/line-ratio.pl [--verbose]    (run from the tree's root)
#
# Prints the three counts and kit/product; --verbose adds each file.
use strict;
use warnings;

# Tools that check the product rather than build, install or ship it.
my @KIT_TOOLS = qw(tools/check-vectors.pl tools/ct-report.pl tools/fresh-check.sh
    tools/fuzz-long.pl tools/install-test-deps.sh tools/native-paths.pl
    tools/openssl-xlate.pl tools/dist/run-kat.sh tools/line-ratio.pl);

my $verbose = @ARGV && $ARGV[0] eq '--verbose';
my %kit_tool = map { $_ => 1 } @KIT_TOOLS;
my @files = grep { !/\.(?:md|txt)$/ && !m{^test/vectors/} }
    split /\n/, `git ls-files crypto perlasm include tools mk Makefile test bench support`;
die "line-ratio: git ls-files found nothing (run it in the tree's root)\n" unless @files;

my (%lines, $tools);
for my $file (@files) {
    open my $fh, '<', $file or die "line-ratio: $file: $!\n";
    my $n = 0;
    $n++ while <$fh>;
    my $side = $kit_tool{$file} || $file =~ m{^(?:test|bench|support)/} ? 'kit' : 'product';
    $lines{$side} += $n;
    $tools += $n if $kit_tool{$file};
    printf "%-8s %6d %s\n", $side, $n, $file if $verbose;
}
printf "product %d lines, kit %d lines (%d of them tools that verify), kit/product %.2f\n",
    $lines{product}, $lines{kit}, $tools, $lines{kit} / $lines{product};
