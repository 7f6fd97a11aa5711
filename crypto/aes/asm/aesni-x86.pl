#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# AES with the AES-NI instructions for 32-bit x86 (i386 cdecl), exporting
# OpenSSL 3.0's aesni_* names and prototypes (include/crypto/aes_platform.h;
# what OpenSSL needs from this module: tools/openssl-symbols/aesni-x86.txt):
#
#   aesni_set_encrypt_key / aesni_set_decrypt_key   key schedules
#   aesni_encrypt / aesni_decrypt                   one block
#   aesni_ecb_encrypt, aesni_cbc_encrypt            whole blocks
#   aesni_ctr32_encrypt_blocks                      32-bit big-endian counter
#   aesni_xts_encrypt / aesni_xts_decrypt           IEEE 1619, with stealing
#   aesni_ccm64_encrypt_blocks / _decrypt_blocks    CCM bulk
#   aesni_ocb_encrypt / aesni_ocb_decrypt           OCB bulk
#
#   perl crypto/aes/asm/aesni-x86.pl FLAVOUR [-fPIC] -DOPENSSL_IA32_SSE2 [OUTPUT]
# The module is SSE2-and-later code (OpenSSL's no-sse2 build leaves it
# out): without -DOPENSSL_IA32_SSE2, or with "386", it is refused.  The
# xmm paths use only SSE2 and AES-NI, so every CPU with AES-NI runs them.
#
# Key schedule and rounds as aesni-x86_64.pl, so a key scheduled by one
# module works with the other: R = Nr - 1 at byte 240, END = key +
# 16 * (R + 1) in a general register, the middle rounds written out for
# R = 13 and entered two or four rounds later for shorter keys; the entry
# test reads R from the schedule, so no register holds the count.
#
# Registers: eight xmm, so the parallel paths run six blocks (@B below);
# a ymm path (VAES, two blocks a register, @Y below) is chosen at run
# time inside OpenSSL's entries, and each variant has a fixed path
# (NAME_ymm, NAME_xmm: aesni-x86.dispatch), written after them.  General
# registers are named by role in each function (%R); what does not fit
# lives in an aligned frame reached with &switch_stack, so the CFI stays
# exact at every instruction.
use strict;
use warnings;
use FindBin;
use List::Util qw(min);
push(@INC, "$FindBin::Bin/../../../perlasm");
require "x86asm.pl";
require Common::Dispatch;   # perlasm/lib, on @INC once x86asm.pl is loaded
require X86::Dispatch;

&asm_init($ARGV[0], 0);

our ($x86only, $sse2);
die "$0: the 386 build has no AES-NI code\n" if $x86only;
die "$0: AES-NI code needs SSE2: add -DOPENSSL_IA32_SSE2 (OpenSSL's no-sse2 build leaves this module out)\n"
    unless $sse2;
my $DECL = Common::Dispatch::for_script(__FILE__);   # the variants and the ymm path's needs
X86::Dispatch::declare_caps();
# The function being written: OpenSSL's entry (undef) or a variant's
# fixed path (its name); %BULK writes each bulk entry under a given symbol.
our $FIXED;
my %BULK;

my $ROUNDS_AT = 240;
# The parallel paths: xmm0-5 six blocks in flight, xmm6 the round key of
# the current round (scratch once the last round is done), xmm7 the
# mode's running state (CBC's chaining value, XTS's next tweak, CTR's
# counter template ^ K0, OCB's offset); the one-block paths use xmm0 for
# the block and xmm1 for the key.  Why six: a pipelined AES unit wants
# latency / issue interval independent rounds in flight (6 to 8), and
# out-of-order execution overlaps consecutive groups; eight blocks would
# leave no key register, and round keys as memory operands make the
# groups load-bound on a core that loads two vectors a cycle, its aesenc
# rate.  Aligned frame slots serve as pxor/pand operands directly.  What
# goes through memory is read back in the widths it was written: a load
# wider than the stores before it waits for them to retire (CTR's
# counter, CCM's counter copy and XTS's mask are built with that in mind).
my @B = map { "xmm$_" } 0 .. 5;         # the six blocks of the parallel paths
my ($TK, $STATE) = ('xmm6', 'xmm7');    # round key; the mode's state
my $GROUP = scalar @B;

# The ymm path (VAES): vaesenc on a ymm register is two blocks an
# instruction at aesenc's rate.  aesni_ecb_encrypt, aesni_cbc_encrypt's
# decryption, aesni_ctr32_encrypt_blocks, aesni_ocb_encrypt/decrypt (from
# an odd block number) and aesni_xts_encrypt/decrypt (whole blocks; the
# decryption holds one back for stealing) take it when the CPU has AVX2
# and VAES (aesni-x86.dispatch: the needs of aesni-x86_64's ymm width)
# and the input has the entry's min (bytes, or blocks).  ymm0-6 hold
# fourteen blocks, ymm7 the round key broadcast to both lanes
# (vbroadcasti128: no alignment, no frame), free between a group's last
# round and the next group; then single
# registers while two blocks are left; vzeroall clears the keys and the
# upper halves and the xmm code does a last odd block.  The key stays in
# a register for the reason given above for six xmm blocks.  CBC keeps
# its chaining value in a frame slot and XORs the other ciphertexts from
# in; CTR keeps ivec ^ K0 in a frame slot and makes the counter words in
# the integer unit; XTS keeps tweak pairs in 32-byte frame slots (two
# windows of seven); OCB makes each register's offset pair before its
# blocks and keeps a two-lane checksum in the frame.
# Checking: qemu 7.2 computes ymm vaesenc/vaesdec wrongly in lane 1
# (test/README.md, build/m32/small/vaes_lanes), so under qemu the known
# answers run with VAES masked; the ABI and CFI checkers step the ymm
# code under qemu, and its results are checked natively by replaying the
# traced code as 64-bit code against the 64-bit library
# (bench/x86mca/dmcrypt.pl --verify-only, test/t/85-dmcrypt-replay.t).
my @Y = map { "ymm$_" } 0 .. 6;
my $YK = 'ymm7';
(my $YK_LOW = $YK) =~ s/^y/x/;          # its low half (VEX.128: the upper half cleared)

# Instructions whose name is chosen at generation time (aesenc/aesdec...).
sub op { my ($name, @args) = @_; no strict 'refs'; &{"main::$name"}(@args) }

# ----------------------------------------------------------------- rounds
# The same round code serves xmm (one block a register, SSE forms) and
# ymm (two blocks, VEX forms, the round key broadcast to both lanes).
sub is_ymm { return $_[0] =~ /^ymm/ }

sub load_key {
    my ($tk, $mem) = @_;
    is_ymm($tk) ? &vbroadcasti128($tk, $mem) : &movups($tk, $mem);
}

# One AES round ($dir: aesenc, aesdec or their *last) of block register $x.
sub round {
    my ($dir, $x, $tk) = @_;
    is_ymm($x) ? op("v$dir", $x, $x, $tk) : op($dir, $x, $tk);
}

# END into $end for the schedule at $key.
sub set_end {
    my ($key, $end) = @_;
    &mov($end, &DWP($ROUNDS_AT, $key));
    &shl($end, 4);
    &lea($end, &DWP(16, $key, $end, 1));
}

# The middle rounds of @blocks: aesenc or aesdec with keys 1 .. R.  A
# caller that sets $ROUND_HOOK (with local) has it called with i after the
# round whose key is i rounds before END: code placed there runs between
# that round and the next key's load, with $tk free, and i <= 9 is a round
# every key size runs.
my $seq = 0;
our $ROUND_HOOK;

# A $ROUND_HOOK that does $work->(k) for k = 0 .. $items - 1 in order,
# spread evenly over the last $rounds middle rounds ($items / $rounds
# after each): how XTS and OCB make the next group's tweaks or offsets
# during a group's rounds.
sub in_last_rounds {
    my ($rounds, $items, $work) = @_;
    die "in_last_rounds: $items items do not spread evenly over $rounds rounds\n" if $items % $rounds;
    die "in_last_rounds: $rounds rounds: not every key size runs them\n" if $rounds > 9;
    my $per = $items / $rounds;
    return sub {
        my ($i) = @_;
        return if $i > $rounds;
        $work->($_) for $per * ($rounds - $i) .. $per * ($rounds - $i + 1) - 1;
    };
}

sub mid_rounds {
    my ($dir, $key, $end, $tk, @blocks) = @_;
    my $hook = $ROUND_HOOK;
    local $ROUND_HOOK;                      # not passed on to nested calls
    my $n = $seq++;
    &cmp(&DWP($ROUNDS_AT, $key), 11);
    &jb(&label("r9_$n"));
    &je(&label("r11_$n"));
    for my $i (reverse 1 .. 13) {           # the key i rounds before END
        &set_label("r11_$n") if $i == 11;
        &set_label("r9_$n") if $i == 9;
        load_key($tk, &DWP(-16 * $i, $end));
        round($dir, $_, $tk) for @blocks;
        $hook->($i) if $hook;
    }
}

sub first_round {
    my ($key, $tk, @blocks) = @_;
    load_key($tk, &DWP(0, $key));
    is_ymm($tk) ? &vpxor($_, $_, $tk) : &pxor($_, $tk) for @blocks;
}

sub last_round {
    my ($dir, $end, $tk, @blocks) = @_;
    load_key($tk, ref $end ? $end : &DWP(0, $end));     # END or a memory operand
    round("${dir}last", $_, $tk) for @blocks;
}

# The whole cipher on @blocks; $dir is 'aesenc' or 'aesdec'.
sub cipher {
    my ($dir, $key, $end, $tk, @blocks) = @_;
    first_round($key, $tk, @blocks);
    mid_rounds($dir, $key, $end, $tk, @blocks);
    last_round($dir, $end, $tk, @blocks);
}

# The ymm section of the entry $symbol (X86::Dispatch::variant_section):
# to $skip when the input ($count) is below the entry's min, then in
# OpenSSL's entry when the CPU lacks what the ymm variant needs (the
# detection, ours and OpenSSL's, clears AVX2 when the OS does not save
# the ymm state; $scratch clobbered); the xmm fixed path has no section.
sub ymm_section {
    my ($symbol, $count, $scratch, $skip, $code, $also) = @_;
    X86::Dispatch::variant_section(decl => $DECL, symbol => $symbol, variant => 'ymm', path => $FIXED,
                                   count => $count, scratch => $scratch, skip => $skip,
                                   code => $code, also => $also);
}

# Whether the xmm code's six-block groups can run in the function being
# written for the entry $symbol (its min counted in $unit bytes): not in
# its ymm fixed path when the min is at most a group, since shorter inputs
# are less than a group and the ymm section leaves less than two blocks
# (OCB's, waiting for an odd block number, first takes a single block).
sub xmm_groups_live {
    my ($symbol, $unit) = @_;
    return ($FIXED // '') ne 'ymm' || $DECL->entry($symbol)->{min} * $unit > 16 * $GROUP;
}

# $dir's cipher over a ymm group (@Y, two blocks a register) or over one
# register, while $R{len} has that much left; then to $tail with the ymm
# registers cleared.  $R{len} counts bytes, or blocks when $a{blocks}.
# Hooks, each given the registers:
#   fill          puts the blocks in (default: loaded from in),
#   after_cipher  runs between the last round and the stores (CBC's
#                 chaining, CTR's XOR with the input);
# with $a{no_first_round} fill has applied round 0 (CTR's template), and
# $a{last_key} (memory) replaces the last round key (OCB's KN ^ K0).
sub ymm_loops {
    my (%a) = @_;
    my ($dir, $R, $name, $after) = @a{qw(dir R name after_cipher)};
    my %R = %$R;
    my $unit = $a{blocks} ? 2 : 32;         # of $R{len}, a register's worth
    my $fill = $a{fill} // sub { &vmovdqu($_[$_], &QWP(32 * $_, $R{in})) for 0 .. $#_ };
    for my $shape ([ 'group', @Y ], [ 'one', $Y[0] ]) {
        my ($what, @regs) = @$shape;
        &set_label("${name}_$what");
        &cmp($R{len}, $unit * @regs);
        &jb(&label($what eq 'group' ? "${name}_one" : "${name}_end"));
        $fill->(@regs);
        if ($a{no_first_round}) {
            mid_rounds($dir, $R{key}, $R{end}, $YK, @regs);
            last_round($dir, $a{last_key} // $R{end}, $YK, @regs);
        } else {
            cipher($dir, $R{key}, $R{end}, $YK, @regs);
        }
        $after->(@regs) if $after;
        &vmovdqu(&QWP(32 * $_, $R{out}), $regs[$_]) for 0 .. $#regs;
        advance($R{in}, $R{out}, 32 * @regs, $R{len}, $unit * @regs);
        &jmp(&label("${name}_$what"));
    }
    &set_label("${name}_end");
    &vzeroall();                        # the upper halves clean, the keys wiped
    &jmp($a{tail});
}

# Clear the registers that held key material or data.
sub wipe { &pxor($_, $_) for @_ }

# The entry of a bulk function whose third argument counts the work (0:
# nothing to do) and whose others start with in, out, key; bulk_end closes it.
sub bulk_begin {
    my ($name, $count, $in, $out, $key) = @_;
    &function_begin($name);
    &mov($count, &wparam(2));
    &test($count, $count);
    &jz(&label("nothing"));
    &mov($in, &wparam(0));
    &mov($out, &wparam(1));
    &mov($key, &wparam(3));
}

sub bulk_end {
    my ($name) = @_;
    &set_label("nothing");
    &function_end($name);
}

# Past $bytes of input and output, $step less to do.
sub advance {
    my ($in, $out, $bytes, $count, $step) = @_;
    &add($in, $bytes);
    &add($out, $bytes);
    if ($step == 1) { &dec($count) } else { &sub($count, $step) }
}

# ------------------------------------------------------------ key schedules
# FIPS-197 5.2, a word at a time: w[i] = w[i-Nk] ^ temp with temp = w[i-1],
# passed through RotWord, SubWord and Rcon when i % Nk = 0, and through
# SubWord alone when Nk = 8 and i % Nk = 4.  aeskeygenassist on temp in
# every lane gives SubWord(temp) in lane 0 and RotWord(SubWord(temp)) in
# lane 1 (pshufd 0x55 brings it down); Rcon is XORed from a register.
# In: esi user key, ecx bits, edi schedule.  Out: eax 0, -1 (a NULL
# pointer) or -2 (bits not 128, 192 or 256).  Clobbers the general
# registers but esp, and xmm0.
{
    my %R = (user => 'esi', bits => 'ecx', sched => 'edi', status => 'eax',
             nk => 'ecx', temp => 'eax', w => 'esi', end => 'ebx',
             back => 'ebp',      # -4 * Nk: w[i - Nk] is at w + back
             imod => 'edx', rcon => 'edi');
    &function_begin_B("_aesni_expand_key");
    &mov($R{status}, -1);
    &test($R{user}, $R{user});
    &jz(&label("done"));
    &test($R{sched}, $R{sched});
    &jz(&label("done"));
    &mov($R{status}, -2);
    &cmp($R{bits}, 128);
    &je(&label("bits"));
    &cmp($R{bits}, 192);
    &je(&label("bits"));
    &cmp($R{bits}, 256);
    &jne(&label("done"));
    &set_label("bits");
    &shr($R{nk}, 5);
    &lea($R{imod}, &DWP(5, $R{nk}));                        # R = Nk + 5
    &mov(&DWP($ROUNDS_AT, $R{sched}), $R{imod});
    &xor($R{imod}, $R{imod});
    &set_label("copy");                                     # w[0 .. Nk-1]
    &mov($R{temp}, &DWP(0, $R{user}, $R{imod}, 4));
    &mov(&DWP(0, $R{sched}, $R{imod}, 4), $R{temp});
    &inc($R{imod});
    &cmp($R{imod}, $R{nk});
    &jb(&label("copy"));
    &lea($R{end}, &DWP(7, $R{nk}));                         # Nk + 7 round keys
    &shl($R{end}, 4);
    &add($R{end}, $R{sched});
    &lea($R{w}, &DWP(0, $R{sched}, $R{nk}, 4));             # &w[Nk]
    &lea($R{back}, &DWP(0, undef, $R{nk}, 4));
    &neg($R{back});
    &mov($R{rcon}, 1);
    &xor($R{imod}, $R{imod});                               # i % Nk
    &set_label("word");
    &mov($R{temp}, &DWP(-4, $R{w}));
    &test($R{imod}, $R{imod});
    &jnz(&label("mid"));
    &movd("xmm0", $R{temp});
    &pshufd("xmm0", "xmm0", 0);
    &aeskeygenassist("xmm0", "xmm0", 0);
    &pshufd("xmm0", "xmm0", 0x55);
    &movd($R{temp}, "xmm0");                                # RotWord(SubWord(temp))
    &xor($R{temp}, $R{rcon});
    &add($R{rcon}, $R{rcon});                               # Rcon times x in GF(2^8)
    &cmp($R{rcon}, 0x100);
    &jb(&label("store"));
    &xor($R{rcon}, 0x11b);
    &jmp(&label("store"));
    &set_label("mid");
    &cmp($R{imod}, 4);
    &jne(&label("store"));
    &cmp($R{nk}, 8);
    &jne(&label("store"));
    &movd("xmm0", $R{temp});
    &pshufd("xmm0", "xmm0", 0);
    &aeskeygenassist("xmm0", "xmm0", 0);
    &movd($R{temp}, "xmm0");                                # SubWord(temp)
    &set_label("store");
    &xor($R{temp}, &DWP(0, $R{w}, $R{back}, 1));
    &mov(&DWP(0, $R{w}), $R{temp});
    &add($R{w}, 4);
    &inc($R{imod});
    &cmp($R{imod}, $R{nk});
    &jb(&label("next"));
    &xor($R{imod}, $R{imod});
    &set_label("next");
    &cmp($R{w}, $R{end});
    &jb(&label("word"));
    wipe("xmm0");
    &xor($R{status}, $R{status});
    &set_label("done");
    &ret();
    &function_end_B("_aesni_expand_key");
}

# int aesni_set_encrypt_key(const unsigned char *userKey, int bits, AES_KEY *key)
&function_begin("aesni_set_encrypt_key");
    &mov("esi", &wparam(0));
    &mov("ecx", &wparam(1));
    &mov("edi", &wparam(2));
    &call("_aesni_expand_key");
&function_end("aesni_set_encrypt_key");

# int aesni_set_decrypt_key(...): the ends swapped, the keys between them
# swapped pairwise from the outside in through aesimc, the middle one
# transformed in place.
{
    my %R = (front => 'edi', back => 'esi');
    my ($f, $b) = ('xmm0', 'xmm1');
    &function_begin("aesni_set_decrypt_key");
    &mov("esi", &wparam(0));
    &mov("ecx", &wparam(1));
    &mov("edi", &wparam(2));
    &call("_aesni_expand_key");
    &test("eax", "eax");
    &jnz(&label("done"));
    &mov($R{front}, &wparam(2));
    set_end($R{front}, $R{back});
    &movups($f, &DWP(0, $R{front}));
    &movups($b, &DWP(0, $R{back}));
    &movups(&DWP(0, $R{back}), $f);
    &movups(&DWP(0, $R{front}), $b);
    &set_label("pair");
    &add($R{front}, 16);
    &sub($R{back}, 16);
    &cmp($R{front}, $R{back});
    &jae(&label("middle"));
    &movups($f, &DWP(0, $R{front}));
    &movups($b, &DWP(0, $R{back}));
    &aesimc($f, $f);
    &aesimc($b, $b);
    &movups(&DWP(0, $R{back}), $f);
    &movups(&DWP(0, $R{front}), $b);
    &jmp(&label("pair"));
    &set_label("middle");
    &movups($f, &DWP(0, $R{front}));
    &aesimc($f, $f);
    &movups(&DWP(0, $R{front}), $f);
    wipe($f, $b);
    &set_label("done");
    &function_end("aesni_set_decrypt_key");
}

# ---------------------------------------------------------------- one block
# void aesni_encrypt/aesni_decrypt(const unsigned char *in,
#                                  unsigned char *out, const AES_KEY *key)
# Frameless: only the caller-saved eax, ecx, edx.
for my $dir (qw(aesenc aesdec)) {
    my $name = $dir eq 'aesenc' ? 'aesni_encrypt' : 'aesni_decrypt';
    my %R = (in => 'eax', key => 'edx', end => 'ecx', out => 'eax');
    &function_begin_B($name);
    &mov($R{in}, &wparam(0));
    &mov($R{key}, &wparam(2));
    &movups("xmm0", &DWP(0, $R{in}));
    set_end($R{key}, $R{end});
    cipher($dir, $R{key}, $R{end}, "xmm1", "xmm0");
    &mov($R{out}, &wparam(1));
    &movups(&DWP(0, $R{out}), "xmm0");
    wipe("xmm0", "xmm1");
    &ret();
    &function_end_B($name);
}

# ---------------------------------------------------------------------- ECB
# void aesni_ecb_encrypt(const unsigned char *in, unsigned char *out,
#                        size_t length, const AES_KEY *key, int enc)
# Whole blocks only (length & ~15), six at a time, then one at a time.
{
    my %R = (in => 'esi', out => 'edi', len => 'eax', key => 'edx', end => 'ebp',
             scratch => 'ecx');
    $BULK{aesni_ecb_encrypt} = sub {
        my ($name) = @_;
        &function_begin($name);
        &mov($R{len}, &wparam(2));
        &and($R{len}, -16);
        &jz(&label("done"));
        &mov($R{in}, &wparam(0));
        &mov($R{out}, &wparam(1));
        &mov($R{key}, &wparam(3));
        set_end($R{key}, $R{end});
        ymm_section("aesni_ecb_encrypt", $R{len}, $R{scratch}, &label("xmm"), sub {
            &cmp(&wparam(4), 0);
            &je(&label("aesdec_ymm_group"));
            ymm_loops(dir => $_, R => \%R, name => "${_}_ymm", tail => &label("${_}_one"))
                for qw(aesenc aesdec);
        });
        &set_label("xmm");
        &cmp(&wparam(4), 0);
        &je(&label("aesdec_six"));
        for my $dir (qw(aesenc aesdec)) {
            &set_label("${dir}_six");
            if (xmm_groups_live("aesni_ecb_encrypt", 1)) {
                &cmp($R{len}, 16 * $GROUP);
                &jb(&label("${dir}_one"));
                &movups($B[$_], &DWP(16 * $_, $R{in})) for 0 .. $#B;
                cipher($dir, $R{key}, $R{end}, $TK, @B);
                &movups(&DWP(16 * $_, $R{out}), $B[$_]) for 0 .. $#B;
                advance($R{in}, $R{out}, 16 * $GROUP, $R{len}, 16 * $GROUP);
                &jmp(&label("${dir}_six"));
            }
            &set_label("${dir}_one");
            &test($R{len}, $R{len});
            &jz(&label("done"));
            &movups("xmm0", &DWP(0, $R{in}));
            cipher($dir, $R{key}, $R{end}, "xmm1", "xmm0");
            &movups(&DWP(0, $R{out}), "xmm0");
            advance($R{in}, $R{out}, 16, $R{len}, 16);
            &jmp(&label("${dir}_one"));
        }
        &set_label("done");
        wipe(@B, $TK);
        &function_end($name);
    };
    $BULK{aesni_ecb_encrypt}->("aesni_ecb_encrypt");
}

# ---------------------------------------------------------------------- CBC
# void aesni_cbc_encrypt(const unsigned char *in, unsigned char *out,
#                        size_t length, const AES_KEY *key,
#                        unsigned char *ivec, int enc)
# Whole blocks as OpenSSL; a partial last block as aesni-x86_64.pl and
# CRYPTO_cbc128_encrypt/decrypt do it: encryption pads it with zeros and
# writes a whole block, decryption reads a whole block, writes length % 16
# bytes and takes that input block as the next ivec.  The partial block
# goes through 16 bytes below the saved registers.  ivec is updated.
# Encryption is a serial chain, one block at a time; decryption six blocks
# at a time, each XORed with the ciphertext before it (all six results are
# made before any is stored, so in == out works).
{
    my %R = (in => 'esi', out => 'edi', len => 'eax', key => 'edx', end => 'ebp',
             ivec => 'ebx', count => 'ecx', byte => 'bl');
    $BULK{aesni_cbc_encrypt} = sub {
        my ($name) = @_;
        bulk_begin($name, $R{len}, $R{in}, $R{out}, $R{key});
        &mov($R{ivec}, &wparam(4));
        &movups($STATE, &DWP(0, $R{ivec}));
        set_end($R{key}, $R{end});
        &sub("esp", 16);                       # the partial block
        &cmp(&wparam(5), 0);
        &je(&label("dec"));

        # --- encryption: a serial chain.  Block i enters round 1 as
        # S[i] = P[i] ^ C[i-1] ^ K0, and C[i] = aesenclast(M, KN) for the state
        # M after the middle rounds.  Since aesenclast ends with an XOR of its
        # key, S[i+1] = aesenclast(M, KN ^ K0 ^ P[i+1]) comes from M beside
        # C[i]: the chain from block to block is the rounds alone, and K0 and
        # the next plaintext are folded in off it.
        #   xmm0  M        xmm1  round keys      xmm2  KN ^ K0
        #   xmm3  the next plaintext ^ KN ^ K0, read from in (which moves on by
        #         16; len counts the bytes not yet read) before C[i] is written,
        #         so in == out works; a last block of 1..15 bytes is padded with
        #         zeros through the frame (and written whole, as
        #         CRYPTO_cbc128_encrypt does)
        #   STATE  C[i] (the ivec at the end)
        my $next_block = sub {
            my ($n) = @_;
            &cmp($R{len}, 16);
            &jb(&label("enc_partial$n"));
            &movups("xmm3", &DWP(0, $R{in}));
            &set_label("enc_have$n");
            &pxor("xmm3", "xmm2");
            &add($R{in}, 16);
            &sub($R{len}, 16);
            # (the partial block is placed after the code that uses it)
            return sub {
                &set_label("enc_partial$n");
                &pxor("xmm3", "xmm3");
                &movups(&DWP(0, "esp"), "xmm3");
                &mov($R{count}, $R{len});
                &set_label("enc_copy$n");
                &mov($R{byte}, &BP(-1, $R{in}, $R{count}, 1));
                &mov(&BP(-1, "esp", $R{count}, 1), $R{byte});
                &dec($R{count});
                &jnz(&label("enc_copy$n"));
                &movups("xmm3", &DWP(0, "esp"));
                &mov($R{len}, 16);             # now one whole block
                &jmp(&label("enc_have$n"));
            };
    };
    &movups("xmm2", &DWP(0, $R{key}));
    &movups("xmm1", &DWP(0, $R{end}));
    &pxor("xmm2", "xmm1");
    my $first_partial = $next_block->(0);  # xmm3 = P[0] ^ KN ^ K0
    &pxor("xmm3", "xmm1");                 # P[0] ^ K0
    &movaps("xmm0", "xmm3");
    &pxor("xmm0", $STATE);                 # S[0]
    &set_label("enc_loop");
    &test($R{len}, $R{len});
    &jz(&label("enc_last"));
    my $loop_partial = $next_block->(1);
    mid_rounds('aesenc', $R{key}, $R{end}, "xmm1", "xmm0");
    &movups("xmm1", &DWP(0, $R{end}));
    &movaps($STATE, "xmm0");
    &aesenclast($STATE, "xmm1");           # C[i]
    &aesenclast("xmm0", "xmm3");           # S[i+1]
    &movups(&DWP(0, $R{out}), $STATE);
    &add($R{out}, 16);
    &jmp(&label("enc_loop"));
    &set_label("enc_last");
    mid_rounds('aesenc', $R{key}, $R{end}, "xmm1", "xmm0");
    &movups("xmm1", &DWP(0, $R{end}));
    &aesenclast("xmm0", "xmm1");
    &movaps($STATE, "xmm0");
    &movups(&DWP(0, $R{out}), "xmm0");
    &jmp(&label("done"));
    $_->() for $first_partial, $loop_partial;

    # --- decryption: the ymm section (VAES), then six blocks at a time.
    # On the ymm path the chaining value lives in the partial block's
    # frame slot (STATE is the ymm key register's low half there): a
    # register of blocks (P[2i], P[2i+1]) is XORed with the ciphertexts
    # (C[2i-1], C[2i]), read from in 16 bytes back, but the first, whose
    # C[-1] is the slot; the last ciphertext goes to the slot before any
    # output is stored (in == out works).
    my $chain = sub {
        my @regs = @_;
        &vmovdqu($YK_LOW, &QWP(0, "esp"));
        &vinserti128($YK, $YK, &QWP(0, $R{in}), 1);
        &vpxor($regs[0], $regs[0], $YK);
        &vpxor($regs[$_], $regs[$_], &QWP(32 * $_ - 16, $R{in})) for 1 .. $#regs;
        &vmovdqu($YK_LOW, &QWP(32 * @regs - 16, $R{in}));
        &vmovdqu(&QWP(0, "esp"), $YK_LOW);
    };
    &set_label("dec");
    ymm_section("aesni_cbc_encrypt", $R{len}, $R{count}, &label("dec_six"), sub {
        &movups(&DWP(0, "esp"), $STATE);
        ymm_loops(dir => 'aesdec', R => \%R, name => 'dec_ymm', tail => &label('dec_ymm_done'),
                  after_cipher => $chain);
        &set_label("dec_ymm_done");
        &movups($STATE, &DWP(0, "esp"));
    });
    &set_label("dec_six");
    if (xmm_groups_live("aesni_cbc_encrypt", 1)) {
        &cmp($R{len}, 16 * $GROUP);
        &jb(&label("dec_one"));
        &movups($B[$_], &DWP(16 * $_, $R{in})) for 0 .. $#B;
        cipher('aesdec', $R{key}, $R{end}, $TK, @B);
        &pxor($B[0], $STATE);
        for my $i (1 .. $#B) {
            &movups($TK, &DWP(16 * ($i - 1), $R{in}));
            &pxor($B[$i], $TK);
        }
        &movups($STATE, &DWP(16 * $#B, $R{in}));
        &movups(&DWP(16 * $_, $R{out}), $B[$_]) for 0 .. $#B;
        advance($R{in}, $R{out}, 16 * $GROUP, $R{len}, 16 * $GROUP);
        &jmp(&label("dec_six"));
    }
    &set_label("dec_one");
    &test($R{len}, $R{len});
    &jz(&label("done"));
    &movups("xmm0", &DWP(0, $R{in}));
    &movaps("xmm2", "xmm0");
    cipher('aesdec', $R{key}, $R{end}, "xmm1", "xmm0");
    &pxor("xmm0", $STATE);
    &movaps($STATE, "xmm2");
    &cmp($R{len}, 16);
    &jb(&label("dec_partial"));
    &movups(&DWP(0, $R{out}), "xmm0");
    advance($R{in}, $R{out}, 16, $R{len}, 16);
    &jmp(&label("dec_one"));
    &set_label("dec_partial");             # write length % 16 bytes
    &movups(&DWP(0, "esp"), "xmm0");
    &mov($R{count}, $R{len});
    &set_label("dec_copy");
    &mov($R{byte}, &BP(-1, "esp", $R{count}, 1));
    &mov(&BP(-1, $R{out}, $R{count}, 1), $R{byte});
    &dec($R{count});
    &jnz(&label("dec_copy"));

    &set_label("done");
    wipe("xmm0");
    &movups(&DWP(0, "esp"), "xmm0");       # no plaintext left on the stack
    &add("esp", 16);
    &mov($R{ivec}, &wparam(4));
    &movups(&DWP(0, $R{ivec}), $STATE);
    wipe(@B, $TK, $STATE);
    bulk_end($name);
    };
    $BULK{aesni_cbc_encrypt}->("aesni_cbc_encrypt");
}

# ------------------------------------------------------------------- CTR32
# void aesni_ctr32_encrypt_blocks(const unsigned char *in, unsigned char *out,
#                                 size_t blocks, const void *key,
#                                 const unsigned char ivec[16])
# The last 32 bits of ivec are a big-endian counter that wraps without
# carrying into the rest; ivec is not written.  Round 0 is applied once:
# STATE holds (ivec with its last word cleared) ^ K0, and each counter
# block is STATE ^ (0, 0, 0, bswap(counter + i)), the word made in the
# integer unit (where the counter wraps by itself) and moved to the top
# lane with movd and pslldq.  ivec is read in pieces (8 + 4 + 4 bytes):
# callers often have just stored the counter word alone, and a 16-byte
# load over that 4-byte store would wait for the store to retire instead
# of taking its data from the store buffer; for the same reason the
# counter blocks are never built in memory.  The XOR with the input comes
# after the last round, through xmm6.
{
    my %R = (in => 'esi', out => 'edi', blocks => 'eax', key => 'edx', end => 'ebp',
             ctr => 'ebx', word => 'ecx');
    # counter block $i of this group into $x, with $tmp
    my $counter_block = sub {
        my ($x, $i, $tmp) = @_;
        &lea($R{word}, &DWP($i, $R{ctr}));
        &bswap($R{word});
        &movd($tmp, $R{word});
        &pslldq($tmp, 12);
        &movdqa($x, $STATE);
        &pxor($x, $tmp);
    };
    # The ymm section: the template goes to a frame slot, broadcast to
    # ymm7 for each group; a register's two counter words are placed in
    # dwords 3 and 7 (vmovd and vpinsrd put them in dwords 0 and 2,
    # vpermq moves qwords 0 and 1 to 1 and 3, vpsllq lifts them) and XORed
    # with it.
    my $ymm_counters = sub {
        my @regs = @_;
        &vbroadcasti128($YK, &QWP(0, "esp"));
        for my $i (0 .. $#regs) {
            (my $x = $regs[$i]) =~ s/^y/x/;
            &lea($R{word}, &DWP(2 * $i, $R{ctr}));
            &bswap($R{word});
            &vmovd($x, $R{word});
            &lea($R{word}, &DWP(2 * $i + 1, $R{ctr}));
            &bswap($R{word});
            &vpinsrd($x, $x, $R{word}, 2);
            &vpermq($regs[$i], $regs[$i], 0x62);
            &vpsllq($regs[$i], $regs[$i], 32);
            &vpxor($regs[$i], $regs[$i], $YK);
        }
        &add($R{ctr}, 2 * @regs);
    };
    my $ymm_xor_input = sub { &vpxor($_[$_], $_[$_], &QWP(32 * $_, $R{in})) for 0 .. $#_ };
    $BULK{aesni_ctr32_encrypt_blocks} = sub {
        my ($name) = @_;
        bulk_begin($name, $R{blocks}, $R{in}, $R{out}, $R{key});
        &sub("esp", 16);                       # the ymm section's template
        &mov($R{word}, &wparam(4));
        &movq($STATE, &QWP(0, $R{word}));      # ivec's first 12 bytes, then 0
        &movd($TK, &DWP(8, $R{word}));
        &punpcklqdq($STATE, $TK);
        &mov($R{ctr}, &DWP(12, $R{word}));
        &bswap($R{ctr});
        &movups($TK, &DWP(0, $R{key}));
        &pxor($STATE, $TK);                    # ^ K0 (its last word included)
        set_end($R{key}, $R{end});
        ymm_section("aesni_ctr32_encrypt_blocks", $R{blocks}, $R{word}, &label("six"), sub {
            &movdqu(&QWP(0, "esp"), $STATE);
            ymm_loops(dir => 'aesenc', R => { %R, len => $R{blocks} }, name => 'ymm', blocks => 1,
                      tail => &label('ymm_done'), fill => $ymm_counters, no_first_round => 1,
                      after_cipher => $ymm_xor_input);
            &set_label("ymm_done");
            &movdqu($STATE, &QWP(0, "esp"));
        });

        &set_label("six");
        if (xmm_groups_live("aesni_ctr32_encrypt_blocks", 16)) {
            &cmp($R{blocks}, $GROUP);
            &jb(&label("one"));
            $counter_block->($B[$_], $_, $TK) for 0 .. $GROUP - 1;
            &add($R{ctr}, $GROUP);
            mid_rounds('aesenc', $R{key}, $R{end}, $TK, @B);
            last_round('aesenc', $R{end}, $TK, @B);
            for my $i (0 .. $#B) {
                &movups($TK, &DWP(16 * $i, $R{in}));
                &pxor($B[$i], $TK);
                &movups(&DWP(16 * $i, $R{out}), $B[$i]);
            }
            advance($R{in}, $R{out}, 16 * $GROUP, $R{blocks}, $GROUP);
            &jmp(&label("six"));
        }

        &set_label("one");
        &test($R{blocks}, $R{blocks});
        &jz(&label("done"));
        $counter_block->("xmm0", 0, "xmm1");
        &inc($R{ctr});
        mid_rounds('aesenc', $R{key}, $R{end}, "xmm1", "xmm0");
        last_round('aesenc', $R{end}, "xmm1", "xmm0");
        &movups("xmm1", &DWP(0, $R{in}));
        &pxor("xmm0", "xmm1");
        &movups(&DWP(0, $R{out}), "xmm0");
        advance($R{in}, $R{out}, 16, $R{blocks}, 1);
        &jmp(&label("one"));

        &set_label("done");
        wipe(@B, $TK, $STATE);
        &movdqu(&QWP(0, "esp"), $STATE);       # no template left on the stack
        &add("esp", 16);
        bulk_end($name);
    };
    $BULK{aesni_ctr32_encrypt_blocks}->("aesni_ctr32_encrypt_blocks");
}

# ---------------------------------------------------------------------- XTS
# void aesni_xts_encrypt/aesni_xts_decrypt(const unsigned char *in,
#         unsigned char *out, size_t length, const AES_KEY *key1,
#         const AES_KEY *key2, const unsigned char iv[16])
# IEEE 1619-2007: key1 is the data key (in the direction of the call),
# key2 the encryption schedule of the tweak key; length < 16 does nothing.
# T[0] = E_key2(iv), T[j+1] = T[j] * x in GF(2^128) (the block a
# little-endian number, reduced by x^128 + x^7 + x^2 + x + 1); block j is
# E_key1(P ^ T[j]) ^ T[j].  A partial last block steals the tail of the
# block before it (for decryption that block takes T[m+1] and the stolen
# one T[m]).  Six blocks at a time, software-pipelined: the aligned frame holds
# two sets of six tweak slots, ecx pointing at the current group's and ebx
# at the next one's.  A group's tweaks are made while the group before it
# runs, three doublings after each of its last two middle rounds (so the
# serial doubling chain overlaps the rounds instead of holding back the
# next group's first ones, and three at a time leaving the earlier rounds
# free); the last group makes none.  Invariant at a group's start: its
# six tweaks are in the current set and STATE is the tweak of the block
# after them.  The frame also holds the doubling's mask and the tail
# length (ebx is busy).
# The ymm section (VAES, 64 bytes or more of whole blocks; see the header
# and xts_ymm_fill) comes first and leaves STATE for the xmm code, which
# does what is left: at most one whole block, the decryption's held-back
# block and the stealing.
#
# Doubling T (xmm7) with xmm6: paddq doubles each 64-bit half and drops
# bits 63 and 127; pshufd 0x13 puts dwords 3 and 1, whose sign bits those
# are, in lanes 0 and 2, psrad 31 spreads them, and the mask (0x87 in lane
# 0, 1 in lane 2) turns them into the reduction and the carry.
{
    my %R = (in => 'esi', out => 'edi', len => 'eax', key => 'edx', end => 'ebp',
             tail => 'ebx', frame => 'ecx', count => 'ecx', pair => 'eax',
             cur => 'ecx', nxt => 'ebx');
    # What len holds on entering the ymm section: the XTS entries' min.
    my $XTS_MIN = min(map { $DECL->entry($_)->{min} } qw(aesni_xts_encrypt aesni_xts_decrypt));
    my $SET   = 16 * $GROUP;               # the second set of tweak slots
    my $WINDOW = 32 * @Y;                  # the ymm section's second window
    my $MASK  = 2 * $WINDOW;               # (its two windows cover both sets)
    my $TAIL  = $MASK + 16;
    my $SAVED = $TAIL + 4;
    my $BYTES = $SAVED + 4;

    sub xts_double {
        &pshufd($TK, $STATE, 0x13);
        &psrad($TK, 31);
        &pand($TK, &DWP($MASK, "esp"));
        &paddq($STATE, $STATE);
        &pxor($STATE, $TK);
    }

    # The tweaks STATE, STATE * x, ... into the six slots at $set.
    sub xts_tweaks {
        my ($set) = @_;
        for my $i (0 .. $GROUP - 1) {
            &movdqa(&DWP(16 * $i, $set), $STATE);
            xts_double();
        }
    }

    # One group of six blocks with the tweaks at cur (the next group's
    # tweaks made during its rounds when $piped).
    sub xts_group {
        my ($dir, $piped) = @_;
        for my $i (0 .. $#B) {
            &movups($B[$i], &DWP(16 * $i, $R{in}));
            &pxor($B[$i], &DWP(16 * $i, $R{cur}));
        }
        local $ROUND_HOOK = $piped ? in_last_rounds(2, $GROUP, sub {
            my ($k) = @_;
            &movdqa(&DWP(16 * $k, $R{nxt}), $STATE);
            xts_double();
        }) : undef;
        cipher($dir, $R{key}, $R{end}, $TK, @B);
        for my $i (0 .. $#B) {
            &pxor($B[$i], &DWP(16 * $i, $R{cur}));
            &movups(&DWP(16 * $i, $R{out}), $B[$i]);
        }
        advance($R{in}, $R{out}, 16 * $GROUP, $R{len}, 16 * $GROUP);
    }

    # $dst = $src * x^$m in each 128-bit lane, 0 < $m < 57, with $c and
    # $h: the qwords shifted left by m, the low qword's top m bits carried
    # into the high one as they are, the high qword's top m bits c (x^128
    # times c) folded into the low one as c (x^7 + x^2 + x + 1), carry-less:
    # c ^ c<<1 ^ c<<2 ^ c<<7, below 2^(m+7), inside the qword (no second
    # reduction).
    sub xts_ymm_times {
        my ($dst, $src, $m, $c, $h) = @_;
        &vpsrlq($c, $src, 64 - $m);        # (low's top bits, high's top bits)
        &vpsllq($dst, $src, $m);
        &vpsrldq($h, $c, 8);               # (high's, 0)
        &vpshufd($c, $c, 0x4e);            # (high's, low's)
        &vpxor($dst, $dst, $c);
        for my $k (1, 2, 7) {
            &vpsllq($c, $h, $k);
            &vpxor($dst, $dst, $c);
        }
    }

    # The ymm section keeps a window of seven tweak pairs (a register's
    # two tweaks a 32-byte slot) at cur.  A group makes the next group's
    # window into nxt before it loads its blocks (all eight registers are
    # free then) from its own window, which the group before made: its
    # rounds need nothing of what it computes and start at once, the
    # shifts running beside them.  Pair j of
    # the next window is pair 0 of this one times x^(14 + 2j), each made
    # from that one register (no serial doubling chain).  A single
    # register takes the window's first pair and moves cur on by 32 (a
    # group leaves at most six of them, so the window lasts).
    # The first window: (T, T x) at $set, and pair j that pair times x^(2j);
    # the first pair is built in registers (a 32-byte load of two 16-byte
    # stores would wait for them to retire).
    sub xts_ymm_first_window {
        my ($set) = @_;
        &movdqa("xmm0", $STATE);
        xts_double();
        &vinserti128($YK, "ymm0", $STATE, 1);
        &vmovdqa(&QWP(0, $set), $YK);
        xts_ymm_window($set, 0, 1, "first_window_done");
    }

    # Pairs $from .. 6 of a window into $set, pair j = $YK x^(2 (s + j))
    # for s = $shift (the registers of the group before it, or 0); only
    # those a register or the xmm code (its next tweak) will take: len
    # (bytes of whole blocks left, the group's included) at least 32 (s + j)
    # (a 512-byte call's last group needs three, not seven).
    sub xts_ymm_window {
        my ($set, $shift, $from, $done) = @_;
        my ($t, $c, $h) = @Y[2, 0, 1];
        my $sure = $shift ? 32 * $shift : $XTS_MIN;    # what len is known to hold
        for my $j ($from .. $#Y) {
            if (32 * ($shift + $j) > $sure) {
                &cmp($R{len}, 32 * ($shift + $j));
                &jb(&label($done));
            }
            xts_ymm_times($t, $YK, 2 * ($shift + $j), $c, $h);
            &vmovdqa(&QWP(32 * $j, $set), $t);
        }
        &set_label($done);
    }

    # ymm_loops' fill: a group makes the next window, then the blocks are
    # loaded and XORed with their tweaks.
    sub xts_ymm_fill {
        my @regs = @_;
        if (@regs == @Y) {
            &vmovdqa($YK, &QWP(0, $R{cur}));
            xts_ymm_window($R{nxt}, scalar @Y, 0, "next_window_done");
        }
        for my $i (0 .. $#regs) {
            &vmovdqu($regs[$i], &QWP(32 * $i, $R{in}));
            &vpxor($regs[$i], $regs[$i], &QWP(32 * $i, $R{cur}));
        }
    }

    # ymm_loops' after_cipher: the tweaks again; the window moves on.
    sub xts_ymm_unmask {
        my @regs = @_;
        &vpxor($regs[$_], $regs[$_], &QWP(32 * $_, $R{cur})) for 0 .. $#regs;
        if (@regs == @Y) { &xchg($R{cur}, $R{nxt}) } else { &add($R{cur}, 32) }
    }

    for my $dir (qw(aesenc aesdec)) {
        my $entry = $dir eq 'aesenc' ? 'aesni_xts_encrypt' : 'aesni_xts_decrypt';
        $BULK{$entry} = sub {
            my ($name) = @_;
            &function_begin($name);
            &mov($R{len}, &wparam(2));
            &cmp($R{len}, 16);
            &jb(&label("nothing"));
            &mov($R{in}, &wparam(0));
            &mov($R{out}, &wparam(1));
            &mov($R{key}, &wparam(4));         # key2: the first tweak
            &mov($R{frame}, &wparam(5));
            &movups($STATE, &DWP(0, $R{frame}));
            set_end($R{key}, $R{end});
            cipher('aesenc', $R{key}, $R{end}, $TK, $STATE);
            &mov($R{key}, &wparam(3));
            &lea($R{frame}, &DWP(-$BYTES, "esp"));
            &and($R{frame}, -32);              # the ymm section's slots aligned
            &switch_stack($R{frame}, $SAVED);
            # the mask made in registers and stored whole: dword stores read
            # back as 16 bytes would wait for them to retire, behind the rounds
            # on the first tweak
            &mov($R{count}, 0x87);
            &movd($TK, $R{count});
            &mov($R{count}, 1);
            &movd("xmm0", $R{count});
            &pslldq("xmm0", 8);
            &por($TK, "xmm0");
            &movdqa(&DWP($MASK, "esp"), $TK);
            set_end($R{key}, $R{end});
            &mov($R{tail}, $R{len});
            &and($R{tail}, 15);
            &and($R{len}, -16);
            if ($dir eq 'aesdec') {            # the last whole block waits for the tail
                &test($R{tail}, $R{tail});
                &jz(&label("tail_set"));
                &sub($R{len}, 16);
                &set_label("tail_set");
            }
            &mov(&DWP($TAIL, "esp"), $R{tail});

            ymm_section($entry, $R{len}, $R{count}, &label("xmm"), sub {
                &mov($R{cur}, "esp");
                &lea($R{nxt}, &DWP($WINDOW, "esp"));
                xts_ymm_first_window($R{cur});
                ymm_loops(dir => $dir, R => \%R, name => 'ymm', tail => &label('ymm_done'),
                          fill => \&xts_ymm_fill, after_cipher => \&xts_ymm_unmask);
                &set_label("ymm_done");
                &movdqa($STATE, &DWP(0, $R{cur}));     # the next block's tweak
            });
            &set_label("xmm");
            if (xmm_groups_live($entry, 1)) {
                &cmp($R{len}, 16 * $GROUP);
                &jb(&label("one"));
                &mov($R{cur}, "esp");
                &lea($R{nxt}, &DWP($SET, "esp"));
                xts_tweaks($R{cur});
                &set_label("six");
                &cmp($R{len}, 2 * 16 * $GROUP);
                &jb(&label("six_last"));
                xts_group($dir, 1);
                &xchg($R{cur}, $R{nxt});
                &jmp(&label("six"));
                &set_label("six_last");
                xts_group($dir, 0);
            }

            &set_label("one");
            &test($R{len}, $R{len});
            &jz(&label("whole_done"));
            &movups("xmm0", &DWP(0, $R{in}));
            &pxor("xmm0", $STATE);
            cipher($dir, $R{key}, $R{end}, "xmm1", "xmm0");
            &pxor("xmm0", $STATE);
            &movups(&DWP(0, $R{out}), "xmm0");
            xts_double();
            advance($R{in}, $R{out}, 16, $R{len}, 16);
            &jmp(&label("one"));

            &set_label("whole_done");
            &mov($R{tail}, &DWP($TAIL, "esp"));
            &test($R{tail}, $R{tail});
            &jz(&label("done"));
            if ($dir eq 'aesdec') {
                # the last whole block with T[m+1]; T[m] waits in xmm5
                &movdqa("xmm5", $STATE);
                xts_double();
                &movups("xmm0", &DWP(0, $R{in}));
                &pxor("xmm0", $STATE);
                cipher($dir, $R{key}, $R{end}, "xmm1", "xmm0");
                &pxor("xmm0", $STATE);
                &movups(&DWP(0, $R{out}), "xmm0");
                &movdqa($STATE, "xmm5");
                &add($R{in}, 16);
                &add($R{out}, 16);
            }
            # Stealing: the tail's bytes go into the block before it, whose
            # first bytes become the output's tail (both read before either
            # is written, so in == out works).
            &mov($R{count}, $R{tail});
            &set_label("steal");
            &mov("al", &BP(-1, $R{in}, $R{count}, 1));
            &mov("ah", &BP(-17, $R{out}, $R{count}, 1));
            &mov(&BP(-17, $R{out}, $R{count}, 1), "al");
            &mov(&BP(-1, $R{out}, $R{count}, 1), "ah");
            &dec($R{count});
            &jnz(&label("steal"));
            &movups("xmm0", &DWP(-16, $R{out}));
            &pxor("xmm0", $STATE);
            cipher($dir, $R{key}, $R{end}, "xmm1", "xmm0");
            &pxor("xmm0", $STATE);
            &movups(&DWP(-16, $R{out}), "xmm0");

            &set_label("done");
            &pxor($TK, $TK);
            &movdqa(&DWP(16 * $_, "esp"), $TK) for 0 .. $MASK / 16 - 1;  # no tweaks left
            &restore_stack();
            wipe(@B, $TK, $STATE);
            bulk_end($name);
        };
        $BULK{$entry}->($entry);
    }
}

# -------------------------------------------------------------------- CCM64
# void aesni_ccm64_encrypt_blocks/aesni_ccm64_decrypt_blocks(
#         const unsigned char *in, unsigned char *out, size_t blocks,
#         const void *key, const unsigned char ivec[16], unsigned char cmac[16])
# As OpenSSL's CRYPTO_ccm128_*crypt_ccm64 expect: ivec is the counter
# block, its last eight bytes a big-endian counter incremented after each
# block (kept in a copy below the saved registers: ivec is not written);
# cmac = E(cmac ^ P) for each plaintext block P, written back.  The
# counter block and the CBC-MAC go through the rounds side by side
# (encryption: both of the same block; decryption: the MAC of block i with
# the counter of block i + 1).  The increment writes the copy a dword at a
# time, so the copy is read back in the same pieces (8 bytes never written
# since the 16-byte store, then dwords 2 and 3): a 16-byte load over those
# 4-byte stores could not take its data from the store buffer and would
# wait for them to retire, a whole block's rounds on the MAC chain.
{
    my %R = (in => 'esi', out => 'edi', blocks => 'eax', key => 'edx', end => 'ebp',
             word => 'ebx', ptr => 'ecx');
    my ($ks, $mac, $tk, $data, $hi, $lo) = ('xmm0', $STATE, 'xmm1', 'xmm2', 'xmm3', 'xmm4');

    # The counter copy at esp into $ks.
    sub ccm_counter {
        &movq($ks, &QWP(0, "esp"));
        &movd($hi, &DWP(8, "esp"));
        &movd($lo, &DWP(12, "esp"));
        &punpckldq($hi, $lo);
        &punpcklqdq($ks, $hi);
    }

    # The counter copy at esp: its low 64 bits, big-endian, plus one.
    sub ccm_increment {
        my ($word) = @_;
        &mov($word, &DWP(12, "esp"));
        &bswap($word);
        &add($word, 1);
        &bswap($word);
        &mov(&DWP(12, "esp"), $word);
        &jnc(&label("inc_done"));
        &mov($word, &DWP(8, "esp"));
        &bswap($word);
        &add($word, 1);
        &bswap($word);
        &mov(&DWP(8, "esp"), $word);
        &set_label("inc_done");
    }

    for my $enc (1, 0) {
        my $name = $enc ? 'aesni_ccm64_encrypt_blocks' : 'aesni_ccm64_decrypt_blocks';
        bulk_begin($name, $R{blocks}, $R{in}, $R{out}, $R{key});
        &mov($R{ptr}, &wparam(4));
        &movups($ks, &DWP(0, $R{ptr}));
        &mov($R{ptr}, &wparam(5));
        &movups($mac, &DWP(0, $R{ptr}));
        set_end($R{key}, $R{end});
        &sub("esp", 16);
        &movups(&DWP(0, "esp"), $ks);
        if ($enc) {
            &set_label("loop");
            ccm_counter();
            &movups($data, &DWP(0, $R{in}));
            &pxor($mac, $data);
            cipher('aesenc', $R{key}, $R{end}, $tk, $ks, $mac);
            &pxor($data, $ks);
            &movups(&DWP(0, $R{out}), $data);
            ccm_increment($R{word});
            advance($R{in}, $R{out}, 16, $R{blocks}, 1);
            &jnz(&label("loop"));
        } else {
            cipher('aesenc', $R{key}, $R{end}, $tk, $ks);
            &set_label("loop");
            ccm_increment($R{word});
            &movups($data, &DWP(0, $R{in}));
            &pxor($data, $ks);
            &movups(&DWP(0, $R{out}), $data);
            &pxor($mac, $data);
            advance($R{in}, $R{out}, 16, $R{blocks}, 1);
            &jz(&label("last"));
            ccm_counter();
            cipher('aesenc', $R{key}, $R{end}, $tk, $ks, $mac);
            &jmp(&label("loop"));
            &set_label("last");
            cipher('aesenc', $R{key}, $R{end}, $tk, $mac);
        }
        &add("esp", 16);
        &mov($R{ptr}, &wparam(5));
        &movups(&DWP(0, $R{ptr}), $mac);
        wipe($ks, $mac, $tk, $data, $hi, $lo);
        bulk_end($name);
    }
}

# ---------------------------------------------------------------------- OCB
# void aesni_ocb_encrypt/aesni_ocb_decrypt(const unsigned char *in,
#         unsigned char *out, size_t blocks, const void *key,
#         size_t start_block_num, unsigned char offset_i[16],
#         const unsigned char L_[][16], unsigned char checksum[16])
# OpenSSL's ocb128_f contract (RFC 7253 4.2): for j = 0 .. blocks-1 and
# i = start_block_num + j, Offset ^= L_[ntz(i)], out_j = Offset ^
# E(in_j ^ Offset), Checksum ^= the plaintext block; offset_i and checksum
# are written back (ntz by bsf: i is never 0).  Six blocks at a time, from
# an odd i only (a call starting on an even one does one block first):
# then i, i + 2 and i + 4 are odd and take L_[0], and of the even i + 1,
# i + 3 and i + 5 those that are 2 mod 4 take L_[1] (both kept in the
# aligned frame); only the rest, one or two a group, need bsf and a table
# load, which keeps integer work off the ports the AES unit shares.
# Software-pipelined as XTS is: the frame holds two sets of six offset
# slots (the loop written twice, once per set), and a group's offsets are
# made while the group before it runs, one after each of its last six
# middle rounds, not all before the rounds; the last group makes none.  Six
# blocks move i by 2 mod 4, so one set always serves groups with i = 1
# mod 4 and the other those with i = 3 mod 4: the first group picks its
# set by i, and each set's code knows which even blocks take L_[1].
#
# Round 0 is folded into the offsets: xmm7 and the slots hold Offset ^ K0
# (the chain is XORs only, so it runs on that), a block enters round 1 as
# in ^ (Offset ^ K0), and the last round takes KN ^ K0 from the frame:
# aesenclast ends with an XOR of its key, so its result ^ (Offset ^ K0)
# is the block's output.  K0 and KN are those of the schedule passed (the
# decryption schedule's for aesni_ocb_decrypt).  At a group's start its
# offsets are in its set, Offset (xmm7) is its last block's and i the
# number of the block after it.
{
    my %R = (in => 'esi', out => 'edi', blocks => 'eax', key => 'edx', end => 'ebp',
             i => 'ebx', ntz => 'ecx', frame => 'ecx', table => 'ecx');
    my $SET   = 16 * $GROUP;               # the second set of offset slots
    my $SLOTS = 16 * 2 * @Y;               # both sets, or the ymm group's 14 offsets
    die "OCB: the ymm group's offsets must cover both sets\n" if $SLOTS < 2 * $SET;
    my $L     = $SLOTS;                    # L_
    my $SAVED = $L + 4;
    my $SUM   = $L + 16;                   # the checksum
    my $L0    = $SUM + 16;                 # L_[0]
    my $L1    = $L0 + 16;                  # L_[1]
    my $KNK0  = $L1 + 16;                  # KN ^ K0
    my $RUN   = $KNK0 + 16;                # the ymm section's running Offset
    my $SUM2  = $RUN + 16;                 # its checksum, one per lane (32-aligned)
    my $BYTES = $SUM2 + 32;
    die "OCB: the ymm checksum slot must be 32-byte aligned\n" if $SUM2 % 32;
    my %CLASS = (0 => 1, $SET => 3);       # i mod 4 of the groups each set serves
    my ($offset, $sum) = ($STATE, 'xmm6');

    # The address of L_[ntz(i + $k)] into ntz.
    sub ocb_l_address {
        my ($k) = @_;
        &lea($R{ntz}, &DWP($k, $R{i}));
        &bsf($R{ntz}, $R{ntz});
        &shl($R{ntz}, 4);
        &add($R{ntz}, &DWP($L, "esp"));
    }

    # L_[ntz(i + $k)] into $x.
    sub ocb_l {
        my ($x, $k) = @_;
        ocb_l_address($k);
        &movups($x, &DWP(0, $R{ntz}));
    }

    # The offset of block i + $k (i = $CLASS{$set} mod 4) into its slot at
    # $set; the last one moves i on by six.
    sub ocb_offset {
        my ($set, $k) = @_;
        my $ik = ($CLASS{$set} + $k) % 4;      # (i + k) mod 4
        if ($ik % 2) {
            &pxor($offset, &DWP($L0, "esp"));
        } elsif ($ik == 2) {
            &pxor($offset, &DWP($L1, "esp"));
        } else {
            ocb_l($TK, $k);
            &pxor($offset, $TK);
        }
        &movdqa(&DWP($set + 16 * $k, "esp"), $offset);
        &add($R{i}, $GROUP) if $k == $GROUP - 1;
    }

    # The offsets of blocks i .. i + 5 into the slots at $set; i += 6.
    sub ocb_offsets {
        my ($set) = @_;
        ocb_offset($set, $_) for 0 .. $GROUP - 1;
    }

    # The rounds after round 0 on @blocks, the last with KN ^ K0 in $tk.
    sub ocb_rounds {
        my ($dir, $tk, @blocks) = @_;
        mid_rounds($dir, $R{key}, $R{end}, $tk, @blocks);
        &movdqa($tk, &DWP($KNK0, "esp"));
        op("${dir}last", $_, $tk) for @blocks;
    }

    # One group of six blocks with the offsets at $set (the next group's
    # made into $next first when it is given).
    sub ocb_group {
        my ($enc, $set, $next) = @_;
        my $dir = $enc ? 'aesenc' : 'aesdec';
        for my $k (0 .. $#B) {
            &movups($B[$k], &DWP(16 * $k, $R{in}));
            if ($enc) {                    # the checksum, in xmm6 for a moment
                &movdqa($sum, &DWP($SUM, "esp")) if $k == 0;
                &pxor($sum, $B[$k]);
                &movdqa(&DWP($SUM, "esp"), $sum) if $k == $#B;
            }
            &pxor($B[$k], &DWP($set + 16 * $k, "esp"));
        }
        local $ROUND_HOOK = defined $next
            ? in_last_rounds($GROUP, $GROUP, sub { ocb_offset($next, $_[0]) }) : undef;
        ocb_rounds($dir, $TK, @B);
        for my $k (0 .. $#B) {
            &pxor($B[$k], &DWP($set + 16 * $k, "esp"));
            &movups(&DWP(16 * $k, $R{out}), $B[$k]);
        }
        unless ($enc) {
            &movdqa($sum, &DWP($SUM, "esp"));
            &pxor($sum, $_) for @B;
            &movdqa(&DWP($SUM, "esp"), $sum);
        }
        advance($R{in}, $R{out}, 16 * $GROUP, $R{blocks}, $GROUP);
    }

    # The ymm section (VAES).  Round 0 is folded as in the xmm code: the
    # running Offset ^ K0 (STATE, kept in the frame there) makes the pairs,
    # and the last round takes KN ^ K0 (each vpxor less a block is one op
    # less beside the AES unit, whose pipes the vector ALU ops share); a
    # register's two blocks i + 2k, i + 2k + 1 (i odd at every
    # register) take the offset pair in the 32-byte slot k.  The pairs are
    # made in the block registers before the blocks come in (the chain in
    # xmm7, ymm7's low half, free until the group's first key, from the
    # running Offset in the frame) and stored whole: a 32-byte load over
    # two 16-byte stores could not take its data from the store buffer.
    # The odd blocks take L_[0], each even one its L_[ntz] (no class trick:
    # 14 blocks move i by 2 mod 4, so a group's class alternates, and the
    # integer unit has room).  The checksum is kept per lane in the frame
    # and folded into the xmm code's on the way out; encryption sums the
    # input from memory before the registers take the offsets.
    my $ymm_checksum = sub {
        my @terms = @_;                    # registers or memory, the first a register
        &vpxor($YK, $terms[0], &QWP($SUM2, "esp"));
        &vpxor($YK, $YK, $_) for @terms[1 .. $#terms];
        &vmovdqa(&QWP($SUM2, "esp"), $YK);
    };
    my $ymm_fill = sub {
        my ($enc, @regs) = @_;
        if ($enc) {
            &vmovdqu($YK, &QWP(0, $R{in}));
            $ymm_checksum->($YK, map { &QWP(32 * $_, $R{in}) } 1 .. $#regs);
        }
        &vmovdqa($YK_LOW, &QWP($RUN, "esp"));
        for my $k (0 .. $#regs) {
            (my $low = $regs[$k]) =~ s/^y/x/;
            &vpxor($YK_LOW, $YK_LOW, &QWP($L0, "esp"));     # block i + 2k
            ocb_l_address(2 * $k + 1);                      # block i + 2k + 1
            &vpxor($low, $YK_LOW, &QWP(0, $R{ntz}));
            &vinserti128($regs[$k], $YK, $low, 1);          # (overwrites $low)
            &vpxor($YK_LOW, $YK_LOW, &QWP(0, $R{ntz}));     # so the chain XORs again
            &vmovdqa(&QWP(32 * $k, "esp"), $regs[$k]);
        }
        &vmovdqa(&QWP($RUN, "esp"), $YK_LOW);
        &add($R{i}, 2 * @regs);
        &vpxor($regs[$_], $regs[$_], &QWP(32 * $_, $R{in})) for 0 .. $#regs;
    };
    my $ymm_unmask = sub {
        my ($enc, @regs) = @_;
        &vpxor($regs[$_], $regs[$_], &QWP(32 * $_, "esp")) for 0 .. $#regs;
        $ymm_checksum->(@regs) unless $enc;
    };
    # From the xmm code's state to the ymm section's and back.
    my $ymm_enter = sub {
        &movdqa(&DWP($RUN, "esp"), $offset);
        &pxor("xmm0", "xmm0");
        &movdqa(&DWP($SUM2, "esp"), "xmm0");
        &movdqa(&DWP($SUM2 + 16, "esp"), "xmm0");
    };
    my $ymm_leave = sub {                  # after vzeroall
        &movdqa($offset, &DWP($RUN, "esp"));
        &movdqa("xmm0", &DWP($SUM, "esp"));
        &pxor("xmm0", &DWP($SUM2, "esp"));
        &pxor("xmm0", &DWP($SUM2 + 16, "esp"));
        &movdqa(&DWP($SUM, "esp"), "xmm0");
    };

    for my $enc (1, 0) {
        my $entry = $enc ? 'aesni_ocb_encrypt' : 'aesni_ocb_decrypt';
        my $dir = $enc ? 'aesenc' : 'aesdec';
        $BULK{$entry} = sub {
            my ($name) = @_;
            bulk_begin($name, $R{blocks}, $R{in}, $R{out}, $R{key});
            &mov($R{i}, &wparam(4));
            &mov($R{ntz}, &wparam(5));
            &movups($offset, &DWP(0, $R{ntz}));
            &mov($R{ntz}, &wparam(7));
            &movups("xmm0", &DWP(0, $R{ntz}));
            &mov($R{end}, &wparam(6));
            &movups("xmm1", &DWP(0, $R{end}));
            &lea($R{frame}, &DWP(-$BYTES, "esp"));
            &and($R{frame}, -32);                # the ymm slots 32-byte aligned
            &switch_stack($R{frame}, $SAVED);
            &mov(&DWP($L, "esp"), $R{end});
            &movdqa(&DWP($SUM, "esp"), "xmm0");
            &movdqa(&DWP($L0, "esp"), "xmm1");
            set_end($R{key}, $R{end});
            &movups("xmm0", &DWP(0, $R{key}));
            &pxor($offset, "xmm0");            # Offset ^ K0
            &movups("xmm1", &DWP(0, $R{end}));
            &pxor("xmm1", "xmm0");
            &movdqa(&DWP($KNK0, "esp"), "xmm1");

            # the ymm section from an odd i (an even one: a single block first)
            &set_label("six");
            ymm_section($entry, $R{blocks}, $R{ntz}, &label("xmm_six"), sub {
                $ymm_enter->();
                ymm_loops(dir => $dir, R => { %R, len => $R{blocks} }, name => 'ymm', blocks => 1,
                          tail => &label('ymm_done'), fill => sub { $ymm_fill->($enc, @_) },
                          no_first_round => 1, last_key => &QWP($KNK0, "esp"),
                          after_cipher => sub { $ymm_unmask->($enc, @_) });
                &set_label("ymm_done");
                $ymm_leave->();
            }, sub { &test($R{i}, 1); &jz(&label("xmm_six")) });

            &set_label("xmm_six");
            if (xmm_groups_live($entry, 16)) {
                &cmp($R{blocks}, $GROUP);
                &jb(&label("one"));
                &test($R{i}, 1);
                &jz(&label("single"));
                &mov($R{ntz}, &DWP($L, "esp"));    # (six blocks need L_[1]: read no
                &movups("xmm0", &DWP(16, $R{ntz}));    # entry the call does not use)
                &movdqa(&DWP($L1, "esp"), "xmm0");
                &test($R{i}, 2);
                &jnz(&label("first$SET"));
                ocb_offsets(0);
                &jmp(&label("groups0"));
                &set_label("first$SET");
                ocb_offsets($SET);
                &jmp(&label("groups$SET"));
                for my $set (0, $SET) {
                    my $other = $SET - $set;
                    &set_label("groups$set");
                    &cmp($R{blocks}, 2 * $GROUP);
                    &jb(&label("last$set"));
                    ocb_group($enc, $set, $other);
                }
                &jmp(&label("groups0"));
                for my $set (0, $SET) {
                    &set_label("last$set");
                    ocb_group($enc, $set, undef);
                    &jmp(&label("one"));
                }
            }

            &set_label("one");
            &test($R{blocks}, $R{blocks});
            &jz(&label("done"));
            &set_label("single");
            ocb_l($TK, 0);
            &pxor($offset, $TK);
            &inc($R{i});
            &movups("xmm0", &DWP(0, $R{in}));
            if ($enc) {
                &movdqa("xmm2", &DWP($SUM, "esp"));
                &pxor("xmm2", "xmm0");
                &movdqa(&DWP($SUM, "esp"), "xmm2");
            }
            &pxor("xmm0", $offset);
            ocb_rounds($dir, "xmm1", "xmm0");
            &pxor("xmm0", $offset);
            &movups(&DWP(0, $R{out}), "xmm0");
            unless ($enc) {
                &movdqa("xmm2", &DWP($SUM, "esp"));
                &pxor("xmm2", "xmm0");
                &movdqa(&DWP($SUM, "esp"), "xmm2");
            }
            advance($R{in}, $R{out}, 16, $R{blocks}, 1);
            &jmp(&label("six"));

            &set_label("done");
            &movups("xmm0", &DWP(0, $R{key}));
            &pxor($offset, "xmm0");            # Offset again
            &movdqa("xmm0", &DWP($SUM, "esp"));
            &pxor($TK, $TK);
            &movdqa(&DWP(16 * $_, "esp"), $TK) for 0 .. $SLOTS / 16 - 1; # no offsets left
            &movdqa(&DWP($_, "esp"), $TK) for $KNK0, $RUN, $SUM2, $SUM2 + 16;
            &restore_stack();
            &mov($R{ntz}, &wparam(5));
            &movups(&DWP(0, $R{ntz}), $offset);
            &mov($R{ntz}, &wparam(7));
            &movups(&DWP(0, $R{ntz}), "xmm0");
            wipe(@B, $TK, $STATE);
            bulk_end($name);
        };
        $BULK{$entry}->($entry);
    }
}

# ------------------------------------------------------------- fixed paths
# Each bulk entry again per variant, its choice made (see ymm_section).
X86::Dispatch::fixed_paths($DECL, sub {
    my ($entry, $symbol, $variant) = @_;
    local $FIXED = $variant;
    $BULK{$entry}->($symbol);
});

&asm_finish();
