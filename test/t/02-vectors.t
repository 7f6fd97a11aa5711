#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# The test vectors in the tree, and the check `make test` runs on them
# first (tools/check-vectors.pl): the shipped set matches its SHA256SUMS
# and the README describes every file; a copy with one byte changed, or
# one file missing, is refused with one line naming that file.
use strict;
use warnings;
use FindBin;
use File::Temp qw(tempdir);
use File::Copy qw(copy);
use File::Path qw(make_path);
use Test::More;

my $root = "$FindBin::Bin/../..";
chdir $root or die "$root: $!\n";
my $dir = 'test/vectors';

# Runs the checker on DIR; returns (exit status, stdout, stderr lines).
sub check {
    my ($d) = @_;
    my $tmp = tempdir(CLEANUP => 1);
    system("perl tools/check-vectors.pl '$d' >'$tmp/out' 2>'$tmp/err'");
    my $st = $? >> 8;
    open(my $o, '<', "$tmp/out") or die; open(my $e, '<', "$tmp/err") or die;
    return ($st, join('', <$o>), [ <$e> ]);
}

open(my $fh, '<', "$dir/SHA256SUMS") or die "$dir/SHA256SUMS: $!\n";
my @files = map { (split ' ', $_, 2)[1] =~ s/\s+$//r } grep { /\S/ } <$fh>;
close $fh;
cmp_ok(scalar @files, '>=', 49, scalar(@files) . ' files listed in SHA256SUMS');

my ($st, $out, $err) = check($dir);
is($st, 0, 'the shipped set matches SHA256SUMS');
like($out, qr/^test vectors: ${\ scalar @files} files in \Q$dir\E match SHA256SUMS$/, 'and says how many files it checked');

# Every data file in the directory is listed, and the README names each
# file or the pattern it belongs to.
my @present = sort map { s{^\Q$dir\E/}{}r } grep { -f && !m{/(SHA256SUMS|README\.md)$} } glob("$dir/*/* $dir/*/*/*");
is_deeply(\@present, [ sort @files ], 'every file in the directory is in SHA256SUMS, and no other');
open(my $rd, '<', "$dir/README.md") or die "$dir/README.md: $!\n";
my $readme = do { local $/; <$rd> };
my @unnamed = grep {
    my $f = $_;
    my $named = index($readme, "`$f`") >= 0;
    # Brace patterns such as aes/{ECB,CBC}MMT{128,192,256}.rsp.
    for my $pat ($readme =~ /`([^`]*\{[^`]*)`/g) {
        my $re = quotemeta($pat);
        $re =~ s/\\\{(.*?)\\\}/'(?:' . join('|', split m{\\,}, $1) . ')'/ge;
        $named ||= $f =~ /^$re$/;
    }
    !$named;
} @files;
is_deeply(\@unnamed, [], 'the README names the origin of every file') or diag("not named: @unnamed");

# A damaged copy: one byte changed in one file, another file missing.
my $copy = tempdir(CLEANUP => 1);
for my $f ('SHA256SUMS', @files) {
    make_path("$copy/" . ($f =~ s{[^/]*$}{}r));
    copy("$dir/$f", "$copy/$f") or die "copy $f: $!\n";
}
my $victim = $files[$#files / 2];
open(my $v, '+<', "$copy/$victim") or die; seek($v, 40, 0); print $v 'X'; close $v;
($st, $out, $err) = check($copy);
is($st, 1, "a changed byte in $victim: exit 1");
is(scalar @$err, 1, 'one line');
like($err->[0] // '', qr/^test vectors: \Q$copy\/$victim\E: SHA-256 differs/, 'naming the file');
is($out, '', 'nothing on stdout');

copy("$dir/$victim", "$copy/$victim") or die;
unlink("$copy/$files[0]") or die;
($st, $out, $err) = check($copy);
ok($st == 1 && @$err == 1 && $err->[0] =~ /\Q$files[0]\E: missing/, "$files[0] missing: one line naming it, exit 1");

# make test runs the check before anything else.
my ($first) = grep { /^test:/ } do { open(my $mk, '<', 'Makefile') or die; <$mk> };
like($first // '', qr/^test:\s*check-vectors\b/, 'make test depends on check-vectors first');

done_testing();
