#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# A new variant is one line of its module's dispatch declaration and its
# code, nothing else.  The tree (git ls-files, with files not yet
# committed) is copied to a temporary directory, and sha1-x86_64 gains a
# variant "toy" there, preferred to every other and needing only SSE: the
# line in crypto/sha/asm/sha1-x86_64.dispatch and the line of
# sha1-x86_64.pl that names its code (the integer code under a new name).
# Then, with no other edit, make builds kat_sha1, and:
#  - the archive defines sha1_block_data_order_toy, global and hidden;
#  - the dispatcher sha1_block_data_order tests the toy's needs first and
#    tail-jumps to it;
#  - the generated prototypes and registry rows have it, and kat_sha1
#    lists it first, with the needs declared;
#  - kat_sha1 --impl toy passes the known answers through its fixed
#    path, and (on a CPU with SSE) the registry chooses it by default.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib", "$FindBin::Bin/../../support/perl";
use Slurp qw(spew);
use Capture qw(capture);
use File::Temp qw(tempdir);
use ImplRuns qw(result finish);

my $root = "$FindBin::Bin/../..";
my $dir  = tempdir(CLEANUP => 1);
my $tree = "$dir/tree";
$ENV{VECTORS} //= "$root/test/vectors";
$ENV{VECTORS} = "$root/$ENV{VECTORS}" unless $ENV{VECTORS} =~ m{^/};

sub slurp {
    my ($file) = @_;
    open(my $fh, '<', $file) or return '';
    local $/;
    return scalar <$fh>;
}

sub write_file {
    my ($file, $text) = @_;
    spew($file, $text);
}

sub diag { print "# $_\n" for split /\n/, $_[0] }

mkdir $tree or die "$tree: $!\n";
my ($st, $out) = capture('sh', '-c', "cd '$root' && git ls-files -z --cached --others --exclude-standard"
                         . " | xargs -0 tar cf - | tar xf - -C '$tree'");
result($st == 0 && -f "$tree/modules.txt", 'the tree is copied (git ls-files)') or do { diag($out); finish() };

# --- the variant: one declaration line, one line naming its code -------------
my $decl_file = "$tree/crypto/sha/asm/sha1-x86_64.dispatch";
my $script    = "$tree/crypto/sha/asm/sha1-x86_64.pl";
my $decl = slurp($decl_file);
my $code = slurp($script);
my $added_decl = $decl =~ s/^(variant )/variant toy needs=sse\n$1/m;
my $added_code = $code =~ s/^(my %CODE = \(\n)/$1    toy => sub { sha1_integer_code(\$_[0]) },\n/m;
result($added_decl && $added_code, 'the toy is declared first and its code named (two lines)')
    or finish();
write_file($decl_file, $decl);
write_file($script, $code);

($st, $out) = capture('nice', 'make', '-s', '-C', $tree, '-j2', 'build/test/kat_sha1', 'build/test/capdump');
result($st == 0, 'make builds kat_sha1 with the toy variant') or do { diag($out); finish() };

# --- the symbol and the dispatcher -------------------------------------------
my $obj = "$tree/build/obj/asm/sha1-x86_64.o";
my (undef, $syms) = capture('readelf', '-sW', $obj);
result($syms =~ /\bFUNC\s+GLOBAL\s+HIDDEN\s+\d+\s+sha1_block_data_order_toy$/m,
       'sha1-x86_64.o defines sha1_block_data_order_toy, global and hidden') or diag($syms);
my (undef, $dis) = capture('objdump', '-d', '--no-show-raw-insn', $obj);
my ($dispatcher) = $dis =~ /^[0-9a-f]+ <sha1_block_data_order>:\n(.*?)\n\n/ms;
my ($first) = ($dispatcher // '') =~ /\bjmp\s+[0-9a-f]+ <(\w+)>/;
my @tests = ($dispatcher // '') =~ /\b(mov\s+0x[0-9a-f]+\(%rip\),%eax|and\s+\$0x[0-9a-f]+,%eax)/g;
result(($first // '') eq 'sha1_block_data_order_toy' && @tests >= 2 && $tests[1] =~ /\$0x2000000,/,
       "the dispatcher tests SSE's bit first and tail-jumps to the toy (first jump: "
       . ($first // 'none') . ')') or diag($dispatcher // $dis);

# --- the C side ---------------------------------------------------------------
result(slurp("$tree/build/gen/variants.h") =~ /^void sha1_block_data_order_toy\(SHA_CTX \*c, /m,
       'build/gen/variants.h declares the toy');
my $rows = slurp("$tree/build/gen/registry_rows.h");
result($rows =~ /^static const struct casm_sha1_impl sha1_toy = \{\n    \.name = "toy",\n    CAPSET_NEED\(SSE\),/m
       && $rows =~ /\.block = sha1_block_data_order_toy,/
       && $rows =~ /^#define CASM_SHA1_ROWS_SHA1_X86_64 &sha1_toy, &sha1_shani,/m,
       'build/gen/registry_rows.h has the toy row first, needing SSE');
my $kat = "$tree/build/test/kat_sha1";
($st, $out) = capture($kat, '--list');
my ($top) = $out =~ /\A([^\t\n]+)/;
result($st == 0 && ($top // '') eq 'toy', "kat_sha1 --list names the toy first (first: " . ($top // 'none') . ')')
    or diag($out);
{
    local $ENV{OPENSSL_ia32cap};
    delete $ENV{OPENSSL_ia32cap};
    ($st, $out) = capture($kat, '--impl', 'toy');
    result($st == 0 && $out =~ /^ok /m && $out !~ /^not ok/m,
           'kat_sha1 --impl toy: the known answers through sha1_block_data_order_toy') or diag($out);
    my ($cst, $caps) = capture("$tree/build/test/capdump");
    my ($w0) = $caps =~ /^([0-9a-f]+)/;
    if ($cst == 0 && defined $w0 && hex($w0) & (1 << 25)) {
        ($st, $out) = capture($kat, '--impl', 'toy', '--expect-dispatch');
        result($st == 0 && $out !~ /^not ok/m, 'with SSE present the registry chooses the toy by default')
            or diag($out);
    } else {
        result(1, 'the registry chooses the toy by default', 'SKIP this CPU has no SSE');
    }
}

finish();
