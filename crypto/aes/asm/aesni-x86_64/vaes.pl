# VAES wide paths for aesni-x86_64.pl: ECB (both directions), CTR32 and
# CBC decryption on ymm (VAES + AVX2, two blocks per register) or zmm
# (VAES + AVX-512 F/BW/VL, four blocks per register).
#
# Every generator here takes a width descriptor from vaes_width() and is
# written once; the descriptor supplies the register prefix, the vector
# size and the few instructions whose encoding differs by width (the
# XOR and load forms, the 128-bit broadcast, the block-shift used by CBC).
#
# The wide code runs inside the xmm functions of aesni-x86_64.pl, after
# their key setup, with the same register roles: ymm/zmm N is used where
# the xmm code uses xmmN and holds the broadcast of the same value (K0 in
# 9, Klast in 10, the CBC iv in 11), so after the bulk a vzeroupper leaves
# the xmm code exactly the registers it expects.  The bulk consumes eight
# vectors per iteration (32 blocks on zmm, 16 on ymm), then one vector at
# a time; fewer blocks than one vector go to the xmm code's own loops.
# Only registers 0-15 are used: the ymm path cannot encode 16-31 without
# AVX-512VL, and the xmm tail already makes the functions save xmm6-15.
use strict;
use warnings;

use Common::IA32Cap;
our %VAES_CAP = Common::IA32Cap::word_bit_pairs();   # name => [word, bit]

sub vaes_width {
    my ($bits) = @_;
    return $bits == 512
        ? { bits => 512, v => 'zmm', vb => 64, nb => 4,
            xor => 'vpxord', mov => 'vmovdqu64', bcast => 'vbroadcasti32x4',
            caps => [qw(avx512f avx512bw avx512vl vaes)] }
        : { bits => 256, v => 'ymm', vb => 32, nb => 2,
            xor => 'vpxor', mov => 'vmovdqu', bcast => 'vbroadcasti128',
            caps => [qw(avx2 vaes)] };
}

sub _vr { my ($W, $n) = @_; return "%$W->{v}$n" }

# Jump to $target when every capability of width $W is present; clobbers
# eax.  Falls through otherwise.
sub vaes_cap_test {
    my ($W, $target, @extra) = @_;
    my %mask;
    $mask{ $VAES_CAP{$_}[0] } |= 1 << $VAES_CAP{$_}[1] for @{ $W->{caps} }, @extra;
    my ($skip, $t) = (label('nocap'), '');
    for my $word (sort keys %mask) {
        $t .= sprintf "\tmov\tOPENSSL_ia32cap_P+%d(%%rip),%%eax\n"
                    . "\tand\t\$0x%x,%%eax\n\tcmp\t\$0x%x,%%eax\n\tjne\t$skip\n",
                      4 * $word, $mask{$word}, $mask{$word};
    }
    return "$t\tjmp\t$target\n$skip:\n";
}

# The run-time choice at the head of a mode: inputs shorter than $min
# stay in the xmm code; longer ones go, for $variant 'dispatch', to zmm,
# else ymm, else the xmm code, and for 512 or 256 to that width.  The
# fixed widths keep the threshold because they are what the dispatching
# API calls on a VAES machine: at 16 bytes the wide set-up (broadcasts,
# XTS tweak vectors, vzeroupper) made ECB, CBC decryption and XTS take
# 1.2-1.4x the xmm time (Zen 3, same process).  $L->{512}/$L->{256} are
# the wide sections' labels; @extra names capabilities a mode needs on
# top of the width's own.
sub vaes_select {
    my ($variant, $len, $min, $L, @extra) = @_;
    my $xmm = label('xmm');
    my $t = "\tcmp\t\$$min,$len\n\tjb\t$xmm\n";
    $t .= $variant eq 'dispatch'
        ? vaes_cap_test(vaes_width(512), $L->{512}, @extra)
          . vaes_cap_test(vaes_width(256), $L->{256}, @extra)
        : "\tjmp\t$L->{$variant}\n";
    return "$t$xmm:\n";
}

# Middle rounds on wide registers; the keys are broadcast from the
# schedule into $tk, addressed backwards from END as in mid_rounds.
sub vaes_mid_rounds {
    my ($W, $op, $r, $end, $tk, @blocks) = @_;
    my ($l11, $l9) = (label('vr11'), label('vr9'));
    my $t = "\tcmp\t\$11,$r\n\tjb\t$l9\n\tje\t$l11\n";
    for my $i (reverse 1 .. 13) {
        $t .= "$l11:\n" if $i == 11;
        $t .= "$l9:\n" if $i == 9;
        $t .= "\t$W->{bcast}\t-" . 16 * $i . "($end),$tk\n";
        $t .= "\tv$op\t$tk,$_,$_\n" for @blocks;
    }
    return $t;
}

# Constants (64 bytes each, the ymm path reads the first 32):
#   ctr_bswap  per 128-bit lane: zero dwords 0-2, byte-swap dword 3
#   ctr_lane   lane i holds i in every dword
#   ctr_step4/ctr_step2  the number of blocks per register, every dword
sub vaes_constants {
    return <<___;
.section	.rodata
.align	64
.Laesni_vaes_ctr_bswap:
.long	0x80808080,0x80808080,0x80808080,0x0c0d0e0f
.long	0x80808080,0x80808080,0x80808080,0x0c0d0e0f
.long	0x80808080,0x80808080,0x80808080,0x0c0d0e0f
.long	0x80808080,0x80808080,0x80808080,0x0c0d0e0f
.Laesni_vaes_ctr_lane:
.long	0,0,0,0,1,1,1,1,2,2,2,2,3,3,3,3
.Laesni_vaes_ctr_step4:
.long	4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4
.Laesni_vaes_ctr_step2:
.long	2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2
.Laesni_vaes_xts_cnt:
.quad	0,0,1,1,2,2,3,3
.Laesni_vaes_xts_rcnt:
.quad	64,64,63,63,62,62,61,61
.text
___
}

# A loop over groups of $n registers: $body->(@regs) is one group's work
# (reading and writing at offsets 0 .. $n*vb-1 from rdi/rsi); $count is
# the register counting what is left in units of $unit per register.
# Runs $n = 8 while possible, then $n = 1.  Leaves $count = what is left.
sub _vaes_loops {
    my ($W, $count, $unit, $body) = @_;
    my ($l8, $t8, $l1, $t1) = map { label("v$_") } qw(loop8 tail8 loop1 tail1);
    my $g8 = 8 * $unit;
    my @v = map { _vr($W, $_) } 0 .. 7;
    my $t = "\tsub\t\$$g8,$count\n\tjb\t$t8\n.align\t32\n$l8:\n";
    $t .= $body->(@v);
    $t .= "\tlea\t" . 8 * $W->{vb} . "(%rdi),%rdi\n\tlea\t" . 8 * $W->{vb} . "(%rsi),%rsi\n";
    $t .= "\tsub\t\$$g8,$count\n\tjae\t$l8\n";
    $t .= "$t8:\n\tadd\t\$$g8,$count\n\tsub\t\$$unit,$count\n\tjb\t$t1\n$l1:\n";
    $t .= $body->($v[0]);
    $t .= "\tlea\t$W->{vb}(%rdi),%rdi\n\tlea\t$W->{vb}(%rsi),%rsi\n";
    $t .= "\tsub\t\$$unit,$count\n\tjae\t$l1\n";
    $t .= "$t1:\n\tadd\t\$$unit,$count\n";
    return $t;
}

# ECB bulk for one direction.  In: rdx bytes (multiple of 16), rcx key,
# r10d R, r11 END.  Jumps to $xmm with rdx bytes left (< one register).
sub vaes_ecb_bulk {
    my ($W, $dir, $xmm) = @_;
    my $op = "aes$dir";
    my ($tk, $k0, $kl) = map { _vr($W, $_) } 8, 9, 10;
    my $t = "\t$W->{bcast}\t(%rcx),$k0\n\t$W->{bcast}\t(%r11),$kl\n";
    $t .= _vaes_loops($W, '%rdx', $W->{vb}, sub {
        my @v = @_;
        my $s = '';
        $s .= "\t$W->{mov}\t" . $W->{vb} * $_ . "(%rdi),$v[$_]\n" for 0 .. $#v;
        $s .= "\t$W->{xor}\t$k0,$_,$_\n" for @v;
        $s .= vaes_mid_rounds($W, $op, '%r10d', '%r11', $tk, @v);
        $s .= "\tv${op}last\t$kl,$_,$_\n" for @v;
        $s .= "\t$W->{mov}\t$v[$_]," . $W->{vb} * $_ . "(%rsi)\n" for 0 .. $#v;
        return $s;
    });
    return "$t\tvzeroupper\n\tjmp\t$xmm\n";
}

# CTR bulk.  In: rdx blocks, rcx key, r10d R, r11 END, r8 ivec, r9d the
# counter (native order).  The block for counter c is
#   B = (ivec ^ K0 with dword 3 := K0[3]) ^ pshufb(C, bswap-dword-3)
# where C holds c in dword 3 of its lane; C grows by the blocks per
# register with vpaddd, which wraps at 2^32 as the mode requires.
# Out: r9d advanced, rdx blocks left; jumps to $xmm (which expects xmm9
# K0 and xmm10 Klast, as broadcast here, and xmm11 = ivec ^ K0).
sub vaes_ctr_bulk {
    my ($W, $xmm) = @_;
    my ($tk, $kl, $u, $b3, $cv, $bs) = map { _vr($W, $_) } 8, 10, 12, 13, 14, 15;
    my $step = ".Laesni_vaes_ctr_step$W->{nb}(%rip)";
    my $x13 = '%xmm13';
    # The legacy SSE set-up comes before the first wide instruction: one
    # while the upper halves are dirty costs about 300 cycles on Zen 3
    # (measured here), as a state transition.
    my $t = "\tmovdqa\t%xmm11,$x13\n\tpinsrd\t\$3,%ecx,$x13\n"
          . "\tmovd\t%r9d,%xmm14\n\t$W->{bcast}\t(%r11),$kl\n";
    $t .= $W->{bits} == 512
        ? "\tvshufi32x4\t\$0,$b3,$b3,$b3\n"
        : "\tvpermq\t\$0x44,$b3,$b3\n";
    $t .= "\tvpbroadcastd\t%xmm14,$cv\n"
        . "\tvpaddd\t.Laesni_vaes_ctr_lane(%rip),$cv,$cv\n"
        . "\t$W->{mov}\t.Laesni_vaes_ctr_bswap(%rip),$bs\n";
    $t .= _vaes_loops($W, '%rdx', $W->{nb}, sub {
        my @v = @_;
        my $s = '';
        for (@v) {
            $s .= "\tvpshufb\t$bs,$cv,$_\n\t$W->{xor}\t$b3,$_,$_\n\tvpaddd\t$step,$cv,$cv\n";
        }
        $s .= "\tadd\t\$" . $W->{nb} * @v . ",%r9d\n";
        $s .= vaes_mid_rounds($W, 'aesenc', '%r10d', '%r11', $tk, @v);
        for my $j (0 .. $#v) {
            $s .= "\t$W->{xor}\t" . $W->{vb} * $j . "(%rdi),$kl,$u\n\tvaesenclast\t$u,$v[$j],$v[$j]\n";
        }
        $s .= "\t$W->{mov}\t$v[$_]," . $W->{vb} * $_ . "(%rsi)\n" for 0 .. $#v;
        return $s;
    });
    return "$t\tvzeroupper\n\tjmp\t$xmm\n";
}

# CBC decryption bulk.  In: rdx bytes (multiple of 16), rcx key, r10d R,
# r11 END, xmm11 the iv.  Output block i is D(C[i]) ^ C[i-1]: for the
# first register of a group the previous blocks are the iv (kept
# broadcast in register 11) followed by that register's own first
# blocks, shifted in with valignq (zmm) or vperm2i128 (ymm); the others
# read them unaligned from the input, which is not yet overwritten when
# in == out since a group's stores come after all of its loads.
# Out: xmm11 = the last ciphertext block; jumps to $xmm with rdx left.
sub vaes_cbc_dec_bulk {
    my ($W, $xmm) = @_;
    my ($tk, $k0, $kl, $iv, $u) = map { _vr($W, $_) } 8 .. 12;
    my $t = "\t$W->{bcast}\t(%rcx),$k0\n\t$W->{bcast}\t(%r11),$kl\n";
    $t .= $W->{bits} == 512
        ? "\tvshufi32x4\t\$0,$iv,$iv,$iv\n"
        : "\tvpermq\t\$0x44,$iv,$iv\n";
    $t .= _vaes_loops($W, '%rdx', $W->{vb}, sub {
        my @v = @_;
        my $vb = $W->{vb};
        my $s = '';
        $s .= "\t$W->{mov}\t" . $vb * $_ . "(%rdi),$v[$_]\n" for 0 .. $#v;
        $s .= "\t$W->{xor}\t$k0,$_,$_\n" for @v;
        $s .= vaes_mid_rounds($W, 'aesdec', '%r10d', '%r11', $tk, @v);
        $s .= "\t$W->{mov}\t(%rdi),$u\n";
        $s .= $W->{bits} == 512
            ? "\tvalignq\t\$6,$iv,$u,$u\n"
            : "\tvperm2i128\t\$0x20,$u,$iv,$u\n";
        $s .= "\t$W->{xor}\t$kl,$u,$u\n\tvaesdeclast\t$u,$v[0],$v[0]\n";
        for my $j (1 .. $#v) {
            $s .= "\t$W->{xor}\t" . ($vb * $j - 16) . "(%rdi),$kl,$u\n"
                . "\tvaesdeclast\t$u,$v[$j],$v[$j]\n";
        }
        $s .= "\t$W->{bcast}\t" . ($vb * @v - 16) . "(%rdi),$iv\n";
        $s .= "\t$W->{mov}\t$v[$_]," . $vb * $_ . "(%rsi)\n" for 0 .. $#v;
        return $s;
    });
    return "$t\tvzeroupper\n\tjmp\t$xmm\n";
}

# XTS bulk.  In: rdx bytes (multiple of 16), rcx key (data direction),
# r10d R, r11 END, xmm11 the tweak of the first block, xmm9 K0, xmm10
# Klast, the frame's 512 bytes at rsp.  Tweaks live in two registers: A
# (11) holds the tweaks of the next register's blocks, B (14) those of
# the register after it; consuming A advances it by 2*nb blocks, i.e.
# multiplies every lane by x^(2nb), and in the eight-register group the
# even registers take A and the odd ones B, so two independent chains
# feed the group.  One register at a time, A is advanced and then A and
# B trade places.  Multiplying a lane by x^k (k = 2nb <= 8): both qwords
# shift left by k; the k bits leaving the low qword enter the high one
# (vpsrlq + vpslldq), the k bits leaving the high one come back reduced,
# their carry-less product with 0x87 (vpclmulqdq against the low qword
# of the XTS mask, broadcast in 13 so xmm13 is still the xmm code's mask).
# T ^ Klast per register goes to the frame for the last round's key.
# Out: xmm11 = the next block's tweak; jumps to $xmm with rdx left.
sub vaes_xts_bulk {
    my ($W, $dir, $xmm) = @_;
    my $op = "aes$dir";
    my ($tk, $k0, $kl, $A, $s1, $C, $B, $s2) = map { _vr($W, $_) } 8 .. 15;
    my $k = 2 * $W->{nb};
    my $vb = $W->{vb};
    # $d = $a ^ $b ^ $d in one instruction on zmm
    my $xor3 = sub {
        my ($a, $b, $d) = @_;
        return $W->{bits} == 512 ? "\tvpternlogq\t\$0x96,$a,$b,$d\n"
                                 : "\tvpxor\t$a,$d,$d\n\tvpxor\t$b,$d,$d\n";
    };
    # $S *= x^$n per lane; $n a shift count or [variable counts, 64 - counts]
    my $adv = sub {
        my ($S, $n) = @_;
        my ($r, $l) = ref $n ? ("\tvpsrlvq\t$n->[1],$S,$s1\n", "\tvpsllvq\t$n->[0],$S,$S\n")
                             : ("\tvpsrlq\t\$" . (64 - $n) . ",$S,$s1\n", "\tvpsllq\t\$$n,$S,$S\n");
        return $r . "\tvpclmulqdq\t\$0x01,$C,$s1,$s2\n\tvpslldq\t\$8,$s1,$s1\n"
             . $l . $xor3->($s1, $s2, $S);
    };
    # Lane i of A: T[0] * x^i (variable shifts by i; a count of 64 gives
    # 0), then B = A * x^nb.
    my $t = "\t$W->{bcast}\t.Laesni_xts_mask(%rip),$C\n"
          . ($W->{bits} == 512 ? "\tvshufi32x4\t\$0,$A,$A,$A\n" : "\tvpermq\t\$0x44,$A,$A\n")
          . $adv->($A, [ '.Laesni_vaes_xts_cnt(%rip)', '.Laesni_vaes_xts_rcnt(%rip)' ])
          . "\t$W->{mov}\t$A,$B\n" . $adv->($B, $W->{nb})
          . "\t$W->{bcast}\t(%rcx),$k0\n\t$W->{bcast}\t(%r11),$kl\n";
    $t .= _vaes_loops($W, '%rdx', $vb, sub {
        my @v = @_;
        my $s = '';
        for my $j (0 .. $#v) {
            my $S = $j % 2 ? $B : $A;
            $s .= "\t$W->{mov}\t$k0,$v[$j]\n" . $xor3->($vb * $j . "(%rdi)", $S, $v[$j])
                . "\t$W->{xor}\t$kl,$S,$s1\n"
                . "\t$W->{mov}\t$s1," . $vb * $j . "(%rsp)\n"
                . $adv->($S, $k);
        }
        if (@v == 1) {
            $s .= "\t$W->{mov}\t$A,$s1\n\t$W->{mov}\t$B,$A\n\t$W->{mov}\t$s1,$B\n";
        }
        $s .= vaes_mid_rounds($W, $op, '%r10d', '%r11', $tk, @v);
        $s .= "\tv${op}last\t" . $vb * $_ . "(%rsp),$v[$_],$v[$_]\n" for 0 .. $#v;
        $s .= "\t$W->{mov}\t$v[$_]," . $vb * $_ . "(%rsi)\n" for 0 .. $#v;
        return $s;
    });
    $t .= "\t$W->{xor}\t$s1,$s1,$s1\n";
    $t .= "\t$W->{mov}\t$s1," . $vb * $_ . "(%rsp)\n" for 0 .. 7;
    return "$t\tvzeroupper\n\tjmp\t$xmm\n";
}

1;
