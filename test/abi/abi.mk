# SPDX-License-Identifier: Apache-2.0
# Included by the Makefile: the ABI and unwind checkers (support/abi) for
# SysV/ELF and Win64, and their self-tests (test/abi).

# ABI and unwind checkers, SysV/ELF, with their self-test.  The
# unwind checker needs libunwind-ptrace (libunwind-dev); without its header
# everything is built with -DABI_NO_LIBUNWIND and the self-test skips all,
# naming the package.  The flags are kept in a file so a change rebuilds.
ABI_OBJ      := $(BUILD)/obj/test/abi
ABI_CPPFLAGS := $(if $(HAVE_LIBUNWIND),$(shell pkg-config --cflags libunwind-ptrace 2>/dev/null),-DABI_NO_LIBUNWIND)
ABI_LDLIBS   := $(if $(HAVE_LIBUNWIND),$(or $(shell pkg-config --libs libunwind-ptrace 2>/dev/null),-lunwind-ptrace -lunwind-generic -lunwind))
$(shell mkdir -p $(ABI_OBJ) && echo '$(ABI_CPPFLAGS)' | cmp -s - $(ABI_OBJ)/flags || echo '$(ABI_CPPFLAGS)' > $(ABI_OBJ)/flags)

$(ABI_OBJ)/flags:
	@mkdir -p $(@D) && echo '$(ABI_CPPFLAGS)' > $@
$(ABI_OBJ)/%.o: test/abi/%.c $(ABI_OBJ)/flags
	$(CC) $(CPPFLAGS_ALL) $(ABI_CPPFLAGS) $(WARN) $(CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/obj/support/abi/%.o: support/abi/%.c $(ABI_OBJ)/flags
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(ABI_CPPFLAGS) $(WARN) $(CFLAGS) -MMD -MP -c $< -o $@
$(ABI_OBJ)/%.S.o: test/abi/%.S $(ABI_OBJ)/flags
	$(CC) $(CFLAGS) -Wa,--fatal-warnings -c $< -o $@
# The checker as a program links it: its end and its trampoline.
ABI_SYSV := $(BUILD)/obj/support/abi/abi_sysv.o $(ABI_OBJ)/trampoline_sysv.o
# The trampolines that call the function under test are generated through
# the 64-bit layer, like any module.
$(ABI_OBJ)/trampoline_sysv.s: support/abi/trampoline_sysv.pl $(PERLASM_X64)
	@mkdir -p $(@D)
	$(PERL) $< elf $@
$(ABI_OBJ)/trampoline_sysv.o: $(ABI_OBJ)/trampoline_sysv.s
	$(CC) -c -Wa,--fatal-warnings -o $@ $<
$(BUILD)/test/abi/selftest_sysv: $(addprefix $(ABI_OBJ)/,selftest_sysv.o selftest_sysv.S.o) $(ABI_SYSV) $(BUILD)/obj/test/lib/tap.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(ABI_LDLIBS)
tests: $(BUILD)/test/abi/selftest_sysv

# Every assembly implementation of the library through both checkers.
$(BUILD)/test/abi/module_abi: $(ABI_OBJ)/module_abi.o $(ABI_SYSV) \
    $(BUILD)/obj/test/lib/tap.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(ABI_LDLIBS)
tests: $(BUILD)/test/abi/module_abi

# Win64 ABI/unwind checker and its self-test: mingw-w64 + nasm objects, run
# under wine64 by test/t/51-abi-win64.t.  Only built when both tools exist
# (HAVE_WIN64).
W64      := $(BUILD)/test/win64
W64_CFLAGS := $(WARN) -O2 -g -Itest/abi -Itest/lib -D__USE_MINGW_ANSI_STDIO=1

$(W64)/%.c.o: test/abi/%.c support/abi/abi_check.h support/abi/abi_core.h support/abi/abi_common.h test/lib/tap.h
	@mkdir -p $(@D)
	$(MINGW64_CC) $(W64_CFLAGS) -c $< -o $@
$(W64)/%.c.o: support/abi/%.c support/abi/abi_check.h support/abi/abi_core.h support/abi/abi_common.h
	@mkdir -p $(@D)
	$(MINGW64_CC) $(W64_CFLAGS) -c $< -o $@
$(W64)/tap.c.o: test/lib/tap.c test/lib/tap.h
	@mkdir -p $(@D)
	$(MINGW64_CC) $(W64_CFLAGS) -c $< -o $@
# The trampoline and the self-test's functions, generated through the
# 64-bit layer for each Win64 flavour.
$(W64)/%.mingw64.s: support/abi/%.pl $(PERLASM_X64)
	@mkdir -p $(@D)
	$(PERL) $< mingw64 $@
$(W64)/%.nasm.asm: support/abi/%.pl $(PERLASM_X64)
	@mkdir -p $(@D)
	$(PERL) $< nasm $@
$(W64)/%.mingw64.s: test/abi/%.pl $(PERLASM_X64)
	@mkdir -p $(@D)
	$(PERL) $< mingw64 $@
$(W64)/%.nasm.asm: test/abi/%.pl $(PERLASM_X64)
	@mkdir -p $(@D)
	$(PERL) $< nasm $@
$(W64)/%.mingw64.o: $(W64)/%.mingw64.s
	$(MINGW64_AS) --fatal-warnings -o $@ $<
$(W64)/%.nasm.o: $(W64)/%.nasm.asm
	$(NASM) -f win64 -Wall -Werror -o $@ $<
.PRECIOUS: $(W64)/%.s $(W64)/%.asm $(ABI_OBJ)/%.s

$(W64)/selftest_win64.exe: $(addprefix $(W64)/,selftest_win64.c.o abi_win64.c.o \
    tap.c.o trampoline_win64.mingw64.o selftest_win64.mingw64.o selftest_win64.nasm.o)
	$(MINGW64_CC) -o $@ $^

ifeq ($(HAVE_WIN64),yes)
tests: $(W64)/selftest_win64.exe
# The objects of the program that steps OpenSSL's own modules; the script
# that runs it links them with those modules (test/t/53-openssl-unwind-win64.t).
tests: $(addprefix $(W64)/,openssl_unwind.c.o abi_win64.c.o tap.c.o trampoline_win64.mingw64.o)
endif
