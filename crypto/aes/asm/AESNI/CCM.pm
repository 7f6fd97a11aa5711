# SPDX-License-Identifier: Apache-2.0
# CCM bulk functions for aesni-x86_64.pl, with OpenSSL's names and
# prototype (the ccm128_f of its modes.h):
#
#   void aesni_ccm64_encrypt_blocks(const unsigned char *in,
#            unsigned char *out, size_t blocks, const void *key,
#            const unsigned char ivec[16], unsigned char cmac[16]);
#   aesni_ccm64_decrypt_blocks, the same prototype.
#
# What they do, as CRYPTO_ccm128_{en,de}crypt_ccm64 in OpenSSL's
# crypto/modes/ccm128.c expect: for each whole block i, with the counter
# block ivec[0..7] || (BE64(ivec[8..15]) + i mod 2^64),
#   encrypt: cmac = E(cmac ^ P[i]),  C[i] = P[i] ^ E(counter block)
#   decrypt: P[i] = C[i] ^ E(counter block),  cmac = E(cmac ^ P[i])
# cmac is read and written back; ivec is not written (the C glue advances
# its own copy); blocks = 0 changes nothing.  key is the encryption
# schedule (CCM never runs the inverse cipher).
#
# Speed.  The CBC-MAC is a serial chain: one block's cipher cannot start
# before the previous one ends, so a block costs at least Nr AES latencies
# (4 cycles each here).  The counter block is independent of the chain and
# rides alongside it, round for round, in the second AES unit, so CCM
# costs one chain per block.  The chain itself is only the AES
# instructions: the last round of MAC block i takes the key
# Klast ^ K0 ^ P[i+1], so it yields block i+1's state after round 0
# directly (the same fold as CBC encryption in aesni-x86_64.pl); only the
# final block ends with Klast.  The counter block's last key is
# Klast ^ P[i] (encrypt) or Klast ^ C[i] (decrypt), so that aesenclast
# gives the output block.  In decryption MAC block i needs P[i+1] for its
# last key, made by the counter block computed in the same iteration; it
# does not depend on the chain, so the out-of-order core runs it ahead.
#
# Measured (make bench BENCH_ARGS="--mode ccm", whole CCM messages with
# a 12-byte nonce, no AAD and a 16-byte tag through test/lib/ccm_glue.c,
# against OpenSSL 3.0's EVP AES-CCM in the same run; TSC cycles/byte,
# EPYC Zen 5, 16 KiB messages):
#
#               encrypt (ours / OpenSSL)     decrypt (ours / OpenSSL)
#   AES-128     1.93 / 2.07  (1.07x)         1.94 / 2.18  (1.12x)
#   AES-256     2.65 / 2.83  (1.07x)         2.66 / 2.87  (1.08x)
#
# That is Nr AES latencies per block: AES-256 costs 14/10 of AES-128.
# OpenSSL's loop has an XOR in the MAC chain besides the AES instructions.
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
