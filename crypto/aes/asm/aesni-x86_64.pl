#!/usr/bin/env perl
# AES with the AES-NI instructions for x86_64, exporting OpenSSL 3.0's
# aesni_* names and prototypes (what OpenSSL needs from this module is
# listed in tools/openssl-symbols/aesni-x86_64.txt):
#
#   aesni_set_encrypt_key / aesni_set_decrypt_key   key schedules
#   aesni_encrypt / aesni_decrypt                   one block
#   aesni_ecb_encrypt, aesni_cbc_encrypt            whole blocks
#   aesni_ctr32_encrypt_blocks                      32-bit BE counter
#   aesni_xts_encrypt / aesni_xts_decrypt           IEEE 1619, with stealing
#   aesni_ccm64_encrypt_blocks / _decrypt_blocks    CCM bulk (aesni-x86_64/ccm.pl)
#   aesni_ocb_encrypt / aesni_ocb_decrypt           OCB bulk (aesni-x86_64/ocb.pl)
#
#   perl crypto/aes/asm/aesni-x86_64.pl FLAVOUR OUTPUT
#
# Key schedule layout.  rd_key holds the round keys as the bytes the
# instructions consume; offset 240 holds R = Nr - 1 (9, 11 or 13), the
# number of aesenc before the aesenclast.  The decryption schedule is the
# encryption one in reverse order with aesimc applied to every key but the
# two ends (the "equivalent inverse cipher" of FIPS-197 5.3.5).
#
# Rounds.  Every path keeps a pointer END to the last round key,
# END = key + 16 * (R + 1), and R in a register.  The middle rounds are
# written out for R = 13 with the keys addressed from END backwards; a
# shorter schedule enters that sequence two or four rounds later.  The
# entry branches depend only on R, so they are always predicted, and no
# counter is carried from round to round.
#
# Throughput.  Zen 5 runs two AES instructions per cycle with latency 4,
# so eight independent blocks keep both units full; the parallel modes
# work on eight blocks and let the out-of-order core overlap one group's
# loads and whitening with the previous group's rounds.  The XOR that a
# mode applies after the cipher is folded into the last round key
# (aesenclast/aesdeclast end with a XOR of their key operand), and the XOR
# before it into the round-0 key, so neither adds an instruction to the
# chain.  CBC encryption, a serial chain, goes further: the last round of
# block i uses key Klast ^ K0 ^ P[i+1] and so yields block i+1's state after
# round 0 directly; C[i] is recovered off the chain.  The chain is then
# exactly Nr AES instructions per block.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../../../perlasm/lib";
use X64::Module;

require "$FindBin::Bin/aesni-x86_64/vaes.pl";
require "$FindBin::Bin/aesni-x86_64/ccm.pl";
require "$FindBin::Bin/aesni-x86_64/ocb.pl";

X64::Module::pipe_output(@ARGV);

my $seq = 0;
sub label { my ($what) = @_; return ".Laesni_${what}_" . $seq++ }

my @b = map { "%xmm$_" } 0 .. 7;         # block registers of the 8-way paths

# ---------------------------------------------------------------------------
# Round helpers.  $r = register with R (32-bit), $end = END pointer.

# Load R and END for the schedule at $key.  Clobbers nothing else.
sub key_setup {
    my ($key, $r, $end) = @_;
    return <<___;
	mov	240($key),$r
	mov	$r,${\ _low32($end)}
	shl	\$4,${\ _low32($end)}
	lea	16($key,$end),$end
___
}

sub _low32 {
    my ($r) = @_;
    return "%e$1" if $r =~ /^%r([a-ds][xip])$/;
    return "%${1}d" if $r =~ /^%(r\d+)$/;
    die "no 32-bit name for $r";
}

# Middle rounds (all but round 0 and the last) on @blocks, loading each
# key into $tk.  $op is aesenc or aesdec.
sub mid_rounds {
    my ($op, $r, $end, $tk, @blocks) = @_;
    my ($l11, $l9) = (label('r11'), label('r9'));
    my $t = "\tcmp\t\$11,$r\n\tjb\t$l9\n\tje\t$l11\n";
    for my $i (reverse 1 .. 13) {            # key i rounds before END
        $t .= "$l11:\n" if $i == 11;
        $t .= "$l9:\n" if $i == 9;
        $t .= "\tmovups\t-" . 16 * $i . "($end),$tk\n";
        $t .= "\t$op\t$tk,$_\n" for @blocks;
    }
    return $t;
}

# A whole block cipher on one register: round 0 from memory, last from
# memory, key schedule at $key.
sub one_block {
    my ($dir, $key, $x, $tk, $r, $end) = @_;
    my $op = $dir eq 'enc' ? 'aesenc' : 'aesdec';
    return key_setup($key, $r, $end)
         . "\tmovups\t($key),$tk\n\tpxor\t$tk,$x\n"
         . mid_rounds($op, $r, $end, $tk, $x)
         . "\tmovups\t($end),$tk\n\t${op}last\t$tk,$x\n";
}

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
# In:  %rdi user key, %esi bits, %rdx schedule.  Out: %eax = 0, -1, -2;
# on success %ecx = R.  Clobbers rsi, rdi, r8-r11, xmm0.
sub expand_key {
    my ($tag) = @_;
    my ($fail, $ok, $copy, $loop, $mid, $four, $store, $rc) =
        map { label("$tag$_") } qw(fail ok copy loop mid four store rc);
    return <<___;
	mov	\$-1,%eax
	test	%rdi,%rdi
	jz	$fail
	test	%rdx,%rdx
	jz	$fail
	mov	\$-2,%eax
	cmp	\$128,%esi
	je	$ok
	cmp	\$192,%esi
	je	$ok
	cmp	\$256,%esi
	jne	$fail
$ok:
	shr	\$5,%esi			# Nk
	lea	5(%rsi),%ecx			# R = Nk + 5
	mov	%ecx,240(%rdx)
	xor	%eax,%eax
$copy:
	mov	(%rdi,%rax,4),%r8d
	mov	%r8d,(%rdx,%rax,4)
	inc	%eax
	cmp	%esi,%eax
	jb	$copy
	lea	7(%rsi),%edi			# 4 * (Nk + 7) words of 4 bytes
	shl	\$4,%edi
	lea	(%rdx,%rdi),%rdi		# end of the schedule
	lea	(%rdx,%rsi,4),%r8		# &w[Nk]
	mov	%rsi,%r11
	shl	\$2,%r11
	neg	%r11				# -4 * Nk: w[i - Nk] = (%r8,%r11)
	mov	\$1,%r10d			# Rcon
	xor	%r9d,%r9d			# i % Nk
$loop:
	mov	-4(%r8),%eax
	test	%r9d,%r9d
	jnz	$mid
	movd	%eax,%xmm0
	pshufd	\$0,%xmm0,%xmm0
	aeskeygenassist	\$0,%xmm0,%xmm0
	pextrd	\$1,%xmm0,%eax			# RotWord(SubWord(temp))
	xor	%r10d,%eax
	add	%r10d,%r10d			# Rcon times x in GF(2^8)
	cmp	\$0x100,%r10d
	jb	$store
	xor	\$0x11b,%r10d
	jmp	$store
$mid:
	cmp	\$4,%r9d
	jne	$store
	cmp	\$8,%esi
	jne	$store
	movd	%eax,%xmm0
	pshufd	\$0,%xmm0,%xmm0
	aeskeygenassist	\$0,%xmm0,%xmm0
	movd	%xmm0,%eax			# SubWord(temp)
$store:
	xor	(%r8,%r11),%eax
	mov	%eax,(%r8)
	lea	4(%r8),%r8
	inc	%r9d
	cmp	%esi,%r9d
	jb	$rc
	xor	%r9d,%r9d
$rc:
	cmp	%rdi,%r8
	jb	$loop
	pxor	%xmm0,%xmm0
	xor	%eax,%eax
$fail:
___
}

print <<___;
.text
.globl	aesni_set_encrypt_key
.function aesni_set_encrypt_key, args=3
${\ expand_key('ek') }	.return
.endfunction

.globl	aesni_set_decrypt_key
.function aesni_set_decrypt_key, args=3
${\ expand_key('dk') }	test	%eax,%eax
	jnz	.Laesni_dk_done
	# swap keys 0 and R+1, then walk inwards applying aesimc
	shl	\$4,%ecx
	lea	16(%rdx,%rcx),%r8		# &key[R+1]
	movups	(%rdx),%xmm0
	movups	(%r8),%xmm1
	movups	%xmm0,(%r8)
	movups	%xmm1,(%rdx)
.Laesni_dk_swap:
	lea	16(%rdx),%rdx
	lea	-16(%r8),%r8
	cmp	%r8,%rdx
	jae	.Laesni_dk_middle
	movups	(%rdx),%xmm0
	movups	(%r8),%xmm1
	aesimc	%xmm0,%xmm0
	aesimc	%xmm1,%xmm1
	movups	%xmm0,(%r8)
	movups	%xmm1,(%rdx)
	jmp	.Laesni_dk_swap
.Laesni_dk_middle:
	movups	(%rdx),%xmm0			# R + 2 keys: there is a middle one
	aesimc	%xmm0,%xmm0
	movups	%xmm0,(%rdx)
	pxor	%xmm0,%xmm0
	pxor	%xmm1,%xmm1
.Laesni_dk_done:
	.return
.endfunction
___

# ---------------------------------------------------------------------------
# One block.
for my $dir (qw(enc dec)) {
    my $name = $dir eq 'enc' ? 'aesni_encrypt' : 'aesni_decrypt';
    print <<___;

.globl	$name
.function $name, args=3
	movdqu	(%rdi),%xmm0
${\ one_block($dir, '%rdx', '%xmm0', '%xmm1', '%eax', '%rcx') }	movdqu	%xmm0,(%rsi)
	pxor	%xmm1,%xmm1
	.return
.endfunction
___
}

# ---------------------------------------------------------------------------
# ECB, CBC and CTR32 come in three functions each: OpenSSL's name, which
# chooses a VAES width at run time (vaes_select), and NAME_vaes512 /
# NAME_vaes256, hidden, which take that width without looking at the CPU,
# so the tests reach each one directly.  All three finish on the xmm code
# below, and all three start there for inputs shorter than:
#
# Shortest input (bytes for ECB/CBC/XTS, blocks for CTR) for which the
# functions leave the xmm code.
our %VAES_MIN = (ecb => 64, cbc => 64, ctr => 4, xts => 64);

sub vaes_variants {
    my ($name) = @_;
    return [ [ $name, 'dispatch', ".globl\t$name\n" ],
             map { [ "${name}_vaes$_", $_, ".globl\t${name}_vaes$_\n.hidden\t${name}_vaes$_\n" ] } 512, 256 ];
}
sub vaes_widths { my ($v) = @_; return $v eq 'dispatch' ? (512, 256) : ($v) }

print ".extern\tOPENSSL_ia32cap_P\n.hidden\tOPENSSL_ia32cap_P\n", vaes_constants();

# ---------------------------------------------------------------------------
# ECB.  rdi in, rsi out, rdx len, rcx key, r8d enc.
# xmm0-7 blocks, xmm8 round key, xmm9 K0, xmm10 Klast.
for my $fv (@{ vaes_variants('aesni_ecb_encrypt') }) {
    my ($name, $variant, $head) = @$fv;
    my %W = map { $_ => ".L${name}_w$_" } 512, 256;
    my ($k0, $kl, $tk) = ('%xmm9', '%xmm10', '%xmm8');
    my $t = <<___;

$head.function $name, args=5, xmm=6-10
	and	\$-16,%rdx
	jz	.L${name}_done
${\ key_setup('%rcx', '%r10d', '%r11') }	movups	(%rcx),$k0
	movups	(%r11),$kl
${\ vaes_select($variant, '%rdx', $VAES_MIN{ecb}, \%W) }	test	%r8d,%r8d
	jz	.L${name}_dec
.L${name}_enc:
___
    for my $dir (qw(enc dec)) {
        my $op = "aes$dir";
        my ($l8, $t1, $l1) = map { ".L${name}_${dir}_$_" } qw(loop8 tail loop1);
        $t .= ".L${name}_dec:\n" if $dir eq 'dec';
        $t .= "\tsub\t\$128,%rdx\n\tjb\t$t1\n.align\t16\n$l8:\n";
        $t .= "\tmovdqu\t" . 16 * $_ . "(%rdi),$b[$_]\n" for 0 .. 7;
        $t .= "\tpxor\t$k0,$_\n" for @b;
        $t .= mid_rounds($op, '%r10d', '%r11', $tk, @b);
        $t .= "\t${op}last\t$kl,$_\n" for @b;
        $t .= "\tmovdqu\t$b[$_]," . 16 * $_ . "(%rsi)\n" for 0 .. 7;
        $t .= <<___;
	lea	128(%rdi),%rdi
	lea	128(%rsi),%rsi
	sub	\$128,%rdx
	jae	$l8
$t1:
	add	\$128,%rdx
	jz	.L${name}_done
$l1:
	movdqu	(%rdi),$b[0]
	pxor	$k0,$b[0]
${\ mid_rounds($op, '%r10d', '%r11', $tk, $b[0]) }	${op}last	$kl,$b[0]
	movdqu	$b[0],(%rsi)
	lea	16(%rdi),%rdi
	lea	16(%rsi),%rsi
	sub	\$16,%rdx
	jnz	$l1
___
        $t .= "\tjmp\t.L${name}_done\n" if $dir eq 'enc';
    }
    $t .= "\tjmp\t.L${name}_done\n";
    for my $w (vaes_widths($variant)) {
        my $Wd = vaes_width($w);
        $t .= "$W{$w}:\n\ttest\t%r8d,%r8d\n\tjz\t$W{$w}_dec\n"
            . vaes_ecb_bulk($Wd, 'enc', ".L${name}_enc")
            . "$W{$w}_dec:\n" . vaes_ecb_bulk($Wd, 'dec', ".L${name}_dec");
    }
    $t .= <<___;
.L${name}_done:
	.return
.endfunction
___
    print $t;
}

# ---------------------------------------------------------------------------
# CBC.  rdi in, rsi out, rdx len, rcx key, r8 ivec, r9d enc.  Whole blocks
# as OpenSSL; a partial last block as CRYPTO_cbc128_encrypt/decrypt do it:
# encryption pads it with zeros and writes a whole block, decryption
# reads a whole block, writes len % 16 bytes and takes that whole input
# block as the next iv.  The partial block goes through the 16-byte local.
for my $fv (@{ vaes_variants('aesni_cbc_encrypt') }) {
    my ($name, $variant, $head) = @$fv;
    my %W = map { $_ => ".L${name}_w$_" } 512, 256;
    my ($tk, $k0, $kl, $iv, $u, $c) = map { "%xmm$_" } 8 .. 13;
    my $x = $b[0];
    my $t = <<___;

$head.function $name, args=6, xmm=6-13, stack=16
	test	%rdx,%rdx
	jz	.L${name}_ret
${\ key_setup('%rcx', '%r10d', '%r11') }	movups	(%rcx),$k0
	movups	(%r11),$kl
	movdqu	(%r8),$iv
	mov	%rdx,%rax
	and	\$15,%eax
	and	\$-16,%rdx
	test	%r9d,%r9d
	mov	%rax,%r9			# len % 16
	jz	.L${name}_dec
	test	%rdx,%rdx
	jz	.L${name}_enc_partial

	# Encryption: x = P[i] ^ C[i-1] ^ K0 on entry to each block.  K0
	# goes in first: the iv arrives last (from the previous call's store
	# when calls are chained), so only one XOR stands between it and AES.
	movdqu	(%rdi),$x
	pxor	$k0,$x
	pxor	$iv,$x
	sub	\$16,%rdx
	jz	.L${name}_enc_last
.align	16
.L${name}_enc_loop:
	movdqu	16(%rdi),$u
	pxor	$k0,$u				# P[i+1] ^ K0
	movdqa	$u,$c
	pxor	$kl,$c				# last key of this block
${\ mid_rounds('aesenc', '%r10d', '%r11', $tk, $x) }	aesenclast	$c,$x				# C[i] ^ P[i+1] ^ K0
	pxor	$x,$u				# C[i]
	movdqu	$u,(%rsi)
	lea	16(%rdi),%rdi
	lea	16(%rsi),%rsi
	sub	\$16,%rdx
	jnz	.L${name}_enc_loop
.L${name}_enc_last:
${\ mid_rounds('aesenc', '%r10d', '%r11', $tk, $x) }	aesenclast	$kl,$x
	movdqu	$x,(%rsi)
	movdqa	$x,$iv
	lea	16(%rdi),%rdi
	lea	16(%rsi),%rsi
.L${name}_enc_partial:
	test	%r9,%r9
	jz	.L${name}_done
	pxor	$u,$u
	movdqa	$u,(%rsp)
	xor	%eax,%eax
.L${name}_enc_copy:
	movzbl	(%rdi,%rax),%ecx
	mov	%cl,(%rsp,%rax)
	inc	%rax
	cmp	%r9,%rax
	jb	.L${name}_enc_copy
	movdqa	(%rsp),$x
	pxor	$k0,$x
	pxor	$iv,$x
${\ mid_rounds('aesenc', '%r10d', '%r11', $tk, $x) }	aesenclast	$kl,$x
	movdqu	$x,(%rsi)
	movdqa	$x,$iv
	movdqa	$u,(%rsp)
	jmp	.L${name}_done

	# Decryption: the XOR with the previous ciphertext rides in the
	# aesdeclast key; every ciphertext is read before any output of its
	# group is written, so in == out works.
.L${name}_dec:
${\ vaes_select($variant, '%rdx', $VAES_MIN{cbc}, \%W) }.L${name}_dec_x:
	sub	\$128,%rdx
	jb	.L${name}_dec_tail
.align	16
.L${name}_dec_loop8:
___
    $t .= "\tmovdqu\t" . 16 * $_ . "(%rdi),$b[$_]\n" for 0 .. 7;
    $t .= "\tpxor\t$k0,$_\n" for @b;
    $t .= mid_rounds('aesdec', '%r10d', '%r11', $tk, @b);
    $t .= "\tmovdqa\t$iv,$u\n\tpxor\t$kl,$u\n\taesdeclast\t$u,$b[0]\n";
    for my $i (1 .. 7) {
        $t .= "\tmovdqu\t" . 16 * ($i - 1) . "(%rdi),$u\n\tpxor\t$kl,$u\n\taesdeclast\t$u,$b[$i]\n";
    }
    $t .= "\tmovdqu\t112(%rdi),$iv\n";
    $t .= "\tmovdqu\t$b[$_]," . 16 * $_ . "(%rsi)\n" for 0 .. 7;
    my $dec1 = mid_rounds('aesdec', '%r10d', '%r11', $tk, $x);
    $t .= <<___;
	lea	128(%rdi),%rdi
	lea	128(%rsi),%rsi
	sub	\$128,%rdx
	jae	.L${name}_dec_loop8
.L${name}_dec_tail:
	add	\$128,%rdx
	jz	.L${name}_dec_partial
.L${name}_dec_loop1:
	movdqu	(%rdi),$c
	movdqa	$c,$x
	pxor	$k0,$x
$dec1	pxor	$kl,$iv
	aesdeclast	$iv,$x
	movdqa	$c,$iv
	movdqu	$x,(%rsi)
	lea	16(%rdi),%rdi
	lea	16(%rsi),%rsi
	sub	\$16,%rdx
	jnz	.L${name}_dec_loop1
.L${name}_dec_partial:
	test	%r9,%r9
	jz	.L${name}_done
	movdqu	(%rdi),$c
	movdqa	$c,$x
	pxor	$k0,$x
${\ mid_rounds('aesdec', '%r10d', '%r11', $tk, $x) }	pxor	$kl,$iv
	aesdeclast	$iv,$x
	movdqa	$c,$iv
	movdqa	$x,(%rsp)
	xor	%eax,%eax
.L${name}_dec_copy:
	movzbl	(%rsp,%rax),%ecx
	mov	%cl,(%rsi,%rax)
	inc	%rax
	cmp	%r9,%rax
	jb	.L${name}_dec_copy
	pxor	$x,$x
	movdqa	$x,(%rsp)
	jmp	.L${name}_done
${\ join '', map { "$W{$_}:\n" . vaes_cbc_dec_bulk(vaes_width($_), ".L${name}_dec_x") } vaes_widths($variant) }.L${name}_done:
	movdqu	$iv,(%r8)
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
# carry into the rest of the block).  rdi in, rsi out, rdx blocks, rcx key,
# r8 ivec (not written).  Round 0 is applied to the counter block once:
# $base = ivec ^ K0, and each block only replaces the last word with
# bswap(counter) ^ K0[3], computed in a 32-bit register so it wraps.
# The XOR with the input rides in the aesenclast key.  Only bytes 0-11 of
# ivec are loaded as a vector: callers (CRYPTO_ctr128_encrypt_ctr32, the
# casm API) store the counter word alone, and a 16-byte load spanning that
# 4-byte store cannot be forwarded from it, so it would wait for the store
# to retire, which serialises consecutive short calls on this call's AES.
# A single block (the short-message case) has its own path: the counter
# block is ivec itself, read in the same three pieces, and none of the
# per-block counter arithmetic is needed.
for my $fv (@{ vaes_variants('aesni_ctr32_encrypt_blocks') }) {
    my ($name, $variant, $head) = @$fv;
    my %W = map { $_ => ".L${name}_w$_" } 512, 256;
    my ($tk, $k0, $kl, $base, $u) = map { "%xmm$_" } 8 .. 12;
    my $x = $b[0];
    my $t = <<___;

$head.function $name, args=5, xmm=6-15
	cmp	\$1,%rdx
	jne	.L${name}_blocks
${\ key_setup('%rcx', '%r10d', '%r11') }	movq	(%r8),$x
	pinsrd	\$2,8(%r8),$x
	pinsrd	\$3,12(%r8),$x
	movups	(%rcx),$tk
	pxor	$tk,$x
${\ mid_rounds('aesenc', '%r10d', '%r11', $tk, $x) }	movdqu	(%rdi),$u
	movups	(%r11),$tk
	pxor	$tk,$u
	aesenclast	$u,$x
	movdqu	$x,(%rsi)
	pxor	$tk,$tk
	pxor	$u,$u
	.return
.L${name}_blocks:
	test	%rdx,%rdx
	jz	.L${name}_ret
${\ key_setup('%rcx', '%r10d', '%r11') }	movups	(%rcx),$k0
	movups	(%r11),$kl
	movq	(%r8),$base
	pinsrd	\$2,8(%r8),$base		# dword 3 is set per block
	pxor	$k0,$base
	mov	12(%r8),%r9d
	bswap	%r9d				# the counter
	mov	12(%rcx),%ecx			# K0[3]
${\ vaes_select($variant, '%rdx', $VAES_MIN{ctr}, \%W) }.L${name}_x:
	sub	\$8,%rdx
	jb	.L${name}_tail
.align	16
.L${name}_loop8:
___
    for my $i (0 .. 7) {
        $t .= ($i ? "\tlea\t$i(%r9),%eax\n" : "\tmov\t%r9d,%eax\n")
            . "\tbswap\t%eax\n\txor\t%ecx,%eax\n"
            . "\tmovdqa\t$base,$b[$i]\n\tpinsrd\t\$3,%eax,$b[$i]\n";
    }
    $t .= "\tadd\t\$8,%r9d\n";
    $t .= mid_rounds('aesenc', '%r10d', '%r11', $tk, @b);
    for my $i (0 .. 7) {
        $t .= "\tmovdqu\t" . 16 * $i . "(%rdi),$u\n\tpxor\t$kl,$u\n\taesenclast\t$u,$b[$i]\n";
    }
    $t .= "\tmovdqu\t$b[$_]," . 16 * $_ . "(%rsi)\n" for 0 .. 7;
    $t .= <<___;
	lea	128(%rdi),%rdi
	lea	128(%rsi),%rsi
	sub	\$8,%rdx
	jae	.L${name}_loop8
.L${name}_tail:
	add	\$8,%rdx
	jz	.L${name}_done
.L${name}_loop1:
	mov	%r9d,%eax
	bswap	%eax
	xor	%ecx,%eax
	movdqa	$base,$b[0]
	pinsrd	\$3,%eax,$b[0]
	inc	%r9d
${\ mid_rounds('aesenc', '%r10d', '%r11', $tk, $b[0]) }	movdqu	(%rdi),$u
	pxor	$kl,$u
	aesenclast	$u,$b[0]
	movdqu	$b[0],(%rsi)
	lea	16(%rdi),%rdi
	lea	16(%rsi),%rsi
	dec	%rdx
	jnz	.L${name}_loop1
	jmp	.L${name}_done
${\ join '', map { "$W{$_}:\n" . vaes_ctr_bulk(vaes_width($_), ".L${name}_x") } vaes_widths($variant) }.L${name}_done:
	pxor	$k0,$k0
	pxor	%xmm13,%xmm13
	pxor	$kl,$kl
	pxor	$base,$base
.L${name}_ret:
	.return
.endfunction
___
    print $t;
}

# ---------------------------------------------------------------------------
# XTS (IEEE 1619-2007).  rdi in, rsi out, rdx len, rcx key1 (data, in the
# direction of the call), r8 key2 (encryption schedule, for the tweak),
# r9 iv.  len < 16 does nothing.  T[0] = E_key2(iv), T[j+1] = T[j] * x in
# GF(2^128), the block read as a little-endian 128-bit number reduced by
# x^128 + x^7 + x^2 + x + 1:
#   paddq doubles both 64-bit halves; the two bits pushed out (63 and 127)
#   come back as bit 64 and as 0x87 in byte 0.  pshufd $0x13 puts dwords
#   3 and 1 (which hold bits 127 and 63 as sign bits) in lanes 0 and 2,
#   psrad spreads the signs, and the mask keeps 0x87 and 1 there.
# Eight blocks at a time, with the tweaks made in the integer unit (the
# vector form costs five vector instructions per tweak and takes issue
# slots from AES: measured 0.92x OpenSSL for AES-128 that way, 1.0x with
# the tweaks in the integer unit, at the AES bound).  T[j] ^ K0 whitens the
# input; the last round takes Klast from a register and T[j] is XORed in
# after it from the stack, as the last round is only an XOR with the key
# (storing T[j] ^ Klast as a memory key cost 16 more instructions a group:
# on a loaded Zen 3, where issue slots are short, fewer instructions won
# about 5%, as did sbb for the reduction mask).  The single-block
# tail uses the vector doubling above.  Ciphertext stealing (len % 16 =
# b != 0): encryption handles all whole blocks, then swaps the first b
# bytes of the last output block with the partial input and encrypts that
# block again with the next tweak; decryption stops one whole block short,
# decrypts it with T[m], swaps, and decrypts the result with T[m-1].
{
    my ($tk, $k0, $kl, $T, $s, $mask, $u, $T2) = map { "%xmm$_" } 8 .. 15;
    my $next = sub {
        my ($x) = @_;
        return "\tpshufd\t\$0x13,$x,$s\n\tpsrad\t\$31,$s\n\tpaddq\t$x,$x\n"
             . "\tpand\t$mask,$s\n\tpxor\t$s,$x\n";
    };
    print <<___;

.section	.rodata
.align	16
.Laesni_xts_mask:
.long	0x87,0,1,0
.text
___
    for my $dir (qw(enc dec)) {
      for my $fv (@{ vaes_variants("aesni_xts_" . ($dir eq 'enc' ? 'encrypt' : 'decrypt')) }) {
        my ($name, $variant, $head) = @$fv;
        my %W = map { $_ => ".L${name}_w$_" } 512, 256;
        my $op = "aes$dir";
        my $L = sub { ".L${name}_$_[0]" };
        my $block = sub {         # one block from $src to $dst with tweak $tw
            my ($src, $dst, $tw) = @_;
            return "\tmovdqu\t$src,$b[0]\n\tpxor\t$tw,$b[0]\n\tpxor\t$k0,$b[0]\n"
                 . mid_rounds($op, '%r10d', '%r11', $tk, $b[0])
                 . "\tmovdqa\t$tw,$u\n\tpxor\t$kl,$u\n\t${op}last\t$u,$b[0]\n"
                 . "\tmovdqu\t$b[0],$dst\n";
        };
        my $t = <<___;

$head.function $name, args=6, save=rbx:rbp:r14, xmm=6-15, stack=512
	cmp	\$16,%rdx
	jb	${\ $L->('ret') }
	movdqu	(%r9),$T
${\ one_block('enc', '%r8', $T, $tk, '%r10d', '%r11') }${\ key_setup('%rcx', '%r10d', '%r11') }	movups	(%rcx),$k0
	movups	(%r11),$kl
	cmp	\$16,%rdx			# one block: no tweak to make, no stealing
	je	${\ $L->('one') }
	movdqa	.Laesni_xts_mask(%rip),$mask
	mov	%rdx,%r9
	and	\$15,%r9			# b, the partial block
	and	\$-16,%rdx
___
        $t .= "\ttest\t%r9,%r9\n\tjz\t${\ $L->('bulk') }\n\tsub\t\$16,%rdx\n${\ $L->('bulk') }:\n"
            if $dir eq 'dec';
        # The 8-block loop.  rax:rbx holds the next tweak to make (low and
        # high 64 bits); doubling is add/adc over the 128 bits, with the
        # bit that left (the carry out of adc, as a mask from sbb) folded
        # back as 0x87.  Each tweak goes to the stack as two 64-bit stores,
        # into one of two 256-byte buffers (tweak j of a group at 16*j; only
        # the first 128 bytes are used): while a group is encrypted from one
        # buffer, the next group's tweaks go to the other, so the 128-bit
        # loads read stores made a whole group earlier.  (Two groups ahead
        # in four buffers measured the same at 16 KiB and slower at 256
        # bytes: more to fill up front and to clear.)  rcx: offset of the
        # buffer being encrypted (r14 its address), r8: of the one being
        # filled; the buffers are cleared after the loop.
        my $n = 8;                # blocks per group (6 measured slower here)
        my $g = 16 * $n;
        my $fill = sub {
            my $f = '';
            for my $j (0 .. $n - 1) {
                $f .= "\tmov\t%rax," . (16 * $j) . "(%rsp,%r8)\n\tmov\t%rbx," . (16 * $j + 8) . "(%rsp,%r8)\n"
                    . "\tadd\t%rax,%rax\n\tadc\t%rbx,%rbx\n\tsbb\t%ebp,%ebp\n\tand\t\$0x87,%ebp\n"
                    . "\txor\t%rbp,%rax\n";
            }
            return $f;
        };
        $t .= vaes_select($variant, '%rdx', $VAES_MIN{xts}, \%W, 'vpclmulqdq') . "${\ $L->('x') }:\n";
        $t .= "\tsub\t\$$g,%rdx\n\tjb\t${\ $L->('tail') }\n";
        $t .= "\tmovq\t$T,%rax\n\tpextrq\t\$1,$T,%rbx\n"
            . "\txor\t%r8d,%r8d\n";
        $t .= $fill->() . "\tmov\t\$256,%ecx\n";
        $t .= ".align\t16\n${\ $L->('loop8') }:\n"
            . "\txor\t\$256,%ecx\n\txor\t\$256,%r8d\n"
            . "\tlea\t(%rsp,%rcx),%r14\n";
        for my $j (0 .. $n - 1) {
            $t .= "\tmovdqu\t" . 16 * $j . "(%rdi),$b[$j]\n"
                . "\tpxor\t" . 16 * $j . "(%r14),$b[$j]\n\tpxor\t$k0,$b[$j]\n";
        }
        $t .= $fill->();
        $t .= mid_rounds($op, '%r10d', '%r11', $tk, @b[0 .. $n - 1]);
        $t .= "\t${op}last\t$kl,$b[$_]\n\tpxor\t" . 16 * $_ . "(%r14),$b[$_]\n" for 0 .. $n - 1;
        $t .= "\tmovdqu\t$b[$_]," . 16 * $_ . "(%rsi)\n" for 0 .. $n - 1;
        $t .= <<___;
	lea	$g(%rdi),%rdi
	lea	$g(%rsi),%rsi
	sub	\$$g,%rdx
	jae	${\ $L->('loop8') }
	movdqa	(%rsp,%r8),$T			# the next block's tweak
	xor	%eax,%eax			# clear the tweak buffers
	xor	%ebx,%ebx
	xor	%ebp,%ebp
	pxor	$u,$u
___
        $t .= "\tmovdqa\t$u," . 16 * $_ . "(%rsp)\n" for 0 .. 31;
        $t .= <<___;
${\ $L->('tail') }:
	add	\$$g,%rdx
	jz	${\ $L->('steal') }
${\ $L->('loop1') }:
${\ $block->('(%rdi)', '(%rsi)', $T) }${\ $next->($T) }	lea	16(%rdi),%rdi
	lea	16(%rsi),%rsi
	sub	\$16,%rdx
	jnz	${\ $L->('loop1') }
${\ $L->('steal') }:
	test	%r9,%r9
	jz	${\ $L->('done') }
___
        if ($dir eq 'enc') {
            $t .= <<___;
${\ $L->('swap') }:
	movzbl	(%rdi,%rdx),%eax
	movzbl	-16(%rsi,%rdx),%ecx
	mov	%cl,(%rsi,%rdx)
	mov	%al,-16(%rsi,%rdx)
	inc	%rdx
	cmp	%r9,%rdx
	jb	${\ $L->('swap') }
${\ $block->('-16(%rsi)', '-16(%rsi)', $T) }
___
        } else {
            $t .= <<___;
	movdqa	$T,$T2
${\ $next->($T2) }${\ $block->('(%rdi)', '(%rsi)', $T2) }${\ $L->('swap') }:
	movzbl	16(%rdi,%rdx),%eax
	movzbl	(%rsi,%rdx),%ecx
	mov	%cl,16(%rsi,%rdx)
	mov	%al,(%rsi,%rdx)
	inc	%rdx
	cmp	%r9,%rdx
	jb	${\ $L->('swap') }
${\ $block->('(%rsi)', '(%rsi)', $T) }
___
        }
        $t .= "\tjmp\t${\ $L->('done') }\n";
        $t .= $L->('one') . ":\n" . $block->('(%rdi)', '(%rsi)', $T) . "\tjmp\t${\ $L->('done') }\n";
        $t .= "$W{$_}:\n" . vaes_xts_bulk(vaes_width($_), $dir, $L->('x')) for vaes_widths($variant);
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
