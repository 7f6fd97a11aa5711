# SPDX-License-Identifier: Apache-2.0
# Included by the Makefile after test/fuzz/fuzz.mk and mk/m32.mk: the same
# libFuzzer targets built -m32 (clang -m32, ASan and UBSan) over the 32-bit
# library, into build/fuzz32/, run under qemu-i386 by test/t/71-fuzz32.t.
# The C of build/m32/libcrypto-asm.a is compiled again with coverage
# feedback; its x86 modules' objects are the 32-bit library's own.  Built
# when $(FUZZ32_CC) links a -fsanitize=fuzzer program (HAVE_FUZZ32; Debian:
# libclang-rt-14-dev for the i386 runtimes, lib32stdc++-12-dev for the
# 32-bit C++ library they need).
#
#   build/fuzz32/fuzz_*               the targets of test/fuzz/fuzz_*.c
#   build/fuzz32/fuzz_modes_planted   fuzz_modes with a planted fault: the
#       32-bit "aesni" ECB reaches aesni_ecb_encrypt_xmm through a wrapper
#       (ld --wrap, test/fuzz/planted32.c) that flips one output bit of
#       calls of two blocks or more; 71-fuzz32.t's negative control.
#   build/fuzz32/x87_signal   whether a signal leaves the x87 stack alone
#       (test/fuzz/x87_signal.c, plain CC32): qemu-i386 7.2's does not, so
#       libFuzzer's SIGALRM timer is off for the runs under it (FuzzRun.pm).
#   build/fuzz32/asan_highmem whether ASan's 32-bit memory and qemu-i386's
#       guest addresses agree (test/fuzz/asan_highmem.c): they do only with
#       qemu-i386 -R 0xc0000000, which the runs under it take.

FUZZ32        := $(BUILD)/fuzz32
FUZZ32_CC_ALL  = $(FUZZ32_CC) $(M32_CPPFLAGS) $(M32_DEFS) $(WARN) $(FUZZ_CFLAGS) $(FUZZ_SAN) -MMD -MP
FUZZ32_LINK    = $(FUZZ32_CC) -fsanitize=fuzzer $(FUZZ_SAN)

FUZZ32_LIB_OBJS := $(patsubst %.c,$(FUZZ32)/obj/%.o,$(M32_C_SRCS)) \
                   $(patsubst %,$(M32)/gen/%-$(M32_LIB_VARIANT).o,$(M32_MODULES))
# Whatever else fuzz.mk links into every target from test/ (its objects
# under $(FUZZ)/obj), compiled -m32 by the rule below.
FUZZ32_TEST_OBJS = $(patsubst $(FUZZ)/%,$(FUZZ32)/%,$(FUZZ_GUARD_OBJ))

$(FUZZ32)/obj/%.o: %.c $(GEN_HDRS)
	@mkdir -p $(@D)
	$(FUZZ32_CC_ALL) -fsanitize=fuzzer-no-link -c $< -o $@
$(FUZZ32)/obj/test/fuzz/%.o: test/fuzz/%.c
	@mkdir -p $(@D)
	$(FUZZ32_CC_ALL) -fsanitize=fuzzer -c $< -o $@

# The two C cores under renamed symbols (fuzz.mk's fuzz_rename).
define FUZZ32_CORE_RULE
$(FUZZ32)/core_$(1)/%.o: crypto/aes/%.c $(GEN_HDRS)
	@mkdir -p $$(@D)
	$$(FUZZ32_CC_ALL) -fsanitize=fuzzer-no-link $$(call fuzz_rename,$(1)) -c $$< -o $$@
endef
$(foreach c,table ct,$(eval $(call FUZZ32_CORE_RULE,$(c))))

$(FUZZ32)/fuzz_aes_cores: $(FUZZ32)/obj/test/fuzz/fuzz_aes_cores.o \
    $(addprefix $(FUZZ32)/core_table/,aes_core.o aes_table.o) \
    $(addprefix $(FUZZ32)/core_ct/,aes_core.o aes_ct.o) $(FUZZ32_TEST_OBJS)
	$(FUZZ32_LINK) -o $@ $^

$(FUZZ32)/fuzz_modes_planted: $(FUZZ32)/obj/test/fuzz/fuzz_modes.o $(FUZZ32)/obj/test/fuzz/planted32.o $(FUZZ32_LIB_OBJS) $(FUZZ32_TEST_OBJS)
	$(FUZZ32_LINK) -Wl,--wrap=aesni_ecb_encrypt_xmm -o $@ $^

$(FUZZ32)/fuzz_%: $(FUZZ32)/obj/test/fuzz/fuzz_%.o $(FUZZ32_LIB_OBJS) $(FUZZ32_TEST_OBJS)
	$(FUZZ32_LINK) -o $@ $^

$(FUZZ32)/x87_signal: test/fuzz/x87_signal.c
	@mkdir -p $(@D)
	$(CC32) -D_GNU_SOURCE $(WARN) -O2 -o $@ $<

$(FUZZ32)/asan_highmem: test/fuzz/asan_highmem.c
	@mkdir -p $(@D)
	$(FUZZ32_CC) $(WARN) -O1 -fsanitize=address -o $@ $<

FUZZ32_BINS := $(patsubst $(FUZZ)/%,$(FUZZ32)/%,$(FUZZ_BINS)) $(FUZZ32)/fuzz_modes_planted \
               $(FUZZ32)/x87_signal $(FUZZ32)/asan_highmem
.PHONY: fuzz32
fuzz32: $(FUZZ32_BINS)

ifeq ($(HAVE_FUZZ32)$(HAVE_CC32),yesyes)
tests: $(FUZZ32_BINS)
endif

-include $(shell find $(FUZZ32) -name '*.d' 2>/dev/null)
