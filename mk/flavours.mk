# SPDX-License-Identifier: Apache-2.0
# Every module of modules.txt in every flavour it supports, written to
# build/gen/flavours/FLAVOUR/MODULE.s (.asm for nasm, masm, win32n and win32).
# Generating needs only perl, so `make` writes them all on any machine;
# assembling them is for the tests and for the platform's own build.
# The 32-bit modules get the flags OpenSSL's build passes to them.
FLAVOURS_DIR := $(BUILD)/gen/flavours
flavour_file = $(FLAVOURS_DIR)/$(2)/$(1).$(if $(filter nasm masm win32n win32,$(2)),asm,s)
FLAVOUR_FLAGS_x86_64 :=
FLAVOUR_FLAGS_x86    := -fPIC -DOPENSSL_IA32_SSE2
layer_of = $(if $(filter x86,$(MODULE_ARCH_$(1))),$(PERLASM_X86),$(PERLASM_X64))

define FLAVOUR_RULE
$(call flavour_file,$(1),$(2)): $(MODULE_$(1)) $(call layer_of,$(1))
	@mkdir -p $$(@D)
	$(PERL) $(firstword $(MODULE_$(1))) $(2) $(FLAVOUR_FLAGS_$(MODULE_ARCH_$(1))) $$@
endef
$(foreach m,$(TABLE_MODULES),$(foreach f,$(MODULE_FLAVOURS_$(m)),$(eval $(call FLAVOUR_RULE,$(m),$(f)))))

ALL_FLAVOURS := $(foreach m,$(TABLE_MODULES),$(foreach f,$(MODULE_FLAVOURS_$(m)),$(call flavour_file,$(m),$(f))))
.PHONY: flavours
flavours: $(ALL_FLAVOURS)
# A NO_ASM=1 build is the portable C alone; `make flavours` still works.
ifeq ($(NO_ASM),)
all: flavours
endif
