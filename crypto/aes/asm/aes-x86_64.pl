#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# Table-based AES for x86_64 without AES-NI, with OpenSSL's AES_* names
# and ABI (AES_set_encrypt_key, AES_set_decrypt_key, AES_encrypt,
# AES_decrypt, AES_cbc_encrypt).
#
#   perl crypto/aes/asm/aes-x86_64.pl FLAVOUR OUTPUT
#
# Two round forms.  full: one lookup per state byte into a T-table of
# 8-byte entries (the column written twice), so the rotation by 8k bits
# is the 4-byte load at byte offset (4-k) mod 4; each lookup's cache line
# depends on a secret byte.  compact: lookups in the 256-byte S-box only
# (its 4 lines all loaded at the start of every block), MixColumns on
# packed bytes; this narrows the cache-timing exposure to within-line
# offsets, it is not constant time.  AES_encrypt, AES_decrypt and CBC
# under AesPaths' FULL_TABLES_FROM bytes take compact, as OpenSSL does: a
# hardening choice, not a speed one.  A block's compact rounds outlast
# the out-of-order window, so the code shortens their critical path
# rather than their instruction count.
#
# Key schedule: FIPS-197 5.2 in little-endian words (rd_key[i] holds
# bytes 4i..4i+3, byte 4i in bits 0..7, as the state is loaded), so
# nothing is byte-swapped; decryption's is the equivalent inverse cipher
# (5.3.5).  rounds at byte offset 240.  Tables are derived here from the
# definition, not typed in.  Also exported, hidden: aes_x86_64_{encrypt,
# decrypt}_full, aes_x86_64_cbc_encrypt_{full,compact} (one path forced,
# for the tests) and AesX86_64/Modes.pm's XTS and CCM loops
# aes_x86_64_{xts,ccm64}_{enc,dec}_{full,compact}, for
# crypto/aes/aes_x86_64_xts_ccm.c.  Registers: see "registers" below.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../../../perlasm/lib", "$FindBin::Bin/..", $FindBin::Bin;
use X64::Module;
use AesMath qw(sbox inv_sbox te0 td0);
use AesPaths;
use AesX86_64::Modes qw(frame_enter xts_function ccm64_function);

# Every table starts on a cache line, so a table's lines are exactly the
# ones its bytes span.
my $TAB_ALIGN = 64;
X64::Module::pipe_output(@ARGV);

# ---------------------------------------------------------------- tables
my @sbox  = sbox();
my @isbox = inv_sbox();

sub bytes_rows {
    my ($label, $per, @v) = @_;
    my $t = "$label:\n";
    while (my @r = splice(@v, 0, $per)) { $t .= "\t.byte\t" . join(',', map { sprintf '0x%02x', $_ } @r) . "\n" }
    return $t;
}
sub long_rows {
    my ($label, @v) = @_;
    my $t = "$label:\n";
    while (my @r = splice(@v, 0, 4)) { $t .= "\t.long\t" . join(',', map { sprintf '0x%08x', $_ } @r) . "\n" }
    return $t;
}
my (@te2, @td2);
for my $x (0 .. 255) {
    my ($te, $td) = (te0($x), td0($x));
    push @te2, $te, $te;
    push @td2, $td, $td;
}

my $A = $TAB_ALIGN;
print ".section .rodata\n";
print ".align\t$A\n", long_rows('.Laes_te', @te2);
print ".align\t$A\n", long_rows('.Laes_td', @td2);
print ".align\t$A\n", bytes_rows('.Laes_sbox', 16, @sbox);
print ".align\t$A\n", bytes_rows('.Laes_isbox', 16, @isbox);
print ".text\n";

# --------------------------------------------------------------- registers
# State s0..s3 in eax, ebx, ecx, edx (their second bytes are addressable
# as %ah..%dh); the next state t0..t3 in r8d..r11d; byte indices in esi,
# edi (the only ones %ah can be moved into) and r12d, r13d; table base
# r14, round key pointer r15, last round key rbp.
my @S = qw(a b c d);
sub s32 { "%e$S[$_[0]]x" }
sub slo { "%$S[$_[0]]l" }
sub shi { "%$S[$_[0]]h" }
my @T32 = map { "%r${_}d" } 8 .. 11;
my @T64 = map { "%r$_" } 8 .. 11;
my ($TAB, $KEY, $KEND) = ('%r14', '%r15', '%rbp');
my @HI = (['%esi', '%rsi'], ['%edi', '%rdi']);           # for %ah
my @LO_FULL = (['%r12d', '%r12'], ['%r13d', '%r13']);    # for %al
my @LO = @LO_FULL;
my $SAVE = 'rbx:rbp:r12:r13:r14:r15';

# The instructions extracting byte b of state word i into an index
# register; returns (code, the index register's 64- and 32-bit names).  Byte 0 and 1 come
# straight from %al/%ah; byte 2 and 3 after `shr $16` of the word (which
# the caller emits between the two halves).
my $rot = 0;
sub extract {
    my ($i, $b) = @_;
    my $pair = ($b & 1) ? $HI[$rot++ & 1] : $LO[$rot++ & 1];
    my $src = ($b & 1) ? shi($i) : slo($i);
    return ("\tmovzbl\t$src,$pair->[0]\n", $pair->[1], $pair->[0]);
}

# Destination column of byte b of source column i: encryption shifts row
# b left by b (t[i-b]), decryption right (t[i+b]).
sub dest { my ($dir, $i, $b) = @_; return ($i - $dir * $b) & 3 }

# The round-key words at $off(%r15) into (or xored into) t0..t3.
sub key_into {
    my ($off, $op) = @_;      # $op: mov or xor
    return join '', map { "\t$op\t" . ($off + 4 * $_) . "($KEY),$T32[$_]\n" } 0 .. 3;
}

# One full-table round: t = T-lookups(s) ^ rk at 0(%r15); then s = t.
# The accumulators start from the round key, so every lookup is one xor.
sub full_round {
    my ($dir) = @_;
    my $c = key_into(0, 'mov');
    for my $half (0, 1) {
        for my $i (0 .. 3) {
            for my $b (2 * $half, 2 * $half + 1) {
                my ($x, $idx) = extract($i, $b);
                my $d = dest($dir, $i, $b);
                my $disp = (4 - $b) & 3;
                $c .= $x;
                $c .= "\txor\t$disp($TAB,$idx,8),$T32[$d]\n";
            }
            $c .= "\tshr\t\$16," . s32($i) . "\n" if $half == 0;
        }
    }
    $c .= "\tmov\t$T32[$_]," . s32($_) . "\n" for 0 .. 3;
    return $c;
}

# SubBytes+ShiftRows (or their inverses) from s into t, bytes looked up at
# $disp($base,idx,$scale).  Each byte is loaded into its index register,
# shifted to its place and ored into its t word: 14 instructions a column
# where loading into the low byte and rotating takes 12, but the four
# bytes meet after one shift instead of a chain of seven steps, and the
# compact rounds run at their latency (the header has the figures).
# With $key, the round key at 0(%r15) is added (the last round).
sub sub_shift {
    my ($dir, $disp, $scale, $key) = @_;
    my $c = '';
    for my $half (0, 1) {
        for my $b (2 * $half, 2 * $half + 1) {
            for my $j (0 .. 3) {
                my $i = ($j + $dir * $b) & 3;      # source column of byte b of t[j]
                my ($x, $idx, $idx32) = extract($i, $b);
                my $mem = "$disp($TAB,$idx,$scale)";
                $c .= $x;
                $c .= $b ? "\tmovzbl\t$mem,$idx32\n\tshl\t\$" . (8 * $b) . ",$idx32\n\tor\t$idx32,$T32[$j]\n"
                         : "\tmovzbl\t$mem,$T32[$j]\n";
            }
        }
        if ($half == 0) { $c .= "\tshr\t\$16," . s32($_) . "\n" for 0 .. 3 }
    }
    $c .= key_into(0, 'xor') if $key;
    return $c;
}

# xtime on four packed bytes: $dst = 2·$src, with $tmp clobbered.
sub xtime {
    my ($src, $dst, $tmp, $src64) = @_;
    return "\tmov\t$src,$tmp\n\tshr\t\$7,$tmp\n\tand\t\$0x01010101,$tmp\n"
         . "\timul\t\$0x1b,$tmp,$tmp\n\tlea\t($src64,$src64),$dst\n"
         . "\tand\t\$0xfefefefe,$dst\n\txor\t$tmp,$dst\n";
}

# $dst = $const in every byte of $src whose bit $bit is set, 0 in the
# others; $tmp clobbered.  (m - m >> bit) turns the flag into a run of
# ones below it without crossing into the next byte, and the mask keeps
# $const: four one-cycle steps, where a multiply by $const takes three
# cycles of its own (the compact rounds run at their latency).
sub spread {
    my ($bit, $const, $src, $dst, $tmp) = @_;
    my ($flag, $c4) = map { sprintf '0x%02x%02x%02x%02x', ($_) x 4 } 1 << $bit, $const;
    return "\tmov\t$src,$dst\n\tand\t\$$flag,$dst\n\tmov\t$dst,$tmp\n\tshr\t\$$bit,$tmp\n"
         . "\tsub\t$tmp,$dst\n\tand\t\$$c4,$dst\n";
}

# MixColumns of column t[j] into s[j]:
#   u = t ^ rot8(t);  s = rot8(t) ^ 2·u ^ rot16(u)
# where rot8 brings row r+1 to row r (ror by 8 on our little-endian words),
# and 2·u = (u << 1 & 0xfe..) ^ 0x1b·bit7(u).  The reduction term is
# ready last, so it is added last.
sub mix_column {
    my ($j) = @_;
    my ($t, $t64, $s) = ($T32[$j], $T64[$j], s32($j));
    my ($m, $n) = ('%esi', '%edi');
    return "\tmov\t$t,$s\n\tror\t\$8,$s\n\txor\t$s,$t\n\txor\t" . (4 * $j) . "($KEY),$s\n"
         . spread(7, 0x1b, $t, $m, $n)
         . "\tlea\t($t64,$t64),$n\n\tand\t\$0xfefefefe,$n\n\txor\t$n,$s\n"
         . "\trol\t\$16,$t\n\txor\t$t,$s\n\txor\t$m,$s\n";
}

# InvMixColumns = MixColumns after w ^= 4·(w ^ rot16(w)) (The Design of
# Rijndael §4.1.3: {0e,0b,0d,09} = {02,03,01,01}·({04}x^2+{05})).
# One block's rounds are longer than the out-of-order window, so their
# latency is what the compact path runs at: 4·u is formed at once,
#   4·u = (u << 2 & 0xfc..) ^ 0x1b·bit6(u) ^ 0x36·bit7(u)  (per byte),
# its three terms side by side, not as two xtimes one after the other.
sub inv_pre_column {
    my ($j) = @_;
    my ($t, $u, $b6, $b7) = ($T32[$j], '%esi', '%edi', s32($j));   # s[j] is free until mix_column
    my $tmp = s32(($j + 1) & 3);
    return "\tmov\t$t,$u\n\trol\t\$16,$u\n\txor\t$t,$u\n"
         . spread(6, 0x1b, $u, $b6, $tmp) . spread(7, 0x36, $u, $b7, $tmp)
         . "\tshl\t\$2,$u\n\tand\t\$0xfcfcfcfc,$u\n\txor\t$b6,$u\n\txor\t$b7,$u\n"
         . "\txor\t$u,$t\n";
}

sub compact_round {
    my ($dir) = @_;
    my $c = sub_shift($dir, 0, 1, 0);
    if ($dir < 0) { $c .= inv_pre_column($_) for 0 .. 3 }
    $c .= mix_column($_) for 0 .. 3;
    return $c;
}

# One block: s0..s3 hold the input, %r15 the schedule; leaves the output
# in s0..s3.  Clobbers every register but rsp.
sub block {
    my ($dir, $path, $lbl) = @_;
    my $c = '';
    # the compact path needs no r12/r13
    @LO = $path eq 'full' ? @LO_FULL : @HI;
    $c .= "\txor\t" . (4 * $_) . "($KEY)," . s32($_) . "\n" for 0 .. 3;
    $c .= "\tmov\t240($KEY),%ebp\n\tshl\t\$4,%ebp\n\tadd\t$KEY,$KEND\n\tadd\t\$16,$KEY\n";
    if ($path eq 'full') {
        $c .= "\tlea\t" . ($dir > 0 ? '.Laes_te' : '.Laes_td') . "(%rip),$TAB\n";
    } else {
        # Every line of the S-box, read before any secret-indexed access.
        $c .= "\tlea\t" . ($dir > 0 ? '.Laes_sbox' : '.Laes_isbox') . "(%rip),$TAB\n";
        $c .= "\tmov\t" . (64 * $_) . "($TAB),%r" . (8 + $_) . "d\n" for 0 .. 3;
    }
    $c .= ".p2align 4\n$lbl:\n";
    $c .= $path eq 'full' ? full_round($dir) : compact_round($dir);
    $c .= "\tadd\t\$16,$KEY\n\tcmp\t$KEND,$KEY\n\tjne\t$lbl\n";
    if ($path eq 'full' && $dir > 0) {
        $c .= sub_shift($dir, 1, 8, 1);         # S[x] is byte 1 of Te entry x
    } else {
        $c .= "\tlea\t.Laes_isbox(%rip),$TAB\n" if $path eq 'full';
        $c .= sub_shift($dir, 0, 1, 1);
    }
    $c .= "\tmov\t$T32[$_]," . s32($_) . "\n" for 0 .. 3;
    return $c;
}

sub one_block_function {
    my ($name, $dir, $path) = @_;
    return <<"EOT" . block($dir, $path, ".L${name}_round") . <<"EOT";
.function $name, args=3, save=@{[ $path eq 'full' ? $SAVE : 'rbx:rbp:r14:r15' ]}, stack=16
	mov	%rsi,0(%rsp)
	mov	%rdx,$KEY
	mov	0(%rdi),%eax
	mov	4(%rdi),%ebx
	mov	8(%rdi),%ecx
	mov	12(%rdi),%edx
EOT
	mov	0(%rsp),%rsi
	mov	%eax,0(%rsi)
	mov	%ebx,4(%rsi)
	mov	%ecx,8(%rsi)
	mov	%edx,12(%rsi)
	.return
.endfunction
EOT
}

# CBC over one path.  Locals (0..39 stored by frame_enter, as the XTS
# and CCM loops do): 0 in, 8 out, 16 bytes left, 24 key, 32 ivec, 40..55
# scratch block, 56..71 chaining value (decryption).
# $body is the label after the prologue, where AES_cbc_encrypt (whose
# frame is declared identically) jumps in.
sub cbc_function {
    my ($name, $path, $body) = @_;
    my $p = ".L$name";
    my $c = <<"EOT";
.function $name, args=6, save=$SAVE, stack=80
$body:
@{[ frame_enter($p, '%r8') ]}	test	%r9d,%r9d
	jz	${p}_dec
	mov	0(%r8),%eax
	mov	4(%r8),%ebx
	mov	8(%r8),%ecx
	mov	12(%r8),%edx
.p2align 4
${p}_enc_loop:
	mov	0(%rsp),%rdi
	cmpq	\$16,16(%rsp)
	jb	${p}_enc_partial
${p}_enc_block:
	xor	0(%rdi),%eax
	xor	4(%rdi),%ebx
	xor	8(%rdi),%ecx
	xor	12(%rdi),%edx
	mov	24(%rsp),$KEY
EOT
    $c .= block(1, $path, "${p}_enc_round");
    $c .= <<"EOT";
	mov	8(%rsp),%rsi
	mov	%eax,0(%rsi)
	mov	%ebx,4(%rsi)
	mov	%ecx,8(%rsi)
	mov	%edx,12(%rsi)
	addq	\$16,0(%rsp)
	addq	\$16,8(%rsp)
	subq	\$16,16(%rsp)
	jnz	${p}_enc_loop
	mov	32(%rsp),%r8
	mov	%eax,0(%r8)
	mov	%ebx,4(%r8)
	mov	%ecx,8(%r8)
	mov	%edx,12(%r8)
${p}_out:
	.return

${p}_enc_partial:
	# the last len < 16 bytes, zero-padded, in the scratch block
	# (the chaining value stays in eax..edx)
	mov	16(%rsp),%rsi
	movq	\$0,40(%rsp)
	movq	\$0,48(%rsp)
${p}_enc_copy:
	movzbl	-1(%rdi,%rsi),%r8d
	mov	%r8b,39(%rsp,%rsi)
	sub	\$1,%rsi
	jnz	${p}_enc_copy
	lea	40(%rsp),%rdi
	mov	%rdi,0(%rsp)
	movq	\$16,16(%rsp)
	jmp	${p}_enc_block

${p}_dec:
	mov	0(%r8),%rax
	mov	8(%r8),%rcx
	mov	%rax,56(%rsp)
	mov	%rcx,64(%rsp)
.p2align 4
${p}_dec_loop:
	mov	0(%rsp),%rdi
	mov	24(%rsp),$KEY
	mov	0(%rdi),%eax
	mov	4(%rdi),%ebx
	mov	8(%rdi),%ecx
	mov	12(%rdi),%edx
EOT
    $c .= block(-1, $path, "${p}_dec_round");
    $c .= <<"EOT";
	mov	0(%rsp),%rdi
	xor	56(%rsp),%eax
	xor	60(%rsp),%ebx
	xor	64(%rsp),%ecx
	xor	68(%rsp),%edx
	mov	0(%rdi),%r8
	mov	8(%rdi),%r9
	mov	%r8,56(%rsp)
	mov	%r9,64(%rsp)
	mov	8(%rsp),%rsi
	cmpq	\$16,16(%rsp)
	jb	${p}_dec_partial
	mov	%eax,0(%rsi)
	mov	%ebx,4(%rsi)
	mov	%ecx,8(%rsi)
	mov	%edx,12(%rsi)
	addq	\$16,0(%rsp)
	addq	\$16,8(%rsp)
	subq	\$16,16(%rsp)
	jnz	${p}_dec_loop
${p}_dec_end:
	mov	32(%rsp),%r8
	mov	56(%rsp),%rax
	mov	64(%rsp),%rcx
	mov	%rax,0(%r8)
	mov	%rcx,8(%r8)
	.return

${p}_dec_partial:
	# a whole block was read; only len bytes are written
	mov	%eax,40(%rsp)
	mov	%ebx,44(%rsp)
	mov	%ecx,48(%rsp)
	mov	%edx,52(%rsp)
	mov	16(%rsp),%rcx
${p}_dec_copy:
	movzbl	39(%rsp,%rcx),%eax
	mov	%al,-1(%rsi,%rcx)
	sub	\$1,%rcx
	jnz	${p}_dec_copy
	jmp	${p}_dec_end
.endfunction
EOT
    return $c;
}

# ----------------------------------------------------------- key schedule
# FIPS-197 §5.2 KeyExpansion: key at %rdi, bits in %esi, schedule at %rdx
# (also kept at 0(%rsp): SubWord borrows %edx).  Leaves %eax = 0, or jumps
# to $fail with -1 (NULL key, then NULL schedule) or -2 (bad bits); %r8 =
# end of the schedule.  Uses rax rbx rcx rdx rsi rdi r8-r11.  The S-box
# lines are all read first, as in the compact rounds.
sub expand_key_body {
    my ($p, $fail) = @_;
    return <<"EOT";
	mov	\$-1,%eax
	test	%rdi,%rdi
	jz	$fail
	test	%rdx,%rdx
	jz	$fail
	mov	\$-2,%eax
	mov	\$4,%ecx
	mov	\$10,%r8d
	cmp	\$128,%esi
	je	${p}_bits
	mov	\$6,%ecx
	mov	\$12,%r8d
	cmp	\$192,%esi
	je	${p}_bits
	mov	\$8,%ecx
	mov	\$14,%r8d
	cmp	\$256,%esi
	jne	$fail
${p}_bits:
	mov	%r8d,240(%rdx)
	lea	4(,%r8,4),%r8d
	lea	(%rdx,%r8,4),%r8
	lea	.Laes_sbox(%rip),%r11
	mov	0(%r11),%eax
	mov	64(%r11),%eax
	mov	128(%r11),%eax
	mov	192(%r11),%eax
	xor	%esi,%esi
${p}_copy:
	mov	(%rdi,%rsi,4),%eax
	mov	%eax,(%rdx,%rsi,4)
	add	\$1,%esi
	cmp	%ecx,%esi
	jne	${p}_copy
	lea	(%rdx,%rcx,4),%r9
	mov	%rcx,%r10
	shl	\$2,%r10
	neg	%r10
	xor	%esi,%esi
	mov	\$1,%edi
${p}_word:
	mov	-4(%r9),%eax
	test	%esi,%esi
	jz	${p}_rot
	cmp	\$4,%esi
	jne	${p}_store
	cmp	\$8,%ecx
	jne	${p}_store
	jmp	${p}_sub
${p}_rot:
	ror	\$8,%eax
${p}_sub:
	# SubWord, one byte at a time (four rotations bring the word back)
	mov	\$4,%ebx
${p}_subbyte:
	rol	\$8,%eax
	movzbl	%al,%edx
	movzbl	(%r11,%rdx),%edx
	mov	%dl,%al
	sub	\$1,%ebx
	jnz	${p}_subbyte
	mov	0(%rsp),%rdx
	test	%esi,%esi
	jnz	${p}_store
	xor	%edi,%eax
	add	%edi,%edi
	cmp	\$0x100,%edi
	jb	${p}_store
	xor	\$0x11b,%edi
${p}_store:
	xor	(%r9,%r10),%eax
	mov	%eax,(%r9)
	add	\$4,%r9
	add	\$1,%esi
	cmp	%ecx,%esi
	jne	${p}_next
	xor	%esi,%esi
${p}_next:
	cmp	%r8,%r9
	jne	${p}_word
	xor	%eax,%eax
EOT
}

my $code = '';

for my $dir ('encrypt', 'decrypt') {
    my $name = "AES_set_${dir}_key";
    my $p = ".L$name";
    $code .= ".globl\t$name\n.p2align 4\n.function $name, args=3, save=rbx, stack=16\n";
    $code .= "\tmov\t%rdx,0(%rsp)\n";
    $code .= expand_key_body($p, "${p}_ret");
    if ($dir eq 'decrypt') {
        # Reverse the round keys (16-byte blocks), then InvMixColumns on
        # every word of rounds 1..Nr-1.  %rdx = schedule, %r8 = its end.
        $code .= <<"EOT";
	lea	-16(%r8),%r9
	mov	%rdx,%rdi
${p}_swap:
	mov	0(%rdi),%rax
	mov	8(%rdi),%rcx
	mov	0(%r9),%rsi
	mov	8(%r9),%r10
	mov	%rax,0(%r9)
	mov	%rcx,8(%r9)
	mov	%rsi,0(%rdi)
	mov	%r10,8(%rdi)
	add	\$16,%rdi
	sub	\$16,%r9
	cmp	%r9,%rdi
	jb	${p}_swap
	lea	16(%rdx),%rdi
	lea	-16(%r8),%r9
${p}_imc:
	mov	0(%rdi),%eax
EOT
        # x2, x4, x8 of the packed bytes x into ecx, esi, r10d
        $code .= xtime('%eax', '%ecx', '%r11d', '%rax');
        $code .= xtime('%ecx', '%esi', '%r11d', '%rcx');
        $code .= xtime('%esi', '%r10d', '%r11d', '%rsi');
        # out = 14x ^ rot8(11x) ^ rot16(13x) ^ rot24(9x)
        $code .= <<"EOT";
	xor	%r10d,%eax
	mov	%ecx,%r11d
	xor	%esi,%r11d
	xor	%r10d,%r11d
	xor	%eax,%ecx
	xor	%eax,%esi
	ror	\$8,%ecx
	ror	\$16,%esi
	ror	\$24,%eax
	xor	%ecx,%r11d
	xor	%esi,%r11d
	xor	%eax,%r11d
	mov	%r11d,0(%rdi)
	add	\$4,%rdi
	cmp	%r9,%rdi
	jb	${p}_imc
	xor	%eax,%eax
EOT
    }
    $code .= "${p}_ret:\n\t.return\n.endfunction\n\n";
}

# OpenSSL's other x86_64 modules (bsaes-x86_64) call AES_encrypt,
# AES_decrypt and AES_cbc_encrypt under hidden second names: the same
# address, so a drop-in needs them too.
sub asm_alias {
    my ($name) = @_;
    return ".globl\tasm_$name\n.hidden\tasm_$name\nasm_$name:\n";
}

for my $f (['AES_encrypt', 1, 'compact'], ['AES_decrypt', -1, 'compact'],
           ['aes_x86_64_encrypt_full', 1, 'full'], ['aes_x86_64_decrypt_full', -1, 'full']) {
    my ($name, $dir, $path) = @$f;
    $code .= ".globl\t$name\n";
    $code .= ".hidden\t$name\n" if $name =~ /^aes_/;
    $code .= ".p2align 4\n";
    $code .= asm_alias($name) if $name =~ /^AES_/;
    $code .= one_block_function($name, $dir, $path) . "\n";
}

# AES_cbc_encrypt: the same frame as the two below, so after its prologue
# it continues in the body of one of them (the unwind state there is the
# same) and returns through that one's epilogue.
$code .= <<"EOT";
.globl	AES_cbc_encrypt
.p2align 4
@{[ asm_alias('AES_cbc_encrypt') ]}.function AES_cbc_encrypt, args=6, save=$SAVE, stack=80
	cmp	\$$AesPaths::FULL_TABLES_FROM,%rdx
	jae	.Lcbc_full_body
	jmp	.Lcbc_compact_body
.endfunction

EOT
for my $path ('full', 'compact') {
    my $name = "aes_x86_64_cbc_encrypt_$path";
    $code .= ".globl\t$name\n.hidden\t$name\n.p2align 4\n"
           . cbc_function($name, $path, ".Lcbc_${path}_body") . "\n";
}

# XTS and CCM over each path (AesX86_64/Modes.pm): whole blocks, the
# path chosen by the C glue (crypto/aes/aes_x86_64_xts_ccm.c).
for my $path ('full', 'compact') {
    my $rounds = sub { my ($dir, $lbl) = @_; return block($dir, $path, $lbl) };
    $code .= xts_function("aes_x86_64_xts_enc_$path", 1, $SAVE, $rounds);
    $code .= xts_function("aes_x86_64_xts_dec_$path", -1, $SAVE, $rounds);
    $code .= ccm64_function("aes_x86_64_ccm64_enc_$path", 1, $SAVE, $rounds);
    $code .= ccm64_function("aes_x86_64_ccm64_dec_$path", 0, $SAVE, $rounds);
}

print $code;
X64::Module::finish();
