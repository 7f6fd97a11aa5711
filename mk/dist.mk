# SPDX-License-Identifier: Apache-2.0
# Included by the Makefile: `make dist` writes build/crypto-asm-VERSION.tar.gz,
# a release that builds libcrypto-asm.a without perl: the library's C and
# headers, the generated headers (GEN_HDRS), every module's assembly for every
# platform, the known-answer test programs, and a Makefile
# (tools/dist/Makefile with this tree's source lists filled in).  The
# tarball is reproducible (tools/dist/make-dist.sh).
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
VERSION  ?=

# What the known-answer programs need besides the library.
DIST_KAT_PROGS := kat_aes kat_modes kat_sha1
DIST_KAT_LIB   := $(foreach f,tap vecfile impl_cli,test/lib/$(f).c test/lib/$(f).h)

# Shipped as they are, at the same path.
DIST_COPIED = $(sort $(COMMON_SRCS) $(CORE_table) $(M32_C_SRCS) $(HEADERS) \
    $(wildcard crypto/*.h crypto/*/*.h) $(DIST_KAT_PROGS:%=test/%.c) \
    $(DIST_KAT_LIB) $(wildcard README.md LICENSE))

# Generated, or shipped under another name: PATH-IN-TARBALL=FILE.  The
# assembly comes from the rules that already make it where there is one
# (the 64-bit build, the Win64 test builds, the m32 build's small PIC
# variant); the rest is generated under $(DIST_GEN).
DIST_RENAMED = \
    Makefile=$(DIST)/Makefile \
    INSTALL=tools/dist/INSTALL \
    test/run-kat.sh=tools/dist/run-kat.sh \
    $(foreach h,$(filter %.h,$(GEN_HDRS)),gen/$(notdir $(h))=$(h)) \
    $(foreach m,$(ASM_MODULES), \
        asm/linux-x86_64/$(m).s=$(BUILD)/gen/asm/$(m).s \
        asm/macos-x86_64/$(m).s=$(DIST_GEN)/macos-x86_64/$(m).s \
        asm/mingw64/$(m).s=$(W64LIB)/asm/$(m).mingw64.s \
        asm/win64-nasm/$(m).asm=$(W64LIB)/asm/$(m).nasm.asm) \
    $(foreach m,$(M32_MODULES), \
        asm/linux-x86/$(m).s=$(M32)/gen/$(m)-$(M32_LIB_VARIANT).s \
        asm/macos-i386/$(m).s=$(DIST_GEN)/macos-i386/$(m).s \
        asm/win32-nasm/$(m).asm=$(DIST_GEN)/win32-nasm/$(m).asm)

DIST_PAIRS = $(foreach f,$(DIST_COPIED),$(f)=$(f)) $(DIST_RENAMED)
dist_path  = $(firstword $(subst =, ,$(1)))
dist_file  = $(lastword $(subst =, ,$(1)))

$(DIST_GEN)/macos-x86_64/%.s: $$(MODULE_$$*) $(PERLASM_X64)
	@mkdir -p $(@D)
	$(PERL) $(firstword $(MODULE_$*)) macosx $@
# The x86 modules as the library has them (mk/m32.mk, its flags): Mach-O
# code is always position independent, Win32's never is.
$(DIST_GEN)/macos-i386/%.s: $$(MODULE_$$*) $(PERLASM_X86)
	@mkdir -p $(@D)
	$(PERL) $(firstword $(MODULE_$*)) macosx $(M32_LIB_FLAGS) $@
$(DIST_GEN)/win32-nasm/%.asm: $$(MODULE_$$*) $(PERLASM_X86)
	@mkdir -p $(@D)
	$(PERL) $(firstword $(MODULE_$*)) win32n $(filter-out -fPIC,$(M32_LIB_FLAGS)) $@

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

.PHONY: dist print-dist-files
dist: $$(foreach p,$$(DIST_PAIRS),$$(call dist_file,$$(p)))
	@TAR='$(TAR)' sh tools/dist/make-dist.sh $(BUILD) '$(VERSION)' $(DIST_PAIRS)

print-dist-files:
	@printf '%s\n' $(sort $(foreach p,$(DIST_PAIRS),$(call dist_path,$(p))))
