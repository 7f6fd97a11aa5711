#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# A configuration change after a build rebuilds what it changes, in a
# scratch build directory: the archive's members follow AES_CORE and
# NO_ASM (whose test programs still build), new CFLAGS recompile the
# objects, and an unchanged
# configuration leaves everything up to date (make -q).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use File::Temp qw(tempdir);
use ImplRuns qw(result finish);
use Capture qw(capture);

my $root = "$FindBin::Bin/../..";
chdir $root or die "$root: $!\n";
my $build = tempdir(CLEANUP => 1);
my $lib = "$build/libcrypto-asm.a";

sub make_lib { return capture('make', '-s', "BUILD=$build", @_, $lib) }
sub members  { my (undef, $out) = capture('ar', 't', $lib); return { map { $_ => 1 } split /\n/, $out } }
sub up_to_date { my ($st) = capture('make', '-q', "BUILD=$build", @_, $lib); return $st == 0 }

my ($st, $out) = make_lib();
my $m = members();
result($st == 0 && $m->{'aes_table.o'} && !$m->{'aes_ct.o'} && $m->{'aesni-x86_64.o'},
       'default build: table core and the assembly modules') or print "#   $out";
result(up_to_date(), 'the same configuration again: up to date');

($st, $out) = make_lib('AES_CORE=ct');
$m = members();
result($st == 0 && $m->{'aes_ct.o'} && !$m->{'aes_table.o'}, 'AES_CORE=ct after it: the archive has the constant-time core')
    or print "#   $out";
result(!up_to_date(), 'back to AES_CORE=table: make sees work to do');

($st, $out) = make_lib('NO_ASM=1');
$m = members();
result($st == 0 && $m->{'sha1_block_noasm.o'} && !grep({ /x86_64/ } keys %$m), 'NO_ASM=1: no assembly module in the archive')
    or print "#   $out";

my $prog = "$build/test/aesni_keysched";
($st, $out) = capture('make', '-s', "BUILD=$build", 'NO_ASM=1', $prog);
my ($pst, $pout) = $st ? (1, '') : capture($prog);
result($st == 0 && $pst == 0 && $pout =~ /^1\.\.0 # SKIP .*NO_ASM/, 'NO_ASM=1: a test program of an assembly module builds and skips')
    or print "#   $out$pout";

make_lib();
my $obj = "$build/obj/crypto/aes/aes_core.o";
my $before = (stat $obj)[9] // 0;
sleep 1;
($st, $out) = make_lib('CFLAGS=-O1 -g');
my $after = (stat $obj)[9] // 0;
result($st == 0 && $after > $before, 'new CFLAGS: the objects are recompiled') or print "#   $out";
result(up_to_date('CFLAGS=-O1 -g') && !up_to_date(), 'and up to date for those CFLAGS only');
finish();
