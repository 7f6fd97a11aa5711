# crypto-asm: perlasm-x86 generators and the libcrypto-compatible archive.
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
VECTORS  ?= ../shared/vectors

BUILD   := build
CPPFLAGS_ALL := -Iinclude -Icrypto -I$(BUILD)/gen -D_GNU_SOURCE
LIBNAME := libcrypto-asm.a
LIB     := $(BUILD)/$(LIBNAME)
CT_LIB  := $(BUILD)/ct/$(LIBNAME)

ifeq ($(filter $(AES_CORE),table ct),)
$(error AES_CORE must be "table" or "ct", not "$(AES_CORE)")
endif

# --- the library -----------------------------------------------------------
# Assembly modules (x86_64, ELF).  NO_ASM=1 builds the portable C only.
PERLASM_X64 := perlasm/x86_64-xlate.pl $(wildcard perlasm/lib/X64/*.pm perlasm/lib/X64/Emit/*.pm)
# NOASM_SRCS: C that stands in for what the modules provide; ASM_C_SRCS:
# C glue the modules need.
ifeq ($(NO_ASM),)
ASM_MODULES := sha1-x86_64 aes-x86_64 aesni-x86_64
ASM_DEFS    := -DCASM_SHA1_ASM -DCASM_AES_ASM -DCASM_AESNI_ASM
NOASM_SRCS  :=
ASM_C_SRCS  := crypto/aes/aes_x86_64_ecb.c
else
ASM_MODULES :=
ASM_DEFS    :=
NOASM_SRCS  := crypto/sha/sha1_block_noasm.c crypto/aes/aes_noasm.c
ASM_C_SRCS  :=
endif
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
	crypto/dispatch/registry.c \
	crypto/dispatch/aes_api.c \
	crypto/dispatch/sha1_api.c

CORE_table := crypto/aes/aes_table.c
CORE_ct    := crypto/aes/aes_ct.c

objs_of = $(patsubst %.c,$(BUILD)/$(1)/%.o,$(2))

LIB_OBJS    := $(call objs_of,obj,$(COMMON_SRCS) $(CORE_$(AES_CORE))) $(ASM_OBJS)
CT_LIB_OBJS := $(call objs_of,obj,$(COMMON_SRCS)) $(call objs_of,obj,$(CORE_ct)) $(ASM_OBJS)

# The assembly configuration, kept in a file so that changing it (NO_ASM,
# a new module) rebuilds every object compiled with ASM_DEFS.
ASM_CONFIG := $(BUILD)/gen/asm-config
$(shell mkdir -p $(BUILD)/gen && echo '$(ASM_MODULES) $(ASM_DEFS)' | cmp -s - $(ASM_CONFIG) 2>/dev/null || echo '$(ASM_MODULES) $(ASM_DEFS)' > $(ASM_CONFIG))
GEN_HDRS := $(BUILD)/gen/aes_tables.h $(ASM_CONFIG)

.PHONY: all test bench install uninstall clean test-deps
.DELETE_ON_ERROR:

all: $(LIB) tests bench-bin

$(BUILD)/gen/aes_tables.h: crypto/aes/gen_aes_tables.pl crypto/aes/AesMath.pm
	@mkdir -p $(@D)
	$(PERL) $< $@

$(BUILD)/obj/%.o: %.c $(GEN_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(ASM_DEFS) $(WARN) $(CFLAGS) -MMD -MP -c $< -o $@

# Each module: its script first, then the helper files it reads (in a
# directory of the same name).  `perl SCRIPT elf OUTPUT`, then GNU as.
MODULE_sha1-x86_64  := crypto/sha/asm/sha1-x86_64.pl $(wildcard crypto/sha/asm/sha1-x86_64/*.pl)
MODULE_aes-x86_64   := crypto/aes/asm/aes-x86_64.pl crypto/aes/AesMath.pm
MODULE_aesni-x86_64 := crypto/aes/asm/aesni-x86_64.pl $(wildcard crypto/aes/asm/aesni-x86_64/*.pl)

.SECONDEXPANSION:
$(BUILD)/gen/asm/%.s: $$(MODULE_$$*) $(PERLASM_X64)
	@mkdir -p $(@D)
	$(PERL) $(firstword $(MODULE_$*)) elf $@
$(BUILD)/obj/asm/%.o: $(BUILD)/gen/asm/%.s
	@mkdir -p $(@D)
	$(CC) -c -Wa,--fatal-warnings -o $@ $<
.PRECIOUS: $(BUILD)/gen/asm/%.s

$(LIB): $(LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

# The constant-time core is always built too, so `make test` checks both.
$(CT_LIB): $(CT_LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

# --- tests -----------------------------------------------------------------
TEST_LIB_SRCS := $(wildcard test/lib/*.c)
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
tests: $(TEST_PROGS) $(CT_TEST_PROGS) $(BUILD)/test/ossl_capdump

# OpenSSL's own OPENSSL_ia32cap_P for test/t/30-ia32cap.t: linked with the
# system's static libcrypto.a (libssl-dev), never with our archive.  Without
# libcrypto.a it is not built and those checks SKIP.
$(BUILD)/test/ossl_capdump: test/ossl_capdump/ossl_capdump.c
	@mkdir -p $(@D)
	@if [ "$$($(CC) -print-file-name=libcrypto.a)" = libcrypto.a ]; then \
	    echo "note: no libcrypto.a (libssl-dev): $@ not built"; \
	else set -x; $(CC) $(WARN) $(CFLAGS) -o $@ $< -l:libcrypto.a $(TEST_LDLIBS); fi

include test/abi/abi.mk
include test/xlate/xlate.mk
include test/win64/win64.mk
include test/fuzz/fuzz.mk
include test/aesni/aesni.mk
include test/x86asm/x86asm.mk
include test/aes586/aes586.mk
include test/abi32/abi32.mk
include bench/x86mca/x86mca.mk

test-deps:
	@sh tools/install-test-deps.sh

# Tools first: some test programs are only built when their libraries exist.
test: test-deps
	$(MAKE) all
	BUILD=$(BUILD) VECTORS=$(VECTORS) prove -v test/t/

# --- benchmark -------------------------------------------------------------
BENCH := $(BUILD)/bench/bench
.PHONY: bench-bin
bench-bin: $(BENCH)

$(BENCH): $(BUILD)/obj/bench/bench.o $(TEST_LIB_OBJS) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< $(TEST_LIB_OBJS) $(LIB) $(TEST_LDLIBS)

bench: $(BENCH) test-deps
	$(BENCH) $(BENCH_ARGS)
	@$(if $(ASM_OBJS),$(PERL) bench/code_size.pl $(ASM_OBJS))
	@$(PERL) bench/code_size_586.pl $(AES586_SIZE_ARGS)
	@$(MAKE) --no-print-directory bench-x86mca

# --- drop-in run against an OpenSSL 3.0 tree -------------------------------
# make openssl-dropin OPENSSL_SRC=dir [OPENSSL_ARCH=x86] [OPENSSL_BUILD=dir]
#   [DROPIN_MODULES="aes-x86_64 sha1-x86_64"] [TESTS="test_evp ..."]
#   [DROPIN_MASKS="default ~0x200020200000000:~0"] [DROPIN_JOBS=2]
#   [DROPIN_REBUILD=1]; see tools/openssl-dropin.pl.
OPENSSL_ARCH ?= x86_64
DROPIN_JOBS  ?= 2
.PHONY: openssl-dropin
DROPIN_ARGS = $(if $(OPENSSL_SRC),--src='$(OPENSSL_SRC)') --arch='$(OPENSSL_ARCH)' \
	--jobs='$(DROPIN_JOBS)' $(if $(OPENSSL_BUILD),--build='$(OPENSSL_BUILD)') \
	$(if $(DROPIN_MODULES),--modules='$(DROPIN_MODULES)') \
	$(if $(TESTS),--tests='$(TESTS)') $(if $(DROPIN_MASKS),--masks='$(DROPIN_MASKS)') \
	$(if $(DROPIN_REBUILD),--rebuild-after)
openssl-dropin:
	$(PERL) tools/openssl-dropin.pl $(strip $(DROPIN_ARGS))

# --- install ---------------------------------------------------------------
HEADERS := include/cryptoasm.h include/openssl/aes.h include/openssl/sha.h include/openssl/modes.h
# Headers go under include/crypto-asm/ so <openssl/aes.h> here never shadows
# the system OpenSSL's; pkg-config adds the directory for users who want it.
PKG_INCDIR := $(INCDIR)/crypto-asm

$(BUILD)/libcrypto-asm.pc: tools/libcrypto-asm.pc.in Makefile
	@mkdir -p $(@D)
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCDIR@|$(PKG_INCDIR)|' $< > $@

install: $(LIB) $(BUILD)/libcrypto-asm.pc
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(PKG_INCDIR)/openssl
	install -m 644 $(LIB) $(DESTDIR)$(LIBDIR)/$(LIBNAME)
	install -m 644 $(BUILD)/libcrypto-asm.pc $(DESTDIR)$(LIBDIR)/pkgconfig/
	install -m 644 include/cryptoasm.h $(DESTDIR)$(PKG_INCDIR)/
	install -m 644 include/openssl/aes.h include/openssl/sha.h include/openssl/modes.h $(DESTDIR)$(PKG_INCDIR)/openssl/

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/$(LIBNAME) $(DESTDIR)$(LIBDIR)/pkgconfig/libcrypto-asm.pc
	rm -rf $(DESTDIR)$(PKG_INCDIR)

clean:
	rm -rf $(BUILD)

include mk/dist.mk

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
