# SPDX-License-Identifier: Apache-2.0
# Included by the Makefile: the frame corpus (test/xlate/frame_corpus.s)
# translated by the 64-bit layer for each ABI and linked with the ABI and
# unwind checkers (test/abi): build/test/xlate/frames_elf (native) and
# frames_{mingw64,nasm}.exe (run under wine by test/t/61-frames.t).

XL := $(BUILD)/xlate
.PRECIOUS: $(XL)/%.s $(XL)/%.asm

$(XL)/%.elf.s: test/xlate/%.s $(PERLASM_X64)
	@mkdir -p $(@D)
	$(PERL) perlasm/x86_64-xlate.pl elf $@ < $<
$(XL)/%.mingw64.s: test/xlate/%.s $(PERLASM_X64)
	@mkdir -p $(@D)
	$(PERL) perlasm/x86_64-xlate.pl mingw64 $@ < $<
$(XL)/%.nasm.asm: test/xlate/%.s $(PERLASM_X64)
	@mkdir -p $(@D)
	$(PERL) perlasm/x86_64-xlate.pl nasm $@ < $<

$(XL)/%.elf.o: $(XL)/%.elf.s
	$(CC) -c -Wa,--fatal-warnings -o $@ $<
$(XL)/frame_main.o: test/xlate/frame_main.c support/abi/abi_check.h support/lib/code_handle.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(WARN) $(CFLAGS) -c $< -o $@

$(BUILD)/test/xlate/frames_elf: $(XL)/frame_main.o $(XL)/frame_corpus.elf.o \
    $(ABI_SYSV) $(BUILD)/obj/test/lib/tap.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(ABI_LDLIBS)
tests: $(BUILD)/test/xlate/frames_elf

# Win64: the same driver and corpus, mingw64 and nasm flavours.
$(XL)/%.mingw64.o: $(XL)/%.mingw64.s
	$(MINGW64_AS) --fatal-warnings -o $@ $<
$(XL)/%.nasm.o: $(XL)/%.nasm.asm
	$(NASM) -f win64 -Wall -Werror -o $@ $<
$(XL)/frame_main.c.o: test/xlate/frame_main.c support/abi/abi_check.h support/lib/code_handle.h
	@mkdir -p $(@D)
	$(MINGW64_CC) $(W64_CFLAGS) -c $< -o $@
# Each flavour's corpus runs with that flavour's trampoline.
$(BUILD)/test/xlate/frames_%.exe: $(XL)/frame_main.c.o $(XL)/frame_corpus.%.o \
    $(W64)/trampoline_win64.%.o $(addprefix $(W64)/,abi_win64.c.o tap.c.o)
	@mkdir -p $(@D)
	$(MINGW64_CC) -o $@ $^

ifeq ($(HAVE_WIN64),yes)
tests: $(BUILD)/test/xlate/frames_mingw64.exe $(BUILD)/test/xlate/frames_nasm.exe
endif
