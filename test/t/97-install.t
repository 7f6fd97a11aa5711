#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# make install / uninstall / help, as a packager uses them:
#  - install into DESTDIR writes the archive, the headers and a pkg-config
#    file whose libdir is ${prefix}-relative, whose Libs is -L -l and whose
#    Version is the VERSION file's;
#  - a second install with another PREFIX writes that PREFIX (the file is
#    remade, not kept from the first);
#  - a program compiled and linked with `pkg-config --cflags --libs` against
#    the installed copy runs and gets FIPS-197's AES-128 example and the
#    SHA-1 of "abc" (FIPS 180) right;
#  - uninstall removes exactly the files install wrote: a file of someone
#    else's in the same directories stays;
#  - make help names the targets and variables.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib", "$FindBin::Bin/../../support/perl";
use Slurp qw(slurp);
use File::Find;
use File::Temp qw(tempdir);
use ImplRuns qw(result finish in_path);
use Capture qw(capture);

my $root = "$FindBin::Bin/../..";
chdir $root or die "$root: $!\n";
my $build = $ENV{BUILD} // 'build';
my $tmp = tempdir(CLEANUP => 1);

sub files_under {
    my ($dir) = @_;
    my @f;
    find({ wanted => sub { push @f, substr($File::Find::name, length $dir) if -f }, no_chdir => 1 }, $dir) if -d $dir;
    return sort @f;
}

# --- into a staging DESTDIR ------------------------------------------------------
my $dest = "$tmp/stage";
my ($st, $out) = capture('make', '-s', "BUILD=$build", "DESTDIR=$dest", 'PREFIX=/opt/one', 'install');
my @installed = files_under($dest);
my @want = ('/opt/one/include/perlasm-x86/cryptoasm.h', map({ "/opt/one/include/perlasm-x86/openssl/$_.h" } qw(aes modes sha)),
            '/opt/one/lib/libcrypto-asm.a', '/opt/one/lib/pkgconfig/libcrypto-asm.pc');
result($st == 0 && "@installed" eq join(' ', sort @want), 'install writes the archive, 4 headers and the .pc')
    or print "#   $out#   installed: @installed\n";
my $pc = slurp("$dest/opt/one/lib/pkgconfig/libcrypto-asm.pc") // '';
my $version = (slurp('VERSION') // '') =~ s/\n\z//r;
result($pc =~ /^prefix=\/opt\/one$/m && $pc =~ /^libdir=\$\{prefix\}\/lib$/m
       && $pc =~ /^includedir=\$\{prefix\}\/include\/perlasm-x86$/m && $pc =~ /^Libs: -L\$\{libdir\} -lcrypto-asm$/m
       && $version =~ /^\d+\.\d+\.\d+$/ && $pc =~ /^Version: \Q$version\E$/m,
       "the .pc: prefix, \${prefix}-relative libdir and includedir, Libs -L -l, Version $version")
    or print "#   $pc";

($st, $out) = capture('make', '-s', "BUILD=$build", "DESTDIR=$dest", 'PREFIX=/opt/two', 'install');
my $pc2 = slurp("$dest/opt/two/lib/pkgconfig/libcrypto-asm.pc") // '';
result($st == 0 && $pc2 =~ /^prefix=\/opt\/two$/m, 'a second install with PREFIX=/opt/two writes that prefix')
    or print "#   $out$pc2";

# Someone else's file beside ours survives uninstall.
my $theirs = "$dest/opt/one/include/perlasm-x86/openssl/theirs.h";
open(my $fh, '>', $theirs) or die "$theirs: $!\n";
close $fh;
($st, $out) = capture('make', '-s', "BUILD=$build", "DESTDIR=$dest", 'PREFIX=/opt/one', 'uninstall');
my @left = grep { m{^/opt/one/} } files_under($dest);
result($st == 0 && "@left" eq '/opt/one/include/perlasm-x86/openssl/theirs.h',
       'uninstall removes exactly what install wrote') or print "#   $out#   left: @left\n";
($st) = capture('make', '-s', "BUILD=$build", "DESTDIR=$dest", 'PREFIX=/opt/two', 'uninstall');
result($st == 0 && !-e "$dest/opt/two/include/perlasm-x86", 'uninstall of the second: its empty header directories go too');

# --- a real prefix, used through pkg-config ----------------------------------------
my $prefix = "$tmp/prefix";
($st, $out) = capture('make', '-s', "BUILD=$build", "PREFIX=$prefix", 'install');
if (!in_path('pkg-config')) {
    result(1, 'a program built with pkg-config --cflags --libs', 'SKIP pkg-config not installed (pkgconf)');
} else {
    local $ENV{PKG_CONFIG_PATH} = "$prefix/lib/pkgconfig";
    my ($pst, $flags) = capture('pkg-config', '--cflags', '--libs', 'libcrypto-asm');
    chomp $flags;
    my $src = "$tmp/user.c";
    open(my $c, '>', $src) or die "$src: $!\n";
    print $c <<'C';
#include <stdio.h>
#include <string.h>
#include <openssl/aes.h>
#include <openssl/sha.h>
int main(void)
{
    static const unsigned char key[16] = { 0x00,0x01,0x02,0x03,0x04,0x05,0x06,0x07,
                                           0x08,0x09,0x0a,0x0b,0x0c,0x0d,0x0e,0x0f };
    static const unsigned char pt[16] = { 0x00,0x11,0x22,0x33,0x44,0x55,0x66,0x77,
                                          0x88,0x99,0xaa,0xbb,0xcc,0xdd,0xee,0xff };
    unsigned char ct[16], md[SHA_DIGEST_LENGTH];
    AES_KEY k;
    if (AES_set_encrypt_key(key, 128, &k) != 0) return 2;
    AES_encrypt(pt, ct, &k);
    SHA1((const unsigned char *)"abc", 3, md);
    for (int i = 0; i < 16; i++) printf("%02x", ct[i]);
    printf(" ");
    for (int i = 0; i < SHA_DIGEST_LENGTH; i++) printf("%02x", md[i]);
    printf("\n");
    return 0;
}
C
    close $c;
    my ($cst, $cout) = capture('sh', '-c', "cc -std=c11 -o $tmp/user $src $flags");
    my ($rst, $rout) = $cst ? (1, '') : capture("$tmp/user");
    result($pst == 0 && $cst == 0 && $rst == 0
           && $rout eq "69c4e0d86a7b0430d8cdb78070b4c55a a9993e364706816aba3e25717850c26c9cd0d89d\n",
           "a program built with `pkg-config --cflags --libs` ($flags) against the installed copy")
        or print "#   $out#   $cout#   $rout";
}
capture('make', '-s', "BUILD=$build", "PREFIX=$prefix", 'uninstall');

# --- help ----------------------------------------------------------------------------
($st, $out) = capture('make', '-s', 'help');
my @missing = grep { $out !~ /^\s+\Q$_\E\b/m } qw(all test bench install uninstall dist fresh-check toolchain clean);
result($st == 0 && !@missing && $out =~ /AES_CORE/ && $out =~ /PREFIX/, 'make help lists the targets and variables')
    or print "#   missing: @missing\n";
finish();
