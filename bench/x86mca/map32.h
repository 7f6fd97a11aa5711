/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the native replays of traced 32-bit calls share (native32.c,
 * native32_modes.c): the 32-bit program mapped at its own addresses, and
 * memory below 4 GiB, where the 32-bit code's pointers must lie.  Errors
 * end the program with a line on stderr.
 */
#ifndef BENCH_X86MCA_MAP32_H
#define BENCH_X86MCA_MAP32_H

#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static void fail(const char *what, const char *detail)
{
    fprintf(stderr, "native32: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(1);
}

/* The program's PT_LOAD segments, at their addresses, readable and
 * writable (the replay runs its code from REPLAY.so, not from here). */
static void map_program(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail("cannot open", path);
    Elf32_Ehdr eh;
    if (fread(&eh, sizeof(eh), 1, f) != 1 || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
        eh.e_ident[EI_CLASS] != ELFCLASS32 || eh.e_machine != EM_386 || eh.e_type != ET_EXEC)
        fail("not a 32-bit x86 executable linked -no-pie", path);
    for (unsigned i = 0; i < eh.e_phnum; i++) {
        Elf32_Phdr ph;
        if (fseek(f, (long)(eh.e_phoff + i * eh.e_phentsize), SEEK_SET) != 0 ||
            fread(&ph, sizeof(ph), 1, f) != 1)
            fail("cannot read the program headers of", path);
        if (ph.p_type != PT_LOAD)
            continue;
        uintptr_t start = ph.p_vaddr & ~(uintptr_t)0xfff;
        size_t len = ((ph.p_vaddr + ph.p_memsz + 0xfff) & ~(uintptr_t)0xfff) - start;
        void *p = mmap((void *)(uintptr_t)start, len, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
        if (p != (void *)(uintptr_t)start)
            fail("cannot map a segment at its address in", path);
        if (fseek(f, (long)ph.p_offset, SEEK_SET) != 0 ||
            fread((void *)(uintptr_t)ph.p_vaddr, 1, ph.p_filesz, f) != ph.p_filesz)
            fail("cannot read a segment of", path);
    }
    fclose(f);
}

static void *low_alloc(size_t len)
{
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT,
                   -1, 0);
    if (p == MAP_FAILED)
        fail("cannot allocate below 4 GiB", NULL);
    return p;
}

#endif
