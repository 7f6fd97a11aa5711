# SPDX-License-Identifier: Apache-2.0
# SHA-1 with the message schedule in SIMD registers and the rounds in
# general-purpose registers (Rounds.pm).  One algorithm, three encodings:
#
#   ssse3  SSE forms (two operands, so copies before destructive ops),
#          pshufb for the byte swap, palignr to straddle two vectors
#   avx    the same instructions in VEX three-operand form
#   avx2   ymm: each 128-bit lane holds one block, so one instruction
#          schedules two blocks; the rounds use BMI1/BMI2 (andn, rorx)
#
# The schedule (FIPS 180-4 §6.1.2 step 1) is computed four words at a time.
# Words 16..31 use the definition, W[t] = ROTL1(W[t-3]^W[t-8]^W[t-14]^W[t-16]);
# W[t+3] needs W[t] from the same vector, so lane 3 is finished afterwards.
# From word 32 on, expanding the definition once more gives
#     W[t] = ROTL2(W[t-6] ^ W[t-16] ^ W[t-28] ^ W[t-32])
# whose nearest input is six words back: no lane depends on another, and
# the vectors it needs are in a ring of eight registers.
#
# The rounds read W+K from a 320-byte stack buffer (640 for avx2, a block
# per lane).  The vector for words 4j..4j+3 is computed while the rounds
# of group j-4 run, its instructions spread among the rounds' so they fill
# the slack of the rounds' latency chain; groups 16..19 load and swap the
# next block instead (the last block loads itself again rather than read
# past the end), so a one-block call pays no unhidden schedule.  avx2
# computes both lanes of words 16..79 during the first block's rounds; an
# odd last block takes the first lane and the second repeats it.  All
# three sit on the rounds' latency floor (Rounds.pm), so they differ in the
# slack left to a sibling hyperthread: hence the BMI parity and Maj rounds
# of 7 and 10 instructions (640 a block, as OpenSSL's avx2 code).
package SHA1::X86_64::Simd;

use strict;
use warnings;
use Exporter qw(import);
use SHA1::X86_64::Rounds;

our @EXPORT_OK = qw(sha1_simd_code);

# --- instruction forms, per ISA -----------------------------------------------
# Every helper takes the destination first and returns a list of lines.
{
    package SHA1::X86_64::Simd::Forms;

    sub new {
        my ($class, $isa) = @_;
        my $wide = $isa eq 'avx2';
        return bless { isa => $isa, vex => $isa ne 'ssse3', wide => $wide,
                       reg => $wide ? 'ymm' : 'xmm', lanes => $wide ? 2 : 1 }, $class;
    }

    sub r { my ($s, $n) = @_; return "%$s->{reg}$n"; }

    # dst = src1 OP src2; the SSE form copies src1 first unless dst is src1
    sub op3 {
        my ($s, $op, $dst, $src1, $src2) = @_;
        return "v$op\t$src2,$src1,$dst" if $s->{vex};
        return "$op\t$src2,$dst" if $dst eq $src1;
        die "simd: $op would clobber its source\n" if $dst eq $src2;
        return ("movdqa\t$src1,$dst", "$op\t$src2,$dst");
    }

    # dst = src shifted by an immediate (psrld, pslld, psrldq, pslldq...)
    sub shift_imm {
        my ($s, $op, $imm, $dst, $src) = @_;
        return "v$op\t\$$imm,$src,$dst" if $s->{vex};
        return ($dst eq $src ? () : "movdqa\t$src,$dst"), "$op\t\$$imm,$dst";
    }

    # dst = bytes imm..imm+15 of hi:lo (per 128-bit lane)
    sub palignr {
        my ($s, $imm, $dst, $hi, $lo) = @_;
        return "vpalignr\t\$$imm,$lo,$hi,$dst" if $s->{vex};
        return ($dst eq $hi ? () : "movdqa\t$hi,$dst"), "palignr\t\$$imm,$lo,$dst";
    }

    sub store { my ($s, $src, $mem) = @_; return ($s->{vex} ? 'v' : '') . "movdqa\t$src,$mem"; }
}

# --- the message schedule -----------------------------------------------------
# The instructions that leave W[4j..4j+3] in ring register j % 8 and
# W[4j..4j+3]+K in row j of the buffer at $o{dst}.  Rows 0..3 come from the
# block at $o{src} (avx2: second lane from $o{src2}); the others from the
# ring, which then holds W[4j-32..4j-1].
sub sha1_simd_vector {
    my ($s, $j, %o) = @_;
    my @ring = map { $s->r($_) } 0 .. 7;
    my ($t0, $t1, $t2) = map { $s->r($_) } 8 .. 10;
    my $vsize = 16 * $s->{lanes};
    my $x = $ring[ $j % 8 ];
    my $w = sub { my ($back) = @_; return $ring[ ($j - $back) % 8 ]; };
    my $k = "$o{ktab}+" . $vsize * int($j / 5) . '(%rip)';
    my @i;
    if ($j < 4) {
        if ($s->{wide}) {
            my $xx = $x =~ s/ymm/xmm/r;
            push @i, "vmovdqu\t" . 16 * $j . "($o{src}),$xx",
                     "vinserti128\t\$1," . 16 * $j . "($o{src2}),$x,$x";
        } else {
            push @i, ($s->{vex} ? 'v' : '') . "movdqu\t" . 16 * $j . "($o{src}),$x";
        }
        push @i, $s->op3('pshufb', $x, $x, $o{mask});
    } elsif ($j < 8) {
        # W[t-16], W[t-8], then W[t-14] straddling two vectors.
        push @i, $s->op3('pxor', $x, $w->(4), $w->(2)),
                 $s->palignr(8, $t0, $w->(3), $w->(4)),
                 $s->op3('pxor', $x, $x, $t0),
                 # W[t-3] for lanes 0..2; lane 3 would need W[t] itself
                 $s->shift_imm('psrldq', 4, $t0, $w->(1)),
                 $s->op3('pxor', $x, $x, $t0),
                 # keep lane 0's input, moved to lane 3, before rotating
                 $s->shift_imm('pslldq', 12, $t1, $x),
                 $s->shift_imm('psrld', 31, $t0, $x),
                 $s->op3('paddd', $x, $x, $x),
                 $s->op3('por', $x, $x, $t0),
                 # lane 3 ^= ROTL1(W[t]) = ROTL2(lane 0's input)
                 $s->shift_imm('psrld', 30, $t0, $t1),
                 $s->shift_imm('pslld', 2, $t1, $t1),
                 $s->op3('pxor', $x, $x, $t0),
                 $s->op3('pxor', $x, $x, $t1);
    } else {
        # $x holds W[t-32] (ring position j-8).
        push @i, $s->op3('pxor', $x, $x, $w->(4)),
                 $s->palignr(8, $t0, $w->(1), $w->(2)),
                 $s->op3('pxor', $x, $x, $w->(7)),
                 $s->op3('pxor', $x, $x, $t0),
                 $s->shift_imm('psrld', 30, $t0, $x),
                 $s->shift_imm('pslld', 2, $x, $x),
                 $s->op3('por', $x, $x, $t0);
    }
    push @i, $s->op3('paddd', $t2, $x, $k),
             $s->store($t2, $vsize * $j . "($o{dst})");
    return @i;
}

# Spreads the instructions of @$extra evenly among those of @$main.
sub sha1_simd_interleave {
    my ($main, $extra) = @_;
    my @out;
    my ($n, $m) = (scalar @$main, scalar @$extra);
    my $k = 0;
    for my $i (0 .. $n - 1) {
        push @out, $main->[$i];
        while ($k < $m && $k * $n < ($i + 1) * $m) { push @out, $extra->[ $k++ ]; }
    }
    return @out;
}

sub sha1_simd_code {
    my ($name, $isa) = @_;
    die "sha1_simd_code: unknown isa $isa\n" unless $isa =~ /^(ssse3|avx|avx2)$/;
    my $s = SHA1::X86_64::Simd::Forms->new($isa);
    my $lanes = $s->{lanes};            # blocks per schedule
    my ($ctx, $inp, $end, $nx, $nx2) = ('%rdi', '%rsi', '%rdx', '%r10', '%r9');
    my @v = qw(%eax %ebx %ecx %ebp %r11d);
    my @tmp = qw(%r12d %r13d);
    my $label = ".L${name}";
    my $mov = $s->{vex} ? 'vmovdqa' : 'movdqa';
    my $vsize = 16 * $lanes;
    my %sched = (ktab => ".Lsha1_${isa}_K", mask => $s->r(11));
    my $bswap = ".Lsha1_${isa}_bswap";
    # ymm stores want 32-byte alignment; the buffer gets it from an aligned
    # pointer rather than align=32, which would take rbp as frame pointer.
    my $buf = $lanes > 1 ? '%r8' : '%rsp';
    $sched{dst} = $buf;

    my $rounds = SHA1::X86_64::Rounds->new(v => \@v, tmp => \@tmp, bmi => $lanes > 1);
    # Round t of block b (lane b of each row) reads its W+K here.
    my $wk = sub {
        my ($b, $t) = @_;
        return $vsize * int($t / 4) + 16 * $b + 4 * ($t % 4) . "($buf)";
    };

    my $code = <<"EOT";
.section .rodata
.p2align 6
$sched{ktab}:
EOT
    for my $k (@SHA1::X86_64::Rounds::K) {
        $code .= "\t.long\t" . join(',', (sprintf('0x%08x', $k)) x (4 * $lanes)) . "\n";
    }
    $code .= "$bswap:\n" . ("\t.byte\t3,2,1,0,7,6,5,4,11,10,9,8,15,14,13,12\n" x $lanes);
    $code .= <<"EOT";
.text
.function $name, args=3, save=rbx:rbp:r12:r13, xmm=6-11, stack=${\(80 * $vsize + ($lanes > 1 ? 32 : 0))}
	shl	\$6,$end
	add	$inp,$end
EOT
    if ($lanes > 1) {
        $code .= "\tlea\t31(%rsp),$buf\n\tand\t\$-32,$buf\n";
        # A lone block is scheduled in both lanes rather than reading past the end.
        $code .= "\tlea\t64($inp),$nx2\n\tcmp\t$end,$nx2\n\tcmovae\t$inp,$nx2\n";
    }
    $code .= "\t$mov\t$bswap(%rip),$sched{mask}\n";
    $code .= "\tmov\t" . 4 * $_ . "($ctx),$v[$_]\n" for 0 .. 4;
    $code .= "\t$_\n" for map { sha1_simd_vector($s, $_, %sched, src => $inp, src2 => $nx2) } 0 .. 3;
    $code .= <<"EOT";
	jmp	${label}_loop
.p2align 5
${label}_loop:
	lea	${\(64 * $lanes)}($inp),$nx
	cmp	$end,$nx
	cmovae	$inp,$nx
EOT
    $code .= "\tlea\t64($nx),$nx2\n\tcmp\t$end,$nx2\n\tcmovae\t$nx,$nx2\n" if $lanes > 1;

    for my $b (0 .. $lanes - 1) {
        for my $g (0 .. 19) {
            my @r = map { $rounds->round($_, $wk->($b, $_)) } 4 * $g .. 4 * $g + 3;
            my @x;
            @x = sha1_simd_vector($s, $g + 4, %sched) if $b == 0 && $g < 16;
            @x = sha1_simd_vector($s, $g - 16, %sched, src => $nx, src2 => $nx2)
                if $b == $lanes - 1 && $g >= 16;
            $code .= "\t$_\n" for sha1_simd_interleave(\@r, \@x);
        }
        my @h = $rounds->vars;
        $code .= "\tadd\t" . 4 * $_ . "($ctx),$h[$_]\n" for 0 .. 4;
        $code .= "\tmov\t$h[$_]," . 4 * $_ . "($ctx)\n" for 0 .. 4;
        $code .= "\tadd\t\$64,$inp\n\tcmp\t$end,$inp\n";
        $code .= "\tjae\t${label}_done\n" if $b < $lanes - 1;
    }
    $code .= "\t$_\n" for $rounds->settle(\@v, \@tmp);
    $code .= <<"EOT";
	jb	${label}_loop
${label}_done:
EOT
    $code .= "\tvzeroupper\n" if $s->{vex};
    $code .= "\t.return\n.endfunction\n";
    return $code;
}

1;
