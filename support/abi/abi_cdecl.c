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
#include "abi_report.h"

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
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
    uint32_t cs_in[4];              /* ebx esi edi ebp loaded for fn */
    uint32_t cs_out[4];             /* ... and what fn left in them */
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
#define EFLAGS_DF  0x400u
#define MXCSR_CONTROL 0xffc0u       /* DAZ, exception masks, RC, FZ */

/* --- random register values ---------------------------------------------- */

/* xorshift32 from a fixed default seed: failures are reproducible. */
static uint32_t prng_state = 0x243f6a88u;

void abi32_set_seed(uint32_t seed)
{
    prng_state = seed ? seed : 1;
}

static uint32_t prng_next(void)
{
    uint32_t x = prng_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return prng_state = x;
}

static int io_prepare(struct abi_cdecl_io *io, const uint32_t *args, int nargs,
                      char *err, size_t errlen)
{
    if (abi_args_ok(args, nargs, ABI32_MAX_ARGS, err, errlen) != 0)
        return -1;
    memset(io, 0, sizeof(*io));
    for (int i = 0; i < ABI32_MAX_ARGS; i++)
        io->args[i] = i < nargs ? args[i] : prng_next();
    for (int i = 0; i < 4; i++)
        io->cs_in[i] = prng_next();
    return 0;
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

    abi_violation(&v, io.esp_delta != 0, "esp not restored: fn returned with esp %+d "
                  "bytes from where it was at the call (unbalanced stack, or ret N)",
                  (int)io.esp_delta);
    for (int i = 0; i < 4; i++)
        abi_violation(&v, io.cs_out[i] != io.cs_in[i], "%s not preserved: 0x%08x on "
                      "entry, 0x%08x on return", cs_names[i], (unsigned)io.cs_in[i],
                      (unsigned)io.cs_out[i]);
    abi_violation(&v, (io.eflags & EFLAGS_DF) != 0, "direction flag (DF) left set on "
                  "return (eflags 0x%08x)", (unsigned)io.eflags);
    abi_violation(&v, after.tag != 0xffff && before.tag == 0xffff, "x87 register stack "
                  "not empty on return (tag word 0x%04x): MMX code must end with emms",
                  (unsigned)after.tag);
    abi_violation(&v, after.cw != before.cw, "x87 control word not preserved: 0x%04x "
                  "on entry, 0x%04x on return", (unsigned)before.cw, (unsigned)after.cw);
    abi_violation(&v, ((after.mxcsr ^ before.mxcsr) & MXCSR_CONTROL) != 0, "MXCSR "
                  "control bits not preserved: 0x%04x on entry, 0x%04x on return",
                  (unsigned)before.mxcsr, (unsigned)after.mxcsr);
    return abi_verdict_end(&v, err, errlen);
}

/* --- single-stepping ------------------------------------------------------- */

#define MAX_DEPTH      128
#define PRE_STEP_LIMIT 100000UL     /* stops between setting TF and fn */

static unsigned long step_limit = 20000000UL;

void unwind32_set_step_limit(unsigned long max_steps)
{
    step_limit = max_steps ? max_steps : 1;
}

/* What the stepping child reports (shared memory). */
struct step_result {
    int rc;                 /* 0 ok, -1 failure described in err */
    int done;               /* fn returned while stepped */
    unsigned long steps, unwinds;
    size_t n;               /* instructions traced (trace mode) */
    char err[512];
    uint32_t eips[];
};

/* One call level: frame 0 is fn, called by the trampoline. */
struct frame32 {
    uint32_t ret;           /* where this call returns to */
    uint32_t entry_esp;     /* esp at its first instruction */
    uint32_t entry;
    uint32_t call_site;     /* the call instruction (0: the trampoline) */
    uint32_t cs[4];         /* ebx esi edi ebp at its first instruction */
    int owner;              /* frame whose CFI describes this one (see below) */
};

/* State of the stepping child, read by on_trap(). */
static struct {
    enum { BEFORE_FN, IN_FN, AFTER_FN } phase;
    int check;              /* unwind at every step (else only trace) */
    uint32_t fn;
    unsigned long pre;
    int depth;
    struct frame32 frames[MAX_DEPTH];
    uint32_t prev_eip, prev_esp;
    size_t cap;
    struct step_result *res;
    volatile sig_atomic_t probing;  /* inside _Unwind_Backtrace */
    sigjmp_buf probe_fault;
} S;

static const char *where(uint32_t ip, char *buf, size_t n)
{
    return abi_where(S.fn, ip, buf, n);
}

static void fail_at(uint32_t eip, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void fail_at(uint32_t eip, const char *fmt, ...)
{
    const struct frame32 *f = &S.frames[S.depth];
    char what[300], at[24], entry[24], site[24];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    S.res->rc = -1;
    where(eip, at, sizeof(at));
    if (S.depth == 0)
        abi_set_err(S.res->err, sizeof(S.res->err), "at %s (step %lu): %s", at,
                S.res->steps, what);
    else
        abi_set_err(S.res->err, sizeof(S.res->err), "at %s (step %lu; depth %d, "
                "callee+0x%x, callee at %s called from %s): %s", at, S.res->steps,
                S.depth, (unsigned)(eip - f->entry), where(f->entry, entry, sizeof(entry)),
                where(f->call_site, site, sizeof(site)), what);
}

static void frame_enter(struct frame32 *f, const greg_t *g, uint32_t call_site)
{
    f->entry = (uint32_t)g[REG_EIP];
    f->entry_esp = (uint32_t)g[REG_ESP];
    f->ret = *(const uint32_t *)(uintptr_t)f->entry_esp;
    f->call_site = call_site;
    f->cs[0] = (uint32_t)g[REG_EBX];
    f->cs[1] = (uint32_t)g[REG_ESI];
    f->cs[2] = (uint32_t)g[REG_EDI];
    f->cs[3] = (uint32_t)g[REG_EBP];
}

/* The frames above the interrupted instruction, as libgcc sees them.  The
 * first are this handler's; the one after the signal frame is marked "IP
 * before instruction" and is the interrupted one; then its callers. */
struct unwound {
    uint32_t ip, esp, cs[4];        /* a caller's state after the return */
};

struct probe {
    int state;              /* 0 handler frames, 1 collecting callers */
    int want, n;            /* callers wanted, collected */
    uint32_t seen_ip;       /* the interrupted frame's IP */
    struct unwound up[MAX_DEPTH];
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
    for (int i = 0; i < 4; i++)
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
    static int chain[MAX_DEPTH], m;
    int sig;

    m = 0;
    for (int k = S.frames[S.depth].owner;; k = S.frames[k - 1].owner) {
        chain[m++] = k;
        if (k == 0)
            break;
    }
    memset(&p, 0, sizeof(p));
    p.want = m;
    /* Wrong CFI can send libgcc to a return address that is not code: with
     * no FDE for it, libgcc reads the bytes there looking for a signal
     * trampoline, and faults.  That fault is this instruction's failure. */
    if ((sig = sigsetjmp(S.probe_fault, 1)) != 0) {
        S.probing = 0;
        fail_at(eip, "unwound return address is not code: the unwinder faulted "
                "(signal %d) following the CFI", sig);
        return -1;
    }
    S.probing = 1;
    _Unwind_Backtrace(probe_frame, &p);
    S.probing = 0;
    if (p.state == 0) {
        fail_at(eip, "the unwinder did not find the signal frame");
        return -1;
    }
    if (p.seen_ip != eip) {
        fail_at(eip, "the unwinder found the interrupted frame at 0x%08x",
                (unsigned)p.seen_ip);
        return -1;
    }
    for (int i = 0; i < m; i++) {
        const struct frame32 *f = &S.frames[chain[i]];
        const struct unwound *u = &p.up[i];
        char up[40] = "";
        if (i > 0)
            snprintf(up, sizeof(up), "%d frames up: ", i + 1);
        if (i >= p.n) {
            fail_at(eip, "%sno unwind info (FDE) covers %s", up,
                    i ? "that return address" : "this instruction");
            return -1;
        }
        if (u->ip != f->ret) {
            fail_at(eip, "%sunwound return address 0x%08x, expected 0x%08x (%s)", up,
                    (unsigned)u->ip, (unsigned)f->ret,
                    f->call_site ? "just past the call" : "in the trampoline");
            return -1;
        }
        if (u->esp != f->entry_esp + 4) {
            fail_at(eip, "%sunwound esp is entry esp %+d, expected entry esp + 4", up,
                    (int)(u->esp - f->entry_esp));
            return -1;
        }
        if (private_callees && chain[i] != 0)
            continue;
        for (int r = 0; r < 4; r++)
            if (u->cs[r] != f->cs[r]) {
                fail_at(eip, "%sunwound %s = 0x%08x, expected 0x%08x (its value at "
                        "entry)", up, cs_names[r], (unsigned)u->cs[r], (unsigned)f->cs[r]);
                return -1;
            }
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

/* A call pushes the address just past itself (at most 7 bytes on for the
 * forms fn may use; 15 is the architectural limit) and does not go there.
 * "call 1f; 1:" does go there, so it counts as a push, which is how the
 * layer's CFI describes it. */
static int was_call(const greg_t *g, uint32_t *ret)
{
    uint32_t esp = (uint32_t)g[REG_ESP], eip = (uint32_t)g[REG_EIP];
    if (esp != S.prev_esp - 4)
        return 0;
    *ret = *(const uint32_t *)(uintptr_t)esp;
    return *ret > S.prev_eip && *ret <= S.prev_eip + 15 && eip != *ret;
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
    uint32_t eip = (uint32_t)g[REG_EIP], esp = (uint32_t)g[REG_ESP], ret;
    struct step_result *r = S.res;
    (void)sig, (void)si;

    if (S.phase == BEFORE_FN) {
        if (eip != S.fn) {
            if (++S.pre > PRE_STEP_LIMIT) {
                abi_set_err(r->err, sizeof(r->err), "fn not reached in %lu steps", S.pre);
                r->rc = -1;
                stop_stepping(g);
            }
            return;
        }
        S.phase = IN_FN;
        S.depth = 0;
        frame_enter(&S.frames[0], g, 0);
        S.frames[0].owner = 0;
    } else if (S.phase == IN_FN) {
        int k;
        /* A return pops the frame it leaves, and any it skipped.  fn itself
         * may come back with a wrong esp: abi32_call judges that. */
        for (k = S.depth; k > 0; k--)
            if (eip == S.frames[k].ret && esp > S.frames[k].entry_esp)
                break;
        if (k == 0 && eip != S.frames[0].ret)
            k = -1;
        if (k == 0) {
            S.phase = AFTER_FN;
            r->done = 1;
            stop_stepping(g);
            return;
        }
        if (k > 0) {
            S.depth = k - 1;
        } else if (was_call(g, &ret)) {
            struct frame32 *f;
            void *caller_fn, *callee_fn;
            if (S.depth + 1 >= MAX_DEPTH) {
                fail_at(eip, "calls nested deeper than %d", MAX_DEPTH);
                stop_stepping(g);
                return;
            }
            f = &S.frames[++S.depth];
            frame_enter(f, g, S.prev_eip);
            /* A call to a label of the same function (a local subroutine)
             * is described by that function's CFI as a deeper stack, so it
             * unwinds to the function's own caller. */
            caller_fn = _Unwind_FindEnclosingFunction((void *)(uintptr_t)S.prev_eip);
            callee_fn = _Unwind_FindEnclosingFunction((void *)(uintptr_t)eip);
            f->owner = caller_fn && caller_fn == callee_fn ? S.frames[S.depth - 1].owner
                                                           : S.depth;
        }
    } else {
        stop_stepping(g);
        return;
    }

    r->steps++;
    if (r->steps > step_limit) {
        char at[24];
        r->steps--;
        abi_set_err(r->err, sizeof(r->err), "step limit reached: %lu instructions "
                "single-stepped and fn has not returned (now at %s, depth %d)",
                r->steps, where(eip, at, sizeof(at)), S.depth);
        r->rc = -1;
        stop_stepping(g);
        return;
    }
    if (r->n < S.cap)
        r->eips[r->n] = eip;
    if (eip - cover.base < cover.size)
        cover.map[eip - cover.base] = 1;
    r->n++;
    if (S.check) {
        if (check_unwind(eip) != 0) {
            stop_stepping(g);
            return;
        }
        r->unwinds++;
    }
    S.prev_eip = eip;
    S.prev_esp = esp;
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
    fail_at(eip, "signal %d (%s)", sig, strsignal(sig));
    _exit(3);
}

static char alt_stack[256 * 1024];

static void step_child(const void *fn, struct abi_cdecl_io *io, int check)
{
    struct sigaction sa;
    stack_t ss = { .ss_sp = alt_stack, .ss_size = sizeof(alt_stack) };
    struct step_result *r = S.res;

    S.phase = BEFORE_FN;
    S.check = check;
    S.fn = (uint32_t)(uintptr_t)fn;
    if (sigaltstack(&ss, NULL) != 0) {
        abi_set_err(r->err, sizeof(r->err), "sigaltstack: %s", strerror(errno));
        r->rc = -1;
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
    if (r->rc == 0 && !r->done) {
        abi_set_err(r->err, sizeof(r->err), "%s", S.phase == BEFORE_FN
                ? "the trap flag never reached fn (no single-stepping?)"
                : "single-stepping stopped inside fn (did fn clear TF with popf?)");
        r->rc = -1;
    }
    _exit(0);
}

/* Runs fn single-stepped in a child; *out is the child's report. */
static int step_run(const void *fn, const uint32_t *args, int nargs, int check,
                    size_t cap, struct step_result **out, char *err, size_t errlen)
{
    struct abi_cdecl_io io;
    size_t size = sizeof(struct step_result) + cap * sizeof(uint32_t);
    struct step_result *r;
    pid_t pid;
    int status;

    *out = NULL;
    if (io_prepare(&io, args, nargs, err, errlen) != 0)
        return -1;
    r = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (r == MAP_FAILED) {
        abi_set_err(err, errlen, "mmap: %s", strerror(errno));
        return -1;
    }
    memset(r, 0, sizeof(*r));
    fflush(NULL);                   /* no buffered output twice */
    pid = fork();
    if (pid < 0) {
        abi_set_err(err, errlen, "fork: %s", strerror(errno));
        munmap(r, size);
        return -1;
    }
    if (pid == 0) {
        S.res = r;
        S.cap = cap;
        step_child(fn, &io, check);
    }
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            abi_set_err(err, errlen, "waitpid: %s", strerror(errno));
            munmap(r, size);
            return -1;
        }
    if (r->rc == 0 && WIFSIGNALED(status)) {
        abi_set_err(r->err, sizeof(r->err), "child killed by signal %d (%s)",
                WTERMSIG(status), strsignal(WTERMSIG(status)));
        r->rc = -1;
    } else if (r->rc == 0 && WIFEXITED(status) && WEXITSTATUS(status) != 0) {
        abi_set_err(r->err, sizeof(r->err), "child exited with status %d",
                WEXITSTATUS(status));
        r->rc = -1;
    }
    if (r->rc != 0)
        abi_set_err(err, errlen, "%s", r->err);
    *out = r;
    return r->rc;
}

static void step_free(struct step_result *r, size_t cap)
{
    if (r)
        munmap(r, sizeof(*r) + cap * sizeof(uint32_t));
}

int unwind32_check(const void *fn, const uint32_t *args, int nargs,
                   struct unwind_stats *st, char *err, size_t errlen)
{
    struct step_result *r;
    int rc = step_run(fn, args, nargs, 1, 0, &r, err, errlen);
    if (st) {
        st->steps = r ? r->steps : 0;
        st->unwinds = r ? r->unwinds : 0;
        st->handled = 0;
    }
    step_free(r, 0);
    return rc;
}

int trace32_call(const void *fn, const uint32_t *args, int nargs,
                 uint32_t *eips, size_t cap, size_t *n, char *err, size_t errlen)
{
    struct step_result *r;
    int rc = step_run(fn, args, nargs, 0, cap, &r, err, errlen);
    *n = r ? r->n : 0;
    if (r && eips)
        memcpy(eips, r->eips, (r->n < cap ? r->n : cap) * sizeof(uint32_t));
    step_free(r, cap);
    return rc;
}
