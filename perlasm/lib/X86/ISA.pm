# SPDX-License-Identifier: Apache-2.0
# What the 32-bit layer knows: registers and mnemonics.  Anything a module
# uses that is not listed here is an error at the module's line.
package X86::ISA;

use strict;
use warnings;
use Exporter 'import';
use Common::ConditionCodes qw(@CC);

our @EXPORT_OK = qw(register_info mnemonic_info);

# name => [class, size in bytes]
my %REG;
$REG{$_} = [ 'gpr', 4 ] for qw(eax ebx ecx edx esi edi ebp esp);
$REG{$_} = [ 'gpr', 2 ] for qw(ax bx cx dx si di bp sp);
$REG{$_} = [ 'gpr', 1 ] for qw(al bl cl dl ah bh ch dh);
$REG{"mm$_"}  = [ 'mmx', 8 ]  for 0 .. 7;
$REG{"xmm$_"} = [ 'xmm', 16 ] for 0 .. 7;
$REG{"ymm$_"} = [ 'ymm', 32 ] for 0 .. 7;      # VEX.256 (AVX); 8-15 need 64-bit mode

sub register_info {
    my ($name) = @_;
    return undef unless defined $name && !ref $name;
    my $r = $REG{ lc $name } or return undef;
    return { class => $r->[0], size => $r->[1], name => lc $name };
}

# Mnemonic kinds:
#   gpr    integer instruction: AT&T takes a size suffix, nasm a size
#          keyword, when no register operand tells the size
#   ext    movzx/movsx: the source size is spelled out in both syntaxes
#   branch jmp/call/jcc: the operand is a label, a symbol or indirect
#   vec    MMX/SSE (refused after asm_init(..., 386)); sizes come from
#          the registers
#   plain  no operands or sizes from registers only (cpuid, rdtsc, ...)
# and the accepted operand counts.
my %MN;
sub add { my ($kind, $counts, @names) = @_; $MN{$_} = { kind => $kind, counts => $counts } for @names }

add('gpr', [2], qw(mov add adc sub sbb and or xor cmp test xchg
                   bt bts btr btc bsf bsr xadd cmpxchg));
add('gpr', [2, 3], qw(imul));
add('gpr', [1, 2], qw(shl shr sar rol ror rcl rcr sal));
add('gpr', [3], qw(shld shrd));
add('gpr', [3], qw(andn rorx));                  # BMI1, BMI2
add('gpr', [1], qw(not neg inc dec mul div idiv push pop bswap rdrand rdseed));
add('gpr', [2], qw(lea));
add('gpr', [1], map { "set$_" } @CC);
add('gpr', [2], map { "cmov$_" } @CC);
add('ext', [2], qw(movzx movsx));
add('branch', [1], qw(jmp call), (map { "j$_" } @CC), qw(jecxz loop));
add('plain', [0], qw(ret nop cdq cwde cld std clc stc cmc pushf popf pushfd
                     popfd cpuid rdtsc endbr32 leave lahf sahf int3 ud2 lfence
                     mfence sfence pause hlt));
add('plain', [0], qw(rep_movsb rep_movsd rep_stosb rep_stosd));
add('gpr', [1], qw(prefetcht0 prefetcht1 prefetcht2 prefetchnta clflush));
add('vec', [0], qw(emms));
add('vec', [2], qw(movd movq movdqa movdqu movaps movups movapd movupd
                   movss movsd movhps movlps movhlps movlhps movntdq
                   pxor por pand pandn paddb paddw paddd paddq psubb psubw
                   psubd psubq pmullw pmulhw pmulhuw pmuludq pmulld pmaddwd
                   pcmpeqb pcmpeqw pcmpeqd pcmpeqq pcmpgtb pcmpgtw pcmpgtd
                   pmaxub pminub pavgb psadbw pshufb
                   punpcklbw punpcklwd punpckldq punpcklqdq punpckhbw
                   punpckhwd punpckhdq punpckhqdq packuswb packsswb packssdw
                   xorps orps andps andnps xorpd unpcklps unpckhps
                   pmovmskb movmskps pslldq psrldq
                   aesenc aesenclast aesdec aesdeclast aesimc
                   sha1nexte sha1msg1 sha1msg2 pabsd));
add('vec', [2], qw(psllw pslld psllq psrlw psrld psrlq psraw psrad));
# AVX (VEX) forms: three operands, the destination first, then the sources.
add('vec', [0], qw(vzeroupper vzeroall));
# On xmm (VEX.128) or ymm (VEX.256) registers alike, but vbroadcasti128
# (ymm from 128 bits of memory), vinserti128 and vextracti128 (lane 1 of
# a ymm); the vaes* rounds on ymm need VAES, on xmm only AVX and AES-NI.
add('vec', [2], qw(vmovdqa vmovdqu vbroadcasti128 vmovd));
add('vec', [3], qw(vpxor vpor vpand vpaddd vpaddq vpsubd vpshufb vpsrld vpslld vpsrldq vpslldq
                   vpsrlq vpsllq vpsrad vpshufd vpunpcklqdq vpunpckhqdq vpcmpgtd
                   vaesenc vaesenclast vaesdec vaesdeclast vextracti128 vpermq
                   vpmuludq vpunpckhdq vpunpckldq vprotd));
add('vec', [4], qw(vpalignr vinserti128 vperm2i128 vpblendd vpinsrd));
add('vec', [3], qw(pshufd pshufw pshuflw pshufhw shufps shufpd palignr
                   pinsrw pextrw pinsrd pextrd pclmulqdq aeskeygenassist
                   sha1rnds4 pblendw blendps insertps extractps));

sub mnemonic_info {
    my ($name) = @_;
    return $MN{$name};
}

1;
