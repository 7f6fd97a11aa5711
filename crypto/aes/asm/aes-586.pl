#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# Table-based AES for 32-bit x86 (i386 cdecl) with the five global
# functions of OpenSSL 3.0's aes-586 (AES_set_encrypt_key,
# AES_set_decrypt_key, AES_encrypt, AES_decrypt, AES_cbc_encrypt; its
# others are private, its tables local, no asm_AES_* aliases) and, hidden,
# aes586_{encrypt,decrypt}_full and aes586_cbc_encrypt_{full,compact} for
# the tests and the benchmark.  Written against perlasm/x86asm.pl; the
# parts are packages in AES586/ (Tables, Frame, RoundPlan, ByteRound,
# MixColumns; Perlasm lends them the layer's API).
#
#   perl crypto/aes/asm/aes-586.pl FLAVOUR [-fPIC] [-DOPENSSL_IA32_SSE2]
#        [-DAES586_small_footprint=0|1] [-DAES586_<tuning>=N] [386] [OUTPUT]
# -DOPENSSL_IA32_SSE2 changes nothing (the SSE path is MMX and pshufw).
# small_footprint=1 (the default) loops over the rounds, 0 writes all 13
# out (shorter keys jump in); 386 leaves out every MMX/SSE path.  %OPT's
# tuning switches choose between instruction forms (docs/performance.md).
#
# Rounds as aes-x86_64.pl: full (T-tables, Tables; each lookup's line
# depends on a secret byte) for AES_cbc_encrypt from cbc_thresh bytes,
# decrypting two blocks at a time; compact (the S-box only, every line
# read before each block, MixColumns on packed bytes: in MMX registers,
# two columns at a time, when the CPU has SSE: the variant mmx of
# aes-586.dispatch, else integer) for the rest: it narrows the
# cache-timing exposure, it is not constant time.  Each compact variant
# has its fixed paths (AES_encrypt_mmx...), written after the key
# schedule: the same code with the choice made.
# Key schedule as aes_core.c: little-endian words, rounds at byte 240.
# The rounds are private functions: state in eax, ebx, ecx, edx, the key
# in edi, the table in ebp, scratch in the caller's frame above the
# return address; called directly, so only the entries get endbr32.  The
# CBC entries move esp to a 64-byte aligned frame with &switch_stack (the
# CFI stays exact); the one-block entries make room below their pushes.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..", $FindBin::Bin;
push(@INC, "$FindBin::Bin/../../../perlasm");
require "x86asm.pl";
require Common::Dispatch;   # perlasm/lib, on @INC once x86asm.pl is loaded
require X86::Dispatch;
use AES586::Tables;
use AES586::Frame;
use AES586::ByteRound;
use AES586::MixColumns;

# Set once, by the command line (-DAES586_NAME=N); read-only after.
my %OPT = (
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
&asm_init($ARGV[0], 0, AES586_ => \%OPT);
my $x86only = do { no warnings 'once'; $main::x86only };

# The one-block rounds are planned with the ror weight asked for; the
# two-block rounds always with 1 (docs/performance.md has the comparison).
my %ROUND_FORMS = (movzbl => $OPT{movzbl}, mask24 => $OPT{mask24});
my $ONE_BLOCK = AES586::ByteRound->new(%ROUND_FORMS,
    ror_weight => $OPT{ror_weight} // ($OPT{small_footprint} ? 1 : 3));
my $TWO_BLOCK = AES586::ByteRound->new(%ROUND_FORMS, ror_weight => 1);
my $MIX = AES586::MixColumns->new(imul => $OPT{imul});

# The variants of the compact rounds: aes-586.dispatch.
my $DECL = Common::Dispatch::for_script(__FILE__);
X86::Dispatch::declare_caps() unless $x86only;
# The function being written: OpenSSL's entry (undef), which chooses the
# compact variant per call, or a variant's fixed path (its name).
our $FIXED;

sub table_at { my ($name) = @_; return AES586::Tables::offset($name) }   # in the table block
my $ROUNDS_AT = 240;          # AES_KEY: the number of rounds, after the keys
my @S = qw(eax ebx ecx edx);

# Stack slots (Frame.pm): in the entry points' frame at esp, and as the
# private round functions see them, above their return address.
sub slot    { my ($slot, $word) = @_; return AES586::Frame::offset($slot, $word) }
sub frame   { my ($slot, $word) = @_; return &DWP(slot($slot, $word), "esp") }
sub scratch { my ($slot, $word) = @_; return &DWP(4 + slot($slot, $word), "esp") }

# A one-block pass (ByteRound.pm) whose first three outputs go to their
# scratch slots, unless $keep moves them elsewhere.
sub byte_round {
    my ($dir, $lookup, $keep) = @_;
    return $ONE_BLOCK->pass($dir, $lookup, $keep // sub { &mov(scratch('round_out', $_[0]), "esi") });
}

# The round's outputs into eax..edx; $last is the one still in esi.
sub state_from_scratch {
    my ($last) = @_;
    &mov($S[$last], "esi");
    &mov($S[$_], scratch('round_out', $_)) for grep { $_ != $last } 0 .. 3;
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
    my $disp = $dir > 0 ? table_at('tl') - table_at('te') : table_at('itl') - table_at('td');
    return sub {
        my ($idx, $b) = @_;
        my $m = &DWP($disp + 3 - $b, "ebp", $idx, 4);
        $b ? &xor("esi", $m) : &mov("esi", $m);
    };
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
    if ($dir < 0) { $MIX->inv_pre_int($_) for @S }
    $MIX->mix_int($_) for @S;
};
# Each column goes from esi straight into an MMX register (movd; paired
# with punpckldq) and back with movd and psrlq.  Through memory, a 64-bit
# load of two words just stored separately cannot be forwarded from the
# stores and waits for them to reach the cache.
my @MMX_OF = qw(mm0 mm2 mm1 mm3);   # column j's register before pairing
$BODY{sse} = sub {
    my ($dir) = @_;
    my $last = byte_round($dir, s_lookup(0), sub { &movd($MMX_OF[$_[0]], "esi") });
    &movd($MMX_OF[$last], "esi");
    &punpckldq("mm0", "mm2");
    &punpckldq("mm1", "mm3");
    if ($dir < 0) { $MIX->inv_pre_mmx("mm0", "mm2", "mm3"); $MIX->inv_pre_mmx("mm1", "mm4", "mm5") }
    $MIX->mix_mmx("mm0", "mm2", "mm3");
    $MIX->mix_mmx("mm1", "mm4", "mm5");
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
# round key Nr-1, whose address goes to slot $kend (slot names, Frame.pm).
sub loop_bounds {
    my ($kp, $kend) = @_;
    &mov(scratch($kp), "edi");
    &mov("esi", &DWP($ROUNDS_AT, "edi"));
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
# at round 15-Nr (labels from5, from3).
my $MAX_ROUNDS = 14;
my @SHORTER_ROUNDS = (10, 12);
sub entry_label { my ($nr) = @_; return "from" . ($MAX_ROUNDS + 1 - $nr) }
sub unrolled_entry {
    my ($kp) = @_;
    &mov("esi", &DWP($ROUNDS_AT, "edi"));
    &shl("esi", 4);
    &lea("edi", &DWP(-16 * $MAX_ROUNDS, "edi", "esi"));
    &mov(scratch($kp), "edi");
    for my $nr (@SHORTER_ROUNDS) {
        &cmp("esi", 16 * $nr);
        &je(&label(entry_label($nr)));
    }
}
# Round $k of the unrolled sequence, with its entry label if it has one.
sub unrolled_round_label {
    my ($k) = @_;
    &set_label("from$k", 16) if grep { entry_label($_) eq "from$k" } @SHORTER_ROUNDS;
}

# Rounds 1..Nr-1 by $body, then the last by $last, with the round keys.
sub all_rounds {
    my ($body, $last) = @_;
    add_round_key(0);
    if ($OPT{small_footprint}) {
        loop_bounds('key_ptr', 'key_end');
        &set_label("round", 16);
        $body->();
        next_round_key('key_ptr');
        add_round_key(0);
        loop_until_kend('key_end');
        $last->();
        &mov("edi", scratch('key_ptr'));
        add_round_key(16);
        return;
    }
    unrolled_entry('key_ptr');
    for my $k (1 .. $MAX_ROUNDS - 1) {
        unrolled_round_label($k);
        $body->();
        &mov("edi", scratch('key_ptr'));
        add_round_key(16 * $k);
    }
    $last->();
    &mov("edi", scratch('key_ptr'));
    add_round_key(16 * $MAX_ROUNDS);
}

# Every line of the S-box at ebp (or the inverse: the same size) read
# before any secret-indexed access (32-byte steps: the line size of the
# oldest CPUs that run this).
sub touch_lines {
    my ($reg) = @_;
    &mov($reg, &DWP($_, "ebp")) for map { 32 * $_ } 0 .. AES586::Tables::size('sbox') / 32 - 1;
}

sub block_function {
    my ($dir, $path) = @_;
    my $name = "_aes586_" . ($dir > 0 ? "encrypt" : "decrypt") . "_$path";
    &function_begin_B($name);
    if ($path ne 'full') {
        touch_lines("esi");
        &movq("mm7", &QWP(table_at('c1b') - table_at($dir > 0 ? 'sbox' : 'isbox'), "ebp")) if $path eq 'sse';
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
# on every round).  Each block's state
# stays in its slot between its rounds: a block-round reloads it, adds the
# round key and stores its four outputs back, one store and one reload
# more than the one-block round.  In: the blocks in slots pair_a and
# pair_b, key in edi, table in ebp; out: the results in the slots.
sub block2_round {
    my ($dir, $lookup, $slot, $koff) = @_;
    &mov("edi", scratch('pair_key_ptr'));
    &mov($S[$_], scratch($slot, $_)) for 0 .. 3;
    &xor($S[$_], &DWP($koff + 4 * $_, "edi")) for 0 .. 3;
    my $last = $TWO_BLOCK->pass($dir, $lookup, sub { &mov(scratch($slot, $_[0]), "esi") });
    &mov(scratch($slot, $last), "esi");
}

sub block2_function {
    my ($dir) = @_;
    my $name = "_aes586_" . ($dir > 0 ? "encrypt" : "decrypt") . "2_full";
    my $both = sub { my ($lookup, $koff) = @_; block2_round($dir, $lookup, $_, $koff) for 'pair_a', 'pair_b' };
    my $koff_final;                     # K_Nr from kp after the last round
    &function_begin_B($name);
    if ($OPT{small_footprint}) {
        # K_r is added at the start of round r+1: kp runs from K_0 to K_{Nr-1}
        loop_bounds('pair_key_ptr', 'pair_key_end');
        &set_label("round", 16);
        $both->(\&t_lookup, 0);
        next_round_key('pair_key_ptr');
        loop_until_kend('pair_key_end');
        $both->(row_lookup($dir), 0);
        $koff_final = 16;
    } else {
        unrolled_entry('pair_key_ptr');
        for my $k (1 .. $MAX_ROUNDS - 1) {
            unrolled_round_label($k);
            $both->(\&t_lookup, 16 * ($k - 1));
        }
        $both->(row_lookup($dir), 16 * ($MAX_ROUNDS - 1));
        $koff_final = 16 * $MAX_ROUNDS;
    }
    &mov("edi", scratch('pair_key_ptr'));
    for my $slot ('pair_a', 'pair_b') {
        for (0 .. 3) {
            &mov("eax", scratch($slot, $_));
            &xor("eax", &DWP($koff_final + 4 * $_, "edi"));
            &mov(scratch($slot, $_), "eax");
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
    &picmeup("ebp", &label(AES586::Tables::LABEL));
    &add("ebp", table_at($t)) if table_at($t);
}

# esp to an aligned frame of Frame.pm's BYTES below the arguments; then
# stores the registers in %keep (slot name => register, not eax) in it.
# On the full path the frame goes where its page offset is in the tables'
# cold 1 KiB (Tables.pm's full_cold), up to 4 KiB lower: a load whose
# address matches an earlier store's in bits 0-11 waits for it (4K
# aliasing), and the rounds store to the frame between table loads.
sub switch_to_frame {
    my ($path, %keep) = @_;
    if ($path eq 'full') {
        my ($cold, $cold_end) = AES586::Tables::full_cold();
        # the frame and the return address the rounds' call pushes below it
        my $at = ($cold + 4 + AES586::Frame::ALIGN - 1) & -AES586::Frame::ALIGN;
        die "aes-586: the CBC frame does not fit the tables' cold page offsets\n"
            if $at + AES586::Frame::BYTES > $cold_end || AES586::Frame::ALIGN > 64;
        # eax = esp - BYTES - ((esp - BYTES - at - tables) mod 4096): its
        # page offset is the tables' plus at, and it is 64-byte aligned as
        # the tables are
        &picmeup("eax", &label(AES586::Tables::LABEL));
        &neg("eax");
        &lea("eax", &DWP(-AES586::Frame::BYTES - $at, "esp", "eax"));
        &and("eax", 4095);
        &neg("eax");
        &lea("eax", &DWP(-AES586::Frame::BYTES, "esp", "eax"));
    } else {
        &lea("eax", &DWP(-AES586::Frame::BYTES, "esp"));
        &and("eax", -AES586::Frame::ALIGN);
    }
    &switch_stack("eax", slot('saved_esp'));
    &mov(&DWP(slot($_), "esp"), $keep{$_}) for sort keys %keep;
}

# Records in the frame whether the compact path may use MMX/SSE (a fixed
# path knows).
sub note_sse {
    return if $x86only || defined $FIXED;
    X86::Dispatch::variant_flag($DECL, 'mmx', 'eax');
    &mov(frame('sse_flag'), "eax");
}

my $calls = 0;
sub call_block {
    my ($dir, $path) = @_;
    my $d = $dir > 0 ? "encrypt" : "decrypt";
    if ($path eq 'full' || $x86only) { &call("_aes586_${d}_$path"); return }
    if (defined $FIXED) { &call("_aes586_${d}_" . ($FIXED eq 'mmx' ? 'sse' : 'compact')); return }
    my $n = $calls++;
    &cmp(frame('sse_flag'), 0);
    &jne(&label("sse$n"));
    &call("_aes586_${d}_compact");
    &jmp(&label("called$n"));
    &set_label("sse$n");
    &call("_aes586_${d}_sse");
    &set_label("called$n");
}

sub leave_mmx {
    return if $x86only || ($FIXED // '') eq 'integer';
    if (defined $FIXED) { &emms(); return }
    &cmp(frame('sse_flag'), 0);
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
    my $frame = AES586::Frame::end('sse_flag');     # scratch, then the SSE flag
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
    switch_to_frame($path, %keep);
    note_sse() if $path eq 'compact';
    &test("ebp", "ebp");
    &jz(&label("dec"));

    # --- encryption: the chaining value stays in eax..edx
    table_into_ebp(1, $path);
    &mov("esi", frame('ivec'));
    load_state("esi");
    &set_label("enc_loop", 16);
    &mov("esi", frame('in'));
    &cmp(frame('len'), 16);
    &jb(&label("enc_partial"));
    &set_label("enc_block");
    &xor($S[$_], &DWP(4 * $_, "esi")) for 0 .. 3;
    &mov("edi", frame('key'));
    call_block(1, $path);
    &mov("esi", frame('out'));
    store_state("esi");
    &add(frame('in'), 16);
    &add(frame('out'), 16);
    &sub(frame('len'), 16);
    &jnz(&label("enc_loop"));
    &mov("esi", frame('ivec'));
    store_state("esi");
    &jmp(&label("done"));

    &set_label("enc_partial");
    # the last len < 16 bytes, zero-padded, in the frame's block
    &mov(frame('block', $_), 0) for 0 .. 3;
    &mov(frame('spare'), "ecx");            # rep movsb counts in ecx
    &mov("ecx", frame('len'));
    &lea("edi", frame('block'));
    &rep_movsb();
    &mov("ecx", frame('spare'));
    &lea("esi", frame('block'));
    &mov(frame('in'), "esi");
    &mov(frame('len'), 16);
    &jmp(&label("enc_block"));

    # --- decryption: the chaining value in the frame
    &set_label("dec");
    table_into_ebp(-1, $path);
    &mov("esi", frame('ivec'));
    load_state("esi");
    store_state("esp", slot('chain'));
    if ($path eq 'full') {
        # two blocks at a time while 32 bytes are left: C1 and C2 are kept
        # in the frame (out may be in), P1 = D(C1) ^ chain, P2 = D(C2) ^ C1
        &cmp(frame('len'), 32);
        &jb(&label("dec_loop"));
        &set_label("dec2_loop", 16);
        &mov("esi", frame('in'));
        for my $h (0, 1) {
            load_state("esi", 16 * $h);
            store_state("esp", slot($h ? 'cipher2' : 'cipher1'));
            store_state("esp", slot($h ? 'pair_b' : 'pair_a'));
        }
        &mov("edi", frame('key'));
        &call("_aes586_decrypt2_full");
        &mov("edi", frame('out'));
        for my $h (0, 1) {
            load_state("esp", slot($h ? 'pair_b' : 'pair_a'));
            &xor($S[$_], frame($h ? 'cipher1' : 'chain', $_)) for 0 .. 3;
            store_state("edi", 16 * $h);
        }
        load_state("esp", slot('cipher2'));
        store_state("esp", slot('chain'));
        &add(frame('in'), 32);
        &add(frame('out'), 32);
        &sub(frame('len'), 32);
        &jz(&label("dec_end"));
        &cmp(frame('len'), 32);
        &jae(&label("dec2_loop"));
    }
    &set_label("dec_loop", 16);
    &mov("esi", frame('in'));
    load_state("esi");
    &mov("edi", frame('key'));
    call_block(-1, $path);
    &mov("esi", frame('in'));
    for (0 .. 3) {
        &xor($S[$_], frame('chain', $_));
        &mov("edi", &DWP(4 * $_, "esi"));          # read before out is written
        &mov(frame('chain', $_), "edi");
    }
    &mov("edi", frame('out'));
    &cmp(frame('len'), 16);
    &jb(&label("dec_partial"));
    store_state("edi");
    &add(frame('in'), 16);
    &add(frame('out'), 16);
    &sub(frame('len'), 16);
    &jnz(&label("dec_loop"));
    &set_label("dec_end");
    &mov("esi", frame('ivec'));
    load_state("esp", slot('chain'));
    store_state("esi");

    &set_label("done");
    leave_mmx() if $path eq 'compact';
    &restore_stack();
    &set_label("nothing");
    &function_end_A();

    &set_label("dec_partial");
    # a whole block was read; only len bytes are written
    store_state("esp", slot('block'));
    &lea("esi", frame('block'));
    &mov("ecx", frame('len'));
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
sub cbc_by_length {
    my ($name, $compact) = @_;
    &function_begin_B($name);
        &cmp(&wparam(2), $OPT{cbc_thresh});
        &jae(&label("full"));
        &jmp($compact);
    &set_label("full");
        &jmp("aes586_cbc_encrypt_full");
    &function_end_B($name);
}
cbc_by_length("AES_cbc_encrypt", "aes586_cbc_encrypt_compact");

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

# The key expansion's own slots, below its return address (Frame.pm).
sub expand_slot { my ($slot) = @_; return &DWP(AES586::Frame::expand_offset($slot), "esp") }

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
    &mov(&DWP($ROUNDS_AT, "edi"), "edx");
    &lea("ecx", &DWP(-6, "edx"));                  # Nk
    &picmeup("ebp", &label(AES586::Tables::LABEL));
    &add("ebp", table_at('sbox'));
    touch_lines("eax");
    &sub("esp", AES586::Frame::EXPAND_BYTES);
    &shl("edx", 4);
    &lea("edx", &DWP(16, "edi", "edx"));
    &mov(expand_slot('schedule_end'), "edx");
    &mov(expand_slot('rcon'), 1);
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
    &xor("eax", expand_slot('rcon'));
    &mov("edx", expand_slot('rcon'));
    &add("edx", "edx");
    &cmp("edx", 0x100);
    &jb(&label("rcon"));
    &xor("edx", 0x11b);
&set_label("rcon");
    &mov(expand_slot('rcon'), "edx");
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
    &cmp("edi", expand_slot('schedule_end'));
    &jne(&label("word"));
    &add("esp", AES586::Frame::EXPAND_BYTES);
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
    &mov("ecx", &DWP($ROUNDS_AT, "edi"));
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
    &mov("edx", &DWP($ROUNDS_AT, "ecx"));
    &shl("edx", 4);
    &add("edx", "ecx");
    &add("ecx", 16);
&set_label("imc");
    &mov("eax", &DWP(0, "ecx"));
    $MIX->inv_pre_int("eax");
    $MIX->mix_int("eax");
    &mov(&DWP(0, "ecx"), "eax");
    &add("ecx", 4);
    &cmp("ecx", "edx");
    &jb(&label("imc"));
    &xor("eax", "eax");
&set_label("done");
&function_end("AES_set_decrypt_key");

# ------------------------------------------------------ fixed paths
# OpenSSL's entries again per compact variant (the 386 build has only
# the integer one); CBC's compact code is a private function per variant.
X86::Dispatch::fixed_paths($DECL, sub {
    my ($entry, $symbol, $variant) = @_;
    local $FIXED = $variant;
    if ($entry eq 'AES_cbc_encrypt') {
        my $compact = "_aes586_cbc_compact_$variant";
        cbc_function($compact, 'compact');
        cbc_by_length($symbol, $compact);
    } else {
        one_block_function($symbol, $entry eq 'AES_encrypt' ? 1 : -1, 'compact');
    }
}, $x86only ? 'integer' : ());

# ------------------------------------------------------------ data
AES586::Tables::emit();

&asm_finish();
