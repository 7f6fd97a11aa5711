# SPDX-License-Identifier: Apache-2.0
# Included by the Makefile: test/ctgrind/ct_check.c, the program
# tools/ct-report.pl runs under valgrind memcheck (make ct-report,
# test/t/52-constant-time.t), linked three times:
#   build/test/ctgrind/ct_check      with build/libcrypto-asm.a (AES_CORE
#                                    as configured: table by default)
#   build/test/ctgrind/ct_check_ct   with build/ct/libcrypto-asm.a (ct core)
#   build/m32/ctgrind/ct_check       with the 32-bit archive, static: the
#                                    x86 valgrind can then run it without
#                                    the i386 C library's debug symbols
# Built only when valgrind and its client-request headers are there
# (HAVE_VALGRIND), the 32-bit one when gcc -m32 works too.
CTG_BIN := $(BUILD)/test/ctgrind
CTG_OBJ := $(BUILD)/obj/test/ctgrind/ct_check.o
CTG_PROGS := $(CTG_BIN)/ct_check $(CTG_BIN)/ct_check_ct
CTG_M32 := $(M32)/ctgrind/ct_check

$(CTG_BIN)/ct_check: $(CTG_OBJ) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^
$(CTG_BIN)/ct_check_ct: $(CTG_OBJ) $(CT_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^
$(CTG_M32): $(M32)/obj/test/ctgrind/ct_check.o $(M32)/libcrypto-asm.a
	@mkdir -p $(@D)
	$(CC32) -static -o $@ $^

ifeq ($(HAVE_VALGRIND),yes)
tests: $(CTG_PROGS)
ifeq ($(HAVE_CC32),yes)
all: $(CTG_M32)
endif
endif

# The constant-time report: every path under memcheck, a table.
.PHONY: ct-report
ct-report: $(if $(HAVE_VALGRIND),$(CTG_PROGS) $(if $(HAVE_CC32),$(CTG_M32)))
	$(PERL) tools/ct-report.pl --build $(BUILD) $(CT_REPORT_ARGS)
