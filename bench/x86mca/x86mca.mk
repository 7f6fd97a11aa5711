# SPDX-License-Identifier: Apache-2.0
# Included by the Makefile: the 32-bit AES benchmark (estimates; no 32-bit
# timing is possible here), `make bench-x86mca`, also run by `make bench`.
# Each implementation is linked into its own trace32 program (-no-pie, so
# the traced addresses are objdump's); bench/x86mca.pl single-steps it
# under qemu-i386 and replays the executed instructions through llvm-mca.
# The C reference is aes_core.c (T-table rounds) compiled `-m32 -O2`; the
# aes-586 variants (test/aes586/aes586.mk, included before this file) are
# the -fPIC ones, as a distribution builds them.

B32      := $(BUILD)/bench32
B32_C    := crypto/aes/aes_core.c crypto/aes/aes_table.c crypto/aes/aes_cbc.c crypto/modes/cbc128.c
B32_COBJ := $(patsubst %.c,$(B32)/%.o,$(B32_C))
B32_TRACE := $(A32)/abi_cdecl.o $(A32)/trampoline_cdecl.o
# Options for bench/x86mca.pl, e.g. X86MCA_ARGS="--bits 128,256 --cbc-bytes 1024".
X86MCA_ARGS  ?=
X86MCA_PROGS := c=$(B32)/trace32_c
X86MCA_BINS  := $(B32)/trace32_c $(B32)/calib64 $(B32)/native32

$(B32)/%.o: %.c $(GEN_HDRS)
	@mkdir -p $(@D)
	$(CC32) $(CPPFLAGS_ALL) $(WARN) -O2 -c -o $@ $<
$(B32)/trace32_c.o: bench/x86mca/trace32.c test/abi32/abi_cdecl.h test/abi32/abi32_typed.h test/lib/code_handle.h
	@mkdir -p $(@D)
	$(CC32) $(CPPFLAGS_ALL) $(WARN) -O2 -DTRACE_C -c -o $@ $<
$(B32)/trace32_c: $(B32)/trace32_c.o $(B32_COBJ) $(B32_TRACE)
	$(A32_LINK) -o $@ $^

# The method's check on the 64-bit C AES, which can be timed here.
$(B32)/calib64.o: bench/x86mca/calib64.c $(GEN_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(WARN) -O2 -c -o $@ $<
$(B32)/calib64: $(B32)/calib64.o $(LIB)
	$(CC) -no-pie -o $@ $^

# The 32-bit calls run natively (rewritten for 64-bit mode): the harness
# maps a trace32 program at its own addresses and runs one replay.
$(B32)/native32.o: bench/x86mca/native32.c $(GEN_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(WARN) -O2 -c -o $@ $<
$(B32)/native32: $(B32)/native32.o $(LIB)
	$(CC) -o $@ $^ -ldl

ifneq ($(AES586_VARIANTS),)
$(B32)/trace32_asm.o: bench/x86mca/trace32.c test/abi32/abi_cdecl.h test/abi32/abi32_typed.h test/lib/code_handle.h
	@mkdir -p $(@D)
	$(CC32) $(CPPFLAGS_ALL) $(WARN) -O2 -c -o $@ $<
$(B32)/trace32_%: $(B32)/trace32_asm.o $(M32)/%/libcrypto-asm.a $(B32_TRACE)
	$(A32_LINK) -o $@ $(B32)/trace32_asm.o $(B32_TRACE) $(M32)/$*/libcrypto-asm.a
# Each variant's compact path with MMX/SSE and without (the integer code,
# forced by clearing SSE from OPENSSL_ia32cap), and its full-table path.
X86MCA_ASM   := small unrolled
X86MCA_NOSSE := ia32cap=~0x2000000:~0
X86MCA_PROGS += $(foreach v,$(X86MCA_ASM),$(v)-sse=$(B32)/trace32_$(v),path=compact \
    $(v)-int=$(B32)/trace32_$(v),path=compact,$(X86MCA_NOSSE) $(v)=$(B32)/trace32_$(v),path=full)
X86MCA_BINS  += $(patsubst %,$(B32)/trace32_%,$(X86MCA_ASM))
# The founding thread's instruction choices, each against the kept form on
# the unrolled full path (and the round loop's ror weight), measured
# natively only (only=native): builds of aes-586 with one option changed.
AES586_FLAGS_choice-shrand  := -fPIC -DAES586_small_footprint=0 -DAES586_movzbl=0
AES586_FLAGS_choice-mask24  := -fPIC -DAES586_small_footprint=0 -DAES586_mask24=1
AES586_FLAGS_choice-ror1    := -fPIC -DAES586_small_footprint=0 -DAES586_ror_weight=1
AES586_FLAGS_choice-smallror3 := -fPIC -DAES586_ror_weight=3
X86MCA_CHOICES := shrand mask24 ror1 smallror3
X86MCA_PROGS += $(foreach c,$(X86MCA_CHOICES),$(c)=$(B32)/trace32_choice-$(c),path=full,only=native)
X86MCA_BINS  += $(patsubst %,$(B32)/trace32_choice-%,$(X86MCA_CHOICES))
endif

.PHONY: bench-x86mca
ifeq ($(HAVE_CC32)$(HAVE_QEMU_I386)$(HAVE_LLVM_MCA),yesyesyes)
bench-x86mca: $(X86MCA_BINS)
	$(PERL) bench/x86mca.pl --native $(B32)/native32 $(X86MCA_ARGS) $(X86MCA_PROGS) \
	    x86_64=$(B32)/calib64,arch=x86_64
else
bench-x86mca:
	@echo "skipped: the 32-bit AES estimates need $(if $(HAVE_CC32),,gcc -m32 (gcc-multilib) )$(if $(HAVE_QEMU_I386),,qemu-i386 (qemu-user) )$(if $(HAVE_LLVM_MCA),,llvm-mca (llvm))"
endif
# test/t/83-native32.t checks the native replays of these.
ifeq ($(HAVE_CC32),yes)
tests: $(B32)/native32 $(B32)/trace32_c $(patsubst %,$(B32)/trace32_%,$(X86MCA_ASM))
endif
include bench/x86mca/dmcrypt.mk
