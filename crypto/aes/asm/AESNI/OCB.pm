# SPDX-License-Identifier: Apache-2.0
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
# W = Offset ^ K0 (one XOR whitens a block with both); block j's last key
# is W ^ (K0 ^ Klast), on the stack, so aesenclast applies the output XOR.
# ntz(i) is tzcnt (bsf without BMI1: the same, i is never 0).  Groups of
# four, two and one finish the call.  VAES: from 16 blocks on, groups of
# eight registers, two blocks a register (ymm, AVX2) or four (zmm,
# AVX-512 F/BW/VL), offsets from a per-call table (_ocb_wide), the
# checksum per lane, folded before the xmm code takes the rest; the
# hidden aesni_ocb_{en,de}crypt_vaes512 and _vaes256 always take their
# width (the zmm one hands what no zmm group takes to the ymm code), and
# NAME_xmm never does, for the tests and the registry.
package AESNI::OCB;
use strict;
use warnings;
use Exporter qw(import);
use AESNI::Common qw(roles width key_setup mid_rounds);
use AESNI::VAES qw(vaes_entries vaes_select);
our @EXPORT_OK = qw(ocb_functions);

# General registers by role: key becomes the L_ table after the key
# setup, index is i of the next block (start_block_num on entry), offset
# is offset_i; rounds and end are R and END of the round helpers.
my %R = roles(in => '%rdi', out => '%rsi', len => '%rdx', key => '%rcx',
              ltab => '%rcx', index => '%r8', offset => '%r9',
              rounds => '%r10', end => '%r11', tmp => '%rax',
              csum => '%rcx');            # &checksum, briefly, before ltab
# Vector registers by number, so the ymm path can name the same ones:
# offk0 holds Offset ^ K0, kd K0 ^ Klast, sum the checksum.
my %V = (tk => 8, offk0 => 9, sum => 10, kd => 11, t => 12, u => 13, k0 => 14, wtmp => 15);
my $XMM = width(128);
my ($tk, $offk0, $sum, $kd, $t, $u, $k0) = map { "%xmm$V{$_}" } qw(tk offk0 sum kd t u k0);

# One group of $n blocks (8, 4, 2 or 1); $op is aesenc or aesdec.
sub _ocb_group {
    my ($op, $n) = @_;
    my @x = map { "%xmm$_" } 0 .. $n - 1;
    my $enc = $op eq 'aesenc';
    # With one block the last round key stays in a register.
    my $lastkey = sub { $n == 1 ? $u : 16 * $_[0] . '(%rsp)' };
    my $s = '';
    for my $j (0 .. $n - 1) {
        $s .= ($j ? "\tlea\t$j($R{index}),$R{tmp}\n" : "\tmov\t$R{index},$R{tmp}\n")
            . "\ttzcnt\t$R{tmp},$R{tmp}\n\tshl\t\$4,$R{tmp}\n"
            . "\tmovdqu\t($R{ltab},$R{tmp}),$t\n\tpxor\t$t,$offk0\n"
            . "\tmovdqu\t" . 16 * $j . "($R{in}),$x[$j]\n";
        $s .= "\tpxor\t$x[$j],$sum\n" if $enc;
        $s .= "\tpxor\t$offk0,$x[$j]\n\tmovdqa\t$offk0,$u\n\tpxor\t$kd,$u\n";
        $s .= "\tmovdqa\t$u," . $lastkey->($j) . "\n" if $n > 1;
    }
    $s .= "\tadd\t\$$n,$R{index}\n";
    $s .= mid_rounds($XMM, $op, \%R, $tk, @x);
    $s .= "\t${op}last\t" . $lastkey->($_) . ",$x[$_]\n" for 0 .. $n - 1;
    for my $j (0 .. $n - 1) {
        $s .= "\tpxor\t$x[$j],$sum\n" unless $enc;
        $s .= "\tmovdqu\t$x[$j]," . 16 * $j . "($R{out})\n";
    }
    $s .= "\tlea\t" . 16 * $n . "($R{in}),$R{in}\n\tlea\t" . 16 * $n . "($R{out}),$R{out}\n";
    return $s;
}

# Stack: last round keys at 0 (16 bytes per block, 32 per ymm pair),
# the ymm path's offset table at $DP, and at $RESUME the blocks the ymm
# path takes back after an xmm head, at $RESUME + 8 the zmm path's (0:
# none).
my ($DP, $RESUME) = (256, 512);

# The wide paths.  Groups of G = 8 nb blocks (16 on ymm, 32 on zmm)
# start at a block i = 1 mod G, where ntz(i + j) = ntz(j + 1) for
# j < G - 1: the offsets of blocks 0..G-2 of a group are P ^ X_j with P
# the offset before the group and the fixed
# X_j = L_[ntz(1)] ^ ... ^ L_[ntz(j + 1)], kept a register's lanes
# together (X_{G-2} twice in the last), so each register costs one XOR;
# only block G-1 needs tzcnt.  What the groups cannot take goes to the
# next narrower code (the ymm section's to the xmm code, the zmm
# section's to the ymm section, which takes a group of sixteen where it
# can): the head (the blocks before the first such i, < G), after which
# the xmm code comes back through the width's resume slot; the rest
# (< G) after the groups; calls too short for a group after their head.
# Registers: 0-7 blocks, tk round keys, offk0 in every lane (its low
# lane is the xmm code's), sum per lane, kd in every lane, t, u and wtmp
# temporaries; k0 (xmm only) is the xmm code's K0, untouched here.
sub _ocb_wide {
    my ($width, $op, $L) = @_;
    my $g = 8 * $width->{nb};
    my $tag = $width->{bits} == 256 ? '' : $width->{bits};
    my $resume = $RESUME + ($tag ? 8 : 0);
    my ($none, $again) = map { $L->("$_$tag") } qw(wnone wa);
    my $after = $tag ? $L->('w256') : $L->('x');
    my $s = <<___;
${\ $L->("w$width->{bits}") }:
	lea	-1($R{index}),$R{tmp}
	neg	$R{tmp}
	and	\$${\ ($g - 1) },$R{tmp32}			# the head
	sub	$R{tmp},$R{len}
	jb	$none
	cmp	\$$g,$R{len}
	jb	$none
	mov	$R{len},$resume(%rsp)
	mov	$R{tmp},$R{len}
	test	$R{len},$R{len}
	jnz	$after
$again:
	mov	$resume(%rsp),$R{len}
	movq	\$0,$resume(%rsp)
___
    $s .= $tag ? _ocb_groups512($width, $op, $L) : _ocb_groups256($width, $op, $L);
    $s .= <<___;
	jmp	$after
$none:
	add	$R{tmp},$R{len}
	jmp	$after
___
    return $s;
}

# The ymm groups: offsets in pairs at $DP, the last round keys in the
# frame (registers 0-15 are all VEX can name).
sub _ocb_groups256 {
    my ($width, $op, $L) = @_;
    my $y = sub { "%$width->{v}$V{$_[0]}" };
    my @v = map { "%$width->{v}$_" } 0 .. 7;
    my ($offk0_w, $sum_w, $kd_w, $lnext_w, $prev_w, $off_w) = map { $y->($_) } qw(offk0 sum kd t u wtmp);
    my $enc = $op eq 'aesenc';
    my $loop = $L->('wloop');
    my $s = <<___;
	vmovdqu	($R{ltab}),$t			# X_0 .. X_14
	vmovdqu	$t,$DP(%rsp)
___
    for my $j (1 .. 14) {
        $s .= "\tvpxor\t" . 16 * _ntz($j + 1) . "($R{ltab}),$t,$t\n\tvmovdqu\t$t," . ($DP + 16 * $j) . "(%rsp)\n";
    }
    $s .= "\tvmovdqu\t$t," . ($DP + 240) . "(%rsp)\n" . _ocb_loop_start($width, $loop);
    for my $k (0 .. 7) {
        if ($k < 7) {
            $s .= "\tvpxor\t" . ($DP + 32 * $k) . "(%rsp),$offk0_w,$off_w\n";
        } else {                  # block 15: the one ntz that varies
            $s .= "\tlea\t15($R{index}),$R{tmp}\n\ttzcnt\t$R{tmp},$R{tmp}\n\tshl\t\$4,$R{tmp}\n"
                . "\tvbroadcasti128\t($R{ltab},$R{tmp}),$lnext_w\n"
                . "\tvpxor\t" . ($DP + 224) . "(%rsp),$offk0_w,$prev_w\n"
                . "\tvpxor\t$lnext_w,$prev_w,$offk0_w\n"
                . "\tvpblendd\t\$0xf0,$offk0_w,$prev_w,$off_w\n";
        }
        $s .= "\tvmovdqu\t" . 32 * $k . "($R{in}),$v[$k]\n";
        $s .= "\tvpxor\t$v[$k],$sum_w,$sum_w\n" if $enc;
        $s .= "\tvpxor\t$off_w,$v[$k],$v[$k]\n\tvpxor\t$kd_w,$off_w,$off_w\n"
            . "\tvmovdqu\t$off_w," . 32 * $k . "(%rsp)\n";
    }
    $s .= "\tadd\t\$16,$R{index}\n";
    $s .= mid_rounds($width, $op, \%R, $y->('tk'), @v);
    $s .= "\tv${op}last\t" . 32 * $_ . "(%rsp),$v[$_],$v[$_]\n" for 0 .. 7;
    for my $k (0 .. 7) {
        $s .= "\tvpxor\t$v[$k],$sum_w,$sum_w\n" unless $enc;
        $s .= "\tvmovdqu\t$v[$k]," . 32 * $k . "($R{out})\n";
    }
    $s .= _ocb_loop_end($width, $loop)
        . "\tvpxor\t$off_w,$off_w,$off_w\t\t# the upper key slots and the table\n";
    $s .= "\tvmovdqu\t$off_w," . $_ . "(%rsp)\n" for map { 128 + 32 * $_ } 0 .. 11;
    return "$s\tvzeroupper\n";
}

# The zmm groups.  EVEX names registers 16-31 (caller-saved on both
# ABIs): the table X_0 .. X_30 stays in 24-31 and each register's last
# round key (its offsets ^ Klast) in 16-23, so the loop stores nothing
# but output and reads nothing but input and round keys.  Each register
# takes two ternary ops: block ^ (P ^ K0) ^ X, and (P ^ K0 ^ Kd) ^ X
# with P ^ K0 ^ Kd made once a group.  The checksum takes one ternary
# op per two registers.  Register 7 is X_28, X_29, X_30, X_30 ^ L_[ntz]:
# its fourth lane is the next group's P, broadcast from it.  Every
# register that held offsets or L_ entries is cleared after the loop.
sub _ocb_groups512 {
    my ($width, $op, $L) = @_;
    my $z = sub { "%$width->{v}$_[0]" };
    my @v = map { $z->($_) } 0 .. 7;
    my @lk = map { $z->($_) } 16 .. 23;
    my @tab = map { $z->($_) } 24 .. 31;
    my ($offk0_w, $sum_w, $kd_w, $lnext_w, $kdoff_w, $off_w) = map { $z->($V{$_}) } qw(offk0 sum kd t u wtmp);
    my ($xor, $mov) = @$width{qw(xor mov)};
    my $enc = $op eq 'aesenc';
    my $loop = $L->('wloop512');
    my $s = "\tvmovdqu\t($R{ltab}),$t\t\t\t# X_0 .. X_30\n\tvinserti32x4\t\$0,$t,$tab[0],$tab[0]\n";
    for my $j (1 .. 30) {
        $s .= "\tvpxor\t" . 16 * _ntz($j + 1) . "($R{ltab}),$t,$t\n"
            . "\tvinserti32x4\t\$" . $j % 4 . ",$t,$tab[$j >> 2],$tab[$j >> 2]\n";
    }
    $s .= "\tvinserti32x4\t\$3,$t,$tab[7],$tab[7]\n" . _ocb_loop_start($width, $loop)
        . "\t$xor\t$kd_w,$offk0_w,$kdoff_w\n";
    for my $p (0 .. 3) {
        my ($a, $b) = (2 * $p, 2 * $p + 1);
        $s .= "\t$mov\t" . 64 * $_ . "($R{in}),$v[$_]\n" for $a, $b;
        $s .= "\tvpternlogq\t\$0x96,$v[$b],$v[$a],$sum_w\n" if $enc;
        for my $k ($a, $b) {
            if ($k < 7) {
                $s .= "\tvpternlogq\t\$0x96,$tab[$k],$offk0_w,$v[$k]\n\t$xor\t$tab[$k],$kdoff_w,$lk[$k]\n";
                next;
            }
            # block 31: the one ntz that varies
            $s .= "\tlea\t31($R{index}),$R{tmp}\n\ttzcnt\t$R{tmp},$R{tmp}\n\tshl\t\$4,$R{tmp}\n"
                . "\t$width->{bcast}\t($R{ltab},$R{tmp}),$lnext_w\n"
                . "\t$xor\t$tab[7],$offk0_w,$off_w\n"
                . "\tvshufi32x4\t\$0xff,$off_w,$off_w,$kdoff_w\n"
                . "\t$xor\t$lnext_w,$kdoff_w,$offk0_w\n"
                . "\tvinserti32x4\t\$3,$offk0,$off_w,$off_w\n"
                . "\t$xor\t$off_w,$v[$k],$v[$k]\n\t$xor\t$kd_w,$off_w,$lk[$k]\n";
        }
    }
    $s .= "\tadd\t\$32,$R{index}\n";
    $s .= mid_rounds($width, $op, \%R, $z->($V{tk}), @v);
    $s .= "\tv${op}last\t$lk[$_],$v[$_],$v[$_]\n" for 0 .. 7;
    $s .= "\tvpternlogq\t\$0x96,$v[2 * $_ + 1],$v[2 * $_],$sum_w\n" for $enc ? () : 0 .. 3;
    $s .= "\t$mov\t$v[$_]," . 64 * $_ . "($R{out})\n" for 0 .. 7;
    $s .= _ocb_loop_end($width, $loop);
    $s .= "\tvpxord\t$_,$_,$_\n" for $off_w, @lk, @tab;
    return "$s\tvzeroupper\n";
}

# Before a wide loop: offk0 and kd in every lane, the checksum's upper
# lanes cleared, len counted down by a group.
sub _ocb_loop_start {
    my ($width, $loop) = @_;
    my $g = 8 * $width->{nb};
    my @s;
    for my $n (@V{qw(offk0 sum kd)}) {
        my ($x, $w) = ("%xmm$n", "%$width->{v}$n");
        push @s, $n == $V{sum} ? "vmovdqa\t$x,$x\t\t\t# clear the upper lane" . ($g > 16 ? 's' : '')
               : $g > 16       ? "vshufi32x4\t\$0,$w,$w,$w"
               :                 "vinserti128\t\$1,$x,$w,$w";
    }
    return join('', map { "\t$_\n" } @s, "sub\t\$$g,$R{len}") . ".align\t32\n$loop:\n";
}

# A wide loop's branch back to $loop, then the checksum's lanes folded
# into the xmm code's.
sub _ocb_loop_end {
    my ($width, $loop) = @_;
    my ($g, $bytes) = (8 * $width->{nb}, 8 * $width->{vb});
    my %r = map { my $n = $V{$_}; ($_ => [ map { "%${_}mm$n" } qw(x y z) ]) } qw(t sum);
    my $s = "\tlea\t$bytes($R{in}),$R{in}\n\tlea\t$bytes($R{out}),$R{out}\n"
          . "\tsub\t\$$g,$R{len}\n\tjae\t$loop\n\tadd\t\$$g,$R{len}\n";
    $s .= "\tvextracti64x4\t\$1,$r{sum}[2],$r{t}[1]\n\tvpxor\t$r{t}[1],$r{sum}[1],$r{sum}[1]\n"
        if $width->{bits} == 512;
    return $s . "\tvextracti128\t\$1,$r{sum}[1],$r{t}[0]\n\tvpxor\t$r{t}[0],$r{sum}[0],$r{sum}[0]\n";
}

# The number of trailing zero bits of $n > 0.
sub _ntz {
    my ($n) = @_;
    my $ntz = 0;
    $ntz++ until $n >> $ntz & 1;
    return $ntz;
}

# One function per direction, NAME_body, behind the entry points NAME,
# NAME_vaes512, NAME_vaes256 and NAME_xmm (vaes_entries); rax carries the
# width asked for up to vaes_select, so nothing before it writes rax.
# Returns the body up to its zmm section, a sub writing that section,
# and the rest (see ocb_functions).
sub _ocb_function {
    my ($name, $op) = @_;
    my $body = "${name}_body";
    my $L = sub { ".L${name}_$_[0]" };
    my %wide_entry = map { $_ => $L->("w$_") } 512, 256;
    my $select = vaes_select(name => $name, entries => \%wide_entry, count => $R{len},
                             xmm => $L->('x'));
    my $s = vaes_entries($name, $body) . <<___;
.function $body, args=8, xmm=6-15, stack=${\ ($RESUME + 16) }
	test	$R{len},$R{len}
	jz	${\ $L->('ret') }
${\ key_setup(\%R, $R{key}) }	movups	($R{key}),$k0
	movups	($R{end}),$kd
	pxor	$k0,$kd
	mov	\@arg8,$R{csum}
	movdqu	($R{csum}),$sum
	mov	\@arg7,$R{ltab}
	movdqu	($R{offset}),$offk0
	pxor	$k0,$offk0
	movq	\$0,$RESUME(%rsp)
	movq	\$0,${\ ($RESUME + 8) }(%rsp)
$select	sub	\$8,$R{len}
	jb	${\ $L->('tail') }
.align	16
${\ $L->('loop8') }:
${\ _ocb_group($op, 8) }	sub	\$8,$R{len}
	jae	${\ $L->('loop8') }
${\ $L->('tail') }:
	add	\$8,$R{len}
___
    for my $n (4, 2, 1) {
        $s .= "\ttest\t\$$n,$R{len8}\n\tjz\t${\ $L->(\"skip$n\") }\n"
            . _ocb_group($op, $n) . $L->("skip$n") . ":\n";
    }
    $s .= <<___;
	mov	$RESUME(%rsp),$R{len}		# after an xmm head: the wide groups
	test	$R{len},$R{len}
	jnz	${\ $L->('wa') }
	mov	${\ ($RESUME + 8) }(%rsp),$R{len}
	test	$R{len},$R{len}
	jnz	${\ $L->('wa512') }
	pxor	$k0,$offk0
	movdqu	$offk0,($R{offset})
	mov	\@arg8,$R{tmp}
	movdqu	$sum,($R{tmp})
	pxor	$u,$u				# the last round keys held offsets
___
    $s .= "\tmovdqa\t$u," . 16 * $_ . "(%rsp)\n" for 0 .. 7;
    $s .= "\tpxor\t$_,$_\n" for $offk0, $sum, $kd, $t, $k0;
    $s .= <<___;
${\ $L->('ret') }:
	.return
___
    $s .= _ocb_wide(width(256), $op, $L);
    return ($s, sub { _ocb_wide(width(512), $op, $L) }, ".endfunction\n");
}

# The zmm sections are written after the rest of both functions, so the
# local labels before them keep their numbers (label() counts through
# the whole module) and the xmm and ymm code stays as it was.
sub ocb_functions {
    my @f = map { [ _ocb_function(@$_) ] } [ 'aesni_ocb_encrypt', 'aesenc' ], [ 'aesni_ocb_decrypt', 'aesdec' ];
    return join '', map { $_->[0] . $_->[1]->() . $_->[2] } @f;
}

1;
