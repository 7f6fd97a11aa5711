# SPDX-License-Identifier: Apache-2.0
# Included by the Makefile: aes-586's test builds, on top of the 32-bit
# library of mk/m32.mk (M32, M32_C_OBJS, its compile rule).
#
#   build/m32/VARIANT/           the library with aes-586 generated for each
#                                variant, and kat_aes, every_length,
#                                aes586_diff linked with it (run under
#                                qemu-i386 by 81-aes586.t)
#   build/test/aes586/aes586_diff64   aes586_diff against the 64-bit archive
#
# Variants: small/unrolled (-DAES586_small_footprint=1/0) x PIC, non-PIC, and
# the 386 build (no MMX/SSE); and the code of the other flavours, which
# cannot run here as Mach-O or Win32 programs, retargeted to ELF with every
# instruction kept (test/x86asm/flavour_to_elf.pl).  "small" is the
# library's own build (mk/m32.mk).  Built only when gcc -m32 works
# (HAVE_CC32).

AES586_PL    := $(MODULE_aes-586)

AES586_VARIANTS := small unrolled small-nopic unrolled-nopic small-386 unrolled-386
AES586_FLAGS_unrolled       := -fPIC -DAES586_small_footprint=0
AES586_FLAGS_small-nopic    :=
AES586_FLAGS_unrolled-nopic := -DAES586_small_footprint=0
AES586_FLAGS_small-386      := -fPIC 386
AES586_FLAGS_unrolled-386   := -fPIC -DAES586_small_footprint=0 386
AES586_RETARGETED := small-macosx unrolled-macosx small-coff $(if $(HAVE_NASM),unrolled-win32n)
AES586_VARIANTS   += $(AES586_RETARGETED)
AES586_FLAGS_small-macosx    := -fPIC
AES586_FLAGS_unrolled-macosx := -fPIC -DAES586_small_footprint=0
AES586_FLAGS_small-coff      :=
AES586_FLAGS_unrolled-win32n := -DAES586_small_footprint=0
# Non-PIC code (Win32's included) is linked into a non-PIE program (no text
# relocations).
aes586_ldflags = $(if $(filter %nopic %coff %win32n,$(1)),-no-pie)

M32_TEST_LIB_OBJS := $(patsubst %.c,$(M32)/obj/%.o,$(TEST_LIB_SRCS))
M32_PROGS  := kat_aes every_length aes586_diff

$(M32)/obj/test/aes586/aes586_diff.o: M32_DEFS += -DAES586

$(M32)/gen/aes-586-%.s: $(AES586_PL) $(PERLASM_X86)
	@mkdir -p $(@D)
	$(PERL) $< elf $(AES586_FLAGS_$*) $@
# The other flavours, retargeted to ELF (GNU as, or nasm for win32n), by
# x86asm.mk's X86_RETARGET.
define AES586_RETARGET_RULE
$(M32)/gen/aes-586-%-$(1).$(2): $(AES586_PL) $(PERLASM_X86) $(X86_RETARGET)
	@mkdir -p $$(@D)
	$(PERL) $$< $(1) $$(AES586_FLAGS_$$*-$(1)) $$@.in
	$(PERL) $(X86_RETARGET) $(1) $$@.in > $$@.tmp && mv $$@.tmp $$@ && rm -f $$@.in
endef
$(eval $(call AES586_RETARGET_RULE,macosx,s))
$(eval $(call AES586_RETARGET_RULE,coff,s))
$(eval $(call AES586_RETARGET_RULE,win32n,asm))
$(M32)/gen/aes-586-%-win32n.o: $(M32)/gen/aes-586-%-win32n.asm
	nasm -f elf32 -Wall -Werror -o $@ $<
.PRECIOUS: $(M32)/gen/aes-586-%.asm

# The other x86 modules as the library has them (registry.c names them).
AES586_OTHER_OBJS := $(patsubst %,$(M32)/gen/%-$(M32_LIB_VARIANT).o,$(filter-out aes-586,$(M32_MODULES)))
# A 386 build has no MMX/SSE variant: its registry leaves their rows out
# (crypto/dispatch/gen_registry_rows.pl).
AES586_REGISTRY     := $(M32)/obj/crypto/dispatch/registry.o
AES586_REGISTRY_386 := $(M32)/obj/crypto/dispatch/registry-386.o
$(AES586_REGISTRY_386): crypto/dispatch/registry.c $(GEN_HDRS)
	@mkdir -p $(@D)
	$(CC32) $(M32_CPPFLAGS) $(M32_DEFS) -D$(MODULE_DEFINE_aes-586)_386 $(WARN) $(M32_CFLAGS) -MMD -MP -c $< -o $@
aes586_c_objs = $(if $(findstring 386,$(1)),$(filter-out $(AES586_REGISTRY),$(M32_C_OBJS)) $(AES586_REGISTRY_386),$(M32_C_OBJS))
$(M32)/%/libcrypto-asm.a: $$(call aes586_c_objs,$$*) $(M32)/gen/aes-586-%.o $(AES586_OTHER_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

define AES586_PROGS
$(M32)/$(1)/%: $(M32)/obj/test/%.o $(M32_TEST_LIB_OBJS) $(M32)/$(1)/libcrypto-asm.a
	$(CC32) $(call aes586_ldflags,$(1)) -o $$@ $$< $(M32_TEST_LIB_OBJS) $(M32)/$(1)/libcrypto-asm.a $(TEST_LDLIBS)
$(M32)/$(1)/aes586_diff: $(M32)/obj/test/aes586/aes586_diff.o $(M32_TEST_LIB_OBJS) $(M32)/$(1)/libcrypto-asm.a
	$(CC32) $(call aes586_ldflags,$(1)) -o $$@ $$< $(M32_TEST_LIB_OBJS) $(M32)/$(1)/libcrypto-asm.a $(TEST_LDLIBS)
endef
$(foreach v,$(AES586_VARIANTS),$(eval $(call AES586_PROGS,$(v))))

$(BUILD)/test/aes586/aes586_diff64: $(BUILD)/obj/test/aes586/aes586_diff.o $(TEST_LIB_OBJS) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< $(TEST_LIB_OBJS) $(LIB) $(TEST_LDLIBS)
$(BUILD)/obj/test/aes586/aes586_diff.o: CPPFLAGS_ALL += -Itest

AES586_ALL := $(M32)/libcrypto-asm.a \
    $(foreach v,$(AES586_VARIANTS),$(addprefix $(M32)/$(v)/,$(M32_PROGS)))

.PHONY: m32
m32: $(AES586_ALL)
tests: $(BUILD)/test/aes586/aes586_diff64
ifeq ($(HAVE_CC32),yes)
tests: m32
endif

# Code size per variant for `make bench-code-size` (objects only: GNU as
# is enough).
AES586_SIZE_VARIANTS := small unrolled small-386 unrolled-386
AES586_SIZE_ARGS := $(foreach v,$(AES586_SIZE_VARIANTS),$(v)=$(M32)/gen/aes-586-$(v).o)
bench-code-size: $(foreach v,$(AES586_SIZE_VARIANTS),$(M32)/gen/aes-586-$(v).o)
