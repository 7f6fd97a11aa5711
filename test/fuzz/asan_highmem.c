/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The smallest program that shows where AddressSanitizer's idea of the
 * 32-bit address space and qemu-i386's part (built clang -m32
 * -fsanitize=address into build/fuzz32/asan_highmem).  It keeps
 * allocating 4 KiB blocks until it holds the MiB given (default 384)
 * and prints the highest block.
 *
 * Natively (-m32 on an x86_64 kernel) ASan's memory ends at 0xffffffff
 * and this passes.  Under qemu-i386 7.2 the emulated uname says i686, so
 * ASan assumes the 3G/1G split and that memory ends at 0xbfffffff; but
 * qemu hands the guest addresses up to 4 GiB, below 0x40000000 first and
 * from the top once that is full (after some 200 MiB), and the first
 * block above 0xc0000000 stops the program with ASan's
 *   CHECK failed: asan_poisoning.cpp:36 "((AddrIsInMem(addr))) != (0)"
 * in its allocator, the "crash" a long 32-bit fuzz run meets after ~2M
 * executions (its quarantine, 256 MiB, fills the space).
 * `qemu-i386 -R 0xc0000000` (a 3 GiB guest address space) passes, and
 * the 32-bit fuzz runs under qemu take that option (FuzzRun::qemu_i386;
 * test/README.md).  test/t/71-fuzz32.t runs this natively, under qemu
 * with it, and under qemu without it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    unsigned long mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 384;
    uintptr_t highest = 0;

    for (unsigned long i = 0; i < mib * 256; i++) {
        volatile char *p = malloc(4096);
        if (p == NULL) {
            printf("malloc failed after %lu MiB\n", i / 256);
            return 1;
        }
        p[0] = 1;
        if ((uintptr_t)p > highest)
            highest = (uintptr_t)p;
    }
    printf("%lu MiB held in 4 KiB blocks, the highest at %#lx\n", mib,
           (unsigned long)highest);
    return 0;
}
