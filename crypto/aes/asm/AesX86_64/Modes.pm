# SPDX-License-Identifier: Apache-2.0
# XTS and CCM loops over aes-x86_64.pl's table rounds: the whole-block part
# of each mode in one function per direction and path, so a block costs
# its rounds and a few loads and stores, not a C call through a function
# pointer, a prologue and byte loops.  Hidden; the C glue
# (crypto/aes/aes_x86_64_xts_ccm.c) picks the path by length and does
# XTS's ciphertext stealing.  Also here: frame_enter, the first stores of
# the frame that these loops and aes-x86_64.pl's CBC share.
#
#   void aes_x86_64_xts_{enc,dec}_{full,compact}(const unsigned char *in,
#            unsigned char *out, size_t blocks, const void *key,
#            unsigned char tweak[16]);
#     block j: out = E(in ^ T) ^ T (or D), T = tweak·α^j; tweak is written
#     back as tweak·α^blocks, ready for the next block.
#   void aes_x86_64_ccm64_{enc,dec}_{full,compact}(...), OpenSSL's ccm128_f
#     (in, out, blocks, key, ivec, cmac): counter block i is ivec[0..7] ||
#     BE64(ivec[8..15]) + i, cmac is read and written back, ivec is not.
#
# The rounds use every general register but rsp, so what a mode carries
# from block to block (pointers, the count, the tweak, the CBC-MAC, the
# counter) sits in the frame; its arithmetic (the tweak's doubling: add,
# adc and a branch-free 0x87) does not depend on the block being
# encrypted, so the out-of-order core runs it beside the rounds.  CCM's
# two blocks (the MAC chain and the counter block) each take one pass of
# the rounds; in encryption they are independent of each other, and the
# counter block follows the MAC block so it overlaps the chain.
package AesX86_64::Modes;

use strict;
use warnings;
use Exporter 'import';

our @EXPORT_OK = qw(frame_enter xts_function ccm64_function);

# The four state words (eax..edx) loaded from, xored with or stored to
# 4-byte words at $off($base).
sub words {
    my ($op, $off, $base) = @_;
    my @s = qw(%eax %ebx %ecx %edx);
    return join '', map {
        $op eq 'store' ? "\tmov\t$s[$_]," . ($off + 4 * $_) . "($base)\n"
                       : "\t$op\t" . ($off + 4 * $_) . "($base),$s[$_]\n"
    } 0 .. 3;
}

# The start of every mode loop of the module (CBC in aes-x86_64.pl, XTS
# and CCM here), just after its .function prologue, so it adds no unwind
# state: a count of 0 (rdx) jumps to ${p}_out; else the frame gets
# 0 in, 8 out, 16 the count, 24 key and 32 the pointer in $ptr.
sub frame_enter {
    my ($p, $ptr) = @_;
    return <<"EOT";
	test	%rdx,%rdx
	jz	${p}_out
	mov	%rdi,0(%rsp)
	mov	%rsi,8(%rsp)
	mov	%rdx,16(%rsp)
	mov	%rcx,24(%rsp)
	mov	$ptr,32(%rsp)
EOT
}

# XTS's and CCM's start: frame_enter, then the 16 bytes at $ptr into
# 40..55.
sub enter {
    my ($p, $ptr) = @_;
    return frame_enter($p, $ptr) . <<"EOT";
	mov	0($ptr),%rax
	mov	8($ptr),%rcx
	mov	%rax,40(%rsp)
	mov	%rcx,48(%rsp)
EOT
}

# The end of the loop: the next block, then 40..55 back to the pointer
# at 32(%rsp); the return.
sub leave {
    my ($p) = @_;
    return <<"EOT";
	addq	\$16,0(%rsp)
	addq	\$16,8(%rsp)
	subq	\$1,16(%rsp)
	jnz	${p}_loop
	mov	32(%rsp),%r8
	mov	40(%rsp),%rax
	mov	48(%rsp),%rcx
	mov	%rax,0(%r8)
	mov	%rcx,8(%r8)
${p}_out:
	.return
.endfunction

EOT
}

# $block->($dir, $label): the rounds of one block (state in eax..edx,
# schedule at %r15), clobbering every register but rsp.
# Frame (enter): 32 the tweak pointer, 40..55 the current tweak.
sub xts_function {
    my ($name, $dir, $save, $block) = @_;
    my $p = ".L$name";
    return <<"EOT" . $block->($dir, "${p}_round") . <<"EOT";
.globl	$name
.hidden	$name
.p2align 4
.function $name, args=5, save=$save, stack=64
@{[ enter($p, '%r8') ]}.p2align 4
${p}_loop:
	mov	0(%rsp),%rdi
	mov	24(%rsp),%r15
@{[ words('mov', 0, '%rdi') . words('xor', 40, '%rsp') ]}
EOT
	mov	8(%rsp),%rsi
@{[ words('xor', 40, '%rsp') . words('store', 0, '%rsi') ]}	# T = T*alpha: the 128-bit little-endian value doubled, 0x87 in
	# when its top bit falls out
	mov	40(%rsp),%r8
	mov	48(%rsp),%r9
	mov	%r9,%r10
	sar	\$63,%r10
	and	\$0x87,%r10d
	add	%r8,%r8
	adc	%r9,%r9
	xor	%r10,%r8
	mov	%r8,40(%rsp)
	mov	%r9,48(%rsp)
@{[ leave($p) ]}
EOT
}

# Frame (enter): 32 the cmac pointer, 40..55 the CBC-MAC; then 56..63
# ivec[0..7], 64 the counter (a native 64-bit number).
sub ccm64_function {
    my ($name, $enc, $save, $block) = @_;
    my $p = ".L$name";
    # The counter block into eax..edx; the counter steps on.
    my $ctr = <<"EOT";
	mov	24(%rsp),%r15
	mov	56(%rsp),%eax
	mov	60(%rsp),%ebx
	mov	64(%rsp),%rcx
	bswap	%rcx
	mov	%rcx,%rdx
	shr	\$32,%rdx
	addq	\$1,64(%rsp)
EOT
    $ctr .= $block->(1, "${p}_ctr_round");
    # The MAC block: eax..edx hold cmac ^ P on entry.
    my $mac = "\tmov\t24(%rsp),%r15\n" . $block->(1, "${p}_mac_round") . words('store', 40, '%rsp');
    my $body;
    if ($enc) {
        $body = "\tmov\t0(%rsp),%rdi\n" . words('mov', 40, '%rsp') . words('xor', 0, '%rdi') . $mac
              . $ctr . "\tmov\t0(%rsp),%rdi\n\tmov\t8(%rsp),%rsi\n"
              . words('xor', 0, '%rdi') . words('store', 0, '%rsi');
    } else {
        $body = $ctr . "\tmov\t0(%rsp),%rdi\n\tmov\t8(%rsp),%rsi\n"
              . words('xor', 0, '%rdi') . words('store', 0, '%rsi')
              . words('xor', 40, '%rsp') . $mac;
    }
    return <<"EOT";
.globl	$name
.hidden	$name
.p2align 4
.function $name, args=6, save=$save, stack=80
@{[ enter($p, '%r9') ]}	mov	0(%r8),%rax
	mov	8(%r8),%rcx
	bswap	%rcx
	mov	%rax,56(%rsp)
	mov	%rcx,64(%rsp)
.p2align 4
${p}_loop:
$body@{[ leave($p) ]}
EOT
}

1;
