# SPDX-License-Identifier: Apache-2.0
# Included by the Makefile: the 32-bit library, build/m32/libcrypto-asm.a.
# It holds the C library compiled with CC32 and every x86 module of
# modules.txt (`perl SCRIPT elf -fPIC`, GNU as --32); the x86_64 modules and
# their glue are left out, and the C that stands in for them (their
# fallback column) goes in instead.  Built with `make` when gcc -m32 works
# (HAVE_CC32).  test/aes586/aes586.mk builds the test variants on top.

M32         := $(BUILD)/m32
M32_MODULES := $(TABLE_MODULES_x86)
M32_CFLAGS  := -O2 -g -fPIC
M32_DEFS    := $(call modules_defs,$(M32_MODULES))
# -Itest: the 32-bit test programs' objects are compiled by the same rule.
M32_CPPFLAGS := $(CPPFLAGS_ALL) -Itest

# The C library with the table core (aes-586's tests compare against it,
# as aes_c_*).
M32_C_SRCS := $(filter-out $(ALL_FALLBACKS) $(call modules_glue,$(TABLE_MODULES_x86_64)),$(COMMON_SRCS)) \
              $(call modules_fallbacks,$(M32_MODULES)) $(call modules_glue,$(M32_MODULES)) $(CORE_table)
M32_C_OBJS := $(patsubst %.c,$(M32)/obj/%.o,$(M32_C_SRCS))

$(M32)/obj/%.o: %.c $(GEN_HDRS)
	@mkdir -p $(@D)
	$(CC32) $(M32_CPPFLAGS) $(M32_DEFS) $(WARN) $(M32_CFLAGS) -MMD -MP -c $< -o $@

# Each x86 module as the library has it: $(M32)/gen/MODULE-small.s.  The
# library's build is the one aes586.mk's tests call "small" (aes-586's
# default, its small footprint), so the two share one object.  The flags
# are OpenSSL's default build's: -DOPENSSL_IA32_SSE2 keeps sha1-586's SIMD
# paths and aesni-x86 (which its no-sse2 build has not).
M32_LIB_VARIANT := small
M32_LIB_FLAGS   := -fPIC -DOPENSSL_IA32_SSE2
define M32_MODULE_RULE
$(M32)/gen/$(1)-$(M32_LIB_VARIANT).s: $(MODULE_$(1)) $(PERLASM_X86)
	@mkdir -p $$(@D)
	$(PERL) $$< elf $(M32_LIB_FLAGS) $$@
endef
$(foreach m,$(M32_MODULES),$(eval $(call M32_MODULE_RULE,$(m))))
$(M32)/gen/%.o: $(M32)/gen/%.s
	as --32 --fatal-warnings -o $@ $<
.PRECIOUS: $(M32)/gen/%.s $(M32)/gen/%.o $(M32)/obj/%.o

M32_LIB_OBJS := $(M32_C_OBJS) $(patsubst %,$(M32)/gen/%-$(M32_LIB_VARIANT).o,$(M32_MODULES))
$(M32)/$(M32_LIB_VARIANT)/libcrypto-asm.a: $(M32_LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^
$(M32)/libcrypto-asm.a: $(M32)/$(M32_LIB_VARIANT)/libcrypto-asm.a
	cp $< $@

ifeq ($(HAVE_CC32),yes)
all: $(M32)/libcrypto-asm.a
endif

-include $(shell find $(M32)/obj -name '*.d' 2>/dev/null)

# The -m32 build of the programs the CPU-model matrix runs
# (test/t/87-dispatch32.t), over the library's own archive: capdump,
# cpu_paths and the programs with an implementation registry.
M32_MATRIX_PROGS := $(addprefix $(M32)/small/,capdump cpu_paths kat_aes kat_modes kat_sha1 vaes_lanes)
ifeq ($(HAVE_CC32),yes)
tests: $(M32_MATRIX_PROGS)
endif
