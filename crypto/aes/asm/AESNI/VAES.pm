# SPDX-License-Identifier: Apache-2.0
package AESNI::VAES;
use Exporter qw(import);
use File::Basename qw(dirname);
use AESNI::Common qw(label roles width mid_rounds);
our @EXPORT_OK = qw(vaes_entries vaes_widths vaes_select vaes_constants
                    vaes_ecb_bulk vaes_ctr_bulk vaes_cbc_dec_bulk vaes_xts_bulk
                    @VAES_CTR_KEYED);

# VAES wide paths for aesni-x86_64.pl: ECB (both directions), CTR32, CBC
# decryption and XTS on ymm (VAES + AVX2, two blocks per register) or zmm
# (VAES + AVX-512 F/BW/VL, four blocks per register), and the entry
# points and run-time choice of width (vaes_entries, vaes_select), which
# OCB shares.  Which widths each entry has, what each needs and which is
# preferred are declared in aesni-x86_64.dispatch; the layer writes the
# entries and the capability tests from it (X64::Dispatch).
#
# Every generator here takes a width descriptor (AESNI::Common::width)
# and is written once; the descriptor supplies the register prefix, the
# vector size and the few instructions whose encoding differs by width
# (the XOR and load forms, the 128-bit broadcast).
#
# The wide code runs inside the xmm functions of aesni-x86_64.pl, after
# their key setup, and takes the caller's general register roles (%$R:
# in, out, len, key, rounds, end, and ctr for CTR).  ymm/zmm N is used
# where the xmm code uses xmmN and holds the broadcast of the same value
# (K0 in 9, Klast in 10, the CBC iv in 11), so after the bulk a
# vzeroupper leaves the xmm code exactly the registers it expects.  The
# bulk consumes eight vectors per iteration (32 blocks on zmm, 16 on
# ymm), then one vector at a time; fewer blocks than one vector go to the
# xmm code's own loops.
# Only registers 0-15 are used (the ymm path cannot encode 16-31 without
# AVX-512VL, and the xmm tail already makes the functions save xmm6-15),
# but for zmm16-31 in XTS (its chains and last-round keys), which are
# caller-saved.
use strict;
use warnings;

use Common::Dispatch;
use X64::Dispatch;

# The module's declaration, aesni-x86_64.dispatch beside this package's
# directory.
our $DECL = Common::Dispatch::read_file(dirname(__FILE__) . '/../aesni-x86_64.dispatch');

# Register $n of a width: %xmmN, %ymmN or %zmmN.
sub _vr { my ($width, $n) = @_; return "%$width->{v}$n" }

my $XMM = width(128);

# want: the selector, how an entry point tells its mode's body which
# width it asks for (0: choose from the CPU, else the bits of the width).
# rax is volatile and carries no argument on either ABI, and the Win64
# prologue of .function leaves it alone.  capword: the capability
# tests' scratch; no mode holds a value in rax across its vaes_select,
# so every caller can lend it.
my %CAP_R = roles(want => '%rax', capword => '%rax');

# The wide widths (bits) of the entry $name, widest first.
sub vaes_widths {
    my ($name) = @_;
    my $last = $DECL->last_variant;
    return map { $_->{select} } grep { $_ != $last } $DECL->entry_variants($name);
}

# The entry points of a mode whose code is the one function $body: they
# go ahead of it as frameless tail jumps, so the body's frame and unwind
# data serve all of them and its xmm code and each wide section appear
# once.  OpenSSL's $name asks for no width; NAME_VARIANT (hidden) for
# that variant's, so the tests and the benchmark reach each directly.
sub vaes_entries {
    my ($name, $body) = @_;
    return X64::Dispatch::selector_entries($DECL, $name, $body, $CAP_R{want32});
}

# The one place a width is chosen, at the head of a mode's body.
# Arguments:
#   name     the entry
#   entries  { width => label of that width's section }
#   count    register with the input size (tested against the entry's min)
#   xmm      the label for the xmm code (default: a fresh one), placed
#            right after this sequence
# Inputs shorter than min stay in the xmm code, whichever entry was
# called: the fixed widths are what the dispatching API calls on a VAES
# machine, and on a few blocks the wide set-up (broadcasts, XTS tweak
# vectors, vzeroupper) costs more than it saves.  Longer ones go to the
# width the entry asked for (want), else to the widest section whose
# capabilities are present, else to the xmm code.  Nothing before this in
# a body may write rax.
sub vaes_select {
    my (%arg) = @_;
    my %target = map { $_->{name} => $arg{entries}{ $_->{select} } }
        grep { $arg{entries}{ $_->{select} } } $DECL->entry_variants($arg{name});
    return X64::Dispatch::select_variant(decl => $DECL, symbol => $arg{name}, reg => $CAP_R{want32},
                                         targets => \%target, last => $arg{xmm} // label('xmm'),
                                         count => $arg{count});
}

# Constants (64 bytes each but the XTS counts, 512; the ymm path reads
# the first 32 of the others):
#   ctr_bswap  per 128-bit lane: zero dwords 0-2, byte-swap dword 3
#   ctr_lane   lane i holds i in every dword
#   ctr_step4/ctr_step2  the number of blocks per register, every dword
#   xts_cnt/xts_rcnt     per qword: the lane's tweak power, 64 minus it
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
${\ join '', map { ".quad\t$_,$_\n" } 0 .. 31 }.Laesni_vaes_xts_rcnt:
${\ join '', map { ".quad\t@{[64 - $_]},@{[64 - $_]}\n" } 0 .. 31 }.text
___
}

# A loop over groups of $n registers: $body->(@regs) is one group's work
# (reading and writing at offsets 0 .. $n*vb-1 from in/out); $count is
# the register counting what is left in units of $unit per register.
# Runs $n = 8 while possible, then $n = 1.  Leaves $count = what is left.
sub _vaes_loops {
    my ($width, $R, $count, $unit, $body) = @_;
    my ($l8, $t8, $l1, $t1) = map { label("v$_") } qw(loop8 tail8 loop1 tail1);
    my $g8 = 8 * $unit;
    my @v = map { _vr($width, $_) } 0 .. 7;
    my $t = "\tsub\t\$$g8,$count\n\tjb\t$t8\n.align\t32\n$l8:\n";
    $t .= $body->(@v);
    $t .= "\tlea\t" . 8 * $width->{vb} . "($R->{in}),$R->{in}\n\tlea\t" . 8 * $width->{vb} . "($R->{out}),$R->{out}\n";
    $t .= "\tsub\t\$$g8,$count\n\tjae\t$l8\n";
    $t .= "$t8:\n\tadd\t\$$g8,$count\n\tsub\t\$$unit,$count\n\tjb\t$t1\n$l1:\n";
    $t .= $body->($v[0]);
    $t .= "\tlea\t$width->{vb}($R->{in}),$R->{in}\n\tlea\t$width->{vb}($R->{out}),$R->{out}\n";
    $t .= "\tsub\t\$$unit,$count\n\tjae\t$l1\n";
    $t .= "$t1:\n\tadd\t\$$unit,$count\n";
    return $t;
}

# ECB bulk for one direction.  In: len bytes (multiple of 16), key, R,
# END.  Jumps to $xmm with len bytes left (< one register).
sub vaes_ecb_bulk {
    my ($width, $R, $dir, $xmm) = @_;
    my $op = "aes$dir";
    my ($tk, $k0, $kl) = map { _vr($width, $_) } 8, 9, 10;
    my $t = "\t$width->{bcast}\t($R->{key}),$k0\n\t$width->{bcast}\t($R->{end}),$kl\n";
    $t .= _vaes_loops($width, $R, $R->{len}, $width->{vb}, sub {
        my @v = @_;
        my $s = '';
        $s .= "\t$width->{mov}\t" . $width->{vb} * $_ . "($R->{in}),$v[$_]\n" for 0 .. $#v;
        $s .= "\t$width->{xor}\t$k0,$_,$_\n" for @v;
        $s .= mid_rounds($width, $op, $R, $tk, @v);
        $s .= "\tv${op}last\t$kl,$_,$_\n" for @v;
        $s .= "\t$width->{mov}\t$v[$_]," . $width->{vb} * $_ . "($R->{out})\n" for 0 .. $#v;
        return $s;
    });
    return "$t\tvzeroupper\n\tjmp\t$xmm\n";
}

# CTR bulk.  In: len blocks, key, R, END, ctr32 the counter (native
# order), xmm11 = ivec ^ K0.  The block for counter c is
#   B = (ivec ^ K0 with dword 3 := K0[3]) ^ pshufb(C, bswap-dword-3)
# where C holds c in dword 3 of its lane; C grows by the blocks per
# register with vpaddd, which wraps at 2^32 as the mode requires.
# $k0word is the 32-bit register holding K0[3].
# Out: ctr32 advanced, len blocks left; jumps to $xmm (which expects xmm9
# K0 and xmm10 Klast, as broadcast here, and xmm11 = ivec ^ K0).  The low
# lane of register 13 still holds B's base (key material) after the
# vzeroupper: the caller clears the registers in @VAES_CTR_KEYED.
our @VAES_CTR_KEYED = (_vr($XMM, 13));
sub vaes_ctr_bulk {
    my ($width, $R, $k0word, $xmm) = @_;
    my ($tk, $kl, $u, $b3, $cv, $bs) = map { _vr($width, $_) } 8, 10, 12, 13, 14, 15;
    my $step = ".Laesni_vaes_ctr_step$width->{nb}(%rip)";
    my ($base_x, $b3_x, $cv_x) = map { _vr($XMM, $_) } 11, 13, 14;
    # The legacy SSE set-up comes before the first wide instruction: one
    # while the upper halves are dirty can cost a state transition of
    # hundreds of cycles.
    my $t = "\tmovdqa\t$base_x,$b3_x\n\tpinsrd\t\$3,$k0word,$b3_x\n"
          . "\tmovd\t$R->{ctr32},$cv_x\n\t$width->{bcast}\t($R->{end}),$kl\n";
    $t .= $width->{bits} == 512
        ? "\tvshufi32x4\t\$0,$b3,$b3,$b3\n"
        : "\tvpermq\t\$0x44,$b3,$b3\n";
    $t .= "\tvpbroadcastd\t$cv_x,$cv\n"
        . "\tvpaddd\t.Laesni_vaes_ctr_lane(%rip),$cv,$cv\n"
        . "\t$width->{mov}\t.Laesni_vaes_ctr_bswap(%rip),$bs\n";
    $t .= _vaes_loops($width, $R, $R->{len}, $width->{nb}, sub {
        my @v = @_;
        my $s = '';
        for (@v) {
            $s .= "\tvpshufb\t$bs,$cv,$_\n\t$width->{xor}\t$b3,$_,$_\n\tvpaddd\t$step,$cv,$cv\n";
        }
        $s .= "\tadd\t\$" . $width->{nb} * @v . ",$R->{ctr32}\n";
        $s .= mid_rounds($width, 'aesenc', $R, $tk, @v);
        for my $j (0 .. $#v) {
            $s .= "\t$width->{xor}\t" . $width->{vb} * $j . "($R->{in}),$kl,$u\n\tvaesenclast\t$u,$v[$j],$v[$j]\n";
        }
        $s .= "\t$width->{mov}\t$v[$_]," . $width->{vb} * $_ . "($R->{out})\n" for 0 .. $#v;
        return $s;
    });
    return "$t\tvzeroupper\n\tjmp\t$xmm\n";
}

# CBC decryption bulk.  In: len bytes (multiple of 16), key, R, END,
# xmm11 the iv.  Output block i is D(C[i]) ^ C[i-1]: for the first
# register of a group the previous blocks are the iv (kept broadcast in
# register 11) followed by that register's own first blocks, shifted in
# with valignq (zmm) or vperm2i128 (ymm); the others read them unaligned
# from the input, which is not yet overwritten when in == out since a
# group's stores come after all of its loads.
# Out: xmm11 = the last ciphertext block; jumps to $xmm with len left.
sub vaes_cbc_dec_bulk {
    my ($width, $R, $xmm) = @_;
    my ($tk, $k0, $kl, $iv, $u) = map { _vr($width, $_) } 8 .. 12;
    my $t = "\t$width->{bcast}\t($R->{key}),$k0\n\t$width->{bcast}\t($R->{end}),$kl\n";
    $t .= $width->{bits} == 512
        ? "\tvshufi32x4\t\$0,$iv,$iv,$iv\n"
        : "\tvpermq\t\$0x44,$iv,$iv\n";
    $t .= _vaes_loops($width, $R, $R->{len}, $width->{vb}, sub {
        my @v = @_;
        my $vb = $width->{vb};
        my $s = '';
        $s .= "\t$width->{mov}\t" . $vb * $_ . "($R->{in}),$v[$_]\n" for 0 .. $#v;
        $s .= "\t$width->{xor}\t$k0,$_,$_\n" for @v;
        $s .= mid_rounds($width, 'aesdec', $R, $tk, @v);
        $s .= "\t$width->{mov}\t($R->{in}),$u\n";
        $s .= $width->{bits} == 512
            ? "\tvalignq\t\$6,$iv,$u,$u\n"
            : "\tvperm2i128\t\$0x20,$u,$iv,$u\n";
        $s .= "\t$width->{xor}\t$kl,$u,$u\n\tvaesdeclast\t$u,$v[0],$v[0]\n";
        for my $j (1 .. $#v) {
            $s .= "\t$width->{xor}\t" . ($vb * $j - 16) . "($R->{in}),$kl,$u\n"
                . "\tvaesdeclast\t$u,$v[$j],$v[$j]\n";
        }
        $s .= "\t$width->{bcast}\t" . ($vb * @v - 16) . "($R->{in}),$iv\n";
        $s .= "\t$width->{mov}\t$v[$_]," . $vb * $_ . "($R->{out})\n" for 0 .. $#v;
        return $s;
    });
    return "$t\tvzeroupper\n\tjmp\t$xmm\n";
}

# $d = $a ^ $b ^ $d: one instruction on zmm, two on ymm (AVX2 only).
sub _xor3 {
    my ($width, $a, $b, $d) = @_;
    return $width->{bits} == 512 ? "\tvpternlogq\t\$0x96,$a,$b,$d\n"
                                 : "\tvpxor\t$a,$d,$d\n\tvpxor\t$b,$d,$d\n";
}

# XTS bulk.  In: len bytes (multiple of 16), key (data direction), R,
# END, xmm11 the tweak of the first block, xmm13 the xmm code's XTS mask,
# the frame's 512 bytes at rsp, $mask the label of that mask.
# Tweaks.  A group is eight registers (8 nb blocks), whose tweaks nch
# chains of tweak registers make: register j of a group takes chain
# j mod nch, and each use multiplies every lane of the chain by
# x^(8 nb / nch).  One register at a time (the last few), the chain used
# is advanced and the chains rotate by one.  The chains start from T[0]
# in every lane times x^(lane's block number), by variable bit shifts
# (xts_cnt, xts_rcnt), once.  Two loops, chosen by OpenSSL's Intel bit:
# - Intel, and ymm everywhere: 8 / nb chains, each step x^8, a byte
#   shift (vpslldq; the byte that left, vpsrldq by 15, comes back as its
#   carry-less product with 0x87, vpclmulqdq against the mask in 13).
#   These run on the shuffle port beside the AES units; bit shifts would
#   take the AES units' ports.  ymm's chains take two steps a group, off
#   the critical path.
# - zmm elsewhere: one chain per register (nch 8, in zmm16-23: EVEX only,
#   caller-saved on both ABIs, cleared after), each step x^32 once a
#   group (vpsrlq, vpclmulqdq, vpslldq, xor; see $x32).  Where that step's
#   latency is long, two chains of four steps a group would outlast the
#   group's AES work; eight chains of one step do not.
# Per register, T ^ K0 whitens the input and T ^ Klast is the last
# round's key (in zmm24-31 on zmm, in the frame on ymm).  Each chain's
# last advance in a group goes into the middle rounds (after rounds 9, 8, ..., which every key size
# runs), one per round, not ahead of the rounds with the rest.  K0 is in
# register 9 on zmm; ymm needs 9 for its fourth chain and reads K0 from
# the frame, after the eight last-round keys.
# Out: xmm11 = the next block's tweak, xmm9 K0, xmm10 Klast, xmm13 the
# mask; jumps to $xmm with len left.  Clobbers rax (free here).
sub vaes_xts_bulk {
    my ($width, $R, $dir, $mask, $xmm) = @_;
    my $op = "aes$dir";
    my $vb = $width->{vb};
    my $nch = 8 / $width->{nb};
    my ($tk, $kl, $s, $M) = map { _vr($width, $_) } 8, 10, 12, 13;
    my @ch = map { _vr($width, $_) } (11, 14, 15, 9)[0 .. $nch - 1];
    my $k0_in_frame = $nch > 3;
    my $k0 = $k0_in_frame ? 8 * $vb . '(%rsp)' : _vr($width, 9);
    my @u = map { _vr($width, $_) } 0 .. 2;       # set-up scratch
    # Chain c of nb-lane registers: lane i is T[0] * x^(c * nb + i).  A
    # lane shifts both qwords left by n; the n bits leaving the low qword
    # enter the high one (vpsrlvq, vpslldq), those leaving the high one
    # come back multiplied by 0x87 (a count of 64 gives 0, for n = 0).
    my $chain = sub {
        my ($c, $dst) = @_;
        my $off = $c * $vb;
        return "\tvpsrlvq\t.Laesni_vaes_xts_rcnt+$off(%rip),$u[0],$u[1]\n"
            . "\tvpclmulqdq\t\$0x01,$M,$u[1],$u[2]\n\tvpslldq\t\$8,$u[1],$u[1]\n"
            . "\tvpsllvq\t.Laesni_vaes_xts_cnt+$off(%rip),$u[0],$dst\n"
            . _xor3($width, $u[1], $u[2], $dst);
    };
    # $S *= x^8 per lane, $s scratch (the Intel form)
    my $x8_clmul = sub {
        my ($S) = @_;
        return "\tvpsrldq\t\$15,$S,$s\n\tvpclmulqdq\t\$0x00,$M,$s,$s\n"
             . "\tvpslldq\t\$1,$S,$S\n\t$width->{xor}\t$s,$S,$S\n";
    };
    my $t = "\t$width->{bcast}\t$mask(%rip),$M\n"
          . ($width->{bits} == 512 ? "\tvshufi32x4\t\$0,$ch[0],$ch[0],$u[0]\n"
                                   : "\tvpermq\t\$0x44,$ch[0],$u[0]\n");
    $t .= $chain->($_, $ch[$_]) for 0 .. $nch - 1;
    $t .= "\t$width->{bcast}\t($R->{key}),$tk\n\t$width->{mov}\t$tk,$k0\n"
        . "\t$width->{bcast}\t($R->{end}),$kl\n";
    # zmm keeps the last-round keys in registers 24-31 (EVEX only,
    # caller-saved, cleared after): with them in a frame written every
    # group, the speed depended on where the stack landed against the key
    # schedule and the buffers (a store and a later load whose addresses
    # agree in their low 12 bits are taken for dependent until resolved).
    # ymm has no register left for them.
    my @last = $width->{bits} == 512 ? map { _vr($width, $_) } 24 .. 31
                                     : map { $vb * $_ . '(%rsp)' } 0 .. 7;
    my $intel_loops = _vaes_xts_loops($width, $R, $op, $k0, $k0_in_frame, \@ch, $s, $x8_clmul, \@last);
    if ($width->{bits} == 512) {
        my @sch = map { _vr($width, $_) } 16 .. 23;
        # $S *= x^32 per lane: the top 32 bits of the high qword (vpsrlq
        # leaves them in the low half of it) come back as their product
        # with 0x87 (at most 39 bits), the lane moves up 4 bytes.
        my $x32 = sub {
            my ($S) = @_;
            return "\tvpsrlq\t\$32,$S,$s\n\tvpclmulqdq\t\$0x01,$M,$s,$s\n"
                 . "\tvpslldq\t\$4,$S,$S\n\t$width->{xor}\t$s,$S,$S\n";
        };
        my ($intel, $done) = (label('xts_intel'), label('xts_loops_done'));
        $t .= X64::Dispatch::if_rule_goto($DECL, 'xts512_intel_loops', $CAP_R{capword32}, $intel)
            . "\tcmp\t\$" . 8 * $vb . ",$R->{len}\n\tjb\t$intel\n";
        $t .= "\tvmovdqa64\t$ch[$_],$sch[$_]\n" for 0 .. $nch - 1;
        $t .= $chain->($_, $sch[$_]) for $nch .. $#sch;
        $t .= _vaes_xts_loops($width, $R, $op, $k0, $k0_in_frame, \@sch, $s, $x32, \@last)
            . "\tvmovdqa64\t$sch[0],$ch[0]\n";
        $t .= "\tvpxord\t$_,$_,$_\n" for @sch;
        $t .= "\tjmp\t$done\n$intel:\n$intel_loops$done:\n";
    } else {
        $t .= $intel_loops;
    }
    if ($width->{bits} == 512) {
        $t .= "\tvpxord\t$_,$_,$_\n" for @last;
    } else {
        $t .= "\t$width->{xor}\t$s,$s,$s\n";
        $t .= "\t$width->{mov}\t$s," . $vb * $_ . "(%rsp)\n" for 0 .. ($k0_in_frame ? 8 : 7);
    }
    $t .= "\tvzeroupper\n";
    $t .= "\tmovups\t($R->{key}),%xmm9\n" if $k0_in_frame;
    return "$t\tjmp\t$xmm\n";
}

# The loops of vaes_xts_bulk over the chains @$ch, $step the
# multiplication that advances a chain past the blocks of all of them.
sub _vaes_xts_loops {
    my ($width, $R, $op, $k0, $k0_in_frame, $ch, $s, $step, $last) = @_;
    my @ch = @$ch;
    my $nch = @ch;
    my $vb = $width->{vb};
    my ($tk, $kl) = map { _vr($width, $_) } 8, 10;
    return _vaes_loops($width, $R, $R->{len}, $vb, sub {
        my @v = @_;
        my $s_ = '';
        my @late;             # each chain's last advance in the group
        for my $j (0 .. $#v) {
            my $S = $ch[$j % $nch];
            my $in = $vb * $j . "($R->{in})";
            $s_ .= $k0_in_frame
                ? "\t$width->{xor}\t$in,$S,$v[$j]\n\t$width->{xor}\t$k0,$v[$j],$v[$j]\n"
                : "\t$width->{mov}\t$k0,$v[$j]\n" . _xor3($width, $in, $S, $v[$j]);
            $s_ .= $last->[$j] =~ /^%/
                ? "\t$width->{xor}\t$kl,$S,$last->[$j]\n"
                : "\t$width->{xor}\t$kl,$S,$s\n\t$width->{mov}\t$s,$last->[$j]\n";
            if (@v > 1 && $j + $nch > $#v) { push @late, $step->($S) } else { $s_ .= $step->($S) }
        }
        if (@v == 1) {
            $s_ .= "\t$width->{mov}\t$ch[0],$s\n";
            $s_ .= "\t$width->{mov}\t$ch[$_],$ch[$_ - 1]\n" for 1 .. $nch - 1;
            $s_ .= "\t$width->{mov}\t$s,$ch[-1]\n";
        }
        # Advance k of @late goes after round 9 - k, i.e. before the
        # load of the round key 8 - k places before END.
        my $rounds = mid_rounds($width, $op, $R, $tk, @v);
        for my $k (0 .. $#late) {
            my $key = 16 * (8 - $k);
            $rounds =~ s/^(\t\Q$width->{bcast}\E\t-$key\(\Q$R->{end}\E\))/$late[$k]$1/m
                or die "vaes_xts_bulk: no round key at -$key\n";
        }
        $s_ .= $rounds;
        $s_ .= "\tv${op}last\t$last->[$_],$v[$_],$v[$_]\n" for 0 .. $#v;
        $s_ .= "\t$width->{mov}\t$v[$_]," . $vb * $_ . "($R->{out})\n" for 0 .. $#v;
        return $s_;
    });
}

1;
