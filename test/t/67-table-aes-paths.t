#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# The length where aes-x86_64 leaves its compact code for the full
# T-tables is written once (crypto/aes/AesPaths.pm):
#   - build/gen/aes_paths.h is what crypto/aes/gen_aes_paths.pl writes
#     from it (reproducible), and carries the module's value;
#   - no other file states it: aes_x86_64_ecb.c and aes_x86_64_xts_ccm.c
#     take the macro (the latter in one selector that XTS and CCM64 share)
#     and the script its Perl variable;
#   - single-stepped (build/test/step/aes_paths), ECB, AES_cbc_encrypt,
#     XTS and CCM64 run only the compact code one block below that length
#     and only the full-table code at it, so C and assembly switch at the
#     same place.
use strict;
use warnings;
use FindBin;
use File::Temp qw(tempdir);
use lib "$FindBin::Bin/../lib", "$FindBin::Bin/../../crypto/aes";
use ImplRuns qw(result run_child finish);
use AesPaths;

my $build = $ENV{BUILD} // 'build';
my $root  = "$FindBin::Bin/../..";
my $tmp   = tempdir(CLEANUP => 1);

# A file's text ('' when it cannot be read: the checks then fail).
sub text_of { open(my $fh, '<', $_[0]) or return ''; return join '', <$fh> }

my $t = $AesPaths::FULL_TABLES_FROM;
result(defined $t && $t =~ /^\d+$/ && $t > 16 && $t % 16 == 0,
       "AesPaths.pm: full tables from $t bytes, a whole number of blocks");

my $gen = "$root/crypto/aes/gen_aes_paths.pl";
my $made = system($^X, $gen, "$tmp/a.h") == 0 && system($^X, $gen, "$tmp/b.h") == 0;
my $hdr = text_of("$build/gen/aes_paths.h");
result($made && text_of("$tmp/a.h") eq text_of("$tmp/b.h") && $hdr eq text_of("$tmp/a.h"),
       "$build/gen/aes_paths.h is the generator's output, the same every run");
result($hdr =~ /^#define AES_X86_64_FULL_TABLES_FROM $t$/m, "the header's value is $t");

my $glue = text_of("$root/crypto/aes/aes_x86_64_ecb.c");
my $script = text_of("$root/crypto/aes/asm/aes-x86_64.pl");
result($glue =~ /len >= AES_X86_64_FULL_TABLES_FROM\b/ && $glue !~ /\b$t\b/,
       'aes_x86_64_ecb.c switches on the generated macro and states no length of its own');
my $modes = text_of("$root/crypto/aes/aes_x86_64_xts_ccm.c");
my @switch = $modes =~ /(\S+ >= AES_X86_64_FULL_TABLES_FROM\b(?: \/ 16)?)/g;
my @uses = $modes =~ /\bpath_for\((len \/ 16|blocks)\)/g;
result(@switch == 1 && $switch[0] eq 'blocks >= AES_X86_64_FULL_TABLES_FROM / 16'
       && (grep { $_ eq 'len / 16' } @uses) == 2 && (grep { $_ eq 'blocks' } @uses) == 2
       && $modes !~ /\b$t\b/,
       'aes_x86_64_xts_ccm.c switches in one place (path_for, in whole blocks, on the generated '
       . 'macro), XTS and CCM64 both through it, and states no length of its own')
    or print "#   switches: @switch\n#   path_for: @uses\n";
result($script =~ /cmp\s+\\\$\$AesPaths::FULL_TABLES_FROM,/,
       "aes-x86_64.pl's CBC switch compares with AesPaths.pm's length");

run_child('single-stepped, ECB, CBC, XTS and CCM64 change paths at that length',
          { OPENSSL_ia32cap => undef }, "$build/test/step/aes_paths");
finish();
