# SPDX-License-Identifier: Apache-2.0
# Included by the Makefile: the guard-page differential (test/guard_pages.c)
# over the 32-bit library of mk/m32.mk (aesni-x86, aes-586 and sha1-586
# behind the registry), run by test/t/21-guard-pages.t under qemu-i386
# and, where the kernel runs 32-bit programs, natively.  The 64-bit
# program is build/test/guard_pages, built like every test/*.c.
#   build/m32/guard/guard_pages

GUARD32 := $(M32)/guard/guard_pages

$(GUARD32): $(M32)/obj/test/guard_pages.o $(M32_TEST_LIB_OBJS) $(M32)/libcrypto-asm.a
	@mkdir -p $(@D)
	$(CC32) -o $@ $< $(M32_TEST_LIB_OBJS) $(M32)/libcrypto-asm.a $(TEST_LDLIBS)

ifeq ($(HAVE_CC32),yes)
tests: $(GUARD32)
endif
