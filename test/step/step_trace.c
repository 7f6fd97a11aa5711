/* SPDX-License-Identifier: Apache-2.0 */
#include "step_trace.h"

#include <elf.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#define TRAP_FLAG 0x100

/*
 * The handler's only link to the trace: a signal handler takes no
 * argument.  Set before the trap flag is raised, cleared after it is
 * lowered.
 */
static struct {
    step_observer_fn *volatile on_step;
    void *volatile ctx;
    volatile unsigned long steps;
} tracer;

static void on_trap(int sig, siginfo_t *si, void *uc_void)
{
    const ucontext_t *uc = uc_void;
    (void)sig;
    (void)si;
    const unsigned char *rip;
    greg_t ip = uc->uc_mcontext.gregs[REG_RIP];
    memcpy(&rip, &ip, sizeof(rip));
    if (tracer.on_step) {
        tracer.steps++;
        tracer.on_step(rip, tracer.ctx);
    }
}

/* The flag is set and cleared through the stack, below the red zone the
 * compiler may be using. */
static void trap_flag_on(void)
{
    __asm__ volatile("lea -128(%%rsp),%%rsp\n\tpushfq\n\torq $%c0,(%%rsp)\n\t"
                     "popfq\n\tlea 128(%%rsp),%%rsp" :: "i"(TRAP_FLAG) : "memory", "cc");
}

static void trap_flag_off(void)
{
    __asm__ volatile("lea -128(%%rsp),%%rsp\n\tpushfq\n\tandq $%c0,(%%rsp)\n\t"
                     "popfq\n\tlea 128(%%rsp),%%rsp" :: "i"(~TRAP_FLAG) : "memory", "cc");
}

unsigned long step_trace(step_call_fn *fn, void *arg,
                         step_observer_fn *on_step, void *ctx)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_trap;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGTRAP, &sa, &old) != 0)
        return 0;
    tracer.steps = 0;
    tracer.ctx = ctx;
    tracer.on_step = on_step;
    trap_flag_on();
    fn(arg);
    trap_flag_off();
    tracer.on_step = NULL;
    unsigned long steps = tracer.steps;
    sigaction(SIGTRAP, &old, NULL);
    return steps;
}

/* --- the symbol table ------------------------------------------------------ */

static unsigned char *read_self(size_t *len)
{
    FILE *f = fopen("/proc/self/exe", "rb");
    unsigned char *buf = NULL;
    size_t cap = 0, n = 0, got;
    if (f == NULL)
        return NULL;
    do {
        if (n == cap) {
            unsigned char *more = realloc(buf, cap = cap ? 2 * cap : 1 << 20);
            if (more == NULL) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = more;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    fclose(f);
    *len = n;
    return buf;
}

/* A function symbol's link-time value and size; 0 if there is none. */
static int find_symbol(const unsigned char *elf, size_t len, const char *name,
                       Elf64_Addr *value, Elf64_Xword *size)
{
    Elf64_Ehdr eh;
    if (len < sizeof(eh))
        return 0;
    memcpy(&eh, elf, sizeof(eh));
    if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
        eh.e_shoff + (Elf64_Off)eh.e_shnum * sizeof(Elf64_Shdr) > len)
        return 0;
    for (unsigned s = 0; s < eh.e_shnum; s++) {
        Elf64_Shdr sym_sh, str_sh;
        memcpy(&sym_sh, elf + eh.e_shoff + s * sizeof(Elf64_Shdr), sizeof(sym_sh));
        if (sym_sh.sh_type != SHT_SYMTAB || sym_sh.sh_link >= eh.e_shnum ||
            sym_sh.sh_offset + sym_sh.sh_size > len)
            continue;
        memcpy(&str_sh, elf + eh.e_shoff + sym_sh.sh_link * sizeof(Elf64_Shdr),
               sizeof(str_sh));
        if (str_sh.sh_offset + str_sh.sh_size > len)
            continue;
        const char *strtab = (const char *)elf + str_sh.sh_offset;
        for (Elf64_Xword k = 0; k + 1 <= sym_sh.sh_size / sizeof(Elf64_Sym); k++) {
            Elf64_Sym sym;
            memcpy(&sym, elf + sym_sh.sh_offset + k * sizeof(sym), sizeof(sym));
            if (ELF64_ST_TYPE(sym.st_info) == STT_FUNC && sym.st_name < str_sh.sh_size &&
                strcmp(strtab + sym.st_name, name) == 0) {
                *value = sym.st_value;
                *size = sym.st_size;
                return 1;
            }
        }
    }
    return 0;
}

int step_function_range(const char *name, uintptr_t *start, size_t *size)
{
    size_t len;
    unsigned char *elf = read_self(&len);
    Elf64_Addr anchor_at, at;
    Elf64_Xword anchor_size, sz;
    int ok = elf && find_symbol(elf, len, "step_trace", &anchor_at, &anchor_size) &&
             find_symbol(elf, len, name, &at, &sz);
    free(elf);
    if (!ok)
        return 0;
    /* A position-independent program is loaded at an offset: step_trace's
     * run-time address against its link-time one gives it. */
    unsigned long (*anchor)(step_call_fn *, void *, step_observer_fn *, void *) = step_trace;
    uintptr_t anchor_now;
    memcpy(&anchor_now, &anchor, sizeof(anchor_now));
    *start = anchor_now - (uintptr_t)anchor_at + (uintptr_t)at;
    *size = (size_t)sz;
    return 1;
}
