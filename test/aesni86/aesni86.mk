# SPDX-License-Identifier: Apache-2.0
# Included by the Makefile after test/aes586/aes586.mk and test/abi32/abi32.mk:
# aesni-x86's test builds, run under qemu-i386 by test/t/84-aesni-x86.t.
#
#   build/m32/small/{kat_aes,kat_modes,every_length,ccm,ocb,aesni86_diff}
#                        the test programs over the library's own archive
#   build/m32/aesni86-FLAVOUR/   the same archive with the macosx, coff or
#                        win32n code of aesni-x86 retargeted to ELF
#                        (test/x86asm/flavour_to_elf.pl), and kat_aes,
#                        kat_modes, aesni86_diff linked with it
#   build/test/aesni86/aesni86_diff64   aesni86_diff over the 64-bit archive
#   build/test/abi32/aesni86_abi[_macosx]   every export through the checkers
# Built only when gcc -m32 works (HAVE_CC32).

AESNI86_PL      := $(firstword $(MODULE_aesni-x86))
AESNI86_PROGS   := kat_aes kat_modes every_length ccm ocb aesni86_diff
AESNI86_FLAVOURS := macosx coff $(if $(HAVE_NASM),win32n)
# Mach-O code is PIC whatever the flags; the Win32 flavours have no PIC.
# The module exists only in SSE2 builds (crypto/aes/asm/aesni-x86.pl).
AESNI86_FLAGS_macosx := -fPIC -DOPENSSL_IA32_SSE2
AESNI86_FLAGS_coff   := -DOPENSSL_IA32_SSE2
AESNI86_FLAGS_win32n := -DOPENSSL_IA32_SSE2

$(M32)/small/aesni86_diff: $(M32)/obj/test/aesni86/aesni86_diff.o $(M32_TEST_LIB_OBJS) $(M32)/small/libcrypto-asm.a
	$(CC32) -o $@ $< $(M32_TEST_LIB_OBJS) $(M32)/small/libcrypto-asm.a $(TEST_LDLIBS)

# The other x86 modules as the library has them (registry.c names them).
AESNI86_OTHER_OBJS := $(patsubst %,$(M32)/gen/%-$(M32_LIB_VARIANT).o,$(filter-out aesni-x86,$(M32_MODULES)))
define AESNI86_RETARGET_RULE
$(M32)/gen/aesni-x86-$(1).$(2): $(AESNI86_PL) $(PERLASM_X86) $(X86_RETARGET)
	@mkdir -p $$(@D)
	$(PERL) $(AESNI86_PL) $(1) $(AESNI86_FLAGS_$(1)) $$@.in
	$(PERL) $(X86_RETARGET) $(1) $$@.in > $$@.tmp && mv $$@.tmp $$@ && rm -f $$@.in
$(M32)/aesni86-$(1)/libcrypto-asm.a: $(M32_C_OBJS) $(AESNI86_OTHER_OBJS) $(M32)/gen/aesni-x86-$(1).o
	@mkdir -p $$(@D)
	rm -f $$@
	$(AR) rcs $$@ $$^
$(M32)/aesni86-$(1)/aesni86_diff: $(M32)/obj/test/aesni86/aesni86_diff.o $(M32_TEST_LIB_OBJS) $(M32)/aesni86-$(1)/libcrypto-asm.a
	$(CC32) -no-pie -o $$@ $$< $(M32_TEST_LIB_OBJS) $(M32)/aesni86-$(1)/libcrypto-asm.a $(TEST_LDLIBS)
$(M32)/aesni86-$(1)/%: $(M32)/obj/test/%.o $(M32_TEST_LIB_OBJS) $(M32)/aesni86-$(1)/libcrypto-asm.a
	$(CC32) -no-pie -o $$@ $$< $(M32_TEST_LIB_OBJS) $(M32)/aesni86-$(1)/libcrypto-asm.a $(TEST_LDLIBS)
endef
$(eval $(call AESNI86_RETARGET_RULE,macosx,s))
$(eval $(call AESNI86_RETARGET_RULE,coff,s))
$(eval $(call AESNI86_RETARGET_RULE,win32n,asm))
$(M32)/gen/aesni-x86-win32n.o: $(M32)/gen/aesni-x86-win32n.asm
	nasm -f elf32 -Wall -Werror -o $@ $<
.PRECIOUS: $(M32)/gen/aesni-x86-%.asm

$(BUILD)/test/aesni86/aesni86_diff64: $(BUILD)/obj/test/aesni86/aesni86_diff.o $(TEST_LIB_OBJS) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< $(TEST_LIB_OBJS) $(LIB) $(TEST_LDLIBS)
$(BUILD)/obj/test/aesni86/aesni86_diff.o: CPPFLAGS_ALL += -Itest

$(A32)/aesni86_abi.o: test/abi32/aesni86_abi.c support/abi/abi_cdecl.h support/abi/abi32_typed.h support/lib/code_handle.h $(GEN_HDRS)
	@mkdir -p $(@D)
	$(A32_CC) $(CPPFLAGS_ALL) -c -o $@ $<
$(BUILD)/test/abi32/aesni86_abi: $(A32)/aesni86_abi.o $(M32)/small/libcrypto-asm.a $(A32_CHECKER)
	@mkdir -p $(@D)
	$(A32_LINK) -o $@ $(A32)/aesni86_abi.o $(A32_CHECKER) $(M32)/small/libcrypto-asm.a
$(BUILD)/test/abi32/aesni86_abi_macosx: $(A32)/aesni86_abi.o $(M32)/aesni86-macosx/libcrypto-asm.a $(A32_CHECKER)
	@mkdir -p $(@D)
	$(A32_LINK) -o $@ $(A32)/aesni86_abi.o $(A32_CHECKER) $(M32)/aesni86-macosx/libcrypto-asm.a

AESNI86_ALL := $(addprefix $(M32)/small/,$(AESNI86_PROGS)) \
    $(foreach f,$(AESNI86_FLAVOURS),$(addprefix $(M32)/aesni86-$(f)/,kat_aes kat_modes aesni86_diff)) \
    $(addprefix $(BUILD)/test/abi32/,aesni86_abi aesni86_abi_macosx)
tests: $(BUILD)/test/aesni86/aesni86_diff64
ifeq ($(HAVE_CC32),yes)
tests: $(AESNI86_ALL)
endif
