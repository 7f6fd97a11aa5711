# SPDX-License-Identifier: Apache-2.0
# CCM bulk functions for aesni-x86_64.pl, with OpenSSL's names and
# prototype (the ccm128_f of its modes.h):
#
#   void aesni_ccm64_encrypt_blocks(const unsigned char *in,
#            unsigned char *out, size_t blocks, const void *key,
#            const unsigned char ivec[16], unsigned char cmac[16]);
#   aesni_ccm64_decrypt_blocks, the same prototype.
#
# What they do, as OpenSSL's CRYPTO_ccm128_{en,de}crypt_ccm64 expect: for
# each whole block i, with the counter block ivec[0..7] ||
# (BE64(ivec[8..15]) + i mod 2^64),
#   encrypt: cmac = E(cmac ^ P[i]),  C[i] = P[i] ^ E(counter block)
#   decrypt: P[i] = C[i] ^ E(counter block),  cmac = E(cmac ^ P[i])
# cmac is read and written back; ivec is not written; blocks = 0 changes
# nothing.  key is the encryption schedule.
#
# The CBC-MAC is a serial chain, so a block costs at least Nr AES
# latencies; the counter block rides beside it, round for round, in the
# second AES unit.  The chain is only the AES instructions: MAC block i's
# last key is Klast ^ K0 ^ P[i+1], which yields block i+1's state after
# round 0 (CBC encryption's fold in aesni-x86_64.pl); the counter block's
# last key is Klast ^ P[i] (or ^ C[i]), so aesenclast gives the output.
# In decryption P[i+1] comes from the counter block of the same
# iteration, off the chain, so the out-of-order core runs it ahead.
package AESNI::CCM;
use strict;
use warnings;
use Exporter qw(import);
use AESNI::Common qw(roles width key_setup mid_rounds);
our @EXPORT_OK = qw(ccm64_functions);

# General registers by role: ivec becomes the 64-bit counter (native
# order) once loaded, key becomes K0's high 64 bits; rounds and end are
# R and END of the round helpers.
my %R = roles(in => '%rdi', out => '%rsi', len => '%rdx', key => '%rcx',
              ivec => '%r8', cmac => '%r9', rounds => '%r10', end => '%r11',
              ctr => '%r8', k0hi => '%rcx', tmp => '%rax');

sub ccm64_functions {
    my ($x, $t, $tk, $k0, $kl, $kk, $base, $u, $v) = map { "%xmm$_" } 0 .. 8;

    # The counter block for the current counter, after round 0, into $t:
    # base = ivec ^ K0, its high half replaced by BE64(counter) ^ K0[8..15].
    my $counter_block = <<___;
	mov	$R{ctr},$R{tmp}
	bswap	$R{tmp}
	xor	$R{k0hi},$R{tmp}
	movdqa	$base,$t
	pinsrq	\$1,$R{tmp},$t
	inc	$R{ctr}
___
    my $rounds = sub { mid_rounds(width(128), 'aesenc', \%R, $tk, @_) };

    # Key schedule, the constant keys and the counter.
    my $setup = key_setup(\%R, $R{key}) . <<___;
	movups	($R{key}),$k0
	movups	($R{end}),$kl
	movdqa	$k0,$kk
	pxor	$kl,$kk				# K0 ^ Klast
	mov	8($R{key}),$R{k0hi}			# K0[8..15]
	movdqu	($R{ivec}),$base
	pxor	$k0,$base
	mov	8($R{ivec}),$R{ctr}
	bswap	$R{ctr}				# the 64-bit counter
	movdqu	($R{cmac}),$x
___
    my $clear = join '', map { "\tpxor\t$_,$_\n" } $x, $t, $tk, $k0, $kl, $kk, $base, $u, $v;

    # Encryption, block i: MAC block i on $x (entered after round 0) and
    # the counter block i on $t; the MAC's last key reads P[i+1] unless
    # $last.
    my $enc_block = sub {
        my ($last) = @_;
        return $counter_block
             . "\tmovdqu\t($R{in}),$v\n\tpxor\t$kl,$v\n"
             . ($last ? '' : "\tmovdqu\t16($R{in}),$u\n\tpxor\t$kk,$u\n")
             . $rounds->($x, $t)
             . "\taesenclast\t" . ($last ? $kl : $u) . ",$x\n"
             . "\taesenclast\t$v,$t\n\tmovdqu\t$t,($R{out})\n";
    };
    # Decryption: the counter block for the input at $off(in) into
    # $off(out), alongside MAC block i on $x when @mac names it; then
    # $x gets P ^ K0 ^ Klast as its last key (state after round 0 of the
    # next MAC block).
    my $dec_block = sub {
        my ($off, @mac) = @_;
        my $s = $counter_block
              . "\tmovdqu\t$off($R{in}),$v\n\tpxor\t$kl,$v\n"
              . $rounds->(@mac, $t)
              . "\taesenclast\t$v,$t\n\tmovdqu\t$t,$off($R{out})\n";
        $s .= "\tmovdqa\t$t,$u\n\tpxor\t$kk,$u\n\taesenclast\t$u,$x\n" if @mac;
        return $s;
    };

    # Per direction: what enters the chain (MAC block 0 after round 0),
    # the loop body over blocks 0 .. n-2, and the last block.
    my %parts = (
        encrypt => [ "\tmovdqu\t($R{in}),$u\n\tpxor\t$k0,$x\n\tpxor\t$u,$x\t\t\t\t# cmac ^ P[0] ^ K0\n",
                     $enc_block->(0), $enc_block->(1) ],
        decrypt => [ $dec_block->(0) . "\tpxor\t$k0,$x\n\tpxor\t$t,$x\t\t\t\t# cmac ^ P[0] ^ K0\n",
                     $dec_block->(16, $x), $rounds->($x) . "\taesenclast\t$kl,$x\n" ],
    );
    my $text = '';
    for my $dir (qw(encrypt decrypt)) {
        my $name = "aesni_ccm64_${dir}_blocks";
        my $L = sub { ".L${name}_$_[0]" };
        my ($enter, $loop, $last) = @{ $parts{$dir} };
        $text .= <<___;

.globl	$name
.function $name, args=6, xmm=6-8
	test	$R{len},$R{len}
	jz	${\ $L->('ret') }
$setup$enter	dec	$R{len}
	jz	${\ $L->('last') }
.align	16
${\ $L->('loop') }:
$loop	lea	16($R{in}),$R{in}
	lea	16($R{out}),$R{out}
	dec	$R{len}
	jnz	${\ $L->('loop') }
${\ $L->('last') }:
$last	movdqu	$x,($R{cmac})
$clear${\ $L->('ret') }:
	.return
.endfunction
___
    }
    return $text;
}

1;
