# SPDX-License-Identifier: Apache-2.0
# Optional tools: each is named once here, probed once here, and used
# everywhere else through these variables.  The library and the 64-bit
# tests need only perl, make and a C toolchain (build-essential); each
# other tool adds builds and tests, and when it is missing the build says
# so in one line (with the Debian package that provides it) and skips
# them.  `make toolchain` prints the whole table.
#
# Every tool can be overridden on the command line, e.g. CC32="clang -m32".
# $(BUILD)/toolchain.txt records the result for the tests
# (test/lib/Toolchain.pm reads it), so they skip for the same reasons.

CC32         ?= gcc -m32
NASM         ?= nasm
MINGW64_CC   ?= x86_64-w64-mingw32-gcc
MINGW64_AS   ?= x86_64-w64-mingw32-as
MINGW64_AR   ?= x86_64-w64-mingw32-ar
MINGW32_CC   ?= i686-w64-mingw32-gcc
MINGW32_AS   ?= i686-w64-mingw32-as
CLANG        ?= clang
FUZZ_CC      ?= clang
FUZZ32_CC    ?= $(FUZZ_CC) -m32
LLVM_OBJDUMP ?= llvm-objdump
LLVM_MCA     ?= llvm-mca
QEMU_I386    ?= qemu-i386
QEMU_X86_64  ?= qemu-x86_64
WINE64       ?= /usr/lib/wine/wine64
GNUPLOT      ?= gnuplot
GDB          ?= gdb
VALGRIND     ?= valgrind

# have_cmd WORDS: "yes" when the first word of WORDS is a command.
have_cmd = $(if $(shell command -v $(firstword $(1)) 2>/dev/null),yes)

# gcc -m32 needs the 32-bit C library headers and libgcc (gcc-multilib):
# compile *and link* a program, since either part can exist alone.
HAVE_CC32 := $(shell printf '\043include <stdio.h>\n\043include <stdint.h>\nint main(void){return (int)sizeof(uint32_t)-4;}\n' \
               | $(CC32) -x c -o /dev/null - >/dev/null 2>&1 && echo yes)
# Whether this kernel runs i386 programs (its IA32 emulation: some kernels
# here have it, some do not).  A program built with CC32 is run once; it
# must print its line, since a format the kernel refuses makes exec hand
# the file to /bin/sh, so an exit status alone would not tell.  Without it
# the 32-bit programs run under qemu-i386 and the native rows are skipped.
# Not a package: its "package" column is "-", and its skip line its own.
RUN_I386      := native-i386-programs
HAVE_RUN_I386 := $(if $(HAVE_CC32),$(shell t=$$(mktemp) && \
                   printf '\043include <stdio.h>\nint main(void){return puts(sizeof(void *) == 4 ? "i386" : "?") < 0;}\n' \
                   | $(CC32) -x c -o $$t - >/dev/null 2>&1 && $$t 2>/dev/null | grep -qx i386 && echo yes; rm -f $$t))
HAVE_NASM    := $(call have_cmd,$(NASM))
HAVE_MINGW64 := $(and $(call have_cmd,$(MINGW64_CC)),$(call have_cmd,$(MINGW64_AS)))
HAVE_MINGW32 := $(and $(call have_cmd,$(MINGW32_CC)),$(call have_cmd,$(MINGW32_AS)))
# clang assembles the Mach-O flavours (no macOS SDK is needed for that).
HAVE_CLANG   := $(shell printf 'nop\n' | $(CLANG) -target x86_64-apple-macos10.13 -c -x assembler -o /dev/null - >/dev/null 2>&1 && echo yes)
HAVE_FUZZ    := $(shell printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { return !d + !n; }\n' | \
                  $(FUZZ_CC) -fsanitize=fuzzer,address,undefined -x c - -o /dev/null >/dev/null 2>&1 && echo yes)
# The i386 runtimes also link the 32-bit libstdc++ (lib32stdc++-12-dev).
HAVE_FUZZ32  := $(shell printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { return !d + !n; }\n' | \
                  $(FUZZ32_CC) -fsanitize=fuzzer,address,undefined -x c - -o /dev/null >/dev/null 2>&1 && echo yes)
HAVE_LLVM_OBJDUMP := $(call have_cmd,$(LLVM_OBJDUMP))
HAVE_LLVM_MCA     := $(call have_cmd,$(LLVM_MCA))
HAVE_QEMU_I386    := $(call have_cmd,$(QEMU_I386))
HAVE_QEMU_X86_64  := $(call have_cmd,$(QEMU_X86_64))
HAVE_WINE64  := $(if $(wildcard $(WINE64)),yes,$(call have_cmd,$(WINE64)))
HAVE_GNUPLOT := $(call have_cmd,$(GNUPLOT))
# The CPU-model matrix drives gdb through its Python API.
HAVE_GDB     := $(shell $(GDB) -nx -batch -ex 'python import gdb' >/dev/null 2>&1 && echo yes)
# The constant-time report runs valgrind's memcheck, and its program
# includes <valgrind/memcheck.h> (the same package).
HAVE_VALGRIND := $(and $(call have_cmd,$(VALGRIND)),$(shell printf '\043include <valgrind/memcheck.h>\nint main(void){return (int)RUNNING_ON_VALGRIND;}\n' \
                   | $(CC) -x c -o /dev/null - >/dev/null 2>&1 && echo yes))
# The ELF unwind checker links libunwind-ptrace.
LIBUNWIND_LIB  := libunwind-ptrace
HAVE_LIBUNWIND := $(shell $(CC) $$(pkg-config --cflags libunwind-ptrace 2>/dev/null) -include libunwind-ptrace.h \
                    -E -x c /dev/null >/dev/null 2>&1 && echo yes)
# OpenSSL's static libcrypto.a, for the tests that compare with its internals.
LIBCRYPTO_A     := $(shell $(CC) -print-file-name=libcrypto.a)
HAVE_LIBCRYPTO_A := $(if $(filter /%,$(LIBCRYPTO_A)),yes)
# Win64 tests need the cross compiler and nasm (both flavours are built).
HAVE_WIN64 := $(and $(HAVE_MINGW64),$(HAVE_NASM))

# Each tool: the variable naming it, the Debian package, what needs it.
# The name is the HAVE_ variable's suffix.
TOOLCHAIN := CC32 RUN_I386 NASM MINGW64 MINGW32 CLANG FUZZ FUZZ32 LLVM_OBJDUMP LLVM_MCA QEMU_I386 \
             QEMU_X86_64 WINE64 GNUPLOT GDB VALGRIND LIBUNWIND LIBCRYPTO_A
tool_CC32         := CC32 gcc-multilib the 32-bit library (build/m32), the aes-586 and 32-bit layer programs and checkers
tool_RUN_I386     := RUN_I386 - the native 32-bit runs
tool_NASM         := NASM nasm the nasm (Win64) and win32n flavours' objects
tool_MINGW64      := MINGW64_CC gcc-mingw-w64-x86-64 the Win64 test programs
tool_MINGW32      := MINGW32_CC gcc-mingw-w64-i686 the Win32 links of the coff and win32n flavours
tool_CLANG        := CLANG clang Mach-O objects (macosx flavours)
tool_FUZZ         := FUZZ_CC libclang-rt-14-dev the libFuzzer targets
tool_FUZZ32       := FUZZ32_CC lib32stdc++-12-dev the 32-bit libFuzzer targets (build/fuzz32)
tool_LLVM_OBJDUMP := LLVM_OBJDUMP llvm Mach-O and PE disassembly comparisons
tool_LLVM_MCA     := LLVM_MCA llvm the 32-bit AES estimates of make bench-x86mca
tool_QEMU_I386    := QEMU_I386 qemu-user running the 32-bit programs
tool_QEMU_X86_64  := QEMU_X86_64 qemu-user the CPU-model runs
tool_WINE64       := WINE64 wine64 running the Win64 programs
tool_GNUPLOT      := GNUPLOT gnuplot-nox the benchmark plot
tool_GDB          := GDB gdb the internal paths of the CPU-model matrix
tool_VALGRIND     := VALGRIND valgrind the constant-time report (make ct-report, its ct_check programs)
tool_LIBUNWIND    := LIBUNWIND_LIB libunwind-dev the ELF unwind checker
tool_LIBCRYPTO_A  := LIBCRYPTO_A libssl-dev comparisons with OpenSSL's own objects (libcrypto.a)
tool_var  = $(word 1,$(tool_$(1)))
tool_pkg  = $(word 2,$(tool_$(1)))
tool_what = $(wordlist 3,99,$(tool_$(1)))

# One line per missing tool, once per make run (not for clean, help, ...,
# nor for the benchmark, which names what it skips in its own output).
TOOLCHAIN_QUIET_GOALS := clean help toolchain uninstall test test-deps print-dist-files bench bench-plot
ifeq ($(filter $(TOOLCHAIN_QUIET_GOALS),$(MAKECMDGOALS)),)
$(foreach t,$(filter-out RUN_I386,$(TOOLCHAIN)),$(if $(HAVE_$(t)),,$(info skipped: $(call tool_what,$(t)) \
  ($($(call tool_var,$(t))): not usable; apt-get install $(call tool_pkg,$(t)), or make test-deps))))
$(if $(HAVE_CC32),$(if $(HAVE_RUN_I386),,$(info skipped: $(call tool_what,RUN_I386) \
  (this kernel does not run i386 programs: no IA32 emulation; qemu-i386 runs them instead))))
endif

# For the tests: NAME<TAB>yes|no<TAB>command<TAB>package, rewritten when
# anything in it changes.
TOOLCHAIN_TXT := $(BUILD)/toolchain.txt
TOOLCHAIN_TEXT := $(foreach t,$(TOOLCHAIN),$(t)	$(or $(HAVE_$(t)),no)	$($(call tool_var,$(t)))	$(call tool_pkg,$(t))\n)
$(shell mkdir -p $(BUILD) && printf '$(TOOLCHAIN_TEXT)' | sed 's/^ //' > $(TOOLCHAIN_TXT).new && \
  { cmp -s $(TOOLCHAIN_TXT).new $(TOOLCHAIN_TXT) && rm -f $(TOOLCHAIN_TXT).new || mv $(TOOLCHAIN_TXT).new $(TOOLCHAIN_TXT); })

.PHONY: toolchain
toolchain:
	@printf '%-13s %-4s %-26s %s\n' tool have command package
	@printf '$(TOOLCHAIN_TEXT)' | sed 's/^ //' | awk -F'\t' '{ printf "%-13s %-4s %-26s %s\n", $$1, $$2, $$3, $$4 }'
