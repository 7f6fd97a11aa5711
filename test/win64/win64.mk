# SPDX-License-Identifier: Apache-2.0
# Included by the Makefile: Win64 builds of the library for the tests run
# under wine: the C compiled by mingw-w64, the assembly modules translated
# in the mingw64 and the nasm flavour, one archive per flavour, and
# module_abi_<flavour>.exe, which runs every assembly implementation
# through the Win64 ABI and unwind checkers.

W64LIB     := $(W64)/lib
W64_C_OBJS := $(patsubst %.c,$(W64LIB)/%.o,$(COMMON_SRCS) $(CORE_table))

$(W64LIB)/%.o: %.c $(GEN_HDRS)
	@mkdir -p $(@D)
	$(MINGW64_CC) $(CPPFLAGS_ALL) $(ASM_DEFS) $(WARN) -O2 -c $< -o $@

$(W64LIB)/asm/%.mingw64.s: $$(MODULE_$$*) $(PERLASM_X64)
	@mkdir -p $(@D)
	$(PERL) $(firstword $(MODULE_$*)) mingw64 $@
$(W64LIB)/asm/%.nasm.asm: $$(MODULE_$$*) $(PERLASM_X64)
	@mkdir -p $(@D)
	$(PERL) $(firstword $(MODULE_$*)) nasm $@
$(W64LIB)/asm/%.mingw64.o: $(W64LIB)/asm/%.mingw64.s
	$(MINGW64_AS) --fatal-warnings -o $@ $<
$(W64LIB)/asm/%.nasm.o: $(W64LIB)/asm/%.nasm.asm
	$(NASM) -f win64 -Wall -Werror -o $@ $<
.PRECIOUS: $(W64LIB)/asm/%.s $(W64LIB)/asm/%.asm

# The assembly objects of flavour $(1).
w64_asm_objs = $(foreach m,$(ASM_MODULES),$(W64LIB)/asm/$(m).$(1).o)
$(W64)/libcrypto-asm-%.a: $(W64_C_OBJS) $$(call w64_asm_objs,$$*)
	rm -f $@
	$(MINGW64_AR) rcs $@ $^

$(W64)/module_abi.c.o: test/abi/module_abi.c support/abi/abi_check.h support/abi/abi_typed.h support/lib/code_handle.h crypto/impl.h
	@mkdir -p $(@D)
	$(MINGW64_CC) $(CPPFLAGS_ALL) $(ASM_DEFS) $(W64_CFLAGS) -c $< -o $@
$(W64)/module_abi_%.exe: $(W64)/module_abi.c.o $(W64)/trampoline_win64.%.o \
    $(W64)/abi_win64.c.o $(W64)/tap.c.o $(W64)/libcrypto-asm-%.a
	$(MINGW64_CC) -o $@ $^

ifeq ($(HAVE_WIN64),yes)
tests: $(W64)/module_abi_mingw64.exe $(W64)/module_abi_nasm.exe
endif
