#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# SHA-1 compression for x86_64: sha1_block_data_order with OpenSSL's name
# and ABI, choosing a variant at run time from the CPU's capabilities:
#
#   SHA-NI (shaext) > AVX2 with BMI1+BMI2 > AVX > SSSE3 > integer
#
# Each variant is also a global hidden symbol, sha1_block_data_order_<v>,
# so tests and the benchmark call every one directly.  The variants live
# in SHA1/X86_64/ (one package each; see its README): this file only puts
# them together.
#
#   perl crypto/sha/asm/sha1-x86_64.pl FLAVOUR OUTPUT
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../../../perlasm/lib", $FindBin::Bin;
use X64::Module;
use Common::Dispatch;
use X64::Dispatch;
use SHA1::X86_64::Shaext qw(sha1_shaext_code);
use SHA1::X86_64::Simd qw(sha1_simd_code);
use SHA1::X86_64::Integer qw(sha1_integer_code);

X64::Module::pipe_output(@ARGV);

# The variants, their needs and their order are declared in
# sha1-x86_64.dispatch; the layer writes the dispatcher from it.
my $DECL = Common::Dispatch::for_script(__FILE__);
my $ENTRY = 'sha1_block_data_order';
my %CODE = (
    shaext  => sub { sha1_shaext_code($_[0]) },
    avx2    => sub { sha1_simd_code($_[0], 'avx2') },
    avx     => sub { sha1_simd_code($_[0], 'avx') },
    ssse3   => sub { sha1_simd_code($_[0], 'ssse3') },
    integer => sub { sha1_integer_code($_[0]) },
);

print X64::Dispatch::extern_caps(), ".text\n", X64::Dispatch::tail_dispatcher($DECL, $ENTRY, '%eax');
for my $v ($DECL->entry_variants($ENTRY)) {
    my $code = $CODE{ $v->{name} } // die "$0: no code for the declared variant $v->{name}\n";
    print "\n.text\n", X64::Dispatch::fixed_head($DECL, $ENTRY, $v->{name}), ".align\t32\n",
        $code->($DECL->fixed_symbol($ENTRY, $v->{name}));
}

X64::Module::finish();
