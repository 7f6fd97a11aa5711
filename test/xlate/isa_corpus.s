# SPDX-License-Identifier: Apache-2.0
# One of each construct the 64-bit layer translates.  test/t/60-xlate.t
# assembles it in every flavour and requires the same instruction stream
# as the ELF build: operand order, sizes, RIP-relative memory, masks and
# broadcasts must all survive translation.
.text
.globl	isa_corpus
.type	isa_corpus,@abi-omnipotent
.align	16
isa_corpus:
	endbranch
# general purpose, each operand size
	movq	%rax,%rbx
	movl	$0x12345678,%ecx
	movw	%dx,%si
	movb	$7,%al
	movabsq	$0x123456789abcdef0,%r8
	movq	8(%rsp),%r9
	movl	%r10d,-16(%rbp,%r11,4)
	movb	$1,(%rdi)
	movw	$2,2(%rdi)
	movl	$3,4(%rdi)
	movq	$4,8(%rdi)
	addq	$8,%rsp
	subq	$8,%rsp
	andl	$0xff,%eax
	orq	%rax,%rbx
	xorl	%ecx,%ecx
	cmpq	$0,(%rsi)
	testb	$1,%al
	adcq	%rdx,%rax
	sbbl	%eax,%eax
	incl	%eax
	decq	(%rdi)
	negq	%rax
	notl	%edx
	leaq	16(%rsi,%rdi,8),%rax
	leaq	.Lcorpus_data(%rip),%rcx
	movdqa	.Lcorpus_data(%rip),%xmm0
	pushq	%rbx
	popq	%rbx
	shlq	$3,%rax
	shrl	%cl,%edx
	sarq	$63,%rax
	roll	$5,%eax
	rorq	%cl,%r8
	shldq	$4,%rax,%rbx
	shrdl	%cl,%eax,%edx
	imulq	%rbx,%rax
	imull	$10,%ecx,%edx
	mulq	%rbx
	divq	%rcx
	xchgq	%rax,%rbx
	bswapl	%eax
	bswapq	%r9
	btl	$3,%eax
	bsfq	%rax,%rbx
	movzbl	%al,%eax
	movzbl	1(%rsi),%ecx
	movzwl	(%rsi),%edx
	movzbq	(%rsi,%rax),%rbx
	movsbl	%al,%ecx
	movswq	(%rdi),%rax
	movslq	%eax,%rax
	movslq	4(%rdi),%rdx
	cmovel	%eax,%ebx
	cmovncq	(%rdi),%rax
	sete	%al
	setnz	%cl
	cltq
	cqto
	cltd
	cwtl
	rep movsb
	rep stosq
	lock xaddl %eax,(%rdi)
	lzcntq	%rax,%rbx
	tzcntl	%eax,%ecx
	popcntq	%rax,%rdx
	nop
	pause
	lfence
	rdtsc
	cpuid
	xgetbv
	jmp	.Lcorpus_next
.Lcorpus_next:
	jne	.Lcorpus_next
	jz	.Lcorpus_next
	call	.Lcorpus_next
	call	*%rax
	jmp	*(%rax)
	call	*8(%rsp)
# BMI1/2, ADX, MOVBE
	andnq	%rax,%rbx,%rcx
	bextrl	%eax,%ebx,%ecx
	blsil	%eax,%ebx
	blsrq	%rax,%rbx
	bzhiq	%rax,%rbx,%rcx
	mulxq	%rax,%rbx,%rcx
	pdepq	%rax,%rbx,%rcx
	pextl	%eax,%ebx,%ecx
	rorxq	$7,%rax,%rbx
	sarxl	%eax,%ebx,%ecx
	shlxq	%rax,%rbx,%rcx
	shrxq	%rax,(%rsi),%rcx
	adcxq	%rax,%rbx
	adoxq	(%rdi),%rcx
	movbel	(%rsi),%eax
	movbeq	%rax,(%rdi)
# SSE to SSE4.2
	movdqu	(%rsi),%xmm1
	movdqa	%xmm1,16(%rdi)
	movaps	%xmm2,%xmm3
	movups	-32(%rsp),%xmm4
	movd	%eax,%xmm5
	movd	%xmm5,%ecx
	movq	%rax,%xmm6
	movq	%xmm6,%rdx
	movq	(%rsi),%xmm7
	movq	%xmm7,(%rdi)
	pxor	%xmm0,%xmm1
	paddd	(%rsi),%xmm2
	pshufd	$0x1b,%xmm3,%xmm4
	pshufb	%xmm5,%xmm6
	palignr	$8,%xmm7,%xmm8
	pslldq	$4,%xmm9
	psrlq	$32,%xmm10
	punpcklqdq	%xmm11,%xmm12
	pcmpeqd	%xmm13,%xmm14
	pmovmskb	%xmm15,%eax
	pextrd	$1,%xmm0,%eax
	pextrq	$1,%xmm1,(%rdi)
	pinsrd	$2,%eax,%xmm2
	pinsrq	$1,(%rsi),%xmm3
	shufps	$0x44,%xmm4,%xmm5
	ptest	%xmm6,%xmm7
	pcmpistri	$0x0c,(%rsi),%xmm0
	pblendw	$0xf0,%xmm1,%xmm2
	pmulld	%xmm3,%xmm4
# AES-NI, PCLMULQDQ, SHA-NI
	aesenc	%xmm1,%xmm0
	aesenclast	(%rsi),%xmm0
	aesdec	%xmm2,%xmm3
	aesdeclast	%xmm4,%xmm5
	aesimc	%xmm6,%xmm7
	aeskeygenassist	$0x1,%xmm8,%xmm9
	pclmulqdq	$0x11,%xmm10,%xmm11
	pclmulqdq	$0x00,16(%rsi),%xmm12
	sha1rnds4	$3,%xmm1,%xmm2
	sha1nexte	%xmm3,%xmm4
	sha1msg1	(%rsi),%xmm5
	sha1msg2	%xmm6,%xmm7
	sha256rnds2	%xmm8,%xmm9
# AVX, AVX2
	vmovdqu	(%rsi),%ymm0
	vmovdqa	%ymm1,32(%rdi)
	vpxor	%ymm2,%ymm3,%ymm4
	vpaddq	(%rsi),%ymm5,%ymm6
	vpshufb	%xmm7,%xmm8,%xmm9
	vpalignr	$8,%ymm10,%ymm11,%ymm12
	vperm2i128	$0x20,%ymm13,%ymm14,%ymm15
	vinserti128	$1,(%rsi),%ymm0,%ymm1
	vextracti128	$1,%ymm2,%xmm3
	vpbroadcastd	(%rsi),%ymm4
	vpbroadcastq	%xmm5,%ymm6
	vpermq	$0x4e,%ymm7,%ymm8
	vpsrlvq	%ymm9,%ymm10,%ymm11
	vpblendd	$0xf0,%ymm12,%ymm13,%ymm14
	vaesenc	%xmm1,%xmm2,%xmm3
	vpclmulqdq	$0x10,%xmm4,%xmm5,%xmm6
	vzeroupper
# AVX-512 F/BW/VL, VAES, VPCLMULQDQ
	vmovdqu64	(%rsi),%zmm0
	vmovdqu8	%zmm1,64(%rdi){%k1}
	vmovdqu32	(%rsi),%zmm2{%k2}{z}
	vpxord	%zmm3,%zmm4,%zmm5
	vpxorq	%zmm16,%zmm17,%zmm31
	vpaddd	(%rsi){1to16},%zmm6,%zmm7
	vpaddq	8(%rsi){1to8},%zmm8,%zmm9{%k3}
	vpternlogq	$0x96,%zmm10,%zmm11,%zmm12
	vpternlogd	$0x96,(%rsi),%ymm13,%ymm14
	valignq	$2,%zmm15,%zmm16,%zmm17
	vpshufb	%zmm18,%zmm19,%zmm20
	vpermi2q	%zmm21,%zmm22,%zmm23
	vshufi64x2	$0x44,%zmm24,%zmm25,%zmm26
	vinserti64x2	$1,%xmm27,%zmm28,%zmm29
	vextracti32x4	$3,%zmm30,%xmm31
	vbroadcasti32x4	(%rsi),%zmm0
	vpbroadcastq	%rax,%zmm1
	vpcmpequq	%zmm2,%zmm3,%k1
	vpcmpuq	$1,(%rsi),%zmm4,%k2{%k1}
	vptestmq	%zmm5,%zmm6,%k3
	vpcompressq	%zmm7,(%rdi){%k4}
	vpsrlq	$4,%zmm8,%zmm9
	vprolq	$13,%zmm10,%zmm11
	vpsllvq	%zmm12,%zmm13,%zmm14
	kmovq	%rax,%k1
	kmovw	%k1,%eax
	kmovd	(%rsi),%k2
	kandw	%k1,%k2,%k3
	kshiftrq	$1,%k1,%k2
	kortestw	%k1,%k1
	vaesenc	%zmm1,%zmm2,%zmm3
	vaesenclast	(%rsi),%zmm4,%zmm5
	vaesdec	%ymm6,%ymm7,%ymm8
	vaesdeclast	%zmm9,%zmm10,%zmm11
	vpclmulqdq	$0x01,%zmm12,%zmm13,%zmm14
	vpclmulqdq	$0x11,(%rsi),%ymm15,%ymm16
# OpenSSL's shorthands and operand forms: movz completed from its
# operands, vmovd/vmovq, XOP rotates, loop, C comments, 32-bit address
# registers meaning the 64-bit ones, a displacement as its unsigned bit
# pattern, (%rbp,%rX) with no displacement
	movz	%ah,%ecx
	movz	%bl,%r8
	movzb	(%rsi),%eax
	movzw	2(%rsi),%rdx
	movzb	%al,%r9d		/* a C comment */
	vmovd	%xmm1,%eax
	vmovd	(%rsi),%xmm2
	vmovq	%xmm3,%rax
	vmovq	8(%rsi),%xmm4
	vprotd	$7,%xmm5,%xmm6
	vprotq	$13,%xmm7,%xmm8
	mov	(%rax,%ecx,4),%edx
	lea	0xd76aa478(%rax,%r10),%eax
	mov	(%rbp,%rsi),%ecx
.Lcorpus_loop:
	loop	.Lcorpus_loop
	ret
.size	isa_corpus,.-isa_corpus

.section	.rodata
.align	64
.Lcorpus_data:
.byte	1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16
.value	0x1234,0x5678
.long	0x12345678,.Lcorpus_next-isa_corpus
.quad	0x0123456789abcdef
.asciz	"perlasm-x86"
