#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# SHA-1 compression for x86_64: sha1_block_data_order with OpenSSL's name
# and ABI, choosing a variant at run time from OPENSSL_ia32cap_P:
#
#   SHA-NI (shaext) > AVX2 with BMI1+BMI2 > AVX > SSSE3 > integer (x86_64)
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
use Common::IA32Cap;
use SHA1::X86_64::Shaext qw(sha1_shaext_code);
use SHA1::X86_64::Simd qw(sha1_simd_code);
use SHA1::X86_64::Integer qw(sha1_integer_code);

X64::Module::pipe_output(@ARGV);

# OPENSSL_ia32cap_P bits the dispatcher tests: name => [word, bit].
my %BIT = Common::IA32Cap::word_bit_pairs();
# Fastest first; a variant runs when all its bits are set.  Every SIMD
# variant needs SSSE3, so clearing SSSE3 alone selects the integer code,
# as it does in OpenSSL.
my @VARIANTS = (
    [ shaext => [qw(sha ssse3)],               sub { sha1_shaext_code($_[0]) } ],
    [ avx2   => [qw(avx2 bmi1 bmi2 avx ssse3)], sub { sha1_simd_code($_[0], 'avx2') } ],
    [ avx    => [qw(avx ssse3)],         sub { sha1_simd_code($_[0], 'avx') } ],
    [ ssse3  => [qw(ssse3)],             sub { sha1_simd_code($_[0], 'ssse3') } ],
);
my $FALLBACK = [ x86_64 => [], sub { sha1_integer_code($_[0]) } ];

print <<___;
.extern	OPENSSL_ia32cap_P
.hidden	OPENSSL_ia32cap_P
.text
___

# The dispatcher: no frame, arguments untouched, a tail jump to the
# variant, so it is correct on every ABI (.type @abi-omnipotent).
print <<___;
.globl	sha1_block_data_order
.type	sha1_block_data_order,\@abi-omnipotent
.align	16
sha1_block_data_order:
.cfi_startproc
	endbranch
___
for my $v (@VARIANTS) {
    my ($name, $needs) = @$v;
    my %mask;
    $mask{ $BIT{$_}[0] } |= 1 << $BIT{$_}[1] for @$needs;
    my $skip = ".Lsha1_not_$name";
    for my $word (sort keys %mask) {
        printf "\tmov\tOPENSSL_ia32cap_P+%d(%%rip),%%eax\n", 4 * $word;
        printf "\tand\t\$0x%x,%%eax\n", $mask{$word};
        printf "\tcmp\t\$0x%x,%%eax\n", $mask{$word};
        print "\tjne\t$skip\n";
    }
    print "\tjmp\tsha1_block_data_order_$name\n$skip:\n";
}
print <<___;
	jmp	sha1_block_data_order_$FALLBACK->[0]
.cfi_endproc
.size	sha1_block_data_order,.-sha1_block_data_order
___

for my $v (@VARIANTS, $FALLBACK) {
    my ($name, undef, $code) = @$v;
    my $sym = "sha1_block_data_order_$name";
    print "\n.text\n.globl\t$sym\n.hidden\t$sym\n.align\t32\n", $code->($sym);
}

X64::Module::finish();
