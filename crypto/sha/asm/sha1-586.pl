#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# SHA-1 compression for 32-bit x86 (i386 cdecl) with OpenSSL's name and
# prototype, written against the 32-bit perlasm API (perlasm/x86asm.pl):
#
#   void sha1_block_data_order(SHA_CTX *c, const void *p, size_t nblocks);
#   perl crypto/sha/asm/sha1-586.pl FLAVOUR [-fPIC] [-DOPENSSL_IA32_SSE2] [386] OUTPUT
#
# h0..h4 are SHA_CTX's first five words; nblocks >= 1; p unaligned.  The
# entry tail-jumps, frameless and with the arguments untouched, to the
# first path the CPU has: shaext, avx, ssse3, else integer (i486 bswap),
# each also a global hidden sha1_block_data_order_<path> for the tests and
# the benchmark.  The paths, their needs and their order are declared in
# sha1-586.dispatch; the layer writes the entry (perlasm/lib/X86/
# Dispatch.pm).  The SIMD paths exist only with -DOPENSSL_IA32_SSE2, as in
# OpenSSL; without it, or with "386", the entry jumps to integer without
# reading the capabilities.
#
# Registers (8 general, esp included; 8 xmm):
#
#   role        integer, ssse3, avx         shaext
#   a b c d e   eax ebx ecx edx ebp         -
#   t0 t1       esi edi (round scratch)     -
#   ctx inp n   on the stack                edi esi ecx; eax the constants
#   esp         the frame                   the frame (saved e, 16 bytes)
#   xmm0-3      W ring: W[4j..4j+3] in xmm(j%4)   state (a,b,c,d), e+W x2, W x4
#   xmm4-6      schedule scratch                   (xmm3-6: four W groups)
#   xmm7        byte-swap mask                     state entering the block
#   (constants  copied to the frame                [eax], the layer's PIC base)
use strict;
use warnings;
use FindBin;
push(@INC, "$FindBin::Bin/../../../perlasm");
require "x86asm.pl";
require Common::Dispatch;   # perlasm/lib, on @INC once x86asm.pl is loaded
require X86::Dispatch;

our $sse2;   # set by asm_init: -DOPENSSL_IA32_SSE2 and not "386"
&asm_init($ARGV[0], 0);

my @K = (0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6);   # §4.2.1
my @ROLE = qw(eax ebx ecx edx ebp);      # a b c d e at the start of a block
my ($T0, $T1) = qw(esi edi);
my $CONST = "sha1_586_const";            # K vectors, then the byte-swap mask

# --- instruction lists ---------------------------------------------------
# Generators return lists of [mnemonic, operands...] so that the schedule
# can be spread among the rounds; emit() hands them to the layer.  (The
# helpers that build them are named v_*: a sub named like an instruction
# would hide the layer's.)
sub emit { for my $i (@_) { my ($mn, @o) = @$i; no strict 'refs'; &{"::$mn"}(@o) } }

# Spreads @$extra evenly among @$main.
sub interleave {
    my ($main, $extra) = @_;
    my ($n, $m, $k, @out) = (scalar @$main, scalar @$extra, 0);
    for my $i (0 .. $n - 1) {
        push @out, $main->[$i];
        push @out, $extra->[ $k++ ] while $k < $m && $k * $n < ($i + 1) * $m;
    }
    return @out;
}

# K_t as a signed 32-bit displacement (the sum wraps the same way).
sub k_disp { my ($t) = @_; my $k = $K[ int($t / 20) ]; return $k >= 2**31 ? $k - 2**32 : $k }

# --- the rounds ------------------------------------------------------------
# The working variables never move: a round adds into the register that
# holds e, which then becomes a, and the names rotate in Perl (80 rounds
# bring them back to where they started).  Each round sums e + W+K and f
# before ROTL5(a), so only the rotate and an add wait for the previous
# round.  t1 is free in Ch and Parity rounds: the integer path keeps the
# block pointer there during rounds 0..15, the SIMD paths the next block's
# pointer during rounds 64..79.
my @v;    # the registers of a, b, c, d, e before the next round

# Round t.  @$wk adds W[t]+K_t into e (it may use t0 only).
sub round {
    my ($t, @wk) = @_;
    my ($a, $b, $c, $d, $e) = @v;
    my @i = @wk;
    my $f = (qw(ch parity maj parity))[ int($t / 20) ];
    if ($f eq 'ch') {               # ((c ^ d) & b) ^ d
        push @i, [mov => $T0, $c], [xor => $T0, $d], [and => $T0, $b], [xor => $T0, $d],
                 [add => $e, $T0];
    } elsif ($f eq 'parity') {      # b ^ c ^ d
        push @i, [mov => $T0, $c], [xor => $T0, $d], [xor => $T0, $b], [add => $e, $T0];
    } else {                        # Maj = (c & d) + (b & (c ^ d)): no common bits
        push @i, [mov => $T0, $c], [mov => $T1, $c], [and => $T0, $d], [xor => $T1, $d],
                 [add => $e, $T0], [and => $T1, $b], [add => $e, $T1];
    }
    push @i, [mov => $T0, $a], [rol => $T0, 5], [ror => $b, 2], [add => $e, $T0];
    @v = ($e, $a, $b, $c, $d);
    return @i;
}

# h0..h4 += a..e, through the context pointer in t0.
sub feed_forward {
    &add($v[$_], &DWP(4 * $_, $T0)) for 0 .. 4;
    &mov(&DWP(4 * $_, $T0), $v[$_]) for 0 .. 4;
}

# After a block: h0..h4 += a..e, then the block pointer (kept at
# INP(esp), left in t1) moves on, and the loop repeats until END.
sub next_block {
    my ($ctx, $inp, $end) = @_;
    &mov($T0, &DWP($ctx, "esp"));
    feed_forward();
    &mov($T1, &DWP($inp, "esp"));
    &add($T1, 64);
    &mov(&DWP($inp, "esp"), $T1);
    &cmp($T1, &DWP($end, "esp"));
    &jb(&label("loop"));
}

# ctx into t0, the block pointer into t1, the end of the data into ecx.
sub load_arguments {
    &mov($T0, &wparam(0));
    &mov($T1, &wparam(1));
    &mov("ecx", &wparam(2));
    &shl("ecx", 6);
    &add("ecx", $T1);
}

# --- integer path ---------------------------------------------------------
# W[t] in a 16-word ring at 0(esp); computed in t0 as each round needs it.
{
    my ($W, $CTX, $INP, $END, $FRAME) = (0, 64, 68, 72, 76);
    my $w = sub { &DWP($W + 4 * ($_[0] % 16), "esp") };

    sub integer_path {
        my ($name) = @_;
        &function_begin($name);
        load_arguments();
        &sub("esp", $FRAME);
        &mov(&DWP($CTX, "esp"), $T0);
        &mov(&DWP($INP, "esp"), $T1);
        &mov(&DWP($END, "esp"), "ecx");
        @v = @ROLE;
        &mov($v[$_], &DWP(4 * $_, $T0)) for 0 .. 4;
        &set_label("loop", 16);
        for my $t (0 .. 79) {
            my $e = $v[4];
            my @wk;
            if ($t < 16) {          # t1 holds the block pointer
                @wk = ([mov => $T0, &DWP(4 * $t, $T1)], [bswap => $T0], [mov => $w->($t), $T0]);
            } else {
                @wk = ([mov => $T0, $w->($t - 3)], [xor => $T0, $w->($t - 8)],
                       [xor => $T0, $w->($t - 14)], [xor => $T0, $w->($t - 16)], [rol => $T0, 1]);
                push @wk, [mov => $w->($t), $T0] if $t + 3 <= 79;   # read again at t+3..t+16
            }
            push @wk, [lea => $e, &DWP(k_disp($t), $e, $T0)];
            emit(round($t, @wk));
        }
        next_block($CTX, $INP, $END);
        &add("esp", $FRAME);
        &function_end($name);
    }
}

# --- SSSE3 and AVX paths --------------------------------------------------
# The schedule runs in xmm registers, four words at a time, while the rounds
# read W+K from a 320-byte buffer.  The vector of words 4j..4j+3 is
# computed during the rounds of group j-4 (group g = rounds 4g..4g+3),
# sixteen rounds before it is read; groups 16..19 load and byte-swap the
# next block instead, so its first sixteen words are ready when its rounds
# begin.  The last block loads itself again rather than read past the end.
#
# Words 16..31 use the definition; W[t+3] needs W[t] from the same vector,
# so lane 3 is finished afterwards.  From word 32 on, the definition
# expanded once more,
#     W[t] = ROTL2(W[t-6] ^ W[t-16] ^ W[t-28] ^ W[t-32]),
# has its nearest input six words back: no lane waits for another, and it
# takes about half the instructions.  Four xmm registers hold the last
# sixteen words; W[t-28] and W[t-32] come from a ring of eight vectors in
# the frame (pxor with a memory operand costs no extra instruction).
#
# The frame is aligned to 64 by switch_stack: W+K rows, the four K vectors
# (copied there because no general register is left to address the
# constants with under PIC), the W ring, the pointers.
{
    my ($WK, $KV, $WR, $CTX, $INP, $END, $NXT, $SAVED_ESP, $FRAME) =
        (0, 320, 384, 512, 516, 520, 524, 528, 576);
    my @ring = map { "xmm$_" } 0 .. 3;
    my ($x0, $x1, $x2, $MASK) = map { "xmm$_" } 4 .. 7;
    my $vex;

    # dst = s1 OP s2 (SSE: copy s1 first unless it is dst).
    sub v_op3 {
        my ($op, $dst, $s1, $s2) = @_;
        return (["v$op" => $dst, $s1, $s2]) if $vex;
        return ([$op => $dst, $s2]) if $dst eq $s1;
        die "sha1-586: $op would clobber its source\n" if $dst eq $s2;
        return ([movdqa => $dst, $s1], [$op => $dst, $s2]);
    }
    # dst = src shifted by an immediate
    sub v_shift {
        my ($op, $dst, $src, $n) = @_;
        return (["v$op" => $dst, $src, $n]) if $vex;
        return (($dst eq $src ? () : [movdqa => $dst, $src]), [$op => $dst, $n]);
    }
    # dst = bytes n..n+15 of hi:lo
    sub v_palignr {
        my ($dst, $hi, $lo, $n) = @_;
        return ([vpalignr => $dst, $hi, $lo, $n]) if $vex;
        return (($dst eq $hi ? () : [movdqa => $dst, $hi]), [palignr => $dst, $lo, $n]);
    }
    sub mov_v { my ($how, $dst, $src) = @_; return ([($vex ? 'v' : '') . "mov$how" => $dst, $src]) }

    # W[4j..4j+3] into ring register j % 4 and, plus K, into row j.
    # Rows 0..3 come from the block at $src, the others from the ring,
    # which holds W[4j-16 .. 4j-1].
    sub schedule_vector {
        my ($j, $src) = @_;
        my $x = $ring[ $j % 4 ];
        my $back = sub { $ring[ ($j - $_[0]) % 4 ] };    # W[4(j-n) ..]
        my @i;
        my $ring_w = sub { &QWP($WR + 16 * ($_[0] % 8), "esp") };   # W[4n..4n+3]
        if ($j < 4) {
            push @i, mov_v('dqu', $x, &QWP(16 * $j, $src)), v_op3('pshufb', $x, $x, $MASK);
        } elsif ($j >= 8) {
            # $x holds W[t-16..t-13]; W[t-6..t-3] straddles two vectors.
            push @i, v_palignr($x0, $back->(1), $back->(2), 8),
                     v_op3('pxor', $x, $x, $ring_w->($j - 7)),  # ^ W[t-28]
                     v_op3('pxor', $x, $x, $ring_w->($j - 8)),  # ^ W[t-32]
                     v_op3('pxor', $x, $x, $x0),                # ^ W[t-6]
                     v_shift('psrld', $x0, $x, 30),
                     v_shift('pslld', $x, $x, 2),
                     v_op3('por', $x, $x, $x0);                 # ROTL2
        } else {
            # $x holds W[t-16..t-13].  W[t-14..t-11] straddles two vectors.
            push @i, v_palignr($x0, $back->(3), $x, 8),
                     v_op3('pxor', $x, $x, $back->(2)),           # ^ W[t-8]
                     v_op3('pxor', $x, $x, $x0),                  # ^ W[t-14]
                     # W[t-3] for lanes 0..2; lane 3 would need W[t] itself
                     v_shift('psrldq', $x0, $back->(1), 4),
                     v_op3('pxor', $x, $x, $x0),
                     # lane 0's input moved to lane 3, kept for the fix-up
                     v_shift('pslldq', $x1, $x, 12),
                     v_shift('psrld', $x0, $x, 31),
                     v_op3('paddd', $x, $x, $x),
                     v_op3('por', $x, $x, $x0),                   # ROTL1
                     # lane 3 ^= ROTL1(W[t]) = ROTL2(lane 0's input)
                     v_shift('psrld', $x0, $x1, 30),
                     v_shift('pslld', $x1, $x1, 2),
                     v_op3('pxor', $x, $x, $x0),
                     v_op3('pxor', $x, $x, $x1);
        }
        # (read again by vectors j+7 and j+8)
        push @i, mov_v('dqa', $ring_w->($j), $x) if $j + 7 <= 19;
        push @i, v_op3('paddd', $x2, $x, &QWP($KV + 16 * int($j / 5), "esp")),
                 mov_v('dqa', &QWP($WK + 16 * $j, "esp"), $x2);
        return @i;
    }

    sub simd_path {
        my ($name, $isa) = @_;
        $vex = $isa eq 'avx';
        &function_begin($name);
        load_arguments();
        &lea("eax", &DWP(-$FRAME, "esp"));
        &and("eax", -64);
        &switch_stack("eax", $SAVED_ESP);
        &mov(&DWP($CTX, "esp"), $T0);
        &mov(&DWP($INP, "esp"), $T1);
        &mov(&DWP($END, "esp"), "ecx");
        &picmeup("eax", &label($CONST));
        for my $k (0 .. 3) {
            emit(mov_v('dqa', $x0, &QWP(16 * $k, "eax")), mov_v('dqa', &QWP($KV + 16 * $k, "esp"), $x0));
        }
        emit(mov_v('dqa', $MASK, &QWP(64, "eax")));
        @v = @ROLE;
        &mov($v[$_], &DWP(4 * $_, $T0)) for 0 .. 4;
        emit(map { schedule_vector($_, $T1) } 0 .. 3);

        &set_label("loop", 16);
        # The next block, or this one again if it is the last.
        &mov($T0, &DWP($INP, "esp"));
        &lea($T1, &DWP(64, $T0));
        &cmp($T1, &DWP($END, "esp"));
        &cmovae($T1, $T0);
        &mov(&DWP($NXT, "esp"), $T1);
        for my $g (0 .. 19) {
            my @r = map { round($_, [add => $v[4], &DWP($WK + 4 * $_, "esp")]) } 4 * $g .. 4 * $g + 3;
            # (the Maj rounds used t1: the next block's pointer comes back)
            my @x = $g < 16 ? schedule_vector($g + 4)
                  : (($g == 16 ? [mov => $T1, &DWP($NXT, "esp")] : ()), schedule_vector($g - 16, $T1));
            emit(interleave(\@r, \@x));
        }
        next_block($CTX, $INP, $END);
        &vzeroupper() if $vex;
        &restore_stack();
        &function_end($name);
    }
}

# --- SHA-NI path ------------------------------------------------------------
# Four rounds per sha1rnds4.  A vector holds four words, the first in the
# high lane:
#   sha1rnds4 S, WE, f    S = (a,b,c,d) four rounds on, stage f = t/20,
#                         WE = (e + W[t], W[t+1], W[t+2], W[t+3])
#   sha1nexte T, X        T = (ROTL30(T.hi) + X.hi, X's other lanes): the
#                         next group's e added to its first word
#   sha1msg1 X, Y         X = (x0^x2, x1^x3, x2^y0, x3^y1)
#   sha1msg2 X, Y         the ROTL1 of the schedule, Y supplying W[t-3]
# so in groups G[i] = W[4i..4i+3]:
#   G[i] = sha1msg2(sha1msg1(G[i-4], G[i-3]) ^ G[i-2], G[i-1])    (i >= 4)
# The 20 sha1rnds4 of a block are one dependency chain; everything else
# is kept off it: the next group's e is made beside the current group's
# rounds, and the schedule runs three groups ahead.  Eight xmm registers
# leave no room for the block's entering e, which waits in the frame.
{
    my ($ABCD, @WE) = qw(xmm0 xmm1 xmm2);
    my @G = map { "xmm$_" } 3 .. 6;
    my $ABCD_IN = "xmm7";
    my ($CTX, $INP, $N, $C) = qw(edi esi ecx eax);

    sub shaext_group {
        my ($i) = @_;
        my ($cur, $next) = @WE[ $i % 2, ($i + 1) % 2 ];
        my @r = map { $G[ ($i + $_) % 4 ] } 0 .. 3;        # G[i] .. G[i+3]
        # the block's entering e, for the next block's first group
        &movdqu($r[1], &QWP(0, "esp")) if $i == 19;
        &movdqa($next, $ABCD);
        &sha1rnds4($ABCD, $cur, int($i / 5));
        &sha1nexte($next, $r[1]);                          # e + G[i+1]
        if ($i + 4 < 20) { &pxor($r[0], $r[2]); &sha1msg2($r[0], $r[3]) }   # G[i+4]
        &sha1msg1($r[1], $r[2]) if $i + 5 < 20;            # towards G[i+5]
    }

    sub shaext_path {
        my ($name) = @_;
        &function_begin($name);
        &mov($CTX, &wparam(0));
        &mov($INP, &wparam(1));
        &mov($N, &wparam(2));
        &sub("esp", 16);
        &picmeup($C, &label($CONST));
        &movdqu($ABCD, &QWP(0, $CTX));
        &pshufd($ABCD, $ABCD, 0x1b);                       # h0 in the high lane
        &movd($WE[0], &DWP(16, $CTX));
        &pslldq($WE[0], 12);                               # (h4, 0, 0, 0)
        &set_label("loop", 16);
        &movdqu($G[$_], &QWP(16 * $_, $INP)) for 0 .. 3;
        &pshufb($G[$_], &QWP(80, $C)) for 0 .. 3;
        &lea($INP, &DWP(64, $INP));
        &movdqa($ABCD_IN, $ABCD);
        &movdqu(&QWP(0, "esp"), $WE[0]);
        &paddd($WE[0], $G[0]);                             # e + G[0]
        &sha1msg1($G[0], $G[1]);
        shaext_group($_) for 0 .. 19;
        &paddd($ABCD, $ABCD_IN);
        &dec($N);
        &jnz(&label("loop"));
        &pshufd($ABCD, $ABCD, 0x1b);
        &movdqu(&QWP(0, $CTX), $ABCD);
        &psrldq($WE[0], 12);
        &movd(&DWP(16, $CTX), $WE[0]);
        &add("esp", 16);
        &function_end($name);
    }
}

# --- the dispatcher and the paths -----------------------------------------
# Their needs and order: sha1-586.dispatch; the layer writes the
# dispatcher.  Without SSE2 only the integer path is built.
my $DECL = Common::Dispatch::for_script(__FILE__);
my %PATH = (
    shaext  => \&shaext_path,
    avx     => sub { simd_path($_[0], 'avx') },
    ssse3   => sub { simd_path($_[0], 'ssse3') },
    integer => \&integer_path,
);
for my $v (X86::Dispatch::tail_dispatcher($DECL, 'sha1_block_data_order', $sse2 ? () : 'integer')) {
    my $code = $PATH{ $v->{name} } // die "$0: no code for the declared path $v->{name}\n";
    $code->($DECL->fixed_symbol('sha1_block_data_order', $v->{name}));
}

# K_t four times each (one vector per 20 rounds), then the pshufb masks:
# each dword big-endian (the schedule), the whole block reversed (SHA-NI,
# which wants the first word in the high lane).
&rodata();
&align(64);
&set_label($CONST);
&data_word(($_) x 4) for @K;
&data_byte(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
&data_byte(reverse 0 .. 15);
&text();

&asm_finish();
