#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# AES with the AES-NI instructions for x86_64, exporting OpenSSL 3.0's
# aesni_* names and prototypes (what OpenSSL needs from this module is
# listed in tools/openssl-symbols/aesni-x86_64.txt):
#
#   aesni_set_encrypt_key / aesni_set_decrypt_key   key schedules
#   aesni_encrypt / aesni_decrypt                   one block
#   aesni_ecb_encrypt, aesni_cbc_encrypt            whole blocks
#   aesni_ctr32_encrypt_blocks                      32-bit BE counter
#   aesni_xts_encrypt / aesni_xts_decrypt           IEEE 1619, with stealing
#   aesni_ccm64_encrypt_blocks / _decrypt_blocks    CCM bulk (AESNI/CCM.pm)
#   aesni_ocb_encrypt / aesni_ocb_decrypt           OCB bulk (AESNI/OCB.pm)
#
#   perl crypto/aes/asm/aesni-x86_64.pl FLAVOUR OUTPUT
#
# Key schedule: the round keys as the instructions consume them, R = Nr - 1
# (9, 11 or 13) at byte 240; decryption's is the encryption one reversed
# with aesimc on all keys but the two ends (FIPS-197 5.3.5).  Rounds: END
# = key + 16 * (R + 1); the middle rounds are written out for R = 13,
# keys addressed back from END, and shorter schedules enter two or four
# rounds later, so no counter is carried and the entry branch is always
# predicted.  The parallel modes run eight independent blocks (enough to
# fill two pipelined AES units); a mode's XOR after the cipher is folded
# into the last round key and the one before it into K0.  CBC encryption
# uses Klast ^ K0 ^ P[i+1] as block i's last key, so the chain is exactly
# Nr AES instructions a block.  The parts are packages in AESNI/ (Common:
# labels, roles, widths, rounds; VAES: the wide paths; CCM; OCB), imported
# by name.  Registers: general ones by role (roles(): NAME, NAME32, NAME8),
# vector ones in variables; the bodies use only those names.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../../../perlasm/lib", $FindBin::Bin;
use X64::Module;
use X64::Dispatch;
use AESNI::Common qw(label roles width key_setup mid_rounds one_block);
use AESNI::VAES qw(vaes_entries vaes_widths vaes_select vaes_constants vaes_ecb_bulk
                   vaes_ctr_bulk vaes_cbc_dec_bulk vaes_xts_bulk @VAES_CTR_KEYED);
use AESNI::CCM qw(ccm64_functions);
use AESNI::OCB qw(ocb_functions);

X64::Module::pipe_output(@ARGV);

my $XMM = width(128);
my @b = map { "%xmm$_" } 0 .. 7;         # block registers of the 8-way paths

# ---------------------------------------------------------------------------
# Key schedules.
#
# FIPS-197 5.2 word by word: w[i] = w[i-Nk] ^ temp, temp = w[i-1], passed
# through RotWord/SubWord/Rcon when i % Nk == 0 and through SubWord when
# Nk = 8 and i % Nk == 4.  Words are little-endian loads of the key bytes,
# so RotWord is a rotate right by 8 and Rcon XORs the low byte.
# aeskeygenassist $0 on a register holding temp in every lane gives
# SubWord(temp) in lane 0 and RotWord(SubWord(temp)) in lane 1; Rcon is
# added from a register, so one instruction serves every round.
#
# In: user_key, bits, sched.  Out: status = 0, -1, -2; on success
# rounds = R.  Clobbers the other roles below and xmm0.
my %KR = roles(user_key => '%rdi', bits => '%rsi', sched => '%rdx',
               status => '%rax', rounds => '%rcx',
               nk => '%rsi',             # bits / 32, once checked
               idx => '%rax', copy => '%r8',          # copying the key
               sched_end => '%rdi', w => '%r8',       # &w[i]
               back => '%r11',           # -4 * Nk: w[i - Nk] = (w, back)
               rcon => '%r10', imod => '%r9', temp => '%rax',
               front => '%rdx');         # set_decrypt_key's walk, with w
my $kx = '%xmm0';

sub expand_key {
    my ($tag) = @_;
    my %R = %KR;
    my ($fail, $ok, $copy, $loop, $mid, $four, $store, $rc) =
        map { label("$tag$_") } qw(fail ok copy loop mid four store rc);
    return <<___;
	mov	\$-1,$R{status32}
	test	$R{user_key},$R{user_key}
	jz	$fail
	test	$R{sched},$R{sched}
	jz	$fail
	mov	\$-2,$R{status32}
	cmp	\$128,$R{bits32}
	je	$ok
	cmp	\$192,$R{bits32}
	je	$ok
	cmp	\$256,$R{bits32}
	jne	$fail
$ok:
	shr	\$5,$R{nk32}			# Nk
	lea	5($R{nk}),$R{rounds32}			# R = Nk + 5
	mov	$R{rounds32},240($R{sched})
	xor	$R{idx32},$R{idx32}
$copy:
	mov	($R{user_key},$R{idx},4),$R{copy32}
	mov	$R{copy32},($R{sched},$R{idx},4)
	inc	$R{idx32}
	cmp	$R{nk32},$R{idx32}
	jb	$copy
	lea	7($R{nk}),$R{sched_end32}			# 4 * (Nk + 7) words of 4 bytes
	shl	\$4,$R{sched_end32}
	lea	($R{sched},$R{sched_end}),$R{sched_end}		# end of the schedule
	lea	($R{sched},$R{nk},4),$R{w}		# &w[Nk]
	mov	$R{nk},$R{back}
	shl	\$2,$R{back}
	neg	$R{back}
	mov	\$1,$R{rcon32}
	xor	$R{imod32},$R{imod32}			# i % Nk
$loop:
	mov	-4($R{w}),$R{temp32}
	test	$R{imod32},$R{imod32}
	jnz	$mid
	movd	$R{temp32},$kx
	pshufd	\$0,$kx,$kx
	aeskeygenassist	\$0,$kx,$kx
	pextrd	\$1,$kx,$R{temp32}			# RotWord(SubWord(temp))
	xor	$R{rcon32},$R{temp32}
	add	$R{rcon32},$R{rcon32}			# Rcon times x in GF(2^8)
	cmp	\$0x100,$R{rcon32}
	jb	$store
	xor	\$0x11b,$R{rcon32}
	jmp	$store
$mid:
	cmp	\$4,$R{imod32}
	jne	$store
	cmp	\$8,$R{nk32}
	jne	$store
	movd	$R{temp32},$kx
	pshufd	\$0,$kx,$kx
	aeskeygenassist	\$0,$kx,$kx
	movd	$kx,$R{temp32}			# SubWord(temp)
$store:
	xor	($R{w},$R{back}),$R{temp32}
	mov	$R{temp32},($R{w})
	lea	4($R{w}),$R{w}
	inc	$R{imod32}
	cmp	$R{nk32},$R{imod32}
	jb	$rc
	xor	$R{imod32},$R{imod32}
$rc:
	cmp	$R{sched_end},$R{w}
	jb	$loop
	pxor	$kx,$kx
	xor	$R{status32},$R{status32}
$fail:
___
}

{
    my %R = %KR;
    my ($front_key, $back_key) = ('%xmm0', '%xmm1');
    print <<___;
.text
.globl	aesni_set_encrypt_key
.function aesni_set_encrypt_key, args=3
${\ expand_key('ek') }	.return
.endfunction

.globl	aesni_set_decrypt_key
.function aesni_set_decrypt_key, args=3
${\ expand_key('dk') }	test	$R{status32},$R{status32}
	jnz	.Laesni_dk_done
	# swap keys 0 and R+1, then walk inwards applying aesimc
	shl	\$4,$R{rounds32}
	lea	16($R{sched},$R{rounds}),$R{w}		# &key[R+1]
	movups	($R{front}),$front_key
	movups	($R{w}),$back_key
	movups	$front_key,($R{w})
	movups	$back_key,($R{front})
.Laesni_dk_swap:
	lea	16($R{front}),$R{front}
	lea	-16($R{w}),$R{w}
	cmp	$R{w},$R{front}
	jae	.Laesni_dk_middle
	movups	($R{front}),$front_key
	movups	($R{w}),$back_key
	aesimc	$front_key,$front_key
	aesimc	$back_key,$back_key
	movups	$front_key,($R{w})
	movups	$back_key,($R{front})
	jmp	.Laesni_dk_swap
.Laesni_dk_middle:
	movups	($R{front}),$front_key			# R + 2 keys: there is a middle one
	aesimc	$front_key,$front_key
	movups	$front_key,($R{front})
	pxor	$front_key,$front_key
	pxor	$back_key,$back_key
.Laesni_dk_done:
	.return
.endfunction
___
}

# ---------------------------------------------------------------------------
# One block.  in, out, key; rounds and end for the round helpers.
for my $dir (qw(enc dec)) {
    my $name = $dir eq 'enc' ? 'aesni_encrypt' : 'aesni_decrypt';
    my %R = roles(in => '%rdi', out => '%rsi', key => '%rdx', rounds => '%rax', end => '%rcx');
    my ($x, $tk) = ('%xmm0', '%xmm1');
    print <<___;

.globl	$name
.function $name, args=3
	movdqu	($R{in}),$x
${\ one_block(\%R, $dir, $R{key}, $x, $tk) }	movdqu	$x,($R{out})
	pxor	$tk,$tk
	.return
.endfunction
___
}

# ---------------------------------------------------------------------------
# ECB, CBC, CTR32 and XTS each have one function, NAME_body, holding
# the xmm code and both wide sections, reached through four entry points
# (vaes_entries): OpenSSL's name, which lets the body choose a VAES width
# at run time (vaes_select), and NAME_vaes512, NAME_vaes256 and NAME_xmm,
# hidden, which ask for that code without looking at the CPU, so the
# tests and the registry reach each one directly.  Every width finishes
# on the xmm code, and every entry starts there for inputs shorter than
# the entry's min (aesni-x86_64.dispatch).

# The labels of the wide sections a function's body holds.
sub wide_entries {
    my ($name, $widths) = @_;
    return map { $_ => ".L${name}_w$_" } @$widths;
}

print X64::Dispatch::extern_caps(), vaes_constants();

# ---------------------------------------------------------------------------
# ECB.  xmm0-7 blocks, xmm8 round key, xmm9 K0, xmm10 Klast.
{
    my $name = 'aesni_ecb_encrypt';
    my ($body, $widths) = ("${name}_body", [ vaes_widths($name) ]);
    print vaes_entries($name, $body);
    my %R = roles(in => '%rdi', out => '%rsi', len => '%rdx', key => '%rcx', enc => '%r8',
                  rounds => '%r10', end => '%r11');
    my %wide_entry = wide_entries($name, $widths);
    my ($k0, $kl, $tk) = ('%xmm9', '%xmm10', '%xmm8');
    my $t = <<___;

.function $body, args=5, xmm=6-10
	and	\$-16,$R{len}
	jz	.L${name}_done
${\ key_setup(\%R, $R{key}) }	movups	($R{key}),$k0
	movups	($R{end}),$kl
${\ vaes_select(name => $name, entries => \%wide_entry, count => $R{len}) }	test	$R{enc32},$R{enc32}
	jz	.L${name}_dec
.L${name}_enc:
___
    for my $dir (qw(enc dec)) {
        my $op = "aes$dir";
        my ($l8, $t1, $l1) = map { ".L${name}_${dir}_$_" } qw(loop8 tail loop1);
        $t .= ".L${name}_dec:\n" if $dir eq 'dec';
        $t .= "\tsub\t\$128,$R{len}\n\tjb\t$t1\n.align\t16\n$l8:\n";
        $t .= "\tmovdqu\t" . 16 * $_ . "($R{in}),$b[$_]\n" for 0 .. 7;
        $t .= "\tpxor\t$k0,$_\n" for @b;
        $t .= mid_rounds($XMM, $op, \%R, $tk, @b);
        $t .= "\t${op}last\t$kl,$_\n" for @b;
        $t .= "\tmovdqu\t$b[$_]," . 16 * $_ . "($R{out})\n" for 0 .. 7;
        $t .= <<___;
	lea	128($R{in}),$R{in}
	lea	128($R{out}),$R{out}
	sub	\$128,$R{len}
	jae	$l8
$t1:
	add	\$128,$R{len}
	jz	.L${name}_done
$l1:
	movdqu	($R{in}),$b[0]
	pxor	$k0,$b[0]
${\ mid_rounds($XMM, $op, \%R, $tk, $b[0]) }	${op}last	$kl,$b[0]
	movdqu	$b[0],($R{out})
	lea	16($R{in}),$R{in}
	lea	16($R{out}),$R{out}
	sub	\$16,$R{len}
	jnz	$l1
___
        $t .= "\tjmp\t.L${name}_done\n" if $dir eq 'enc';
    }
    $t .= "\tjmp\t.L${name}_done\n";
    for my $w (@$widths) {
        my $width = width($w);
        my $entry = $wide_entry{$w};
        $t .= "$entry:\n\ttest\t$R{enc32},$R{enc32}\n\tjz\t${entry}_dec\n"
            . vaes_ecb_bulk($width, \%R, 'enc', ".L${name}_enc")
            . "${entry}_dec:\n" . vaes_ecb_bulk($width, \%R, 'dec', ".L${name}_dec");
    }
    $t .= <<___;
.L${name}_done:
	.return
.endfunction
___
    print $t;
}

# ---------------------------------------------------------------------------
# CBC.  Whole blocks as OpenSSL; a partial last block as
# CRYPTO_cbc128_encrypt/decrypt do it: encryption pads it with zeros and
# writes a whole block, decryption reads a whole block, writes len % 16
# bytes and takes that whole input block as the next iv.  The partial
# block goes through the 16-byte local.
{
    my $name = 'aesni_cbc_encrypt';
    my ($body, $widths) = ("${name}_body", [ vaes_widths($name) ]);
    print vaes_entries($name, $body);
    my %R = roles(in => '%rdi', out => '%rsi', len => '%rdx', key => '%rcx', ivec => '%r8',
                  enc => '%r9', rounds => '%r10', end => '%r11',
                  partial => '%r9',       # len % 16, once enc is tested
                  i => '%rax', byte => '%rcx');    # the partial block's copy
    my %wide_entry = wide_entries($name, $widths);
    my ($tk, $k0, $kl, $iv, $u, $c) = map { "%xmm$_" } 8 .. 13;
    my $x = $b[0];
    my $t = <<___;

.function $body, args=6, xmm=6-13, stack=16
	test	$R{len},$R{len}
	jz	.L${name}_ret
${\ key_setup(\%R, $R{key}) }	movups	($R{key}),$k0
	movups	($R{end}),$kl
	movdqu	($R{ivec}),$iv
	test	$R{enc32},$R{enc32}
	mov	$R{len},$R{partial}		# enc is tested; mov keeps the flags
	jz	.L${name}_dec
	and	\$15,$R{partial32}			# len % 16
	and	\$-16,$R{len}
	jz	.L${name}_enc_partial

	# Encryption: x = P[i] ^ C[i-1] ^ K0 on entry to each block.  K0
	# goes in first: the iv arrives last (from the previous call's store
	# when calls are chained), so only one XOR stands between it and AES.
	movdqu	($R{in}),$x
	pxor	$k0,$x
	pxor	$iv,$x
	sub	\$16,$R{len}
	jz	.L${name}_enc_last
.align	16
.L${name}_enc_loop:
	movdqu	16($R{in}),$u
	pxor	$k0,$u				# P[i+1] ^ K0
	movdqa	$u,$c
	pxor	$kl,$c				# last key of this block
${\ mid_rounds($XMM, 'aesenc', \%R, $tk, $x) }	aesenclast	$c,$x				# C[i] ^ P[i+1] ^ K0
	pxor	$x,$u				# C[i]
	movdqu	$u,($R{out})
	lea	16($R{in}),$R{in}
	lea	16($R{out}),$R{out}
	sub	\$16,$R{len}
	jnz	.L${name}_enc_loop
.L${name}_enc_last:
${\ mid_rounds($XMM, 'aesenc', \%R, $tk, $x) }	aesenclast	$kl,$x
	movdqu	$x,($R{out})
	movdqa	$x,$iv
	lea	16($R{in}),$R{in}
	lea	16($R{out}),$R{out}
.L${name}_enc_partial:
	test	$R{partial},$R{partial}
	jz	.L${name}_done
	pxor	$u,$u
	movdqa	$u,(%rsp)
	xor	$R{i32},$R{i32}
.L${name}_enc_copy:
	movzbl	($R{in},$R{i}),$R{byte32}
	mov	$R{byte8},(%rsp,$R{i})
	inc	$R{i}
	cmp	$R{partial},$R{i}
	jb	.L${name}_enc_copy
	movdqa	(%rsp),$x
	pxor	$k0,$x
	pxor	$iv,$x
${\ mid_rounds($XMM, 'aesenc', \%R, $tk, $x) }	aesenclast	$kl,$x
	movdqu	$x,($R{out})
	movdqa	$x,$iv
	movdqa	$u,(%rsp)
	jmp	.L${name}_done

	# Decryption: the XOR with the previous ciphertext rides in the
	# aesdeclast key; every ciphertext is read before any output of its
	# group is written, so in == out works.  Nothing before vaes_select
	# writes rax, which holds the width the entry asked for.
.L${name}_dec:
	and	\$15,$R{partial32}			# len % 16
	and	\$-16,$R{len}
${\ vaes_select(name => $name, entries => \%wide_entry, count => $R{len}) }.L${name}_dec_x:
	sub	\$128,$R{len}
	jb	.L${name}_dec_tail
.align	16
.L${name}_dec_loop8:
___
    $t .= "\tmovdqu\t" . 16 * $_ . "($R{in}),$b[$_]\n" for 0 .. 7;
    $t .= "\tpxor\t$k0,$_\n" for @b;
    $t .= mid_rounds($XMM, 'aesdec', \%R, $tk, @b);
    $t .= "\tmovdqa\t$iv,$u\n\tpxor\t$kl,$u\n\taesdeclast\t$u,$b[0]\n";
    for my $i (1 .. 7) {
        $t .= "\tmovdqu\t" . 16 * ($i - 1) . "($R{in}),$u\n\tpxor\t$kl,$u\n\taesdeclast\t$u,$b[$i]\n";
    }
    $t .= "\tmovdqu\t112($R{in}),$iv\n";
    $t .= "\tmovdqu\t$b[$_]," . 16 * $_ . "($R{out})\n" for 0 .. 7;
    my $dec1 = mid_rounds($XMM, 'aesdec', \%R, $tk, $x);
    $t .= <<___;
	lea	128($R{in}),$R{in}
	lea	128($R{out}),$R{out}
	sub	\$128,$R{len}
	jae	.L${name}_dec_loop8
.L${name}_dec_tail:
	add	\$128,$R{len}
	jz	.L${name}_dec_partial
.L${name}_dec_loop1:
	movdqu	($R{in}),$c
	movdqa	$c,$x
	pxor	$k0,$x
$dec1	pxor	$kl,$iv
	aesdeclast	$iv,$x
	movdqa	$c,$iv
	movdqu	$x,($R{out})
	lea	16($R{in}),$R{in}
	lea	16($R{out}),$R{out}
	sub	\$16,$R{len}
	jnz	.L${name}_dec_loop1
.L${name}_dec_partial:
	test	$R{partial},$R{partial}
	jz	.L${name}_done
	movdqu	($R{in}),$c
	movdqa	$c,$x
	pxor	$k0,$x
${\ mid_rounds($XMM, 'aesdec', \%R, $tk, $x) }	pxor	$kl,$iv
	aesdeclast	$iv,$x
	movdqa	$c,$iv
	movdqa	$x,(%rsp)
	xor	$R{i32},$R{i32}
.L${name}_dec_copy:
	movzbl	(%rsp,$R{i}),$R{byte32}
	mov	$R{byte8},($R{out},$R{i})
	inc	$R{i}
	cmp	$R{partial},$R{i}
	jb	.L${name}_dec_copy
	pxor	$x,$x
	movdqa	$x,(%rsp)
	jmp	.L${name}_done
${\ join '', map { "$wide_entry{$_}:\n" . vaes_cbc_dec_bulk(width($_), \%R, ".L${name}_dec_x") } @$widths }.L${name}_done:
	movdqu	$iv,($R{ivec})
	pxor	$k0,$k0
	pxor	$kl,$kl
.L${name}_ret:
	.return
.endfunction
___
    print $t;
}

# ---------------------------------------------------------------------------
# CTR with a 32-bit big-endian counter in the last word (wrapping without
# carry into the rest of the block).  ivec is not written.  Round 0 is
# applied to the counter block once: $base = ivec ^ K0, and each block
# only replaces the last word with bswap(counter) ^ K0[3], computed in a
# 32-bit register so it wraps.  The XOR with the input rides in the
# aesenclast key.  Only bytes 0-11 of ivec are loaded as a vector: callers
# (CRYPTO_ctr128_encrypt_ctr32, the casm API) store the counter word
# alone, and a 16-byte load spanning that 4-byte store cannot be forwarded
# from it, so it would wait for the store to retire, which serialises
# consecutive short calls on this call's AES.  A single block (the
# short-message case) has its own path: the counter block is ivec itself,
# read in the same three pieces, and none of the per-block counter
# arithmetic is needed.
{
    my $name = 'aesni_ctr32_encrypt_blocks';
    my ($body, $widths) = ("${name}_body", [ vaes_widths($name) ]);
    print vaes_entries($name, $body);
    my %R = roles(in => '%rdi', out => '%rsi', len => '%rdx', key => '%rcx', ivec => '%r8',
                  rounds => '%r10', end => '%r11',
                  ctr => '%r9',           # the counter, native order
                  k0word => '%rcx',       # K0[3], once the key is loaded
                  word => '%rax',         # bswap(counter) ^ K0[3]
                  be => '%r8');           # bswap(counter), once ivec is read
    my %wide_entry = wide_entries($name, $widths);
    my ($tk, $k0, $kl, $base, $u) = map { "%xmm$_" } 8 .. 12;
    my $x = $b[0];
    my $t = <<___;

.function $body, args=5, xmm=6-15, stack=128
	cmp	\$1,$R{len}
	jne	.L${name}_blocks
${\ key_setup(\%R, $R{key}) }	movq	($R{ivec}),$x
	pinsrd	\$2,8($R{ivec}),$x
	pinsrd	\$3,12($R{ivec}),$x
	movups	($R{key}),$tk
	pxor	$tk,$x
${\ mid_rounds($XMM, 'aesenc', \%R, $tk, $x) }	movdqu	($R{in}),$u
	movups	($R{end}),$tk
	pxor	$tk,$u
	aesenclast	$u,$x
	movdqu	$x,($R{out})
	pxor	$tk,$tk
	pxor	$u,$u
	.return
.L${name}_blocks:
	test	$R{len},$R{len}
	jz	.L${name}_ret
${\ key_setup(\%R, $R{key}) }	movups	($R{key}),$k0
	movups	($R{end}),$kl
	movq	($R{ivec}),$base
	pinsrd	\$2,8($R{ivec}),$base		# dword 3 is set per block
	pxor	$k0,$base
	mov	12($R{ivec}),$R{ctr32}
	bswap	$R{ctr32}				# the counter
	mov	12($R{key}),$R{k0word32}			# K0[3]
${\ vaes_select(name => $name, entries => \%wide_entry, count => $R{len}) }.L${name}_x:
	sub	\$8,$R{len}
	jb	.L${name}_tail
___
    # The eight-block loop reads its counter blocks from the frame: slot
    # i (16 bytes at 16*i) holds $base with dword 3 := bswap(c+i) ^ K0[3].
    # Each group loads its eight blocks and then writes only dword 3 of
    # every slot, for the next group, so the counter costs a load and a
    # 32-bit store per block, none of them on a vector ALU port (pinsrd
    # takes two such slots, and AES shares its ports).  A 16-byte load
    # cannot take its data from the smaller store still in flight, but the
    # store was made a whole group earlier.  The first group builds its
    # blocks in registers so it does not wait for the stores.
    #
    # bswap shares a port with AES on some cores, so the loop swaps one
    # counter a group: when the low byte of c (the
    # top byte of bswap(c)) does not wrap within the group, bswap(c + i)
    # = bswap(c) + (i << 24).  When it does (once in 32 groups at most),
    # the group's words are made one by one, out of line.
    my $word = sub {              # bswap(c + $_[0]) ^ K0[3] into word
        my ($i) = @_;
        return ($i ? "\tlea\t$i($R{ctr}),$R{word32}\n" : "\tmov\t$R{ctr32},$R{word32}\n")
             . "\tbswap\t$R{word32}\n\txor\t$R{k0word32},$R{word32}\n";
    };
    $t .= "\tmovdqa\t$base," . 16 * $_ . "(%rsp)\n" for 0 .. 7;
    $t .= $word->($_) . "\tmovdqa\t$base,$b[$_]\n\tpinsrd\t\$3,$R{word32},$b[$_]\n" for 0 .. 7;
    $t .= "\tjmp\t.L${name}_next8\n.align\t16\n.L${name}_loop8:\n";
    $t .= "\tmovdqa\t" . 16 * $_ . "(%rsp),$b[$_]\n" for 0 .. 7;
    $t .= ".L${name}_next8:\n\tlea\t8($R{ctr}),$R{be32}\n"
        . "\tcmp\t\$0xf8,$R{be8}\n\tja\t.L${name}_wrap8\n\tbswap\t$R{be32}\n";
    for my $i (0 .. 7) {
        $t .= ($i ? "\tlea\t" . sprintf('0x%x', $i << 24) . "($R{be}),$R{word32}\n" : "\tmov\t$R{be32},$R{word32}\n")
            . "\txor\t$R{k0word32},$R{word32}\n\tmov\t$R{word32}," . (16 * $i + 12) . "(%rsp)\n";
    }
    $t .= ".L${name}_made8:\n\tadd\t\$8,$R{ctr32}\n";
    my $wrap = ".L${name}_wrap8:\n";
    $wrap .= $word->(8 + $_) . "\tmov\t$R{word32}," . (16 * $_ + 12) . "(%rsp)\n" for 0 .. 7;
    $wrap .= "\tjmp\t.L${name}_made8\n";
    $t .= mid_rounds($XMM, 'aesenc', \%R, $tk, @b);
    for my $i (0 .. 7) {
        $t .= "\tmovdqu\t" . 16 * $i . "($R{in}),$u\n\tpxor\t$kl,$u\n\taesenclast\t$u,$b[$i]\n";
    }
    $t .= "\tmovdqu\t$b[$_]," . 16 * $_ . "($R{out})\n" for 0 .. 7;
    # The wide path leaves key material in @VAES_CTR_KEYED too (see AESNI/VAES.pm).
    my $clear = join '', map { "\tpxor\t$_,$_\n" } $k0, @VAES_CTR_KEYED, $kl, $base;
    $t .= <<___;
	lea	128($R{in}),$R{in}
	lea	128($R{out}),$R{out}
	sub	\$8,$R{len}
	jae	.L${name}_loop8
	pxor	$u,$u
${\ join '', map { "\tmovdqa\t$u," . 16 * $_ . "(%rsp)\n" } 0 .. 7 }.L${name}_tail:
	add	\$8,$R{len}
	jz	.L${name}_done
.L${name}_loop1:
	mov	$R{ctr32},$R{word32}
	bswap	$R{word32}
	xor	$R{k0word32},$R{word32}
	movdqa	$base,$b[0]
	pinsrd	\$3,$R{word32},$b[0]
	inc	$R{ctr32}
${\ mid_rounds($XMM, 'aesenc', \%R, $tk, $b[0]) }	movdqu	($R{in}),$u
	pxor	$kl,$u
	aesenclast	$u,$b[0]
	movdqu	$b[0],($R{out})
	lea	16($R{in}),$R{in}
	lea	16($R{out}),$R{out}
	dec	$R{len}
	jnz	.L${name}_loop1
	jmp	.L${name}_done
$wrap${\ join '', map { "$wide_entry{$_}:\n" . vaes_ctr_bulk(width($_), \%R, $R{k0word32}, ".L${name}_x") } @$widths }.L${name}_done:
$clear.L${name}_ret:
	.return
.endfunction
___
    print $t;
}

# ---------------------------------------------------------------------------
# XTS (IEEE 1619-2007).  key is key1 (data, in the direction of the
# call), key2 the encryption schedule for the tweak.  len < 16 does
# nothing.  T[0] = E_key2(iv), T[j+1] = T[j] * x in GF(2^128), the block
# read as a little-endian 128-bit number reduced by
# x^128 + x^7 + x^2 + x + 1:
#   paddq doubles both 64-bit halves; the two bits pushed out (63 and 127)
#   come back as bit 64 and as 0x87 in byte 0.  pshufd $0x13 puts dwords
#   3 and 1 (which hold bits 127 and 63 as sign bits) in lanes 0 and 2,
#   psrad spreads the signs, and the mask keeps 0x87 and 1 there.
# Eight blocks at a time, with the tweaks made in the integer unit (the
# vector form costs five vector instructions per tweak, issue slots the
# AES instructions need).  T[j] ^ K0 whitens the input; the last round
# takes Klast from a register and T[j] is XORed in after it from the
# stack, as the last round is only an XOR with the key (a T[j] ^ Klast
# memory key would cost 16 more instructions a group).  The single-block
# tail uses the vector doubling above.  Ciphertext stealing (len % 16 =
# b != 0): encryption handles all whole blocks, then swaps the first b
# bytes of the last output block with the partial input and encrypts that
# block again with the next tweak; decryption stops one whole block short,
# decrypts it with T[m], swaps, and decrypts the result with T[m-1].
{
    my ($tk, $k0, $kl, $T, $s, $mask, $u, $T2) = map { "%xmm$_" } 8 .. 15;
    my $mask_label = '.Laesni_xts_mask';
    my $next = sub {
        my ($x) = @_;
        return "\tpshufd\t\$0x13,$x,$s\n\tpsrad\t\$31,$s\n\tpaddq\t$x,$x\n"
             . "\tpand\t$mask,$s\n\tpxor\t$s,$x\n";
    };
    # The 8-block loop: tw_lo:tw_hi holds the next tweak to make, cur the
    # offset of the tweak buffer being encrypted (curbuf its address),
    # fill the offset of the one being filled.  The stealing swap walks
    # pos with the bytes in a and c.
    my %R = roles(in => '%rdi', out => '%rsi', len => '%rdx', key => '%rcx', key2 => '%r8',
                  iv => '%r9', rounds => '%r10', end => '%r11',
                  partial => '%r9',       # b = len % 16, once T[0] is made
                  tw_lo => '%rbx', tw_hi => '%rax', carry => '%rdx',   # cqo: rax -> rdx
                  left => '%rbp',         # len, while rdx is carry
                  cur => '%rcx', curbuf => '%r14', fill => '%r8',
                  pos => '%rdx', a => '%rax', c => '%rcx');
    print <<___;

.section	.rodata
.align	16
$mask_label:
.long	0x87,0,1,0
.text
___
    for my $dir (qw(enc dec)) {
      {
        my $name = "aesni_xts_" . ($dir eq 'enc' ? 'encrypt' : 'decrypt');
        my ($body, $widths) = ("${name}_body", [ vaes_widths($name) ]);
        print vaes_entries($name, $body);
        my %wide_entry = wide_entries($name, $widths);
        my $op = "aes$dir";
        my $L = sub { ".L${name}_$_[0]" };
        my $block = sub {         # one block from $src to $dst with tweak $tw
            my ($src, $dst, $tw) = @_;
            return "\tmovdqu\t$src,$b[0]\n\tpxor\t$tw,$b[0]\n\tpxor\t$k0,$b[0]\n"
                 . mid_rounds($XMM, $op, \%R, $tk, $b[0])
                 . "\tmovdqa\t$tw,$u\n\tpxor\t$kl,$u\n\t${op}last\t$u,$b[0]\n"
                 . "\tmovdqu\t$b[0],$dst\n";
        };
        my $t = <<___;

.function $body, args=6, save=rbx:rbp:r14, xmm=6-15, stack=512
	cmp	\$16,$R{len}
	jb	${\ $L->('ret') }
	movdqu	($R{iv}),$T
${\ one_block(\%R, 'enc', $R{key2}, $T, $tk) }${\ key_setup(\%R, $R{key}) }	movups	($R{key}),$k0
	movups	($R{end}),$kl
	cmp	\$16,$R{len}			# one block: no tweak to make, no stealing
	je	${\ $L->('one') }
	movdqa	$mask_label(%rip),$mask
	mov	$R{len},$R{partial}
	and	\$15,$R{partial}			# b, the partial block
	and	\$-16,$R{len}
___
        $t .= "\ttest\t$R{partial},$R{partial}\n\tjz\t${\ $L->('bulk') }\n\tsub\t\$16,$R{len}\n${\ $L->('bulk') }:\n"
            if $dir eq 'dec';
        # The 8-block loop.  tw_lo:tw_hi holds the next tweak to make (low
        # and high 64 bits); doubling is add/adc over the 128 bits, with
        # the bit that leaves (bit 127) folded back as 0x87, the mask taken
        # from the old high half's sign by cqo (tw_hi is rax, carry rdx, so
        # the loop counts in left).  From one tweak to the next that is 2.5
        # cycles of dependent integer work on average; taking the mask from
        # adc's carry with sbb instead chains add, adc, sbb, and, xor: 5
        # cycles a tweak, 40 a group, as long as an AES-128 group's 80
        # aesenc at two a cycle, a second critical path.
        # Each tweak goes to the stack as two 64-bit
        # stores, into one of two 256-byte buffers (tweak j of a group at
        # 16*j; only the first 128 bytes are used): while a group is
        # encrypted from one buffer, the next group's tweaks go to the
        # other, so the 128-bit loads read stores made a whole group
        # earlier.  (Two groups ahead in four buffers gains nothing on long
        # inputs and costs short ones more to fill and clear.)  The buffers
        # are cleared after the loop.
        die "xts: cqo needs tw_hi in rax and carry in rdx\n"
            unless $R{tw_hi} eq '%rax' && $R{carry} eq '%rdx';
        my $n = 8;                # blocks per group, as the other modes
        my $g = 16 * $n;
        my $fill = sub {
            my $f = '';
            for my $j (0 .. $n - 1) {
                $f .= "\tmov\t$R{tw_lo}," . (16 * $j) . "(%rsp,$R{fill})\n\tmov\t$R{tw_hi}," . (16 * $j + 8) . "(%rsp,$R{fill})\n"
                    . "\tcqo\n\tand\t\$0x87,$R{carry32}\n"
                    . "\tadd\t$R{tw_lo},$R{tw_lo}\n\tadc\t$R{tw_hi},$R{tw_hi}\n\txor\t$R{carry},$R{tw_lo}\n";
            }
            return $f;
        };
        $t .= vaes_select(name => $name, entries => \%wide_entry, count => $R{len})
            . "${\ $L->('x') }:\n";
        $t .= "\tsub\t\$$g,$R{len}\n\tjb\t${\ $L->('tail') }\n\tmov\t$R{len},$R{left}\n";
        $t .= "\tmovq\t$T,$R{tw_lo}\n\tpextrq\t\$1,$T,$R{tw_hi}\n"
            . "\txor\t$R{fill32},$R{fill32}\n";
        $t .= $fill->() . "\tmov\t\$256,$R{cur32}\n";
        $t .= ".align\t16\n${\ $L->('loop8') }:\n"
            . "\txor\t\$256,$R{cur32}\n\txor\t\$256,$R{fill32}\n"
            . "\tlea\t(%rsp,$R{cur}),$R{curbuf}\n";
        for my $j (0 .. $n - 1) {
            $t .= "\tmovdqu\t" . 16 * $j . "($R{in}),$b[$j]\n"
                . "\tpxor\t" . 16 * $j . "($R{curbuf}),$b[$j]\n\tpxor\t$k0,$b[$j]\n";
        }
        $t .= $fill->();
        $t .= mid_rounds($XMM, $op, \%R, $tk, @b[0 .. $n - 1]);
        $t .= "\t${op}last\t$kl,$b[$_]\n\tpxor\t" . 16 * $_ . "($R{curbuf}),$b[$_]\n" for 0 .. $n - 1;
        $t .= "\tmovdqu\t$b[$_]," . 16 * $_ . "($R{out})\n" for 0 .. $n - 1;
        $t .= <<___;
	lea	$g($R{in}),$R{in}
	lea	$g($R{out}),$R{out}
	sub	\$$g,$R{left}
	jae	${\ $L->('loop8') }
	movdqa	(%rsp,$R{fill}),$T			# the next block's tweak
	xor	$R{tw_lo32},$R{tw_lo32}			# clear the tweak buffers
	xor	$R{tw_hi32},$R{tw_hi32}
	mov	$R{left},$R{len}			# (carry)
	pxor	$u,$u
___
        $t .= "\tmovdqa\t$u," . 16 * $_ . "(%rsp)\n" for 0 .. $n - 1, 16 .. 15 + $n;   # the used halves
        $t .= <<___;
${\ $L->('tail') }:
	add	\$$g,$R{len}
	jz	${\ $L->('steal') }
${\ $L->('loop1') }:
${\ $block->("($R{in})", "($R{out})", $T) }${\ $next->($T) }	lea	16($R{in}),$R{in}
	lea	16($R{out}),$R{out}
	sub	\$16,$R{len}
	jnz	${\ $L->('loop1') }
${\ $L->('steal') }:
	test	$R{partial},$R{partial}
	jz	${\ $L->('done') }
___
        if ($dir eq 'enc') {
            $t .= <<___;
${\ $L->('swap') }:
	movzbl	($R{in},$R{pos}),$R{a32}
	movzbl	-16($R{out},$R{pos}),$R{c32}
	mov	$R{c8},($R{out},$R{pos})
	mov	$R{a8},-16($R{out},$R{pos})
	inc	$R{pos}
	cmp	$R{partial},$R{pos}
	jb	${\ $L->('swap') }
${\ $block->("-16($R{out})", "-16($R{out})", $T) }
___
        } else {
            $t .= <<___;
	movdqa	$T,$T2
${\ $next->($T2) }${\ $block->("($R{in})", "($R{out})", $T2) }${\ $L->('swap') }:
	movzbl	16($R{in},$R{pos}),$R{a32}
	movzbl	($R{out},$R{pos}),$R{c32}
	mov	$R{c8},16($R{out},$R{pos})
	mov	$R{a8},($R{out},$R{pos})
	inc	$R{pos}
	cmp	$R{partial},$R{pos}
	jb	${\ $L->('swap') }
${\ $block->("($R{out})", "($R{out})", $T) }
___
        }
        $t .= "\tjmp\t${\ $L->('done') }\n";
        $t .= $L->('one') . ":\n" . $block->("($R{in})", "($R{out})", $T) . "\tjmp\t${\ $L->('done') }\n";
        $t .= "$wide_entry{$_}:\n" . vaes_xts_bulk(width($_), \%R, $dir, $mask_label, $L->('x')) for @$widths;
        $t .= <<___;
${\ $L->('done') }:
	pxor	$k0,$k0
	pxor	$kl,$kl
	pxor	$T,$T
	pxor	$T2,$T2
___
        $t .= <<___;
${\ $L->('ret') }:
	.return
.endfunction
___
        print $t;
      }
    }
}

print ccm64_functions();
print ocb_functions();

X64::Module::finish();
