# OCB bulk functions for aesni-x86_64.pl, with OpenSSL's names and
# prototype (the ocb128_f stream of crypto/modes/ocb128.c):
#
#   void aesni_ocb_encrypt(const unsigned char *in, unsigned char *out,
#                          size_t blocks, const void *key,
#                          size_t start_block_num, unsigned char offset_i[16],
#                          const unsigned char L_[][16],
#                          unsigned char checksum[16]);
#   aesni_ocb_decrypt: the same, with the decryption key schedule.
#
# Block j of the call (j = 0 .. blocks-1) is block i = start_block_num + j
# of the message (RFC 7253 section 4.2, i counted from 1):
#   Offset_i   = Offset_{i-1} ^ L_[ntz(i)]
#   C_i        = Offset_i ^ ENCIPHER(K, P_i ^ Offset_i)     (encrypt)
#   P_i        = Offset_i ^ DECIPHER(K, C_i ^ Offset_i)     (decrypt)
#   Checksum_i = Checksum_{i-1} ^ P_i                       (plaintext, both)
# offset_i comes in as Offset_{start-1} and goes out as the offset of the
# last block; checksum likewise.  L_ has entries 0 .. floor(log2(last i)),
# which are all that the last i can need, and only those are read.
#
# Eight blocks per group keep both AES units busy.  The offset is kept as
# W = Offset ^ K0, so one XOR whitens a block with its offset and round
# key 0 together; the last round key of block j is Offset ^ Klast =
# W ^ (K0 ^ Klast), written to the stack so aesenclast/aesdeclast apply
# the output XOR from there.  ntz(i) is tzcnt, which runs as bsf on CPUs
# without BMI1: the same result, since i is never 0.  The chain of offset
# XORs is one pxor per block, off the AES critical path.  After the groups
# of eight, groups of four, two and one finish the call, so short inputs
# are still interleaved.
use strict;
use warnings;

# Registers: rdi in, rsi out, rdx blocks left, rcx L_ (after the key
# setup), r8 the index i of the next block, r9 offset_i, r10d R, r11 END.
my ($tk, $W, $sum, $kd, $t, $u, $k0) = map { "%xmm$_" } 8 .. 14;

# One group of $n blocks (8, 4, 2 or 1); $op is aesenc or aesdec.
sub _ocb_group {
    my ($op, $n) = @_;
    my @x = map { "%xmm$_" } 0 .. $n - 1;
    my $enc = $op eq 'aesenc';
    # With one block the last round key stays in a register.
    my $lastkey = sub { $n == 1 ? $u : 16 * $_[0] . '(%rsp)' };
    my $s = '';
    for my $j (0 .. $n - 1) {
        $s .= ($j ? "\tlea\t$j(%r8),%rax\n" : "\tmov\t%r8,%rax\n")
            . "\ttzcnt\t%rax,%rax\n\tshl\t\$4,%rax\n"
            . "\tmovdqu\t(%rcx,%rax),$t\n\tpxor\t$t,$W\n"
            . "\tmovdqu\t" . 16 * $j . "(%rdi),$x[$j]\n";
        $s .= "\tpxor\t$x[$j],$sum\n" if $enc;
        $s .= "\tpxor\t$W,$x[$j]\n\tmovdqa\t$W,$u\n\tpxor\t$kd,$u\n";
        $s .= "\tmovdqa\t$u," . $lastkey->($j) . "\n" if $n > 1;
    }
    $s .= "\tadd\t\$$n,%r8\n";
    $s .= mid_rounds($op, '%r10d', '%r11', $tk, @x);
    $s .= "\t${op}last\t" . $lastkey->($_) . ",$x[$_]\n" for 0 .. $n - 1;
    for my $j (0 .. $n - 1) {
        $s .= "\tpxor\t$x[$j],$sum\n" unless $enc;
        $s .= "\tmovdqu\t$x[$j]," . 16 * $j . "(%rsi)\n";
    }
    $s .= "\tlea\t" . 16 * $n . "(%rdi),%rdi\n\tlea\t" . 16 * $n . "(%rsi),%rsi\n";
    return $s;
}

sub _ocb_function {
    my ($name, $op) = @_;
    my $L = sub { ".L${name}_$_[0]" };
    my $s = <<___;

.globl	$name
.function $name, args=8, xmm=6-14, stack=128
	test	%rdx,%rdx
	jz	${\ $L->('ret') }
${\ key_setup('%rcx', '%r10d', '%r11') }	movups	(%rcx),$k0
	movups	(%r11),$kd
	pxor	$k0,$kd
	mov	\@arg7,%rcx
	mov	\@arg8,%rax
	movdqu	(%rax),$sum
	movdqu	(%r9),$W
	pxor	$k0,$W
	sub	\$8,%rdx
	jb	${\ $L->('tail') }
.align	16
${\ $L->('loop8') }:
${\ _ocb_group($op, 8) }	sub	\$8,%rdx
	jae	${\ $L->('loop8') }
${\ $L->('tail') }:
	add	\$8,%rdx
___
    for my $n (4, 2, 1) {
        $s .= "\ttest\t\$$n,%dl\n\tjz\t${\ $L->(\"skip$n\") }\n"
            . _ocb_group($op, $n) . $L->("skip$n") . ":\n";
    }
    $s .= <<___;
	pxor	$k0,$W
	movdqu	$W,(%r9)
	mov	\@arg8,%rax
	movdqu	$sum,(%rax)
	pxor	$u,$u				# the last round keys held offsets
___
    $s .= "\tmovdqa\t$u," . 16 * $_ . "(%rsp)\n" for 0 .. 7;
    $s .= "\tpxor\t$_,$_\n" for $W, $sum, $kd, $t, $k0;
    $s .= <<___;
${\ $L->('ret') }:
	.return
.endfunction
___
    return $s;
}

sub ocb_functions {
    return _ocb_function('aesni_ocb_encrypt', 'aesenc')
         . _ocb_function('aesni_ocb_decrypt', 'aesdec');
}

1;
