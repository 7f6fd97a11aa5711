# SPDX-License-Identifier: Apache-2.0
# perlasm-x86: the generators and the libcrypto-compatible archive.
# GNU make.  Overridable: CC, CFLAGS, PERL, PREFIX, DESTDIR, AES_CORE,
# VECTORS, DIFF_CASES, DIFF_SEED.

CC      ?= cc
PERL    ?= perl
AR      ?= ar
CFLAGS  ?= -O2 -g
WARN    := -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Werror=implicit-function-declaration

PREFIX  ?= /usr/local
DESTDIR ?=
LIBDIR  ?= $(PREFIX)/lib
INCDIR  ?= $(PREFIX)/include

# Which C AES core goes into the archive: "table" (T-tables, fast, the
# default, as OpenSSL's aes_core.c) or "ct" (constant time, slow).
AES_CORE ?= table
VECTORS  ?= test/vectors

BUILD   := build
# The release's version, kept in one place (the .pc file, make dist).
VERSION := $(strip $(file <VERSION))
ifeq ($(VERSION),)
$(error VERSION: the file is missing or empty)
endif
CPPFLAGS_ALL := -Iinclude -Icrypto -I$(BUILD)/gen -D_GNU_SOURCE
LIBNAME := libcrypto-asm.a
LIB     := $(BUILD)/$(LIBNAME)
CT_LIB  := $(BUILD)/ct/$(LIBNAME)

# `make` alone builds all, whatever the included files define first.
.DEFAULT_GOAL := all
include mk/toolchain.mk

ifeq ($(filter $(AES_CORE),table ct),)
$(error AES_CORE must be "table" or "ct", not "$(AES_CORE)")
endif

# --- the library -----------------------------------------------------------
# The assembly modules come from modules.txt, through make variables that
# tools/module-table.pl writes to MODULES_MK (rewritten only when they
# change): TABLE_MODULES_x86_64, TABLE_MODULES_x86 and, per module NAME,
# MODULE_NAME (its script, then the helper files it reads), MODULE_GLUE_,
# MODULE_FALLBACK_, MODULE_DEFINE_, MODULE_FLAVOURS_, MODULE_SYMBOLS_,
# MODULE_REPLACES_.  A bad table stops make with the line at fault.
MODULES_MK := $(BUILD)/gen/modules.mk
ifneq ($(shell mkdir -p $(BUILD)/gen && $(PERL) tools/module-table.pl --make $(MODULES_MK) && echo ok),ok)
$(error modules.txt: see the message above)
endif
include $(MODULES_MK)

# modules_glue, modules_defs MODULES: their C glue, their -D flags.
modules_glue = $(foreach m,$(1),$(MODULE_GLUE_$(m)))
modules_defs = $(foreach m,$(1),$(addprefix -D,$(MODULE_DEFINE_$(m))))
# modules_fallbacks MODULES: the C that stands in for every module of the
# table except what MODULES provide, in table order, each file once.
ALL_FALLBACKS := $(foreach m,$(TABLE_MODULES),$(MODULE_FALLBACK_$(m)))
uniq = $(if $(1),$(firstword $(1)) $(call uniq,$(filter-out $(firstword $(1)),$(1))))
modules_fallbacks = $(call uniq,$(filter-out $(foreach m,$(1),$(MODULE_FALLBACK_$(m))),$(ALL_FALLBACKS)))

# The x86_64 modules (ELF) go into the archive; NO_ASM=1 builds the
# portable C only.
PERLASM_X64 := perlasm/x86_64-xlate.pl $(wildcard perlasm/lib/X64/*.pm perlasm/lib/X64/Emit/*.pm perlasm/lib/Common/*.pm)
PERLASM_X86 := perlasm/x86asm.pl $(wildcard perlasm/lib/X86/*.pm perlasm/lib/X86/Emit/*.pm perlasm/lib/Common/*.pm)
ASM_MODULES := $(if $(NO_ASM),,$(TABLE_MODULES_x86_64))
ASM_DEFS    := $(call modules_defs,$(ASM_MODULES))
# NOASM_SRCS: C that stands in for the modules left out; ASM_C_SRCS: C
# glue the modules need.
NOASM_SRCS  := $(call modules_fallbacks,$(ASM_MODULES))
ASM_C_SRCS  := $(call modules_glue,$(ASM_MODULES))
ASM_OBJS := $(patsubst %,$(BUILD)/obj/asm/%.o,$(ASM_MODULES))

COMMON_SRCS := \
	crypto/aes/aes_core.c \
	crypto/aes/aes_cbc.c \
	crypto/modes/cbc128.c \
	crypto/modes/ctr128.c \
	crypto/modes/xts128.c \
	crypto/modes/lrw128.c \
	crypto/sha/sha1_block_c.c \
	crypto/sha/sha1_dgst.c \
	$(NOASM_SRCS) $(ASM_C_SRCS) \
	crypto/cpuid/ia32cap_mask.c \
	crypto/cpuid/ia32cap_detect.c \
	crypto/cpuid/cpu_has.c \
	crypto/dispatch/registry.c \
	crypto/dispatch/aes_api.c \
	crypto/dispatch/sha1_api.c

CORE_table := crypto/aes/aes_table.c
CORE_ct    := crypto/aes/aes_ct.c

objs_of = $(patsubst %.c,$(BUILD)/$(1)/%.o,$(2))

LIB_OBJS    := $(call objs_of,obj,$(COMMON_SRCS) $(CORE_$(AES_CORE))) $(ASM_OBJS)
CT_LIB_OBJS := $(call objs_of,obj,$(COMMON_SRCS)) $(call objs_of,obj,$(CORE_ct)) $(ASM_OBJS)

# The build configuration, kept in a file rewritten only when it changes:
# every object and archive depends on it, so `make AES_CORE=ct`, NO_ASM=1
# or new CFLAGS after a build rebuilds what they change.
BUILD_CONFIG := $(BUILD)/gen/config
BUILD_CONFIG_TEXT := CC=$(CC) CFLAGS=$(CFLAGS) AES_CORE=$(AES_CORE) ASM_MODULES=$(ASM_MODULES) ASM_DEFS=$(ASM_DEFS)
$(shell mkdir -p $(BUILD)/gen && echo '$(BUILD_CONFIG_TEXT)' | cmp -s - $(BUILD_CONFIG) 2>/dev/null || echo '$(BUILD_CONFIG_TEXT)' > $(BUILD_CONFIG))
GEN_HDRS := $(BUILD)/gen/aes_tables.h $(BUILD)/gen/ia32cap_bits.h $(BUILD)/gen/aes_paths.h \
            $(BUILD)/gen/variants.h $(BUILD)/gen/registry_rows.h $(BUILD_CONFIG)

.PHONY: all test bench install uninstall clean test-deps help gen-headers
.DELETE_ON_ERROR:
# Keep intermediate objects, so a second make has nothing to redo.
.SECONDARY:

all: $(LIB) tests bench-bin
# What every C compile includes from the build (for tools that compile alone).
gen-headers: $(GEN_HDRS)

# Each generated header's script, then the files it reads (make dist ships
# them, for the tarball's make regen).
GEN_aes_tables.h   := crypto/aes/gen_aes_tables.pl crypto/aes/AesMath.pm
GEN_ia32cap_bits.h := crypto/cpuid/gen_ia32cap_bits.pl perlasm/lib/Common/IA32Cap.pm perlasm/lib/Common/Output.pm
GEN_aes_paths.h    := crypto/aes/gen_aes_paths.pl crypto/aes/AesPaths.pm perlasm/lib/Common/Output.pm
# The modules' dispatch declarations (each script's .dispatch file).
DISPATCH_DECLS     := $(wildcard $(patsubst %.pl,%.dispatch,$(foreach m,$(TABLE_MODULES),$(firstword $(MODULE_$(m))))))
GEN_DISPATCH       := crypto/dispatch/Declarations.pm perlasm/lib/Common/Dispatch.pm \
                      perlasm/lib/Common/IA32Cap.pm perlasm/lib/Common/Output.pm tools/lib/ModuleTable.pm \
                      modules.txt $(DISPATCH_DECLS)
GEN_variants.h      := crypto/dispatch/gen_variants_h.pl $(GEN_DISPATCH) include/openssl/aes.h include/openssl/sha.h
GEN_registry_rows.h := crypto/dispatch/gen_registry_rows.pl $(GEN_DISPATCH)

# Each header from its script: `perl SCRIPT OUTPUT`.
define GEN_HEADER_RULE
$(BUILD)/gen/$(1): $(GEN_$(1))
	@mkdir -p $$(@D)
	$(PERL) $$< $$@
endef
$(foreach h,aes_tables.h ia32cap_bits.h aes_paths.h variants.h registry_rows.h,$(eval $(call GEN_HEADER_RULE,$(h))))

$(BUILD)/obj/%.o: %.c $(GEN_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(ASM_DEFS) $(WARN) $(CFLAGS) -MMD -MP -c $< -o $@

# Each module: `perl SCRIPT elf OUTPUT` (MODULE_NAME: the script first,
# then the helper files it reads), then GNU as.
.SECONDEXPANSION:
$(BUILD)/gen/asm/%.s: $$(MODULE_$$*) $(PERLASM_X64)
	@mkdir -p $(@D)
	$(PERL) $(firstword $(MODULE_$*)) elf $@
$(BUILD)/obj/asm/%.o: $(BUILD)/gen/asm/%.s $(BUILD_CONFIG)
	@mkdir -p $(@D)
	$(CC) -c -Wa,--fatal-warnings -o $@ $<
.PRECIOUS: $(BUILD)/gen/asm/%.s

$(LIB): $(LIB_OBJS) $(BUILD_CONFIG)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $(LIB_OBJS)

# The constant-time core is always built too, so `make test` checks both.
$(CT_LIB): $(CT_LIB_OBJS) $(BUILD_CONFIG)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $(CT_LIB_OBJS)

# The 32-bit library, from the table's x86 modules.
include mk/m32.mk
# Every module in every flavour (perl only).
include mk/flavours.mk

# --- tests -----------------------------------------------------------------
# support/lib: what the tests and the benchmark share (OpenSSL, reference modes).
SUPPORT_LIB_OBJS := $(call objs_of,obj,$(wildcard support/lib/*.c))
TEST_LIB_SRCS := $(wildcard test/lib/*.c support/lib/*.c)
TEST_LIB_OBJS := $(call objs_of,obj,$(TEST_LIB_SRCS))
TEST_PROGS    := $(patsubst test/%.c,$(BUILD)/test/%,$(wildcard test/*.c))
# Programs that also run against the constant-time core.
CT_TESTS      := kat_aes kat_modes diff_openssl
CT_TEST_PROGS := $(patsubst %,$(BUILD)/test/ct/%,$(CT_TESTS))
TEST_LDLIBS   := -ldl -lpthread

$(BUILD)/test/%: $(BUILD)/obj/test/%.o $(TEST_LIB_OBJS) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< $(TEST_LIB_OBJS) $(LIB) $(TEST_LDLIBS)

$(BUILD)/test/ct/%: $(BUILD)/obj/test/%.o $(TEST_LIB_OBJS) $(CT_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< $(TEST_LIB_OBJS) $(CT_LIB) $(TEST_LDLIBS)

.PHONY: tests
tests: $(TEST_PROGS) $(CT_TEST_PROGS)
ifeq ($(HAVE_LIBCRYPTO_A),yes)
tests: $(BUILD)/test/ossl_capdump
endif

# OpenSSL's own OPENSSL_ia32cap_P for test/t/30-ia32cap.t: linked with the
# system's static libcrypto.a (libssl-dev), never with our archive.  Without
# libcrypto.a (HAVE_LIBCRYPTO_A) it is not built and those checks SKIP.
$(BUILD)/test/ossl_capdump: test/ossl_capdump/ossl_capdump.c
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) -o $@ $< $(LIBCRYPTO_A) $(TEST_LDLIBS)

include test/abi/abi.mk
include test/xlate/xlate.mk
include test/win64/win64.mk
include test/fuzz/fuzz.mk
include test/fuzz/fuzz32.mk
include test/aesni/aesni.mk
include test/x86asm/x86asm.mk
include test/aes586/aes586.mk
include test/sha1_586/sha1_586.mk
include test/step/step.mk
include test/abi32/abi32.mk
include test/aesni86/aesni86.mk
include test/ctgrind/ctgrind.mk
include test/guard/guard.mk
include bench/x86mca/x86mca.mk
include bench/x86mca/sha1_586.mk

test-deps:
	@sh tools/install-test-deps.sh

# The vectors are checked first, so a damaged set stops the run at once;
# then the tools: some test programs are only built when their libraries
# exist.  The last lines say which SIMD paths this host ran natively.
.PHONY: check-vectors
check-vectors:
	@$(PERL) tools/check-vectors.pl $(VECTORS)

test: check-vectors
	@$(MAKE) --no-print-directory test-deps
	$(MAKE) all
	BUILD=$(BUILD) VECTORS=$(VECTORS) prove -v test/t/; status=$$?; \
	  $(PERL) tools/native-paths.pl $(BUILD); exit $$status

# --- the long fuzzing run --------------------------------------------------
# Every libFuzzer target (64-bit, and -m32 under qemu-i386 when built) for
# an equal share of FUZZ_LONG_SECONDS, FUZZ_LONG_JOBS at a time, from
# persistent corpora under build/fuzz-long/; see tools/fuzz-long.pl.
FUZZ_LONG_SECONDS ?= 3600
FUZZ_LONG_JOBS    ?= 2
.PHONY: fuzz-long
fuzz-long: $(if $(HAVE_FUZZ),$(FUZZ_BINS)) $(if $(and $(HAVE_FUZZ32),$(HAVE_CC32)),$(FUZZ32_BINS))
	$(PERL) tools/fuzz-long.pl --build '$(BUILD)' --seconds '$(FUZZ_LONG_SECONDS)' \
	  --jobs '$(FUZZ_LONG_JOBS)' $(if $(FUZZ_LONG_TARGETS),--targets '$(FUZZ_LONG_TARGETS)')

# --- benchmark -------------------------------------------------------------
include bench/bench.mk

# --- the newcomer's path on a fresh Debian ----------------------------------
.PHONY: fresh-check
fresh-check:
	sh tools/fresh-check.sh $(if $(FRESH_KEEP),-k)

# --- OpenSSL source, fetched once (apt-get source) into a cache ------------
# Only this target fetches; prints the unpacked tree's path.  The tests and
# benchmarks that need a tree look it up (tools/openssl-source.sh --cached).
# OPENSSL_VERSION: 3.0 (default) or 3.5.
OPENSSL_VERSION ?= 3.0
.PHONY: openssl-source
openssl-source:
	@sh tools/openssl-source.sh $(OPENSSL_VERSION)

# --- drop-in run against an OpenSSL 3.0 or 3.5 tree ------------------------
# make openssl-dropin OPENSSL_SRC=dir [OPENSSL_ARCH=x86] [OPENSSL_BUILD=dir]
#   [DROPIN_MODULES="aes-x86_64 sha1-x86_64"] [TESTS="test_evp ..."]
#   [DROPIN_MASKS="default ~0x200020200000000:~0"] [DROPIN_JOBS=2]
#   [DROPIN_REBUILD=1]; see tools/openssl-dropin.pl.
# make openssl-dropin DROPIN_TRANSLATOR=1 [OPENSSL_ARCH=x86] [OPENSSL_SRC=dir]
#   [TESTS=...]: our translator (x86: our x86asm.pl) behind OpenSSL's own
#   modules instead (without OPENSSL_SRC on a fresh copy of the cached
#   source of OPENSSL_VERSION).
OPENSSL_ARCH ?= x86_64
DROPIN_JOBS  ?= 2
.PHONY: openssl-dropin
DROPIN_ARGS = $(if $(OPENSSL_SRC),--src='$(OPENSSL_SRC)') --arch='$(OPENSSL_ARCH)' \
	--jobs='$(DROPIN_JOBS)' $(if $(OPENSSL_BUILD),--build='$(OPENSSL_BUILD)') \
	$(if $(DROPIN_MODULES),--modules='$(DROPIN_MODULES)') \
	$(if $(TESTS),--tests='$(TESTS)') $(if $(DROPIN_MASKS),--masks='$(DROPIN_MASKS)') \
	$(if $(DROPIN_REBUILD),--rebuild-after) $(if $(DROPIN_TRANSLATOR),--translator) \
	$(if $(OPENSSL_SRC),,$(if $(DROPIN_TRANSLATOR),--version='$(OPENSSL_VERSION)'))
openssl-dropin:
	$(PERL) tools/openssl-dropin.pl $(strip $(DROPIN_ARGS))

# --- OpenSSL's own x86_64 modules through our translator -------------------
# make openssl-lib [OPENSSL_VERSION=3.5]: that release's libcrypto.so.3
# (linux-x86_64, shared, no tests) built from the cached source into the
# cache, beside it, for `bench --openssl` and `make bench`; nothing is
# installed, the source is only read, and a library already built is kept
# (tools/openssl-lib.sh).
.PHONY: openssl-lib
openssl-lib:
	@sh tools/openssl-lib.sh $(OPENSSL_VERSION)

# make openssl-xlate [OPENSSL_VERSION=3.5] [XLATE_ARGS="--modules aes-x86_64 --verbose"];
# see tools/openssl-xlate.pl.  The last line counts the pairs equal to
# OpenSSL's code (test/t/65-openssl-modules.t runs the same, as TAP).
.PHONY: openssl-xlate
openssl-xlate:
	$(PERL) tools/openssl-xlate.pl --jobs 2 --work '$(BUILD)/openssl-xlate' --version $(OPENSSL_VERSION) $(XLATE_ARGS)

# make openssl-unwind [OPENSSL_VERSION=3.5] [UNWIND_ARGS="--verbose"]: the same
# modules with Win64 unwind from CFI alone (-DPERLASM_WIN64_UNWIND_FROM_CFI),
# functions counted per module: by codes, with the generated handler, without
# CFI, failing (tools/openssl-unwind.pl; docs/win64-unwind.md).
.PHONY: openssl-unwind
openssl-unwind:
	$(PERL) tools/openssl-unwind.pl --work '$(BUILD)/openssl-unwind-$(OPENSSL_VERSION)' --version $(OPENSSL_VERSION) $(UNWIND_ARGS)

# --- OpenSSL's own 32-bit modules through our x86asm.pl --------------------
# make openssl-x86 [X86_ARGS="--modules aes-586 --verbose"]; see
# tools/openssl-x86.pl.  The last line counts the pairs equal to OpenSSL's
# code (test/t/88-openssl-x86.t runs the same, as TAP).
.PHONY: openssl-x86
openssl-x86:
	$(PERL) tools/openssl-x86.pl --jobs 2 --work '$(BUILD)/openssl-x86' $(X86_ARGS)

# --- install ---------------------------------------------------------------
# Headers go under include/perlasm-x86/ so <openssl/aes.h> here never shadows
# the system OpenSSL's; pkg-config adds the directory for users who want it.
# The pkg-config file (tools/pc-file.sh) is remade whenever PREFIX, LIBDIR,
# INCDIR or VERSION change (its text is compared, like BUILD_CONFIG's).
PUBLIC_HEADERS  := include/cryptoasm.h
OPENSSL_HEADERS := include/openssl/aes.h include/openssl/sha.h include/openssl/modes.h
HEADERS         := $(PUBLIC_HEADERS) $(OPENSSL_HEADERS)
PKG_INCDIR      := $(INCDIR)/perlasm-x86
PC_FILE         := $(BUILD)/libcrypto-asm.pc
PC_CONFIG       := $(BUILD)/gen/pc-config
PC_CONFIG_TEXT  := PREFIX=$(PREFIX) LIBDIR=$(LIBDIR) INCDIR=$(INCDIR) VERSION=$(VERSION)
$(shell mkdir -p $(BUILD)/gen && echo '$(PC_CONFIG_TEXT)' | cmp -s - $(PC_CONFIG) 2>/dev/null || echo '$(PC_CONFIG_TEXT)' > $(PC_CONFIG))

$(PC_FILE): tools/libcrypto-asm.pc.in tools/pc-file.sh $(PC_CONFIG)
	@mkdir -p $(@D)
	sh tools/pc-file.sh $< $@ '$(PREFIX)' '$(LIBDIR)' '$(PKG_INCDIR)' '$(VERSION)'

# What install writes, relative to $(DESTDIR); uninstall removes exactly
# these, then the header directories if install left them empty.
INSTALLED_FILES := $(LIBDIR)/$(LIBNAME) $(LIBDIR)/pkgconfig/libcrypto-asm.pc \
    $(patsubst include/%,$(PKG_INCDIR)/%,$(HEADERS))

install: $(LIB) $(PC_FILE)
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(PKG_INCDIR)/openssl
	install -m 644 $(LIB) $(DESTDIR)$(LIBDIR)/$(LIBNAME)
	install -m 644 $(PC_FILE) $(DESTDIR)$(LIBDIR)/pkgconfig/libcrypto-asm.pc
	install -m 644 $(PUBLIC_HEADERS) $(DESTDIR)$(PKG_INCDIR)/
	install -m 644 $(OPENSSL_HEADERS) $(DESTDIR)$(PKG_INCDIR)/openssl/

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED_FILES))
	rmdir $(DESTDIR)$(PKG_INCDIR)/openssl $(DESTDIR)$(PKG_INCDIR) 2>/dev/null || true

clean:
	rm -rf $(BUILD)

help:
	@echo 'Targets:'
	@echo '  help            this list'
	@echo '  all (default)   build/libcrypto-asm.a, the test programs, the benchmark;'
	@echo '                  32-bit and cross parts when their tools exist (see toolchain)'
	@echo '  test            install missing test tools (as root), build, run the suite (prove)'
	@echo '  check-vectors   check the test vectors against their SHA256SUMS'
	@echo '  test-deps       only install the test tools (tools/test-deps.txt)'
	@echo '  flavours        every module in every flavour, build/gen/flavours/ (part of all)'
	@echo '  toolchain       which optional tools were found, and their Debian packages'
	@echo '  fuzz-long       every libFuzzer target (and the -m32 ones under qemu-i386) for'
	@echo '                  FUZZ_LONG_SECONDS in all (default 3600), corpora in build/fuzz-long/'
	@echo '  bench           cycles/byte and MB/s, ours next to OpenSSL (and 3.5'"'"'s once openssl-lib'
	@echo '                  built it), with ratios and the bound, over 16 stack placements,'
	@echo '                  for what BENCH_ARGS selects (64-bit; writes only under build/)'
	@echo '  bench-code-size the code size of every assembly path'
	@echo '  bench-x86mca    the 32-bit aes-586 figures (beside OpenSSL'"'"'s aes-586 with its source)'
	@echo '  bench-aes586-direct  the same two called in 32-bit mode (part of bench-x86mca; i386 kernels)'
	@echo '  bench-dmcrypt32 the 32-bit dm-crypt table (DMCRYPT_ARGS=...)'
	@echo '  bench-sha1-586  the 32-bit SHA-1 tcrypt table (needs i386 programs and OpenSSL'"'"'s source)'
	@echo '  install         the archive, headers and pkg-config file under DESTDIR/PREFIX'
	@echo '  uninstall       remove exactly what install wrote'
	@echo '  dist            build/perlasm-x86-VERSION.tar.gz: sources, generators, generated assembly'
	@echo '  fresh-check     make and make test in a minimal Debian root (mmdebstrap)'
	@echo '  openssl-source  fetch OpenSSL 3.0'"'"'s source once into ~/.cache/perlasm-x86 (any user;'
	@echo '                  apt-get source with a private list), print its path; the tests and'
	@echo '                  benchmarks that compare with OpenSSL'"'"'s perlasm only look there;'
	@echo '                  OPENSSL_VERSION=3.5 fetches 3.5 (Debian trixie'"'"'s) instead'
	@echo '  openssl-dropin  our modules swapped into an OpenSSL 3.0 or 3.5 tree, its tests run'
	@echo '                  (DROPIN_TRANSLATOR=1 [OPENSSL_VERSION=3.5] [OPENSSL_ARCH=x86]: our'
	@echo '                  translator or 32-bit layer behind its own modules)'
	@echo '  openssl-lib     build OpenSSL'"'"'s libcrypto.so.3 from the cached source into the cache'
	@echo '                  (OPENSSL_VERSION=3.5; make bench then compares with it too)'
	@echo '  openssl-xlate   OpenSSL'"'"'s x86_64 modules (OPENSSL_VERSION, 3.0 or 3.5) through our'
	@echo '                  translator, per flavour, code compared with OpenSSL'"'"'s (XLATE_ARGS=...)'
	@echo '  openssl-unwind  the same modules with Win64 unwind from CFI alone: functions counted'
	@echo '                  by how they are described (OPENSSL_VERSION, UNWIND_ARGS=...)'
	@echo '  openssl-x86     OpenSSL 3.0'"'"'s 32-bit modules through our x86asm.pl, per flavour,'
	@echo '                  code compared with OpenSSL'"'"'s own layer'"'"'s (X86_ARGS=...)'
	@echo '  ct-report       every AES and SHA-1 path under valgrind memcheck, key and data'
	@echo '                  secret: clean, exposed or not covered (CT_REPORT_ARGS=...)'
	@echo '  clean           remove build/'
	@echo 'Variables (make VAR=value):'
	@echo '  CC CFLAGS AR PERL   compiler, flags, archiver, perl ($(CC) $(CFLAGS))'
	@echo '  AES_CORE            table (default) or ct: the C AES core in the archive'
	@echo '  NO_ASM=1            portable C only, no assembly modules'
	@echo '  PREFIX DESTDIR      install location ($(PREFIX)); LIBDIR, INCDIR below it'
	@echo '  VECTORS             test vector directory ($(VECTORS))'
	@echo '  BENCH_ARGS          options for the benchmark (build/bench/bench --help)'
	@echo '  BENCH_PLACEMENTS    make bench'"'"'s stack placements (default --placements 16; empty: one)'
	@echo '  CC32 NASM MINGW64_CC MINGW32_CC CLANG FUZZ_CC FUZZ32_CC QEMU_I386 QEMU_X86_64 WINE64 VALGRIND ...'
	@echo '                      optional tools (mk/toolchain.mk)'

include mk/dist.mk

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
