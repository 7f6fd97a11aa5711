# SPDX-License-Identifier: Apache-2.0
# Included by the Makefile: the 32-bit perlasm layer (perlasm/x86asm.pl)
# on its corpus, test/x86asm/corpus.pl, in every flavour:
#   elf    GNU as --32, linked with gcc -m32   -> build/test/x86asm/corpus_elf
#          (run under qemu-i386 by test/t/80-x86asm.t)
#   macosx clang -target i386-apple-macos10.13 -> object only (disassembly)
#   coff   i686-w64-mingw32-as, win32n nasm -f win32 -> linked with mingw i686
#          (corpus_{coff,win32n}.exe; Win32 cannot run here)
#   a.out  (-fPIC) no assembler here writes a.out: only its ELF twin below
# Each part is built only when its tools exist; 80-x86asm.t SKIPs the rest.

# PERLASM_X86 (the layer's files) is the Makefile's.
X86A        := $(BUILD)/x86asm
X86_CORPUS  := test/x86asm/corpus.pl
.PRECIOUS: $(X86A)/%.s $(X86A)/%.asm

$(X86A)/corpus.elf.s: $(X86_CORPUS) $(PERLASM_X86)
	@mkdir -p $(@D)
	$(PERL) $(X86_CORPUS) elf -fPIC $@
$(X86A)/corpus.macosx.s: $(X86_CORPUS) $(PERLASM_X86)
	@mkdir -p $(@D)
	$(PERL) $(X86_CORPUS) macosx $@
$(X86A)/corpus.coff.s: $(X86_CORPUS) $(PERLASM_X86)
	@mkdir -p $(@D)
	$(PERL) $(X86_CORPUS) coff $@
$(X86A)/corpus.a.out.s: $(X86_CORPUS) $(PERLASM_X86)
	@mkdir -p $(@D)
	$(PERL) $(X86_CORPUS) a.out -fPIC $@
$(X86A)/corpus.win32n.asm: $(X86_CORPUS) $(PERLASM_X86)
	@mkdir -p $(@D)
	$(PERL) $(X86_CORPUS) win32n $@

$(X86A)/corpus.elf.o: $(X86A)/corpus.elf.s
	as --32 --fatal-warnings -o $@ $<
$(X86A)/corpus.macosx.o: $(X86A)/corpus.macosx.s
	$(CLANG) -target i386-apple-macos10.13 -Werror -c -x assembler -o $@ $<
$(X86A)/corpus.coff.o: $(X86A)/corpus.coff.s
	$(MINGW32_AS) --fatal-warnings -o $@ $<
$(X86A)/corpus.win32n.o: $(X86A)/corpus.win32n.asm
	$(NASM) -f win32 -Wall -Werror -o $@ $<

# The programs print TAP through test/lib/tap.c, compiled with each.
X86_CORPUS_MAIN := test/x86asm/corpus_main.c test/lib/tap.c test/lib/tap.h
$(BUILD)/test/x86asm/corpus_elf: $(X86_CORPUS_MAIN) $(X86A)/corpus.elf.o
	@mkdir -p $(@D)
	$(CC32) $(WARN) -O2 -o $@ $(filter-out %.h,$^)
$(BUILD)/test/x86asm/corpus_%.exe: $(X86_CORPUS_MAIN) $(X86A)/corpus.%.o
	@mkdir -p $(@D)
	$(MINGW32_CC) $(WARN) -O2 -o $@ $(filter-out %.h,$^)

# The macosx, coff, a.out and win32n code retargeted to ELF with every instruction
# kept (test/x86asm/flavour_to_elf.pl), linked as 32-bit Linux programs:
# corpus_FLAVOUR-elf, run under qemu-i386 (Mach-O and Win32 cannot run here).
X86_RETARGET := test/x86asm/flavour_to_elf.pl
$(X86A)/corpus.%-elf.s: $(X86A)/corpus.%.s $(X86_RETARGET)
	$(PERL) $(X86_RETARGET) $* $< > $@.tmp && mv $@.tmp $@
$(X86A)/corpus.win32n-elf.asm: $(X86A)/corpus.win32n.asm $(X86_RETARGET)
	$(PERL) $(X86_RETARGET) win32n $< > $@.tmp && mv $@.tmp $@
$(X86A)/corpus.%-elf.o: $(X86A)/corpus.%-elf.s
	as --32 --fatal-warnings -o $@ $<
$(X86A)/corpus.win32n-elf.o: $(X86A)/corpus.win32n-elf.asm
	$(NASM) -f elf32 -Wall -Werror -o $@ $<
$(BUILD)/test/x86asm/corpus_%-elf: $(X86_CORPUS_MAIN) $(X86A)/corpus.%-elf.o
	@mkdir -p $(@D)
	$(CC32) $(WARN) -O2 -no-pie -o $@ $(filter-out %.h,$^)

ifeq ($(HAVE_CC32),yes)
tests: $(BUILD)/test/x86asm/corpus_elf $(BUILD)/test/x86asm/corpus_macosx-elf \
       $(BUILD)/test/x86asm/corpus_coff-elf $(BUILD)/test/x86asm/corpus_a.out-elf
ifeq ($(HAVE_NASM),yes)
tests: $(BUILD)/test/x86asm/corpus_win32n-elf
endif
endif
ifeq ($(HAVE_CLANG),yes)
tests: $(X86A)/corpus.macosx.o
endif
ifeq ($(HAVE_MINGW32),yes)
tests: $(BUILD)/test/x86asm/corpus_coff.exe
ifeq ($(HAVE_NASM),yes)
tests: $(BUILD)/test/x86asm/corpus_win32n.exe
endif
endif
