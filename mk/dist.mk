# SPDX-License-Identifier: Apache-2.0
# Included by the Makefile: `make dist` writes
# build/perlasm-x86-VERSION.tar.gz (VERSION: the file of that name), a
# release that builds libcrypto-asm.a without perl and can regenerate its
# generated files with it: the library's C and headers, the generators
# (perlasm/, every module's script and helpers, the header scripts), the
# generated headers and every module's assembly for every platform, each
# starting with a line naming its generator, flavour and flags
# (tools/dist/generated.sh), the known-answer test programs and the test
# vectors, the pkg-config template, and a Makefile (tools/dist/Makefile
# with this tree's source lists filled in).  The tarball is reproducible
# (tools/dist/make-dist.sh).
#
#   make dist [VERSION=v] [SOURCE_DATE_EPOCH=s] [TAR=gtar]
#   make -s print-dist-files      the tarball's files, one a line

# The tarball is the assembly build's.
ifneq ($(NO_ASM),)
ifneq ($(filter dist print-dist-files,$(MAKECMDGOALS)),)
$(error make dist ships the assembly: run it without NO_ASM)
endif
endif

DIST     := $(BUILD)/dist
DIST_GEN := $(DIST)/gen
TAR      ?= tar

# What the known-answer programs need besides the library.
DIST_KAT_PROGS := kat_aes kat_modes kat_sha1
DIST_KAT_LIB   := $(foreach f,tap vecfile impl_cli,test/lib/$(f).c test/lib/$(f).h)

# What the generated files are made from: the perlasm layers, each
# module's script and helpers, each generated header's script and inputs.
DIST_GEN_HDRS   := $(notdir $(filter %.h,$(GEN_HDRS)))
DIST_GENERATORS := $(PERLASM_X64) $(PERLASM_X86) $(foreach m,$(TABLE_MODULES),$(MODULE_$(m))) \
    $(foreach h,$(DIST_GEN_HDRS),$(GEN_$(h)))
# The vectors are the files their SHA256SUMS lists, with it and its README.
DIST_VECTORS := test/vectors/SHA256SUMS test/vectors/README.md \
    $(addprefix test/vectors/,$(shell sed 's/^[0-9a-f]*  //' test/vectors/SHA256SUMS))

# Shipped as they are, at the same path.
DIST_COPIED = $(sort $(COMMON_SRCS) $(CORE_table) $(M32_C_SRCS) $(HEADERS) \
    $(wildcard crypto/*.h crypto/*/*.h) $(DIST_KAT_PROGS:%=test/%.c) \
    $(DIST_KAT_LIB) $(DIST_GENERATORS) $(DIST_VECTORS) LICENSE \
    tools/libcrypto-asm.pc.in tools/pc-file.sh)

# Shipped under another name: PATH-IN-TARBALL=FILE.
DIST_RENAMED = \
    Makefile=$(DIST)/Makefile \
    README.md=tools/dist/README.md \
    INSTALL=tools/dist/INSTALL \
    test/run-kat.sh=tools/dist/run-kat.sh \
    tools/generated.sh=tools/dist/generated.sh

# The generated files, each made by tools/dist/generated.sh under
# $(DIST_GEN) from its generator, flavour and flags, which its first line
# names (so the tarball's make regen makes the same bytes):
# dist_generated PATH-IN-TARBALL, SCRIPT, FLAVOUR FLAGS.
DIST_GENERATED :=
define dist_generated
DIST_GENERATED += $(1)
$(DIST_GEN)/$(1): $(2) tools/dist/generated.sh
	PERL='$$(PERL)' sh tools/dist/generated.sh make $$@ $(firstword $(2)) $(3)
endef
# The headers; each platform's assembly in its own flavour, the 32-bit
# modules with the flags the library's build gives them (mk/m32.mk: ELF
# and Mach-O position independent, Win32 never).
$(foreach h,$(DIST_GEN_HDRS),$(eval $(call dist_generated,gen/$(h),$(GEN_$(h)))))
$(foreach m,$(ASM_MODULES), \
    $(eval $(call dist_generated,asm/linux-x86_64/$(m).s,$(MODULE_$(m)) $(PERLASM_X64),elf)) \
    $(eval $(call dist_generated,asm/macos-x86_64/$(m).s,$(MODULE_$(m)) $(PERLASM_X64),macosx)) \
    $(eval $(call dist_generated,asm/mingw64/$(m).s,$(MODULE_$(m)) $(PERLASM_X64),mingw64)) \
    $(eval $(call dist_generated,asm/win64-nasm/$(m).asm,$(MODULE_$(m)) $(PERLASM_X64),nasm)))
$(foreach m,$(M32_MODULES), \
    $(eval $(call dist_generated,asm/linux-x86/$(m).s,$(MODULE_$(m)) $(PERLASM_X86),elf $(M32_LIB_FLAGS))) \
    $(eval $(call dist_generated,asm/macos-i386/$(m).s,$(MODULE_$(m)) $(PERLASM_X86),macosx $(M32_LIB_FLAGS))) \
    $(eval $(call dist_generated,asm/win32-nasm/$(m).asm,$(MODULE_$(m)) $(PERLASM_X86),win32n $(filter-out -fPIC,$(M32_LIB_FLAGS)))))

DIST_PAIRS = $(foreach f,$(DIST_COPIED),$(f)=$(f)) $(DIST_RENAMED) \
    $(foreach f,$(DIST_GENERATED),$(f)=$(DIST_GEN)/$(f))
dist_path  = $(firstword $(subst =, ,$(1)))
dist_file  = $(lastword $(subst =, ,$(1)))

# The lists the tarball's Makefile needs; an empty one means a variable
# here lost its name, so that is an error rather than a broken tarball.
DIST_LISTS := COMMON_SRCS CORE_table ASM_DEFS M32_C_SRCS M32_DEFS CPPFLAGS_ALL WARN HEADERS LIBDIR PKG_INCDIR
$(DIST)/Makefile: tools/dist/Makefile $(filter-out %.d,$(MAKEFILE_LIST))
	$(foreach v,$(DIST_LISTS),$(if $($(v)),,$(error make dist: $(v) is empty)))
	@mkdir -p $(@D)
	sed -e 's|@SRCS_x86_64@|$(strip $(COMMON_SRCS) $(CORE_table))|' \
	    -e 's|@DEFS_x86_64@|$(ASM_DEFS)|' \
	    -e 's|@SRCS_x86@|$(strip $(M32_C_SRCS))|' \
	    -e 's|@DEFS_x86@|$(M32_DEFS)|' \
	    -e 's|@CPPFLAGS@|$(subst $(BUILD)/gen,gen,$(CPPFLAGS_ALL))|' \
	    -e 's|@WARN@|$(WARN)|' \
	    -e 's|@HEADERS@|$(HEADERS)|' \
	    -e 's|@KAT_PROGS@|$(DIST_KAT_PROGS)|' \
	    -e 's|@KAT_LIB@|$(filter %.c,$(DIST_KAT_LIB))|' \
	    -e 's|@LIBDIR@|$(patsubst $(PREFIX)/%,$$(PREFIX)/%,$(LIBDIR))|' \
	    -e 's|@INCDIR@|$(patsubst $(PREFIX)/%,$$(PREFIX)/%,$(PKG_INCDIR))|' \
	    $< >$@.tmp
	@if grep -n '@[A-Za-z0-9_]*@' $@.tmp; then echo "make dist: $< has a placeholder with no value" >&2; rm -f $@.tmp; exit 1; fi
	mv $@.tmp $@

# (make-dist.sh writes the tarball's VERSION file.)
.PHONY: dist print-dist-files
dist: $$(foreach p,$$(DIST_PAIRS),$$(call dist_file,$$(p)))
	@TAR='$(TAR)' sh tools/dist/make-dist.sh $(BUILD) '$(VERSION)' $(DIST_PAIRS)

print-dist-files:
	@printf '%s\n' $(sort VERSION $(foreach p,$(DIST_PAIRS),$(call dist_path,$(p))))
