# SPDX-License-Identifier: Apache-2.0
# What the 64-bit layer knows about x86_64: registers and mnemonics.
# Anything not listed here is an error at the source line, never text
# passed through for the assembler to trip on.
package X64::ISA;

use strict;
use warnings;
use Exporter 'import';
use Common::ConditionCodes qw(@CC);

our @EXPORT_OK = qw(register_info lookup_mnemonic gp64_of size_suffix);

# --- registers: name => [class, size in bytes] -----------------------------
my %REG;
{
    my @gp64 = qw(rax rbx rcx rdx rsi rdi rbp rsp);
    my @gp32 = qw(eax ebx ecx edx esi edi ebp esp);
    my @gp16 = qw(ax bx cx dx si di bp sp);
    my @gp8  = qw(al bl cl dl sil dil bpl spl ah bh ch dh);
    $REG{$_} = [ 'gp', 8 ] for @gp64, map { "r$_" } 8 .. 15;
    $REG{$_} = [ 'gp', 4 ] for @gp32, map { "r${_}d" } 8 .. 15;
    $REG{$_} = [ 'gp', 2 ] for @gp16, map { "r${_}w" } 8 .. 15;
    $REG{$_} = [ 'gp', 1 ] for @gp8,  map { "r${_}b" } 8 .. 15;
    $REG{rip} = [ 'rip', 8 ];
    $REG{"xmm$_"} = [ 'vec', 16 ] for 0 .. 31;
    $REG{"ymm$_"} = [ 'vec', 32 ] for 0 .. 31;
    $REG{"zmm$_"} = [ 'vec', 64 ] for 0 .. 31;
    $REG{"k$_"}   = [ 'mask', 8 ] for 0 .. 7;
    $REG{"mm$_"}  = [ 'mmx', 8 ]  for 0 .. 7;
    $REG{$_} = [ 'seg', 2 ] for qw(cs ds es fs gs ss);
}

sub register_info { my ($name) = @_; return $REG{ lc $name }; }

# The AT&T size letter of a general-purpose register (b w l q), or undef.
my %SUFFIX_OF_SIZE = (1 => 'b', 2 => 'w', 4 => 'l', 8 => 'q');
sub size_suffix {
    my ($name) = @_;
    my $info = register_info($name) or return undef;
    return $info->[0] eq 'gp' ? $SUFFIX_OF_SIZE{ $info->[1] } : undef;
}

# The 64-bit register a general-purpose register name is part of.
my %GP64;
{
    my @base = qw(a b c d);
    for my $x (@base) {
        $GP64{$_} = "r${x}x" for "r${x}x", "e${x}x", "${x}x", "${x}l", "${x}h";
    }
    for my $x (qw(si di bp sp)) {
        $GP64{$_} = "r$x" for "r$x", "e$x", $x, "${x}l";
    }
    for my $n (8 .. 15) {
        $GP64{$_} = "r$n" for "r$n", "r${n}d", "r${n}w", "r${n}b";
    }
}
sub gp64_of { my ($name) = @_; return $GP64{ lc $name }; }

# --- mnemonics ---------------------------------------------------------------
# Integer instructions that take an AT&T size suffix (b w l q); the suffix
# gives the operand size when no register operand does.
my @GP_SIZED = qw(
    mov add sub and or xor cmp test adc sbb inc dec neg not lea push pop
    shl shr sar sal rol ror rcl rcr shld shrd imul mul div idiv xchg
    cmpxchg xadd bt bts btr btc bsf bsr bswap lzcnt tzcnt popcnt
    andn bextr blsi blsmsk blsr bzhi mulx pdep pext rorx sarx shlx shrx
    adcx adox movbe crc32 nop
);
my %GP_SIZED = map { $_ => 1 } @GP_SIZED, (map { "cmov$_" } @CC);

# AT&T spellings that change name in Intel syntax, with the operand size
# of their source (for memory operands) where the name implies one.
my %RENAMED = (
    movabsq => [ 'mov', 8 ],
    movzbl => [ 'movzx', 1 ], movzbq => [ 'movzx', 1 ], movzbw => [ 'movzx', 1 ],
    movzwl => [ 'movzx', 2 ], movzwq => [ 'movzx', 2 ],
    movsbl => [ 'movsx', 1 ], movsbq => [ 'movsx', 1 ], movsbw => [ 'movsx', 1 ],
    movswl => [ 'movsx', 2 ], movswq => [ 'movsx', 2 ],
    movslq => [ 'movsxd', 4 ],
    cltq => [ 'cdqe' ], cqto => [ 'cqo' ], cltd => [ 'cdq' ], cwtl => [ 'cwde' ],
);

# OpenSSL's shorthands for zero extension, whose full AT&T spelling
# (movzbl, movzwq, ...) the parser completes from the operands: the
# source size is in the name (b, w) or, for a bare movz, that of the first
# register operand; the destination size is that of the last operand.
my %MOVZ_SHORT = (movz => 0, movzb => 1, movzw => 2, movzxb => 1, movzxw => 2);

# Instructions without a size suffix, or whose size is in the name.
my @PLAIN = (
    qw(ret jmp call leave cqo cdq cdqe cwde clc stc cmc cld std hlt ud2
       rdtsc rdtscp cpuid xgetbv lfence mfence sfence pause endbr64 endbr32
       int3 prefetcht0 prefetcht1 prefetcht2 prefetchnta clflush
       loop rep repe repz repne repnz lock movsb movsw movsd movsq
       stosb stosw stosd stosq lodsb lodsq cmpsb scasb movq movd
       rdrand rdseed endbranch pushf pushfq popf popfq fnstcw fldcw
       fnstsw fninit fwait),
    (map { "j$_" } @CC, 'rcxz', 'ecxz', 'mp'),
    (map { "set$_" } @CC),
);

# SSE through SSE4.2, AES-NI, PCLMULQDQ, SHA-NI.  Each also exists with a
# "v" prefix (AVX), listed or not.
my @SSE = qw(
    movdqa movdqu movaps movups movapd movupd movss movsd movhps movlps
    movhpd movlpd movhlps movlhps movntdq movntdqa movmskps movmskpd
    movddup movshdup movsldup lddqu
    pxor por pand pandn xorps xorpd orps orpd andps andpd andnps andnpd
    paddb paddw paddd paddq psubb psubw psubd psubq pmuludq pmulld pmullw
    pmulhw pmulhuw pmaddwd pmaddubsw paddusb paddusw psubusb psubusw
    paddsb paddsw psubsb psubsw pavgb pavgw psadbw
    pslldq psrldq psllw pslld psllq psrlw psrld psrlq psraw psrad
    pshufd pshufb pshufhw pshuflw shufps shufpd palignr
    punpcklbw punpcklwd punpckldq punpcklqdq punpckhbw punpckhwd
    punpckhdq punpckhqdq unpcklps unpckhps unpcklpd unpckhpd
    packsswb packssdw packuswb packusdw
    pcmpeqb pcmpeqw pcmpeqd pcmpeqq pcmpgtb pcmpgtw pcmpgtd pcmpgtq
    pmovmskb ptest pextrb pextrw pextrd pextrq pinsrb pinsrw pinsrd pinsrq
    pblendw pblendvb blendps blendpd blendvps blendvpd
    pmovzxbw pmovzxbd pmovzxbq pmovzxwd pmovzxwq pmovzxdq
    pmovsxbw pmovsxbd pmovsxbq pmovsxwd pmovsxwq pmovsxdq
    pminub pminuw pminud pmaxub pmaxuw pmaxud pminsb pminsw pminsd
    pmaxsb pmaxsw pmaxsd pabsb pabsw pabsd phaddw phaddd phsubw phsubd
    pshufb psignb psignw psignd pmulhrsw pmuldq
    pcmpestri pcmpestrm pcmpistri pcmpistrm
    addps addpd addss addsd subps subpd mulps mulpd divps divpd
    sqrtps sqrtpd minps maxps cmpps cmppd
    cvtsi2sd cvtsi2ss cvtsd2si cvttsd2si cvtdq2ps cvtps2dq
    extractps insertps dpps dppd roundps roundpd
    aesenc aesenclast aesdec aesdeclast aesimc aeskeygenassist
    pclmulqdq pclmullqlqdq pclmulhqlqdq pclmullqhqdq pclmulhqhqdq
    sha1rnds4 sha1nexte sha1msg1 sha1msg2 sha256rnds2 sha256msg1 sha256msg2
    ldmxcsr stmxcsr emms
);

# Only with a VEX, EVEX or XOP encoding (AVX, AVX2, AVX-512 F/BW/VL,
# VAES, VPCLMULQDQ, GFNI, AMD's XOP rotates).
my @AVX_ONLY = qw(
    vzeroupper vzeroall vbroadcastss vbroadcastsd vbroadcasti128
    vbroadcastf128 vbroadcasti32x4 vbroadcasti64x2 vbroadcasti32x8
    vbroadcasti64x4 vbroadcastf32x4 vbroadcastf64x2
    vpbroadcastb vpbroadcastw vpbroadcastd vpbroadcastq
    vinserti128 vextracti128 vinsertf128 vextractf128
    vinserti32x4 vinserti64x2 vinserti32x8 vinserti64x4
    vextracti32x4 vextracti64x2 vextracti32x8 vextracti64x4
    vinsertf32x4 vinsertf64x2 vextractf32x4 vextractf64x2
    vperm2i128 vperm2f128 vpermq vpermd vpermpd vpermps vpermi2b vpermi2w
    vpermi2d vpermi2q vpermt2b vpermt2w vpermt2d vpermt2q vpermb vpermw
    vpblendd vpmaskmovd vpmaskmovq vmaskmovps
    vpsllvd vpsllvq vpsrlvd vpsrlvq vpsravd vpsravq vpsraq
    vpternlogd vpternlogq valignd valignq vpalignr
    vpcompressb vpcompressw vpcompressd vpcompressq
    vpexpandb vpexpandw vpexpandd vpexpandq
    vmovdqu8 vmovdqu16 vmovdqu32 vmovdqu64 vmovdqa32 vmovdqa64
    vpblendmb vpblendmw vpblendmd vpblendmq
    vpcmpb vpcmpub vpcmpw vpcmpuw vpcmpd vpcmpud vpcmpq vpcmpuq
    vpcmpeqb vpcmpeqw vpcmpeqd vpcmpeqq vptestmb vptestmw vptestmd vptestmq
    vptestnmb vptestnmw vptestnmd vptestnmq
    vprold vprolq vprord vprorq vprolvd vprolvq vprorvd vprorvq
    vpshldd vpshldq vpshrdd vpshrdq vpshldvd vpshldvq vpshrdvd vpshrdvq
    vpmovqd vpmovdb vpmovdw vpmovqb vpmovwb vpmovzxbw
    vshufi32x4 vshufi64x2 vshuff32x4 vshuff64x2
    vmovd vmovq vprotd vprotq
    vgf2p8affineqb vgf2p8affineinvqb vgf2p8mulb
    vpdpbusd vpdpwssd vpmadd52luq vpmadd52huq
    kmovb kmovw kmovd kmovq kandb kandw kandd kandq korb korw kord korq
    kxorb kxorw kxord kxorq knotb knotw knotd knotq kshiftlb kshiftlw
    kshiftld kshiftlq kshiftrb kshiftrw kshiftrd kshiftrq kortestb
    kortestw kortestd kortestq ktestb ktestw ktestd ktestq kunpckbw
    kunpckwd kunpckdq kaddb kaddw kaddd kaddq
    vpxord vpxorq vpord vporq vpandd vpandq vpandnd vpandnq vpmullq
    vpminuq vpmaxuq vpminsq vpmaxsq vpabsq vpsllw vpsrlw vpsraw
    vpshufbitqmb vpopcntb vpopcntw vpopcntd vpopcntq vpconflictd
);

my %PLAIN = map { $_ => 1 } @PLAIN;
my %SSE   = map { $_ => 1 } @SSE;
# AVX-512 compare pseudo-ops: vpcmp{eq,lt,le,neq,nlt,nle}{b,w,d,q,ub,...}.
my @VPCMP_ALIAS = map { my $p = $_; map { "vpcmp$p$_" } qw(b w d q ub uw ud uq) }
                  qw(eq lt le neq nlt nle);
my %AVX   = map { $_ => 1 } @AVX_ONLY, @VPCMP_ALIAS, map { "v$_" } @SSE;
my %SIZE_OF_SUFFIX = (b => 1, w => 2, l => 4, q => 8);

# Returns { name => Intel-syntax name, size => implied operand size or 0,
# class => 'gp'|'plain'|'sse'|'avx' }, or undef for an unknown mnemonic.
# A shorthand the parser must complete from its operands has
# `complete => 'movz'` and `src_size` (0: from the first register).
sub lookup_mnemonic {
    my ($m) = @_;
    $m = lc $m;
    if (defined(my $src = $MOVZ_SHORT{$m})) {
        return { name => 'movzx', size => 0, class => 'gp', src_size => $src,
                 complete => 'movz' };
    }
    if (my $r = $RENAMED{$m}) {
        return { name => $r->[0], size => $r->[1] // 0, class => 'gp',
                 src_size => $r->[1] // 0 };
    }
    # A jump with a 32-bit displacement form (not jrcxz, jecxz, loop).
    return { name => $m, size => 0, class => 'plain', rel32 => 1 }
        if $PLAIN{$m} && $m =~ /^j/ && $m !~ /^j[er]cxz$/;
    return { name => $m, size => 0, class => 'plain' } if $PLAIN{$m};
    return { name => $m, size => 0, class => 'sse' }   if $SSE{$m};
    return { name => $m, size => 0, class => 'avx' }   if $AVX{$m};
    return { name => $m, size => 0, class => 'gp' }    if $GP_SIZED{$m};
    if ($m =~ /^(.+)([bwlq])$/ && $GP_SIZED{$1}) {
        return { name => $1, size => $SIZE_OF_SUFFIX{$2}, class => 'gp' };
    }
    # Branches and string ops with AT&T suffixes: jmpq, callq, retq.
    if ($m =~ /^(ret|call|jmp|push|pop)q$/) {
        return { name => $1, size => 8, class => 'plain' };
    }
    return undef;
}

1;
