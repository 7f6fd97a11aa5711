# SPDX-License-Identifier: Apache-2.0
# Included by the Makefile: libFuzzer targets (test/fuzz/fuzz_*.c), built
# with clang under ASan and UBSan into build/fuzz/, run briefly by
# test/t/70-fuzz.t.  Only built when $(FUZZ_CC) links -fsanitize=fuzzer
# (HAVE_FUZZ; Debian: clang and libclang-rt-14-dev); otherwise that test
# skips.

FUZZ        := $(BUILD)/fuzz
# UB aborts like any other crash, so libFuzzer stops and keeps the input.
FUZZ_SAN    := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS ?= -O1 -g -fno-omit-frame-pointer
FUZZ_CC_ALL  = $(FUZZ_CC) $(CPPFLAGS_ALL) $(ASM_DEFS) $(WARN) $(FUZZ_CFLAGS) $(FUZZ_SAN) -MMD -MP

# The library's C again, with coverage feedback for the fuzzer but no main
# (fuzzer-no-link); -fsanitize=fuzzer goes on the targets and the link.
# The assembly modules' objects are the library's own: the registry entries
# they add are what the targets compare with the C reference.
FUZZ_LIB_OBJS := $(patsubst %.c,$(FUZZ)/obj/%.o,$(COMMON_SRCS) $(CORE_$(AES_CORE))) $(ASM_OBJS)
# The guarded buffers the targets hand to assembly (test/lib/guard.h).
FUZZ_GUARD_OBJ := $(FUZZ)/obj/test/lib/guard.o

$(FUZZ)/obj/%.o: %.c $(GEN_HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC_ALL) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ)/obj/test/fuzz/%.o: test/fuzz/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC_ALL) -fsanitize=fuzzer -c $< -o $@

# fuzz_aes_cores links aes_core.c twice, over each C core.  Both cores
# define the same aes_core_* names and each copy of aes_core.c the same
# aes_c_* names, so each pair is compiled with -D macros renaming them to
# table_... or ct_...: the headers' declarations are renamed with them,
# crypto/ is untouched, and the renaming exists in this build only.
FUZZ_RENAMED := aes_core_sub_word aes_core_inv_mix_column aes_core_encrypt_block \
                aes_core_decrypt_block aes_c_set_encrypt_key aes_c_set_decrypt_key \
                aes_c_encrypt aes_c_decrypt
fuzz_rename = $(foreach s,$(FUZZ_RENAMED),-D$(s)=$(1)_$(s))

$(FUZZ)/core_table/%.o: crypto/aes/%.c $(GEN_HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC_ALL) -fsanitize=fuzzer-no-link $(call fuzz_rename,table) -c $< -o $@
$(FUZZ)/core_ct/%.o: crypto/aes/%.c $(GEN_HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC_ALL) -fsanitize=fuzzer-no-link $(call fuzz_rename,ct) -c $< -o $@

$(FUZZ)/fuzz_aes_cores: $(FUZZ)/obj/test/fuzz/fuzz_aes_cores.o \
    $(addprefix $(FUZZ)/core_table/,aes_core.o aes_table.o) \
    $(addprefix $(FUZZ)/core_ct/,aes_core.o aes_ct.o) $(FUZZ_GUARD_OBJ)
	$(FUZZ_CC) -fsanitize=fuzzer $(FUZZ_SAN) -o $@ $^

$(FUZZ)/fuzz_%: $(FUZZ)/obj/test/fuzz/fuzz_%.o $(FUZZ_LIB_OBJS) $(FUZZ_GUARD_OBJ)
	$(FUZZ_CC) -fsanitize=fuzzer $(FUZZ_SAN) -o $@ $^

FUZZ_BINS := $(patsubst test/fuzz/%.c,$(FUZZ)/%,$(wildcard test/fuzz/fuzz_*.c))
.PHONY: fuzz
fuzz: $(FUZZ_BINS)

ifeq ($(HAVE_FUZZ),yes)
tests: $(FUZZ_BINS)
endif

-include $(shell find $(FUZZ) -name '*.d' 2>/dev/null)
