# SPDX-License-Identifier: Apache-2.0
# Included by the Makefile: the 32-bit (i386 cdecl) ABI and CFI checkers
# (test/abi32), their self-test and their run over the x86asm corpus, all
# built with gcc -m32 and run under qemu-i386 by test/t/82-x86-abi.t.
# Programs are linked -no-pie: the trampoline's landing pad uses absolute
# addresses (see trampoline_cdecl.pl).  Built only with gcc-multilib.

A32     := $(BUILD)/abi32
A32_CC  := $(CC32) $(WARN) -O2 -g -D_GNU_SOURCE
A32_LINK := $(CC32) -no-pie
A32_CHECKER := $(addprefix $(A32)/,abi_cdecl.o trampoline_cdecl.o tap.o)

$(A32)/trampoline_cdecl.s: support/abi/trampoline_cdecl.pl $(PERLASM_X86)
	@mkdir -p $(@D)
	$(PERL) $< elf $@
$(A32)/%.o: $(A32)/%.s
	as --32 --fatal-warnings -o $@ $<
$(A32)/%.o: test/abi32/%.c support/abi/abi_cdecl.h support/abi/abi32_typed.h support/lib/code_handle.h test/x86asm/corpus.h \
    support/abi/abi_core.h support/abi/abi_common.h test/abi/selftest_core.h
	@mkdir -p $(@D)
	$(A32_CC) -c -o $@ $<
$(A32)/%.o: support/abi/%.c support/abi/abi_cdecl.h support/abi/abi_core.h support/abi/abi_common.h
	@mkdir -p $(@D)
	$(A32_CC) -c -o $@ $<
$(A32)/%.S.o: test/abi32/%.S
	@mkdir -p $(@D)
	$(CC32) -c -Wa,--fatal-warnings -o $@ $<
$(A32)/tap.o: test/lib/tap.c test/lib/tap.h
	@mkdir -p $(@D)
	$(A32_CC) -c -o $@ $<
.PRECIOUS: $(A32)/%.s

# The corpus without -fPIC too (x86asm.mk builds the -fPIC object).
$(A32)/corpus.nopic.s: $(X86_CORPUS) $(PERLASM_X86)
	@mkdir -p $(@D)
	$(PERL) $(X86_CORPUS) elf $@

$(BUILD)/test/abi32/selftest_cdecl: $(A32)/selftest_cdecl.o $(A32)/selftest_cdecl.S.o $(A32_CHECKER)
	@mkdir -p $(@D)
	$(A32_LINK) -o $@ $^
$(BUILD)/test/abi32/corpus_abi_pic: $(A32)/corpus_abi.o $(X86A)/corpus.elf.o $(A32_CHECKER)
	@mkdir -p $(@D)
	$(A32_LINK) -o $@ $^
$(BUILD)/test/abi32/corpus_abi_nopic: $(A32)/corpus_abi.o $(A32)/corpus.nopic.o $(A32_CHECKER)
	@mkdir -p $(@D)
	$(A32_LINK) -o $@ $^
# The macosx flavour's corpus code, retargeted to ELF (x86asm.mk).
$(BUILD)/test/abi32/corpus_abi_macosx: $(A32)/corpus_abi.o $(X86A)/corpus.macosx-elf.o $(A32_CHECKER)
	@mkdir -p $(@D)
	$(A32_LINK) -o $@ $^

ifeq ($(HAVE_CC32),yes)
tests: $(addprefix $(BUILD)/test/abi32/,selftest_cdecl corpus_abi_pic corpus_abi_nopic corpus_abi_macosx)
# The layer probe's module is generated and linked by 82-x86-abi.t itself.
tests: $(A32)/layer_probe.o $(A32_CHECKER)
endif

# Every aes-586 variant (test/aes586/aes586.mk, included before this file:
# AES586_VARIANTS, M32) linked with the checkers: aes586_abi_VARIANT.
ifneq ($(AES586_VARIANTS),)
$(A32)/aes586_abi.o: test/abi32/aes586_abi.c support/abi/abi_cdecl.h support/abi/abi32_typed.h support/lib/code_handle.h $(GEN_HDRS)
	@mkdir -p $(@D)
	$(A32_CC) $(CPPFLAGS_ALL) -c -o $@ $<
$(BUILD)/test/abi32/aes586_abi_%: $(A32)/aes586_abi.o $(M32)/%/libcrypto-asm.a $(A32_CHECKER)
	@mkdir -p $(@D)
	$(A32_LINK) -o $@ $(A32)/aes586_abi.o $(A32_CHECKER) $(M32)/$*/libcrypto-asm.a
ifeq ($(HAVE_CC32),yes)
tests: $(patsubst %,$(BUILD)/test/abi32/aes586_abi_%,$(AES586_VARIANTS))
endif
endif

# sha1-586 (in the library of mk/m32.mk) linked with the checkers.
$(A32)/sha1_586_abi.o: test/abi32/sha1_586_abi.c support/abi/abi_cdecl.h support/abi/abi32_typed.h support/lib/code_handle.h $(GEN_HDRS)
	@mkdir -p $(@D)
	$(A32_CC) $(CPPFLAGS_ALL) $(M32_DEFS) -c -o $@ $<
$(BUILD)/test/abi32/sha1_586_abi: $(A32)/sha1_586_abi.o $(M32)/libcrypto-asm.a $(A32_CHECKER)
	@mkdir -p $(@D)
	$(A32_LINK) -o $@ $(A32)/sha1_586_abi.o $(A32_CHECKER) $(M32)/libcrypto-asm.a
ifeq ($(HAVE_CC32),yes)
tests: $(BUILD)/test/abi32/sha1_586_abi
endif
