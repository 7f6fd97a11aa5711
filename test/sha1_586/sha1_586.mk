# SPDX-License-Identifier: Apache-2.0
# Included by the Makefile: the 32-bit SHA-1 test programs, linked with the
# library of mk/m32.mk (build/m32/libcrypto-asm.a, sha1-586 inside), run
# by test/t/86-sha1-586.t under qemu-i386 and, where the kernel runs
# 32-bit programs, natively (the paths qemu cannot execute).
#   build/m32/sha1/kat_sha1        the SHA-1 vector files, per entry
#   build/m32/sha1/sha1_586_diff   every entry against the C compression

SHA1_586_PROGS := $(M32)/sha1/kat_sha1 $(M32)/sha1/sha1_586_diff

$(M32)/sha1/%: $(M32)/obj/test/%.o $(M32_TEST_LIB_OBJS) $(M32)/libcrypto-asm.a
	@mkdir -p $(@D)
	$(CC32) -o $@ $< $(M32_TEST_LIB_OBJS) $(M32)/libcrypto-asm.a $(TEST_LDLIBS)
$(M32)/sha1/sha1_586_diff: $(M32)/obj/test/sha1_586/sha1_586_diff.o $(M32_TEST_LIB_OBJS) $(M32)/libcrypto-asm.a
	@mkdir -p $(@D)
	$(CC32) -o $@ $< $(M32_TEST_LIB_OBJS) $(M32)/libcrypto-asm.a $(TEST_LDLIBS)

ifeq ($(HAVE_CC32),yes)
tests: $(SHA1_586_PROGS)
endif
