#!/usr/bin/env perl
# Table-based AES for 32-bit x86 (i386 cdecl), with OpenSSL's names:
# AES_set_encrypt_key, AES_set_decrypt_key, AES_encrypt, AES_decrypt,
# AES_cbc_encrypt.  Written against the 32-bit perlasm API
# (perlasm/x86asm.pl).
#
#   perl crypto/aes/asm/aes-586.pl FLAVOUR [-fPIC] [-DOPENSSL_IA32_SSE2]
#        [-DAES586_small_footprint=0|1] [-DAES586_<tuning>=N] [386] [OUTPUT]
#   (and any other compiler flag OpenSSL's build passes; --help)
#
# Variants, chosen when generating:
#   small_footprint=1  the rounds are a loop (the default: about a third of
#                      the code, see the size table in `make bench`);
#   small_footprint=0  every round written out (13 of them; 10- and
#                      12-round keys jump into the sequence).
#   386                no MMX/SSE code at all: only the integer paths.
#
# Two ways to compute a round, as in aes-x86_64.pl:
#   full     four T-tables in one 2 KiB table of 8-byte entries (the
#            column written twice, so rotation k is the load at byte
#            offset (4-k) mod 4); each lookup's cache line depends on a
#            secret byte.  AES_cbc_encrypt from cbc_thresh bytes;
#            decryption there takes two blocks at a time.  The last round
#            looks bytes up in tl/itl (see the tables).
#   compact  lookups in the 256-byte S-box only, every line of it read
#            before each block, MixColumns computed on packed bytes.  Used
#            by AES_encrypt, AES_decrypt and short CBC.  When the CPU has
#            SSE (OPENSSL_ia32cap_P word 0 bit 25, for pshufw) MixColumns
#            runs in MMX registers two columns at a time; otherwise (or in
#            the 386 build) in the integer registers.  This narrows the
#            cache-timing exposure to within-line effects; it is not
#            constant time.
#
# The CBC entry points move esp to a 64-byte aligned frame with
# &switch_stack, which keeps the CFI exact while esp is switched; the
# one-block entries only make room below their pushes.  The rounds are
# private functions with their own register convention: state in eax,
# ebx, ecx, edx; the key schedule in edi; the table in ebp; 24 bytes of
# scratch in the caller's frame above the return address (40 and both
# blocks' state for the two-block decryption).
#
# Hidden, for the tests and the benchmark: aes586_{encrypt,decrypt}_full
# (one block through the T-tables), aes586_cbc_encrypt_{full,compact}.
# OpenSSL 3.0's aes-586.pl (3.0.20's function list) defines the same five
# global functions; its others are private (_x86_AES_*, _sse_AES_*), its
# tables local, and there are no asm_AES_* aliases on 32-bit x86 (their
# only user, bsaes, is x86_64-only).
#
# Key schedule as aes_core.c: little-endian words, rounds 10/12/14 at byte
# 240, the decryption schedule that of the equivalent inverse cipher.
#
# Estimated speed.  32-bit code cannot run in 32-bit mode on these machines:
# these figures are llvm-mca 14 (-mtriple=i686 -mcpu=znver3) over the
# instructions one block executes (crypto/aes/asm/aes-586/mca_block.pl:
# the round loop repeated, or the unrolled rounds from their entry), in
# cycles per byte, next to aes_core.c's T-table rounds built gcc -m32 -O2
# (aes_core_{en,de}crypt_block, same helper):
#
#   perl crypto/aes/asm/aes-586.pl elf -fPIC [-DAES586_small_footprint=0] a.s
#   gcc -m32 -O2 -fPIC -S -Iinclude -Icrypto -Ibuild/gen crypto/aes/aes_table.c -o c.s
#   perl crypto/aes/asm/aes-586/mca_block.pl a.s _aes586_encrypt_full 10 > t.s
#   llvm-mca -mtriple=i686 -mcpu=znver3 -iterations=100 t.s    # Total Cycles / 1600
#   (C: mca_block.pl c.s aes_core_encrypt_block 10; compact paths:
#   _aes586_{en,de}crypt_{sse,compact}; 12 and 14 rounds likewise)
#
#                   C      full tables       compact MMX/SSE   compact integer
#                          small  unrolled   small  unrolled   small  unrolled
#   AES-128 enc   11.13    7.32   6.70       21.32  20.88      18.38  17.95
#   AES-128 dec   10.57    7.42   7.07       26.38  26.60      29.45  29.39
#   AES-192 enc   13.00    8.76   8.07       25.76  25.23      22.03  21.70
#   AES-192 dec   12.25    8.84   8.45       31.94  32.29      35.82  35.64
#   AES-256 enc   14.88   10.20   9.26       30.20  29.57      25.34  25.45
#   AES-256 dec   14.07   10.32   9.82       37.51  37.97      42.20  41.89
#
# So by this estimate the full tables run at 1/1.66..1/1.43 of the C with
# the unrolled rounds and at 1/1.52..1/1.36 with the round loop: short of
# the 1/1.8 asked (issue 8).  (The C column was 15.38..19.25 until
# mca_block.pl replayed gcc's PIC thunk call as what it is: llvm-mca
# charged it 100 cycles.)  The limit in the model is the load/store units:
# with seven registers a round is 16 table loads, 4 round-key loads, 3
# stores and 3 reloads of the round's outputs and a reload of the key
# pointer, and llvm-mca's Zen 3 gives a store two of the three LSU slots:
# 30 slots, 10 cycles a round.  For the compact MMX path the model is
# wrong the other way: it charged the former column transfer through
# memory 11.89 (AES-128 encryption), blind to the failed store forwarding
# that made it 25.5 c/B natively, and charges the register transfer that
# replaced it 21.32, where it measures 17.98.
#
# Measured.  `make bench-x86mca` also runs every traced call natively: the
# same instructions rewritten for 64-bit mode (bench/x86mca/Replay64.pm),
# each replay's result checked against the C AES.  Whole calls (CBC: 256
# bytes), TSC cycles per byte on this AMD EPYC (Zen 3), the C built
# gcc -m32 -O2 (X86MCA_ARGS="--bits 128,192,256"; speedup over C in
# brackets):
#
#                  C       full tables                compact MMX/SSE  integer
#                          small         unrolled     small            small
#   AES-128 ECB e  10.38    8.15 (1.27)   7.87 (1.32)  17.66            15.92
#   AES-128 ECB d   9.22    8.05 (1.14)   7.87 (1.17)  22.56            25.48
#   AES-128 CBC e  12.59    8.13 (1.55)   7.88 (1.60)  17.44            15.54
#   AES-128 CBC d  12.27    7.32 (1.68)   7.25 (1.69)  22.51            24.91
#   AES-256 ECB e  14.02   11.27 (1.24)  10.85 (1.29)  24.74            22.08
#   AES-256 ECB d  12.38   11.08 (1.12)  10.68 (1.16)  31.96            37.04
#   AES-256 CBC e  16.45   11.22 (1.47)  10.77 (1.53)  24.69            21.96
#   AES-256 CBC d  15.92    9.96 (1.60)   9.77 (1.63)  32.11            35.39
#
# (CBC decryption on the full path takes two blocks at a time, see
# block2_function: one block at a time it measured 8.16 and 8.03 for
# AES-128.)
#
# Further from 1.8 than the estimate: this CPU renames memory (a store and
# a reload at the same %esp offset cost about one cycle, measured), so the
# spills that the C needs more of than we do cost it little.  Unrolling
# saves 1-5% on the full path for 2376 bytes per direction and 4471 more
# for the two-block decryption (on the compact paths it is within 2%
# either way, for 4.5-7 KB each; `make bench` prints the sizes).  The
# compact paths compute MixColumns, so they are slower than C's T-tables.
# Their MMX MixColumns wins for decryption (13% here) and loses for
# encryption (11%): moving a column between integer and MMX registers
# costs about 3.5 cycles each way on Zen 3.
#
# Instruction choices (the founding aes-586 thread) on the unrolled full
# path, AES-128, measured natively as above (make bench-x86mca: rows
# shrand, mask24, ror1, smallror3), CBC encryption / one-block encryption
# TSC c/B, with llvm-mca's estimate of the round code (mca_block.pl):
#   movzbl %al/%ah byte extraction (kept):  7.88 / 7.90, est. 6.70;
#     mov/shr/and:                          8.62 / 8.21, est. 7.57
#   shr $24 without a mask (kept):          7.88 / 7.90, est. 6.70;
#     with and $0xff:                       8.48 / 8.46, est. 7.14
#   ror to bring bytes low, weighted 3 (kept for unrolled): 7.88 / 7.90;
#     weight 1: 8.05 / 8.06 (est. 6.98); with the round loop weight 1 (kept,
#     8.11 / 8.16, est. 7.32) and 3 (7.97 / 7.98, est. 7.48) are within
#     the noise of each other
#   last round from tl/itl (kept): est. 6.70, against 6.92 with the S-box
#     bytes (movzbl, shl, xor per byte), for 2 KB more table
#   imul $0x1b in xtime (kept): compact integer, loop, AES-128: encryption
#     18.38 and decryption 29.45, against 18.43 and 31.45 with two lea
#   scaled index (base+idx*8): llvm-mca's Zen 3 model charges nothing for
#     the scale (same cycles either way); pre-scaled indices would only add shifts
#     and masks, so the scale is kept.
#   tables aligned once: the 6.5 KB block is aligned to 64 and every table
#     in it has a size that is a multiple of 64 (no alignment padding).
#   endbr32 only on the exported entries: the round functions are private
#     and called directly (llvm-mca charges ~100 cycles for endbr32).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
push(@INC, "$FindBin::Bin/../../../perlasm");
require "x86asm.pl";
require Common::IA32Cap;   # perlasm/lib, on @INC once x86asm.pl is loaded
use AesMath qw(sbox inv_sbox te0 td0);

our %OPT = (
    small_footprint => 1,     # round loop (1) or unrolled rounds (0)
    movzbl          => 1,     # bytes 0/1 by movzbl %al/%ah (0: mov, shr, and)
    mask24          => 0,     # and $0xff after shr $24 (redundant)
    imul            => 1,     # xtime's reduction by imul $0x1b (0: two lea)
    ror_weight      => undef, # what a ror counts for when planning extraction
                              # (default: 1 with the round loop, 3 unrolled)
    cbc_thresh      => 512,   # AES_cbc_encrypt: full tables from this length
);
# The layer reads the command line: it sets $x86only ("386" anywhere in
# it) and puts -DAES586_NAME[=N] into $OPT{NAME}.
our $x86only;
&asm_init($ARGV[0], 0, AES586_ => \%OPT);
$OPT{ror_weight} //= $OPT{small_footprint} ? 1 : 3;
# The weight the round being generated is planned with: the two-block
# rounds use 1 (measured natively: unrolled CBC decryption 7.28 c/B with
# 1, 7.64 with 3; the one-block rounds are the other way round).
our $ror_weight = $OPT{ror_weight};

&external_label("OPENSSL_ia32cap_P") unless $x86only;

# ----------------------------------------------------------------- tables
# One block, 64-byte aligned once; the offsets below are from its start.
# tl and itl are the full path's last-round tables: S-box (inverse S-box)
# byte x at byte 3 of dword x, zeros elsewhere, so the dword at byte
# offset 3-b from entry x is the byte moved to row b: one lookup puts a
# substituted byte in its row, where a byte table needs movzbl, shl, xor.
# A lookup of row b < 3 reads 3-b bytes past its entry, so a zero dword
# follows itl (tl is followed by itl's zero bytes).
my %TAB = (te => 0, sbox => 2048, td => 2304, isbox => 4352, tl => 4608, itl => 5632,
           c1b => 6664);
my @S = qw(eax ebx ecx edx);
my @L = qw(al bl cl dl);
my @H = qw(ah bh ch dh);

# Scratch in the caller's frame: T0..T3 (round output words), KP (round
# key pointer), KEND (last loop key).  Private functions see the frame at
# esp+4 (above their return address).
my %SLOT = (t => 0, kp => 16, kend => 20);
# The two-block round function's: block A's and block B's state, KP, KEND.
my %SLOT2 = (a => 0, b => 16, kp => 32, kend => 36);
sub scratch { my ($off) = @_; return &DWP(4 + $off, "esp") }

# The CBC entry points' frame (offsets from the switched esp): the block
# scratch (24 bytes, 40 for the two-block decryption), then the arguments
# kept, the saved esp, a block, the CBC chaining value and the two
# ciphertext blocks of two-block decryption.  The SSE flag, read only on
# the compact path, shares the two-block scratch, used only on the full
# path.  The one-block entries use the first 28 bytes only.
my $FRAME = 160;
my %F = (sse => 24, spare => 44, in => 48, out => 52, len => 56, key => 60, ivec => 64,
         saved => 68, block => 80, chain => 96, c1 => 112, c2 => 128);

# ----------------------------------------------------- byte-wise rounds
# A round reads byte b of source word i = j + dir*b for output word j
# (dir 1 encryption: ShiftRows left; -1 decryption), so each output uses
# one byte of every state word.  Bytes 0 and 1 of eax..edx come out in one
# movzbl (%al, %ah); a byte elsewhere costs a copy and shifts.  So each
# state register may be rotated (ror, one instruction) between its uses to
# bring the next byte low, planned per register by a small search over the
# four rotations; at the last output every register dies and is shifted
# in place.  The order of the outputs is searched too (24 orders).
my @rot;          # current rotation of each state register, in bytes

# Instructions to get byte at position $pos out: (not last use, last use).
sub extract_cost {
    my ($pos, $last) = @_;
    return 1 if $pos < 2;
    return $last ? 1 : 2 if $pos == 3;          # shr $24 (on a copy)
    return $last ? 2 : 3;                       # shr $16, movzbl / and
}

# Cheapest rotations before each of a register's uses (byte list @b, the
# last one at the last output): returns (cost, [rotation before use k]).
sub plan_register {
    my (@b) = @_;
    my %best = (0 => [0, []]);
    for my $k (0 .. $#b) {
        my %next;
        for my $r (sort keys %best) {
            for my $d (0 .. 3) {
                next if $d && !$OPT{movzbl};
                my $nr = ($r + $d) & 3;
                my $c = $best{$r}[0] + ($d ? $ror_weight : 0) + extract_cost(($b[$k] - $nr) & 3, $k == $#b);
                $next{$nr} = [$c, [ @{ $best{$r}[1] }, $d ]] if !$next{$nr} || $c < $next{$nr}[0];
            }
        }
        %best = %next;
    }
    my ($min) = sort { $a->[0] <=> $b->[0] || "@{$a->[1]}" cmp "@{$b->[1]}" } values %best;
    return @$min;
}

sub permutations {
    my (@x) = @_;
    return ([]) unless @x;
    return map { my $i = $_; map { [ $x[$i], @$_ ] } permutations(@x[ grep { $_ != $i } 0 .. $#x ]) } 0 .. $#x;
}

# The output order and, per state register, the rotation before each use.
my %PLAN;
sub round_plan {
    my ($dir) = @_;
    return $PLAN{"$dir $ror_weight"} //= do {
        my $best;
        for my $order (permutations(0 .. 3)) {
            my ($cost, %rot) = (0);
            for my $i (0 .. 3) {
                my @b = map { ($i - $_) * $dir & 3 } @$order;   # byte of s_i used by output j
                my ($c, $plan) = plan_register(@b);
                $cost += $c;
                $rot{$i} = $plan;
            }
            $best = { cost => $cost, order => $order, rot => \%rot } if !$best || $cost < $best->{cost};
        }
        $best;
    };
}

# Byte b of state word i into an index register, after rotating it by
# $d bytes; returns the register.
sub extract {
    my ($i, $b, $d, $last) = @_;
    if ($d) {
        &ror($S[$i], 8 * $d);
        $rot[$i] = ($rot[$i] + $d) & 3;
    }
    my $pos = ($b - $rot[$i]) & 3;
    if ($pos == 3) {
        my $r = $last ? $S[$i] : "edi";
        &mov($r, $S[$i]) unless $last;
        &shr($r, 24);
        &and($r, 0xff) if $OPT{mask24};
        return $r;
    }
    if ($OPT{movzbl} && $pos < 2) {
        &movzx("edi", $pos ? $H[$i] : $L[$i]);
        return "edi";
    }
    if ($OPT{movzbl} && $last) {
        &shr($S[$i], 16);
        &movzx($S[$i], $L[$i]);
        return $S[$i];
    }
    &mov("edi", $S[$i]);
    &shr("edi", 8 * $pos) if $pos;
    &and("edi", 0xff);
    return "edi";
}

# One SubBytes+ShiftRows pass: $lookup->(INDEX_REG, b) adds byte b's
# contribution to esi.  The first three outputs go to their scratch slots
# (or $keep->(j) moves column j out of esi), the last stays in esi;
# returns the last one's column.
sub byte_round {
    my ($dir, $lookup, $keep) = @_;
    $keep //= sub { &mov(scratch($SLOT{t} + 4 * $_[0]), "esi") };
    my $plan = round_plan($dir);
    my @order = @{ $plan->{order} };
    @rot = (0) x 4;
    for my $k (0 .. 3) {
        my $j = $order[$k];
        for my $b (0 .. 3) {
            my $i = ($j + $dir * $b) & 3;
            $lookup->(extract($i, $b, $plan->{rot}{$i}[$k], $k == 3), $b);
        }
        $keep->($j) if $k < 3;
    }
    return $order[3];
}

# The round's outputs into eax..edx; $last is the one still in esi.
sub state_from_scratch {
    my ($last) = @_;
    &mov($S[$last], "esi");
    &mov($S[$_], scratch($SLOT{t} + 4 * $_)) for grep { $_ != $last } 0 .. 3;
}

# T-table lookup: byte b's column is the entry at byte offset (4-b)&3.
sub t_lookup {
    my ($idx, $b) = @_;
    my $m = &DWP((4 - $b) & 3, "ebp", $idx, 8);
    $b ? &xor("esi", $m) : &mov("esi", $m);
}

# S-box lookup at $disp(ebp): the byte goes to row b of esi.
sub s_lookup {
    my ($disp) = @_;
    return sub {
        my ($idx, $b) = @_;
        if ($b == 0) { &movzx("esi", &BP($disp, "ebp", $idx, 1)); return }
        &movzx($idx, &BP($disp, "ebp", $idx, 1));
        &shl($idx, 8 * $b);
        &xor("esi", $idx);
    };
}

# Last-round lookup of the full path: byte b's substitute, already in row
# b, from tl (itl) addressed from the T-table in ebp.
sub row_lookup {
    my ($dir) = @_;
    my $disp = $dir > 0 ? $TAB{tl} - $TAB{te} : $TAB{itl} - $TAB{td};
    return sub {
        my ($idx, $b) = @_;
        my $m = &DWP($disp + 3 - $b, "ebp", $idx, 4);
        $b ? &xor("esi", $m) : &mov("esi", $m);
    };
}

# ------------------------------------------------- MixColumns, integer
# xtime on four packed bytes in $x, $t clobbered.
sub xtime_int {
    my ($x, $t) = @_;
    &mov($t, $x);
    &and($t, 0x80808080);
    &xor($x, $t);
    &add($x, $x);
    &shr($t, 7);
    if ($OPT{imul}) { &imul($t, $t, 0x1b) }
    else { &lea($t, &DWP(0, $t, $t, 2)); &lea($t, &DWP(0, $t, $t, 8)) }   # 27 = 3*9
    &xor($x, $t);
}

# MixColumns of the column in $x (row r in bits 8r): with r8 = ror(x, 8)
# (row r+1 brought to row r) and u = x ^ r8,  out = 2u ^ r8 ^ ror(u, 16).
sub mix_int {
    my ($x) = @_;
    &mov("esi", $x);
    &ror("esi", 8);
    &xor($x, "esi");
    &mov("edi", $x);
    &ror("edi", 16);
    &xor("esi", "edi");
    xtime_int($x, "edi");
    &xor($x, "esi");
}

# InvMixColumns = MixColumns after w ^= 4(w ^ ror(w, 16)) (The Design of
# Rijndael, 4.1.3).
sub inv_pre_int {
    my ($x) = @_;
    &mov("esi", $x);
    &ror("esi", 16);
    &xor("esi", $x);
    xtime_int("esi", "edi");
    xtime_int("esi", "edi");
    &xor($x, "esi");
}

# ---------------------------------------------------- MixColumns, MMX
# Two columns per MMX register (mm0: columns 0-1, mm1: 2-3), mm7 = 0x1b
# in every byte.  Rotations within each 32-bit lane: by 16 with pshufw,
# by 8 with two shifts.
sub xtime_mmx {
    my ($x, $t) = @_;
    &pxor($t, $t);
    &pcmpgtb($t, $x);          # 0xff where the top bit is set
    &pand($t, "mm7");
    &paddb($x, $x);
    &pxor($x, $t);
}

sub mix_mmx {
    my ($x, $r8, $t) = @_;
    &movq($r8, $x);
    &psrld($r8, 8);
    &movq($t, $x);
    &pslld($t, 24);
    &por($r8, $t);
    &pxor($x, $r8);
    &pshufw($t, $x, 0xb1);
    &pxor($r8, $t);
    xtime_mmx($x, $t);
    &pxor($x, $r8);
}

sub inv_pre_mmx {
    my ($x, $u, $t) = @_;
    &pshufw($u, $x, 0xb1);
    &pxor($u, $x);
    xtime_mmx($u, $t);
    xtime_mmx($u, $t);
    &pxor($x, $u);
}

# ----------------------------------------------------------- the rounds
my %BODY;
$BODY{full} = sub {
    my ($dir) = @_;
    state_from_scratch(byte_round($dir, \&t_lookup));
};
$BODY{compact} = sub {
    my ($dir) = @_;
    state_from_scratch(byte_round($dir, s_lookup(0)));
    if ($dir < 0) { inv_pre_int($_) for @S }
    mix_int($_) for @S;
};
# Each column goes from esi straight into an MMX register (movd; paired
# with punpckldq) and back with movd and psrlq.  Through memory, a 64-bit
# load of two words just stored separately cannot be forwarded from the
# stores and waits for them to reach the cache: natively (bench/x86mca.pl)
# that path took 25.5 c/B for AES-128 encryption and 48.9 for CBC
# decryption, against 18.0 and 22.6 this way.
my @MMX_OF = qw(mm0 mm2 mm1 mm3);   # column j's register before pairing
$BODY{sse} = sub {
    my ($dir) = @_;
    my $last = byte_round($dir, s_lookup(0), sub { &movd($MMX_OF[$_[0]], "esi") });
    &movd($MMX_OF[$last], "esi");
    &punpckldq("mm0", "mm2");
    &punpckldq("mm1", "mm3");
    if ($dir < 0) { inv_pre_mmx("mm0", "mm2", "mm3"); inv_pre_mmx("mm1", "mm4", "mm5") }
    mix_mmx("mm0", "mm2", "mm3");
    mix_mmx("mm1", "mm4", "mm5");
    for my $h (0, 1) {
        my $x = "mm$h";
        &movd($S[2 * $h], $x);
        &psrlq($x, 32);
        &movd($S[2 * $h + 1], $x);
    }
};

sub add_round_key {
    my ($off) = @_;
    &xor($S[$_], &DWP($off + 4 * $_, "edi")) for 0 .. 3;
}

# The round loop's key pointer in slot $kp, from the key (in edi) to its
# round key Nr-1, whose address goes to slot $kend.
sub loop_bounds {
    my ($kp, $kend) = @_;
    &mov(scratch($kp), "edi");
    &mov("esi", &DWP(240, "edi"));
    &shl("esi", 4);
    &lea("esi", &DWP(-16, "edi", "esi"));
    &mov(scratch($kend), "esi");
}
# The next round key into edi (and slot $kp).
sub next_round_key {
    my ($kp) = @_;
    &mov("edi", scratch($kp));
    &add("edi", 16);
    &mov(scratch($kp), "edi");
}
sub loop_until_kend { my ($kend) = @_; &cmp("edi", scratch($kend)); &jne(&label("round")) }

# Unrolled rounds are written out for 14 rounds; with Nr rounds the key
# pointer (slot $kp) is moved back by 16*(14-Nr) and the sequence entered
# at round 15-Nr (labels from3, from5).
sub unrolled_entry {
    my ($kp) = @_;
    &mov("esi", &DWP(240, "edi"));
    &shl("esi", 4);
    &lea("edi", &DWP(-224, "edi", "esi"));
    &mov(scratch($kp), "edi");
    &cmp("esi", 160);
    &je(&label("from5"));
    &cmp("esi", 192);
    &je(&label("from3"));
}

# Rounds 1..Nr-1 by $body, then the last by $last, with the round keys.
sub all_rounds {
    my ($body, $last) = @_;
    add_round_key(0);
    if ($OPT{small_footprint}) {
        loop_bounds($SLOT{kp}, $SLOT{kend});
        &set_label("round", 16);
        $body->();
        next_round_key($SLOT{kp});
        add_round_key(0);
        loop_until_kend($SLOT{kend});
        $last->();
        &mov("edi", scratch($SLOT{kp}));
        add_round_key(16);
        return;
    }
    unrolled_entry($SLOT{kp});
    for my $k (1 .. 13) {
        &set_label("from$k", 16) if $k == 3 || $k == 5;
        $body->();
        &mov("edi", scratch($SLOT{kp}));
        add_round_key(16 * $k);
    }
    $last->();
    &mov("edi", scratch($SLOT{kp}));
    add_round_key(224);
}

# Every line of a 256-byte table read before any secret-indexed access
# (32-byte steps: the line size of the oldest CPUs that run this).
sub touch_lines {
    my ($reg) = @_;
    &mov($reg, &DWP($_, "ebp")) for map { 32 * $_ } 0 .. 7;
}

sub block_function {
    my ($dir, $path) = @_;
    my $name = "_aes586_" . ($dir > 0 ? "encrypt" : "decrypt") . "_$path";
    &function_begin_B($name);
    if ($path ne 'full') {
        touch_lines("esi");
        &movq("mm7", &QWP($TAB{c1b} - $TAB{ $dir > 0 ? 'sbox' : 'isbox' }, "ebp")) if $path eq 'sse';
    }
    my $last = $path eq 'full'
        ? sub { state_from_scratch(byte_round($dir, row_lookup($dir))) }
        : sub { state_from_scratch(byte_round($dir, s_lookup(0))) };
    all_rounds(sub { $BODY{$path}->($dir) }, $last);
    &ret();
    &function_end_B($name);
}

for my $dir (1, -1) {
    block_function($dir, $_) for 'full', 'compact', ($x86only ? () : 'sse');
}

# Two blocks through the T-tables at once, for CBC decryption, where the
# blocks are independent: their rounds alternate, so one block's lookups
# run while the other's wait on their latency (one block at a time waits
# on every round; measured natively, bench/x86mca.pl).  Each block's state
# stays in its slot between its rounds: a block-round reloads it, adds the
# round key and stores its four outputs back, one store and one reload
# more than the one-block round.  In: the blocks in slots a and b, key in
# edi, table in ebp; out: the results in the slots.
sub block2_round {
    my ($dir, $lookup, $slot, $koff) = @_;
    &mov("edi", scratch($SLOT2{kp}));
    &mov($S[$_], scratch($slot + 4 * $_)) for 0 .. 3;
    &xor($S[$_], &DWP($koff + 4 * $_, "edi")) for 0 .. 3;
    my $last = byte_round($dir, $lookup, sub { &mov(scratch($slot + 4 * $_[0]), "esi") });
    &mov(scratch($slot + 4 * $last), "esi");
}

sub block2_function {
    my ($dir) = @_;
    my $name = "_aes586_" . ($dir > 0 ? "encrypt" : "decrypt") . "2_full";
    my $both = sub { my ($lookup, $koff) = @_; block2_round($dir, $lookup, $SLOT2{$_}, $koff) for 'a', 'b' };
    my $koff_final;                     # K_Nr from kp after the last round
    local $ror_weight = 1;
    &function_begin_B($name);
    if ($OPT{small_footprint}) {
        # K_r is added at the start of round r+1: kp runs from K_0 to K_{Nr-1}
        loop_bounds($SLOT2{kp}, $SLOT2{kend});
        &set_label("round", 16);
        $both->(\&t_lookup, 0);
        next_round_key($SLOT2{kp});
        loop_until_kend($SLOT2{kend});
        $both->(row_lookup($dir), 0);
        $koff_final = 16;
    } else {
        unrolled_entry($SLOT2{kp});
        for my $k (1 .. 13) {
            &set_label("from$k", 16) if $k == 3 || $k == 5;
            $both->(\&t_lookup, 16 * ($k - 1));
        }
        $both->(row_lookup($dir), 16 * 13);
        $koff_final = 16 * 14;
    }
    &mov("edi", scratch($SLOT2{kp}));
    for my $slot (@SLOT2{'a', 'b'}) {
        for (0 .. 3) {
            &mov("eax", scratch($slot + 4 * $_));
            &xor("eax", &DWP($koff_final + 4 * $_, "edi"));
            &mov(scratch($slot + 4 * $_), "eax");
        }
    }
    &ret();
    &function_end_B($name);
}
block2_function(-1);

# ------------------------------------------------------ entry points
# The table for a direction and path into ebp.
sub table_into_ebp {
    my ($dir, $path) = @_;
    my $t = $path eq 'full' ? ($dir > 0 ? 'te' : 'td') : ($dir > 0 ? 'sbox' : 'isbox');
    &picmeup("ebp", &label("tables"));
    &add("ebp", $TAB{$t}) if $TAB{$t};
}

# frame: esp to a 64-byte aligned frame of $FRAME bytes below the
# arguments; stores the registers named in %keep in it first.
sub switch_to_frame {
    my (%keep) = @_;
    &lea("eax", &DWP(-$FRAME, "esp"));
    &and("eax", -64);
    &mov(&DWP($F{$_}, "eax"), $keep{$_}) for sort keys %keep;
    &switch_stack("eax", $F{saved});
}

# Records in the frame whether the compact path may use MMX/SSE.
sub note_sse {
    return if $x86only;
    &picmeup("eax", "OPENSSL_ia32cap_P");
    &bt(&DWP(4 * Common::IA32Cap::word('sse'), "eax"), Common::IA32Cap::bit('sse'));
    &sbb("eax", "eax");
    &mov(&DWP($F{sse}, "esp"), "eax");
}

my $calls = 0;
sub call_block {
    my ($dir, $path) = @_;
    my $d = $dir > 0 ? "encrypt" : "decrypt";
    if ($path eq 'full' || $x86only) { &call("_aes586_${d}_$path"); return }
    my $n = $calls++;
    &cmp(&DWP($F{sse}, "esp"), 0);
    &jne(&label("sse$n"));
    &call("_aes586_${d}_compact");
    &jmp(&label("called$n"));
    &set_label("sse$n");
    &call("_aes586_${d}_sse");
    &set_label("called$n");
}

sub leave_mmx {
    return if $x86only;
    &cmp(&DWP($F{sse}, "esp"), 0);
    &je(&label("no_emms"));
    &emms();
    &set_label("no_emms");
}

sub load_state  { my ($p, $off) = @_; &mov($S[$_], &DWP(($off // 0) + 4 * $_, $p)) for 0 .. 3 }
sub store_state { my ($p, $off) = @_; &mov(&DWP(($off // 0) + 4 * $_, $p), $S[$_]) for 0 .. 3 }

# void NAME(const unsigned char *in, unsigned char *out, const AES_KEY *key)
# One block needs no aligned frame: the round function's scratch and the
# SSE flag go just below the pushed registers (sub/add esp, which the CFI
# follows), so a call has no frame to set up and no esp to reload.
sub one_block_function {
    my ($name, $dir, $path) = @_;
    my $frame = $F{sse} + 4;                        # scratch, then the SSE flag
    &function_begin($name);
    &mov("esi", &wparam(0));
    &mov("edi", &wparam(2));
    &sub("esp", $frame);
    note_sse() if $path eq 'compact';
    load_state("esi");
    table_into_ebp($dir, $path);
    call_block($dir, $path);
    leave_mmx() if $path eq 'compact';
    &add("esp", $frame);
    &mov("esi", &wparam(1));
    store_state("esi");
    &function_end($name);
}

# void NAME(in, out, size_t len, const AES_KEY *key, unsigned char *ivec,
#           const int enc), OpenSSL's semantics for a partial last block:
# encryption pads it with zeros and writes a whole block, decryption
# reads a whole block and writes len bytes; ivec is updated.
sub cbc_function {
    my ($name, $path) = @_;
    &function_begin($name);
    &mov("ecx", &wparam(2));
    &test("ecx", "ecx");
    &jz(&label("nothing"));
    my %keep;
    my @args = qw(in out len key ivec);
    for my $k (0 .. $#args) {
        my $r = (qw(ebx ecx edx esi edi))[$k];
        &mov($r, &wparam($k));
        $keep{ $args[$k] } = $r;
    }
    &mov("ebp", &wparam(5));
    switch_to_frame(%keep);
    note_sse() if $path eq 'compact';
    &test("ebp", "ebp");
    &jz(&label("dec"));

    # --- encryption: the chaining value stays in eax..edx
    table_into_ebp(1, $path);
    &mov("esi", &DWP($F{ivec}, "esp"));
    load_state("esi");
    &set_label("enc_loop", 16);
    &mov("esi", &DWP($F{in}, "esp"));
    &cmp(&DWP($F{len}, "esp"), 16);
    &jb(&label("enc_partial"));
    &set_label("enc_block");
    &xor($S[$_], &DWP(4 * $_, "esi")) for 0 .. 3;
    &mov("edi", &DWP($F{key}, "esp"));
    call_block(1, $path);
    &mov("esi", &DWP($F{out}, "esp"));
    store_state("esi");
    &add(&DWP($F{in}, "esp"), 16);
    &add(&DWP($F{out}, "esp"), 16);
    &sub(&DWP($F{len}, "esp"), 16);
    &jnz(&label("enc_loop"));
    &mov("esi", &DWP($F{ivec}, "esp"));
    store_state("esi");
    &jmp(&label("done"));

    &set_label("enc_partial");
    # the last len < 16 bytes, zero-padded, in the frame's block
    &mov(&DWP($F{block} + 4 * $_, "esp"), 0) for 0 .. 3;
    &mov(&DWP($F{spare}, "esp"), "ecx");            # rep movsb counts in ecx
    &mov("ecx", &DWP($F{len}, "esp"));
    &lea("edi", &DWP($F{block}, "esp"));
    &rep_movsb();
    &mov("ecx", &DWP($F{spare}, "esp"));
    &lea("esi", &DWP($F{block}, "esp"));
    &mov(&DWP($F{in}, "esp"), "esi");
    &mov(&DWP($F{len}, "esp"), 16);
    &jmp(&label("enc_block"));

    # --- decryption: the chaining value in the frame
    &set_label("dec");
    table_into_ebp(-1, $path);
    &mov("esi", &DWP($F{ivec}, "esp"));
    load_state("esi");
    store_state("esp", $F{chain});
    if ($path eq 'full') {
        # two blocks at a time while 32 bytes are left: C1 and C2 are kept
        # in the frame (out may be in), P1 = D(C1) ^ chain, P2 = D(C2) ^ C1
        &cmp(&DWP($F{len}, "esp"), 32);
        &jb(&label("dec_loop"));
        &set_label("dec2_loop", 16);
        &mov("esi", &DWP($F{in}, "esp"));
        for my $h (0, 1) {
            load_state("esi", 16 * $h);
            store_state("esp", $F{ $h ? 'c2' : 'c1' });
            store_state("esp", $SLOT2{ $h ? 'b' : 'a' });
        }
        &mov("edi", &DWP($F{key}, "esp"));
        &call("_aes586_decrypt2_full");
        &mov("edi", &DWP($F{out}, "esp"));
        for my $h (0, 1) {
            load_state("esp", $SLOT2{ $h ? 'b' : 'a' });
            &xor($S[$_], &DWP($F{ $h ? 'c1' : 'chain' } + 4 * $_, "esp")) for 0 .. 3;
            store_state("edi", 16 * $h);
        }
        load_state("esp", $F{c2});
        store_state("esp", $F{chain});
        &add(&DWP($F{in}, "esp"), 32);
        &add(&DWP($F{out}, "esp"), 32);
        &sub(&DWP($F{len}, "esp"), 32);
        &jz(&label("dec_end"));
        &cmp(&DWP($F{len}, "esp"), 32);
        &jae(&label("dec2_loop"));
    }
    &set_label("dec_loop", 16);
    &mov("esi", &DWP($F{in}, "esp"));
    load_state("esi");
    &mov("edi", &DWP($F{key}, "esp"));
    call_block(-1, $path);
    &mov("esi", &DWP($F{in}, "esp"));
    for (0 .. 3) {
        &xor($S[$_], &DWP($F{chain} + 4 * $_, "esp"));
        &mov("edi", &DWP(4 * $_, "esi"));          # read before out is written
        &mov(&DWP($F{chain} + 4 * $_, "esp"), "edi");
    }
    &mov("edi", &DWP($F{out}, "esp"));
    &cmp(&DWP($F{len}, "esp"), 16);
    &jb(&label("dec_partial"));
    store_state("edi");
    &add(&DWP($F{in}, "esp"), 16);
    &add(&DWP($F{out}, "esp"), 16);
    &sub(&DWP($F{len}, "esp"), 16);
    &jnz(&label("dec_loop"));
    &set_label("dec_end");
    &mov("esi", &DWP($F{ivec}, "esp"));
    load_state("esp", $F{chain});
    store_state("esi");

    &set_label("done");
    leave_mmx() if $path eq 'compact';
    &restore_stack();
    &set_label("nothing");
    &function_end_A();

    &set_label("dec_partial");
    # a whole block was read; only len bytes are written
    store_state("esp", $F{block});
    &lea("esi", &DWP($F{block}, "esp"));
    &mov("ecx", &DWP($F{len}, "esp"));
    &rep_movsb();
    &jmp(&label("dec_end"));
    &function_end_B($name);
}

one_block_function("AES_encrypt", 1, 'compact');
one_block_function("AES_decrypt", -1, 'compact');
&hidden("aes586_encrypt_full", "aes586_decrypt_full",
        "aes586_cbc_encrypt_full", "aes586_cbc_encrypt_compact");
one_block_function("aes586_encrypt_full", 1, 'full');
one_block_function("aes586_decrypt_full", -1, 'full');
cbc_function("aes586_cbc_encrypt_full", 'full');
cbc_function("aes586_cbc_encrypt_compact", 'compact');

# AES_cbc_encrypt: the full tables for long buffers, where speed matters
# and the exposure is that of any table AES; the compact path below.
&function_begin_B("AES_cbc_encrypt");
    &cmp(&wparam(2), $OPT{cbc_thresh});
    &jae(&label("full"));
    &jmp("aes586_cbc_encrypt_compact");
&set_label("full");
    &jmp("aes586_cbc_encrypt_full");
&function_end_B("AES_cbc_encrypt");

# ------------------------------------------------------- key schedule
# SubWord of eax through the S-box at ebp, a byte at a time (four
# rotations bring the word back); edx clobbered.
sub sub_word {
    for (1 .. 4) {
        &rol("eax", 8);
        &movzx("edx", "al");
        &movzx("edx", &BP(0, "ebp", "edx", 1));
        &mov("al", "dl");
    }
}

# FIPS-197 5.2 KeyExpansion.  In: esi key, ecx bits, edi schedule.
# Out: eax 0, -1 (NULL pointer) or -2 (bits not 128/192/256).
# Clobbers every register but esp.
&function_begin_B("_aes586_expand_key");
    &mov("eax", -1);
    &test("esi", "esi");
    &jz(&label("ret"));
    &test("edi", "edi");
    &jz(&label("ret"));
    &mov("eax", -2);
    for my $k ([128, 10], [192, 12], [256, 14]) {
        &mov("edx", $k->[1]);
        &cmp("ecx", $k->[0]);
        &je(&label("bits"));
    }
    &jmp(&label("ret"));
&set_label("bits");
    &mov(&DWP(240, "edi"), "edx");
    &lea("ecx", &DWP(-6, "edx"));                  # Nk
    &picmeup("ebp", &label("tables"));
    &add("ebp", $TAB{sbox});
    touch_lines("eax");
    &sub("esp", 8);                                # 0: end, 4: rcon
    &shl("edx", 4);
    &lea("edx", &DWP(16, "edi", "edx"));
    &mov(&DWP(0, "esp"), "edx");
    &mov(&DWP(4, "esp"), 1);
    &xor("edx", "edx");
&set_label("copy");
    &mov("eax", &DWP(0, "esi", "edx", 4));
    &mov(&DWP(0, "edi", "edx", 4), "eax");
    &inc("edx");
    &cmp("edx", "ecx");
    &jne(&label("copy"));
    &lea("edi", &DWP(0, "edi", "ecx", 4));
    &lea("ebx", &DWP(0, "", "ecx", 4));
    &neg("ebx");                                   # -4 Nk
    &xor("esi", "esi");                            # i mod Nk
&set_label("word");
    &mov("eax", &DWP(-4, "edi"));
    &test("esi", "esi");
    &jnz(&label("not_first"));
    &ror("eax", 8);                                # RotWord (little-endian)
    sub_word();
    &xor("eax", &DWP(4, "esp"));
    &mov("edx", &DWP(4, "esp"));
    &add("edx", "edx");
    &cmp("edx", 0x100);
    &jb(&label("rcon"));
    &xor("edx", 0x11b);
&set_label("rcon");
    &mov(&DWP(4, "esp"), "edx");
    &jmp(&label("store"));
&set_label("not_first");
    &cmp("ecx", 8);
    &jne(&label("store"));
    &cmp("esi", 4);
    &jne(&label("store"));
    sub_word();
&set_label("store");
    &xor("eax", &DWP(0, "edi", "ebx"));
    &mov(&DWP(0, "edi"), "eax");
    &add("edi", 4);
    &inc("esi");
    &cmp("esi", "ecx");
    &jne(&label("next"));
    &xor("esi", "esi");
&set_label("next");
    &cmp("edi", &DWP(0, "esp"));
    &jne(&label("word"));
    &add("esp", 8);
    &xor("eax", "eax");
&set_label("ret");
    &ret();
&function_end_B("_aes586_expand_key");

# int AES_set_encrypt_key(const unsigned char *key, const int bits, AES_KEY *k)
&function_begin("AES_set_encrypt_key");
    &mov("esi", &wparam(0));
    &mov("ecx", &wparam(1));
    &mov("edi", &wparam(2));
    &call("_aes586_expand_key");
&function_end("AES_set_encrypt_key");

# int AES_set_decrypt_key(...): the encryption schedule, round keys in
# reverse order, InvMixColumns on those of rounds 1..Nr-1.
&function_begin("AES_set_decrypt_key");
    &mov("esi", &wparam(0));
    &mov("ecx", &wparam(1));
    &mov("edi", &wparam(2));
    &call("_aes586_expand_key");
    &test("eax", "eax");
    &jnz(&label("done"));
    &mov("edi", &wparam(2));
    &mov("ecx", &DWP(240, "edi"));
    &shl("ecx", 4);
    &lea("esi", &DWP(0, "edi", "ecx"));
&set_label("swap");
    for (0 .. 3) {
        &mov("eax", &DWP(4 * $_, "edi"));
        &mov("edx", &DWP(4 * $_, "esi"));
        &mov(&DWP(4 * $_, "esi"), "eax");
        &mov(&DWP(4 * $_, "edi"), "edx");
    }
    &add("edi", 16);
    &sub("esi", 16);
    &cmp("edi", "esi");
    &jb(&label("swap"));
    &mov("ecx", &wparam(2));
    &mov("edx", &DWP(240, "ecx"));
    &shl("edx", 4);
    &add("edx", "ecx");
    &add("ecx", 16);
&set_label("imc");
    &mov("eax", &DWP(0, "ecx"));
    inv_pre_int("eax");
    mix_int("eax");
    &mov(&DWP(0, "ecx"), "eax");
    &add("ecx", 4);
    &cmp("ecx", "edx");
    &jb(&label("imc"));
    &xor("eax", "eax");
&set_label("done");
&function_end("AES_set_decrypt_key");

# ------------------------------------------------------------ data
&rodata();
&align(64);
&set_label("tables");
&data_word(map { my $t = te0($_); ($t, $t) } 0 .. 255);
&data_byte(sbox());
&data_word(map { my $t = td0($_); ($t, $t) } 0 .. 255);
&data_byte(inv_sbox());
&data_word(map { $_ << 24 } sbox());
&data_word(map { $_ << 24 } inv_sbox());
&data_word(0, 0);
&data_byte((0x1b) x 8);

&asm_finish();
