/* SPDX-License-Identifier: Apache-2.0 */
/*
 * i386 cdecl implementation of abi_cdecl.h, for 32-bit ELF programs run
 * under qemu-i386.
 *
 * abi32_call runs fn through abi_trampoline_cdecl in this process.
 * unwind32_check and trace32_call run the call in a forked child that
 * single-steps itself: the trap flag is set just before the trampoline,
 * and every instruction then stops in on_trap() (SIGTRAP, on an alternate
 * stack so fn's stack is never touched).  There is no ptrace here: qemu-i386
 * does not offer it to the guest, but it does emulate the trap flag and
 * delivers an ordinary signal frame, through which libgcc's unwinder finds
 * the interrupted instruction as any signal-aware unwinder would.  The
 * child writes its verdict into shared memory; a crash in fn (or in the
 * unwinder, on nonsense CFI) kills only the child and is reported.
 */

#include "abi_cdecl.h"

#define ABI_CS_WORDS   4       /* ebx esi edi ebp */
#define ABI_STEP_LIMIT 20000000UL
#include "abi_core.h"

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>
#include <unwind.h>

#if !defined(__i386__)
#error "abi_cdecl.c is for i386 (gcc -m32) only"
#endif

/* Shared with trampoline_cdecl.pl, which hard-codes these offsets. */
struct abi_cdecl_io {
    uint32_t args[ABI32_MAX_ARGS];  /* all eight are passed; unused ones random */
    uint32_t cs_in[ABI_CS_WORDS];   /* ebx esi edi ebp loaded for fn */
    uint32_t cs_out[ABI_CS_WORDS];          /* ... and what fn left in them */
    uint32_t eax, edx;
    uint32_t eflags;
    int32_t esp_delta;              /* esp after the return - esp at the call */
    uint32_t call_esp;
};

_Static_assert(ABI32_MAX_ARGS == 8, "trampoline_cdecl.pl passes exactly 8 arguments");
_Static_assert(offsetof(struct abi_cdecl_io, cs_in) == 32, "IO cs_in");
_Static_assert(offsetof(struct abi_cdecl_io, cs_out) == 48, "IO cs_out");
_Static_assert(offsetof(struct abi_cdecl_io, eax) == 64, "IO eax");
_Static_assert(offsetof(struct abi_cdecl_io, edx) == 68, "IO edx");
_Static_assert(offsetof(struct abi_cdecl_io, eflags) == 72, "IO eflags");
_Static_assert(offsetof(struct abi_cdecl_io, esp_delta) == 76, "IO esp_delta");
_Static_assert(offsetof(struct abi_cdecl_io, call_esp) == 80, "IO call_esp");

void abi_trampoline_cdecl(const void *fn, struct abi_cdecl_io *io);
/* The trampoline's landing pad finds its frame here (see trampoline_cdecl.pl). */
uint32_t abi_cdecl_saved[3];

static const char *const cs_names[4] = { "ebx", "esi", "edi", "ebp" };
/* DWARF register numbers of ebx esi edi ebp on i386. */
static const int cs_dwarf[4] = { 3, 6, 7, 5 };

#define EFLAGS_TF  0x100u

static int io_prepare(struct abi_cdecl_io *io, const uint32_t *args, int nargs,
                      char *err, size_t errlen)
{
    memset(io, 0, sizeof(*io));
    return abi_prepare(io->args, ABI32_MAX_ARGS, args, nargs, io->cs_in, ABI_CS_WORDS, err, errlen);
}

/* --- abi32_call ------------------------------------------------------------ */

struct fpu_state {
    uint16_t cw, tag;
    uint32_t mxcsr;
};

/* fnstenv masks every x87 exception as a side effect: fldenv undoes that. */
static void fpu_read(struct fpu_state *f)
{
    unsigned char env[28];
    __asm__ volatile("fnstenv %0\n\tfldenv %0" : "+m"(env));
    f->cw = (uint16_t)(env[0] | env[1] << 8);
    f->tag = (uint16_t)(env[8] | env[9] << 8);
    __asm__ volatile("stmxcsr %0" : "=m"(f->mxcsr));
}

static void fpu_repair(const struct fpu_state *f)
{
    uint32_t mxcsr = f->mxcsr;
    uint16_t cw = f->cw;
    __asm__ volatile("emms\n\tfldcw %0\n\tldmxcsr %1" : : "m"(cw), "m"(mxcsr));
}

int abi32_call(const void *fn, const uint32_t *args, int nargs, uint64_t *ret,
               char *err, size_t errlen)
{
    struct abi_cdecl_io io;
    struct fpu_state before, after;
    struct abi_verdict v = { 0 };

    if (io_prepare(&io, args, nargs, err, errlen) != 0)
        return -1;
    fpu_read(&before);
    abi_trampoline_cdecl(fn, &io);
    fpu_read(&after);
    fpu_repair(&before);
    if (ret)
        *ret = (uint64_t)io.edx << 32 | io.eax;

    abi_verdict_sp(&v, "esp", io.esp_delta);
    abi_verdict_regs(&v, cs_names, io.cs_in, io.cs_out, ABI_CS_WORDS, 1);
    abi_verdict_df(&v, io.eflags);
    abi_violation(&v, after.tag != 0xffff && before.tag == 0xffff, "x87 register stack "
                  "not empty on return (tag word 0x%04x): MMX code must end with emms",
                  (unsigned)after.tag);
    abi_verdict_fpu(&v, before.cw, after.cw, before.mxcsr, after.mxcsr);
    return abi_verdict_end(&v, err, errlen);
}

/* --- single-stepping ------------------------------------------------------- */

/* What the stepping child reports (shared memory). */
struct step_result {
    struct abi_run run;
    int done;               /* fn returned while stepped */
    size_t n;               /* instructions traced (trace mode) */
    uint32_t eips[];
};

/* State of the stepping child, read by on_trap(). */
static struct {
    enum { BEFORE_FN, IN_FN, AFTER_FN } phase;
    int check;              /* unwind at every step (else only trace) */
    size_t cap;
    struct step_result *res;
    struct abi_run *run;    /* &res->run */
    volatile sig_atomic_t probing;  /* inside _Unwind_Backtrace */
    sigjmp_buf probe_fault;
} S;

static void frame_cs(abi_word cs[ABI_CS_WORDS], const greg_t *g)
{
    cs[0] = (abi_word)g[REG_EBX];
    cs[1] = (abi_word)g[REG_ESI];
    cs[2] = (abi_word)g[REG_EDI];
    cs[3] = (abi_word)g[REG_EBP];
}

static int peek(abi_word addr, abi_word *val)
{
    *val = *(const abi_word *)addr;
    return 0;
}

/* The frames above the interrupted instruction, as libgcc sees them.  The
 * first are this handler's; the one after the signal frame is marked "IP
 * before instruction" and is the interrupted one; then its callers. */
struct unwound {
    abi_word ip, esp, cs[ABI_CS_WORDS];     /* a caller's state after the return */
};

struct probe {
    int state;              /* 0 handler frames, 1 collecting callers */
    int want, n;            /* callers wanted, collected */
    uint32_t seen_ip;       /* the interrupted frame's IP */
    struct unwound up[ABI_MAX_DEPTH];
};

static _Unwind_Reason_Code probe_frame(struct _Unwind_Context *c, void *arg)
{
    struct probe *p = arg;
    int before = 0;
    uint32_t ip = (uint32_t)_Unwind_GetIPInfo(c, &before);
    struct unwound *u;
    if (p->state == 0) {
        if (before) {
            p->state = 1;
            p->seen_ip = ip;
        }
        return _URC_NO_REASON;
    }
    /* A caller: its esp after the return is its callee's CFA. */
    u = &p->up[p->n++];
    u->ip = ip;
    u->esp = (uint32_t)_Unwind_GetCFA(c);
    for (int i = 0; i < ABI_CS_WORDS; i++)
        u->cs[i] = (uint32_t)_Unwind_GetGR(c, cs_dwarf[i]);
    return p->n == p->want ? _URC_END_OF_STACK : _URC_NO_REASON;
}

/* Callee-saved registers are checked at fn's caller always, and at each
 * deeper frame's caller unless callees may have private conventions. */
static int private_callees;

void unwind32_set_private_callees(int on)
{
    private_callees = on;
}

/*
 * Unwinds from the interrupted instruction up to fn's caller.  The frames
 * the unwinder must pass are the owners on the path from the current
 * frame to frame 0 (a local subroutine is part of its owner's frame); at
 * each, the return address and the caller's esp must be what the call
 * recorded, and so must the callee-saved registers (see above).
 */
static int check_unwind(uint32_t eip)
{
    static struct probe p;
    static int chain[ABI_MAX_DEPTH], m;
    struct abi_run *run = S.run;
    int sig;

    m = 0;
    for (int k = run->frames[run->depth].owner;; k = run->frames[k - 1].owner) {
        chain[m++] = k;
        if (k == 0)
            break;
    }
    memset(&p, 0, sizeof(p));
    p.want = m;
    run->unwinds++;
    /* Wrong CFI can send libgcc to a return address that is not code: with
     * no FDE for it, libgcc reads the bytes there looking for a signal
     * trampoline, and faults.  That fault is this instruction's failure. */
    if ((sig = sigsetjmp(S.probe_fault, 1)) != 0) {
        S.probing = 0;
        abi_fail(run, eip, "unwound return address is not code: the unwinder faulted "
                 "(signal %d) following the CFI", sig);
        return -1;
    }
    S.probing = 1;
    _Unwind_Backtrace(probe_frame, &p);
    S.probing = 0;
    if (p.state == 0) {
        abi_fail(run, eip, "the unwinder did not find the signal frame");
        return -1;
    }
    if (p.seen_ip != eip) {
        abi_fail(run, eip, "the unwinder found the interrupted frame at 0x%08x",
                 (unsigned)p.seen_ip);
        return -1;
    }
    for (int i = 0; i < m; i++) {
        const struct abi_frame *f = &run->frames[chain[i]];
        const struct unwound *u = &p.up[i];
        char up[40] = "";
        if (i > 0)
            snprintf(up, sizeof(up), "%d frames up: ", i + 1);
        if (i >= p.n) {
            abi_fail(run, eip, "%sno unwind info (FDE) covers %s", up,
                     i ? "that return address" : "this instruction");
            return -1;
        }
        if (u->ip != f->ret) {
            abi_fail(run, eip, "%sunwound return address 0x%08x, expected 0x%08x (%s)", up,
                     (unsigned)u->ip, (unsigned)f->ret,
                     f->call_site ? "just past the call" : "in the trampoline");
            return -1;
        }
        if (u->esp != f->entry_sp + 4) {
            abi_fail(run, eip, "%sunwound esp is entry esp %+d, expected entry esp + 4", up,
                     (int)(u->esp - f->entry_sp));
            return -1;
        }
        if ((!private_callees || chain[i] == 0)
            && abi_unwound_same(run, eip, up, cs_names, u->cs, f->cs, ABI_CS_WORDS, 1, NULL) != 0)
            return -1;
    }
    return 0;
}

/* Where stepped instructions are marked: a byte per address of the
 * program's text, shared with the stepping children. */
static struct {
    unsigned char *map;
    uint32_t base, size;
} cover;

/* The program's text, from the linker's symbols (linked -no-pie). */
extern const char __executable_start[], etext[];

int unwind32_coverage_start(void)
{
    size_t size = (size_t)(etext - __executable_start);
    void *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return -1;
    cover.map = m;
    cover.base = (uint32_t)(uintptr_t)__executable_start;
    cover.size = (uint32_t)size;
    return 0;
}

int unwind32_coverage_write(const char *file)
{
    FILE *f = fopen(file, "w");
    if (!f)
        return -1;
    for (uint32_t i = 0; i < cover.size; i++)
        if (cover.map[i])
            fprintf(f, "%08x\n", (unsigned)(cover.base + i));
    return fclose(f);
}

static void stop_stepping(greg_t *g)
{
    g[REG_EFL] &= ~(greg_t)EFLAGS_TF;
}

/* qemu-i386 enters signal handlers with fn's DF (the kernel clears it),
 * and C code must not run with DF set: both handlers start with cld. */
void abi32_on_trap(int sig, siginfo_t *si, void *ucv);
void abi32_on_fault(int sig, siginfo_t *si, void *ucv);
__asm__(".text\n"
        "abi32_on_trap:\n\tcld\n\tjmp\ton_trap\n"
        "abi32_on_fault:\n\tcld\n\tjmp\ton_fault\n");

__attribute__((used)) static void on_trap(int sig, siginfo_t *si, void *ucv)
{
    ucontext_t *uc = ucv;
    greg_t *g = uc->uc_mcontext.gregs;
    uint32_t eip = (uint32_t)g[REG_EIP], esp = (uint32_t)g[REG_ESP];
    struct step_result *r = S.res;
    struct abi_run *run = S.run;
    struct abi_frame *f;
    (void)sig, (void)si;

    if (S.phase == BEFORE_FN) {
        if (eip != run->fn) {
            if (abi_pre_step(run) != 0)
                stop_stepping(g);
            return;
        }
        S.phase = IN_FN;
        frame_cs(abi_enter_fn(run, esp, *(const uint32_t *)(uintptr_t)esp, 0)->cs, g);
    } else if (S.phase == IN_FN) {
        switch (abi_next(run, eip, esp)) {
        case ABI_RETURNED:
            S.phase = AFTER_FN;
            r->done = 1;
            stop_stepping(g);
            return;
        case ABI_STOPPED:
            stop_stepping(g);
            return;
        case ABI_CALLED:
            f = &run->frames[run->depth];
            frame_cs(f->cs, g);
            /* A call to a label of the same function (a local subroutine)
             * is described by that function's CFI as a deeper stack, so it
             * unwinds to the function's own caller. */
            {
                void *caller_fn = _Unwind_FindEnclosingFunction((void *)f->call_site);
                void *callee_fn = _Unwind_FindEnclosingFunction((void *)(uintptr_t)eip);
                f->owner = caller_fn && caller_fn == callee_fn ? f[-1].owner : run->depth;
            }
            break;
        case ABI_SAME:
            break;
        }
    } else {
        stop_stepping(g);
        return;
    }

    if (r->n < S.cap)
        r->eips[r->n] = eip;
    if (eip - cover.base < cover.size)
        cover.map[eip - cover.base] = 1;
    r->n++;
    if (S.check && check_unwind(eip) != 0)
        stop_stepping(g);
}

/* A fault in fn ends the child with a description; one in the unwinder
 * goes back to check_unwind. */
__attribute__((used)) static void on_fault(int sig, siginfo_t *si, void *ucv)
{
    ucontext_t *uc = ucv;
    uint32_t eip = (uint32_t)uc->uc_mcontext.gregs[REG_EIP];
    (void)si;
    if (S.probing)
        siglongjmp(S.probe_fault, sig);
    abi_fail(S.run, eip, "signal %d (%s)", sig, strsignal(sig));
    _exit(3);
}

static char alt_stack[256 * 1024];

static void step_child(const void *fn, struct abi_cdecl_io *io, int check)
{
    struct sigaction sa;
    stack_t ss = { .ss_sp = alt_stack, .ss_size = sizeof(alt_stack) };

    S.phase = BEFORE_FN;
    S.check = check;
    if (sigaltstack(&ss, NULL) != 0) {
        abi_stop(S.run, "sigaltstack: %s", strerror(errno));
        _exit(2);
    }
    memset(&sa, 0, sizeof(sa));
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sa.sa_sigaction = abi32_on_trap;
    sigaction(SIGTRAP, &sa, NULL);
    sa.sa_sigaction = abi32_on_fault;
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    sigaction(SIGILL, &sa, NULL);
    sigaction(SIGFPE, &sa, NULL);
    /* The libgcc FDE lookup registers itself on first use: do it now, not
     * from the first trap. */
    (void)_Unwind_FindEnclosingFunction((void *)(uintptr_t)fn);

    __asm__ volatile("pushfl\n\torl $0x100,(%%esp)\n\tpopfl" ::: "cc", "memory");
    abi_trampoline_cdecl(fn, io);
    __asm__ volatile("pushfl\n\tandl $~0x100,(%%esp)\n\tpopfl" ::: "cc", "memory");
    if (!S.res->done && !S.run->failures)
        abi_stop(S.run, "%s", S.phase == BEFORE_FN
                 ? "the trap flag never reached fn (no single-stepping?)"
                 : "single-stepping stopped inside fn (did fn clear TF with popf?)");
    _exit(0);
}

/* Runs fn single-stepped in a child; the child's report (shared memory,
 * cap traced addresses), or NULL with why in err. */
static struct step_result *step_run(const void *fn, const uint32_t *args, int nargs,
                                    int check, size_t cap, char *err, size_t errlen)
{
    struct abi_cdecl_io io;
    size_t size = sizeof(struct step_result) + cap * sizeof(uint32_t);
    struct step_result *r;
    pid_t pid;
    int status;

    if (io_prepare(&io, args, nargs, err, errlen) != 0)
        return NULL;
    r = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (r == MAP_FAILED) {
        abi_set_err(err, errlen, "mmap: %s", strerror(errno));
        return NULL;
    }
    memset(r, 0, sizeof(*r));
    abi_run_init(&r->run, fn, peek);
    fflush(NULL);                   /* no buffered output twice */
    pid = fork();
    if (pid < 0) {
        abi_stop(&r->run, "fork: %s", strerror(errno));
        return r;
    }
    if (pid == 0) {
        S.res = r;
        S.run = &r->run;
        S.cap = cap;
        step_child(fn, &io, check);
    }
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            abi_stop(&r->run, "waitpid: %s", strerror(errno));
            return r;
        }
    if (WIFSIGNALED(status) && !r->run.failures)
        abi_stop(&r->run, "child killed by signal %d (%s)", WTERMSIG(status),
                 strsignal(WTERMSIG(status)));
    else if (WIFEXITED(status) && WEXITSTATUS(status) != 0 && !r->run.failures)
        abi_stop(&r->run, "child exited with status %d", WEXITSTATUS(status));
    return r;
}

int unwind32_check(const void *fn, const uint32_t *args, int nargs,
                   struct unwind_stats *st, char *err, size_t errlen)
{
    struct step_result *r = step_run(fn, args, nargs, 1, 0, err, errlen);
    int rc;
    if (!r) {
        if (st)
            st->steps = st->unwinds = st->handled = 0;
        return -1;
    }
    rc = abi_run_end(&r->run, st, err, errlen);
    munmap(r, sizeof(*r));
    return rc;
}

int trace32_call(const void *fn, const uint32_t *args, int nargs,
                 uint32_t *eips, size_t cap, size_t *n, char *err, size_t errlen)
{
    struct step_result *r = step_run(fn, args, nargs, 0, cap, err, errlen);
    int rc;
    *n = r ? r->n : 0;
    if (!r)
        return -1;
    if (eips)
        memcpy(eips, r->eips, (r->n < cap ? r->n : cap) * sizeof(uint32_t));
    rc = abi_run_end(&r->run, NULL, err, errlen);
    munmap(r, sizeof(*r) + cap * sizeof(uint32_t));
    return rc;
}
