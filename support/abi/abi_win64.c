/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Win64 implementation of support/abi/abi_check.h (mingw-w64, run under wine64).
 *
 * abi_call runs fn through trampoline_win64.pl and compares what it stored
 * back.  unwind_check runs the same call with the trap flag set: a vectored
 * exception handler sees every instruction of fn and of what fn calls, and
 * at each one unwinds a copy of the context by one frame with
 * RtlLookupFunctionEntry + RtlVirtualUnwind (or the leaf rule when there is
 * no .pdata entry) and compares the result with the state at that frame's
 * entry.
 *
 * The unwind data it reads (.pdata, UNWIND_INFO, the unwind codes and
 * what gas, nasm and wine make of them) is described in
 * docs/win64-unwind-data.md.
 */
#include "abi_check.h"
#include "abi_report.h"

#include <windows.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Shared with trampoline_win64.pl: keep in step with its IO_* offsets. */
struct w64_io {
    uint64_t gpr_in[8];     /* rbx rbp rdi rsi r12 r13 r14 r15 */
    uint64_t gpr_out[8];
    uint64_t xmm_in[10][2]; /* xmm6..xmm15, low quadword first */
    uint64_t xmm_out[10][2];
    uint64_t args[ABI_MAX_ARGS];
    uint64_t fn;
    uint64_t tf;
    uint64_t rax;
    uint64_t rflags;
    uint64_t rsp_call;
    uint64_t rsp_after;
};
_Static_assert(offsetof(struct w64_io, gpr_out) == 64, "IO_GPR_OUT");
_Static_assert(offsetof(struct w64_io, xmm_in) == 128, "IO_XMM_IN");
_Static_assert(offsetof(struct w64_io, xmm_out) == 288, "IO_XMM_OUT");
_Static_assert(offsetof(struct w64_io, args) == 448, "IO_ARGS");
_Static_assert(offsetof(struct w64_io, fn) == 528, "IO_FN");
_Static_assert(offsetof(struct w64_io, tf) == 536, "IO_TF");
_Static_assert(offsetof(struct w64_io, rax) == 544, "IO_RAX");
_Static_assert(offsetof(struct w64_io, rflags) == 552, "IO_RFLAGS");
_Static_assert(offsetof(struct w64_io, rsp_call) == 560, "IO_RSP_CALL");
_Static_assert(offsetof(struct w64_io, rsp_after) == 568, "IO_RSP_AFTER");

void abi_win64_trampoline(struct w64_io *io);
extern const unsigned char abi_win64_trampoline_ret[];

#define EFLAGS_TF 0x100u
#define EFLAGS_DF 0x400u

static const char *const gpr_name[8] = {
    "rbx", "rbp", "rdi", "rsi", "r12", "r13", "r14", "r15"
};
/* Windows register numbers of the same registers (CONTEXT order). */
static const int gpr_winreg[8] = { 3, 5, 7, 6, 12, 13, 14, 15 };

/* Appends to a message already in buf (used to list several mismatches). */
static void append(char *buf, size_t len, const char *f, ...)
    __attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t len, const char *f, ...)
{
    size_t used = strlen(buf);
    va_list ap;
    if (used + 1 >= len)
        return;
    va_start(ap, f);
    vsnprintf(buf + used, len - used, f, ap);
    va_end(ap);
}

/* xorshift64*: values for the callee-saved registers, different each call. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
    uint64_t x = rng_state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    rng_state = x;
    return x * 0x2545f4914f6cdd1dull;
}

static int fill_io(struct w64_io *io, const void *fn, const uint64_t *args,
                   int nargs, uint64_t tf, char *err, size_t errlen)
{
    if (fn == NULL || nargs < 0 || nargs > ABI_MAX_ARGS
        || (nargs > 0 && args == NULL)) {
        abi_set_err(err, errlen, "bad arguments (fn %p, nargs %d, at most %d)",
            fn, nargs, ABI_MAX_ARGS);
        return -1;
    }
    memset(io, 0, sizeof(*io));
    for (int i = 0; i < 8; i++)
        io->gpr_in[i] = rnd();
    for (int i = 0; i < 10; i++) {
        io->xmm_in[i][0] = rnd();
        io->xmm_in[i][1] = rnd();
    }
    /* Unused argument slots get random junk too: fn must not rely on them. */
    for (int i = 0; i < ABI_MAX_ARGS; i++)
        io->args[i] = i < nargs ? args[i] : rnd();
    io->fn = (uint64_t)(uintptr_t)fn;
    io->tf = tf;
    return 0;
}

int abi_call(const void *fn, const uint64_t *args, int nargs, uint64_t *ret,
             char *err, size_t errlen)
{
    struct w64_io io;
    char msg[1024] = "";

    if (fill_io(&io, fn, args, nargs, 0, err, errlen) != 0)
        return -1;
    abi_win64_trampoline(&io);
    if (ret != NULL)
        *ret = io.rax;

    for (int i = 0; i < 8; i++)
        if (io.gpr_out[i] != io.gpr_in[i])
            append(msg, sizeof(msg), "%s%s changed: 0x%016llx -> 0x%016llx",
                   msg[0] ? "; " : "", gpr_name[i],
                   (unsigned long long)io.gpr_in[i],
                   (unsigned long long)io.gpr_out[i]);
    for (int i = 0; i < 10; i++)
        if (io.xmm_out[i][0] != io.xmm_in[i][0]
            || io.xmm_out[i][1] != io.xmm_in[i][1])
            append(msg, sizeof(msg),
                   "%sxmm%d changed: 0x%016llx%016llx -> 0x%016llx%016llx",
                   msg[0] ? "; " : "", i + 6,
                   (unsigned long long)io.xmm_in[i][1],
                   (unsigned long long)io.xmm_in[i][0],
                   (unsigned long long)io.xmm_out[i][1],
                   (unsigned long long)io.xmm_out[i][0]);
    if (io.rflags & EFLAGS_DF)
        append(msg, sizeof(msg), "%sdirection flag left set",
               msg[0] ? "; " : "");
    if (io.rsp_after != io.rsp_call)
        append(msg, sizeof(msg), "%sstack pointer off by %+lld after return",
               msg[0] ? "; " : "",
               (long long)(io.rsp_after - io.rsp_call));
    /* The trampoline's own promise; a failure here is a bug in the rig. */
    if (io.rsp_call & 15)
        append(msg, sizeof(msg), "%strampoline bug: rsp 0x%llx not 16-aligned at call",
               msg[0] ? "; " : "", (unsigned long long)io.rsp_call);
    if (msg[0]) {
        abi_set_err(err, errlen, "%s", msg);
        return -1;
    }
    if (err != NULL && errlen > 0)
        err[0] = '\0';
    return 0;
}

/* ------------------------------------------------------------------------ */
/* unwind_check                                                             */

#define MAX_DEPTH 64
#define DEFAULT_MAX_STEPS 2000000ul
#define MAX_PRE_STEPS 8       /* traps inside the trampoline before fn */

/* What a frame must unwind to: its state at entry. */
struct frame {
    DWORD64 entry;            /* first instruction (fn, or a callee) */
    DWORD64 ret;              /* return address at entry, [rsp] */
    DWORD64 rsp;              /* rsp at entry */
    DWORD64 gpr[8];
    M128A xmm[10];
};

enum { ST_IDLE, ST_WAIT_ENTRY, ST_STEPPING, ST_DONE };

/*
 * The vectored handler has no user argument, so the state is static: one
 * unwind_check at a time (the tests are single-threaded).
 */
static struct {
    volatile int state;
    DWORD64 fn;
    unsigned long max_steps, pre_steps, steps, unwinds, failures;
    unsigned long handler_calls;  /* unwinds that went through a handler */
    int chain;                /* unwind_set_chain */
    int depth;                /* frames on fr[]; fr[0] is fn's */
    struct frame fr[MAX_DEPTH];
    DWORD64 prev_rip, prev_rsp;
    char first[640];          /* first failure */
    char fatal[256];          /* stepping had to stop */
    /* Guard around RtlVirtualUnwind: bad unwind info can make it fault. */
    volatile int in_unwind;
    void *jb[5];
} us;

static DWORD64 ctx_gpr(const CONTEXT *c, int i)
{
    switch (i) {
    case 0: return c->Rbx;
    case 1: return c->Rbp;
    case 2: return c->Rdi;
    case 3: return c->Rsi;
    case 4: return c->R12;
    case 5: return c->R13;
    case 6: return c->R14;
    default: return c->R15;
    }
}

static void record_entry(struct frame *f, const CONTEXT *c)
{
    f->entry = c->Rip;
    f->rsp = c->Rsp;
    f->ret = *(const DWORD64 *)c->Rsp;
    for (int i = 0; i < 8; i++)
        f->gpr[i] = ctx_gpr(c, i);
    for (int i = 0; i < 10; i++)
        f->xmm[i] = c->FltSave.XmmRegisters[i + 6];
}

/* "fn+0x12", or for a callee "callee 0x...+0x3 (depth 1, called from fn+0x20)". */
static void describe_pc(char *buf, size_t len, DWORD64 rip)
{
    if (us.depth <= 1) {
        if (rip >= us.fn)
            snprintf(buf, len, "fn+0x%llx", (unsigned long long)(rip - us.fn));
        else    /* e.g. after a tail jump to a lower address */
            snprintf(buf, len, "fn-0x%llx", (unsigned long long)(us.fn - rip));
        return;
    }
    const struct frame *top = &us.fr[us.depth - 1];
    snprintf(buf, len, "callee 0x%llx+0x%llx (depth %d, called from fn+0x%llx)",
             (unsigned long long)top->entry,
             (unsigned long long)(rip - top->entry), us.depth - 1,
             (unsigned long long)(us.fr[1].ret - us.fn));
}

/* Where the unwinder found a register, for the failure message. */
static void describe_source(char *buf, size_t len, const void *p,
                            const struct frame *f, int have_pdata)
{
    if (!have_pdata)
        snprintf(buf, len, "no .pdata: leaf rule, register not restored");
    else if (p == NULL)
        snprintf(buf, len, "not restored by the unwind codes");
    else
        snprintf(buf, len, "unwinder read it at entry rsp%+lld",
                 (long long)((DWORD64)(uintptr_t)p - f->rsp));
}

static void fail(DWORD64 rip, const char *f, ...)
    __attribute__((format(printf, 2, 3)));
static void fail(DWORD64 rip, const char *f, ...)
{
    char where[160];
    va_list ap;
    int n;

    if (us.failures++ > 0)
        return;
    describe_pc(where, sizeof(where), rip);
    n = snprintf(us.first, sizeof(us.first), "%s: ", where);
    if (n < 0 || (size_t)n >= sizeof(us.first))
        return;
    va_start(ap, f);
    vsnprintf(us.first + n, sizeof(us.first) - (size_t)n, f, ap);
    va_end(ap);
}

/* Entered from the handler when RtlVirtualUnwind faults; see unwind_one. */
static void __attribute__((noinline, noreturn)) escape_unwinder(void)
{
    __builtin_longjmp(us.jb, 1);
}

/*
 * Returns 0, or -1 if the unwinder (or the function's exception handler)
 * faulted (bad unwind info).  A function whose UNWIND_INFO names an
 * exception handler is unwound as exception dispatch unwinds it: the
 * handler RtlVirtualUnwind returns for the faulting pc (none inside a
 * prologue or an epilogue) is called with the context at that pc and a
 * DISPATCHER_CONTEXT whose ContextRecord is the unwound one, which the
 * handler may correct.  The frames it describes are only right through
 * it, so this is how they are checked.
 */
static int __attribute__((noinline))
guarded_virtual_unwind(DWORD64 base, PRUNTIME_FUNCTION rf, CONTEXT *c,
                       KNONVOLATILE_CONTEXT_POINTERS *ptrs)
{
    static CONTEXT at_pc;
    static EXCEPTION_RECORD rec;
    DISPATCHER_CONTEXT disp;
    PEXCEPTION_ROUTINE handler;
    PVOID handler_data = NULL;
    DWORD64 establisher = 0, pc = c->Rip;

    at_pc = *c;
    if (__builtin_setjmp(us.jb)) {
        us.in_unwind = 0;
        return -1;
    }
    us.in_unwind = 1;
    handler = RtlVirtualUnwind(UNW_FLAG_EHANDLER, base, pc, rf, c,
                               &handler_data, &establisher, ptrs);
    if (handler != NULL) {
        memset(&disp, 0, sizeof(disp));
        memset(&rec, 0, sizeof(rec));
        rec.ExceptionCode = EXCEPTION_SINGLE_STEP;
        rec.ExceptionAddress = (PVOID)(uintptr_t)pc;
        disp.ControlPc = pc;
        disp.ImageBase = base;
        disp.FunctionEntry = rf;
        disp.EstablisherFrame = establisher;
        disp.ContextRecord = c;
        disp.LanguageHandler = handler;
        disp.HandlerData = handler_data;
        us.handler_calls++;
        handler(&rec, (PVOID)(uintptr_t)establisher, &at_pc, &disp);
    }
    us.in_unwind = 0;
    return 0;
}

/*
 * Unwinds a copy of the live context by one frame and checks it against
 * that frame's entry state; in chain mode (unwind_set_chain) by as many
 * frames as lie above fn's, checked against fn's entry state.
 */
static void check_unwind(const CONTEXT *live)
{
    const struct frame *f = &us.fr[us.chain ? 0 : us.depth - 1];
    static CONTEXT c;   /* static: CONTEXT is large and 16-aligned */
    KNONVOLATILE_CONTEXT_POINTERS ptrs;
    DWORD64 base = 0, rip = live->Rip;
    PRUNTIME_FUNCTION rf = NULL;
    char src[96];

    c = *live;
    memset(&ptrs, 0, sizeof(ptrs));
    us.unwinds++;
    for (int up = us.chain ? us.depth : 1; up > 0; up--) {
        rf = RtlLookupFunctionEntry(c.Rip, &base, NULL);
        if (rf == NULL) {
            /* Leaf: the return address must be at [rsp]. */
            c.Rip = *(const DWORD64 *)c.Rsp;
            c.Rsp += 8;
        } else if (guarded_virtual_unwind(base, rf, &c, &ptrs) != 0) {
            fail(rip, "RtlVirtualUnwind faulted: the unwind info makes it read "
                 "outside memory (frame register or offsets wrong?)");
            return;
        }
    }

    if (c.Rip != f->ret) {
        fail(rip, "return address after unwinding is 0x%llx, want 0x%llx "
             "(caller rsp 0x%llx, want 0x%llx)%s",
             (unsigned long long)c.Rip, (unsigned long long)f->ret,
             (unsigned long long)c.Rsp, (unsigned long long)(f->rsp + 8),
             rf ? "" : " [no .pdata: leaf rule]");
        return;
    }
    if (c.Rsp != f->rsp + 8) {
        fail(rip, "caller rsp after unwinding is 0x%llx, want 0x%llx "
             "(off by %+lld)%s",
             (unsigned long long)c.Rsp, (unsigned long long)(f->rsp + 8),
             (long long)(c.Rsp - (f->rsp + 8)),
             rf ? "" : " [no .pdata: leaf rule]");
        return;
    }
    for (int i = 0; i < 8; i++) {
        DWORD64 got = ctx_gpr(&c, i);
        if (got != f->gpr[i]) {
            describe_source(src, sizeof(src),
                            ptrs.IntegerContext[gpr_winreg[i]], f, rf != NULL);
            fail(rip, "%s after unwinding is 0x%016llx, want 0x%016llx (%s)",
                 gpr_name[i], (unsigned long long)got,
                 (unsigned long long)f->gpr[i], src);
            return;
        }
    }
    for (int i = 0; i < 10; i++) {
        const M128A *got = &c.FltSave.XmmRegisters[i + 6];
        if (got->Low != f->xmm[i].Low || got->High != f->xmm[i].High) {
            describe_source(src, sizeof(src), ptrs.FloatingContext[i + 6], f,
                            rf != NULL);
            fail(rip, "xmm%d after unwinding is 0x%016llx%016llx, want "
                 "0x%016llx%016llx (%s)", i + 6,
                 (unsigned long long)got->High, (unsigned long long)got->Low,
                 (unsigned long long)f->xmm[i].High,
                 (unsigned long long)f->xmm[i].Low, src);
            return;
        }
    }
}

/* Is the instruction at p a near call (E8, or FF /2), after prefixes? */
static int is_call(const unsigned char *p)
{
    int i = 0;
    while (i < 4 && (p[i] == 0x66 || p[i] == 0x67 || p[i] == 0xf2
                     || p[i] == 0x2e || p[i] == 0x3e || p[i] == 0x26
                     || p[i] == 0x36 || p[i] == 0x64 || p[i] == 0x65))
        i++;
    if ((p[i] & 0xf0) == 0x40)
        i++;
    return p[i] == 0xe8 || (p[i] == 0xff && ((p[i + 1] >> 3) & 7) == 2);
}

static void stop_stepping(CONTEXT *c)
{
    c->EFlags &= ~EFLAGS_TF;
    us.state = ST_DONE;
}

static LONG CALLBACK step_handler(EXCEPTION_POINTERS *ep)
{
    DWORD code = ep->ExceptionRecord->ExceptionCode;
    CONTEXT *c = ep->ContextRecord;

    /* Any error (access violation, misalignment...) inside the unwinder. */
    if (us.in_unwind && (code & 0xc0000000u) == 0xc0000000u)
        escape_unwinder();
    if (code != EXCEPTION_SINGLE_STEP
        || (us.state != ST_WAIT_ENTRY && us.state != ST_STEPPING))
        return EXCEPTION_CONTINUE_SEARCH;

    if (us.state == ST_WAIT_ENTRY) {
        if (c->Rip != us.fn) {
            /* Still in the trampoline, between popfq and the call. */
            if (++us.pre_steps > MAX_PRE_STEPS) {
                snprintf(us.fatal, sizeof(us.fatal),
                         "single-stepping never reached fn (stopped at 0x%llx)",
                         (unsigned long long)c->Rip);
                stop_stepping(c);
                return EXCEPTION_CONTINUE_EXECUTION;
            }
            c->EFlags |= EFLAGS_TF;
            return EXCEPTION_CONTINUE_EXECUTION;
        }
        us.depth = 1;
        record_entry(&us.fr[0], c);
        if (us.fr[0].ret != (DWORD64)(uintptr_t)abi_win64_trampoline_ret)
            snprintf(us.fatal, sizeof(us.fatal),
                     "trampoline bug: return address 0x%llx at fn entry",
                     (unsigned long long)us.fr[0].ret);
        us.state = ST_STEPPING;
    } else {
        struct frame *top = &us.fr[us.depth - 1];
        if (c->Rip == (DWORD64)(uintptr_t)abi_win64_trampoline_ret) {
            /* Back in the trampoline (abi_call reports a bad rsp). */
            stop_stepping(c);
            return EXCEPTION_CONTINUE_EXECUTION;
        }
        if (us.depth > 1 && c->Rip == top->ret && c->Rsp == top->rsp + 8) {
            us.depth--;           /* a callee returned */
        } else if (c->Rsp == us.prev_rsp - 8
                   && is_call((const unsigned char *)(uintptr_t)us.prev_rip)
                   && *(const DWORD64 *)c->Rsp > us.prev_rip
                   && *(const DWORD64 *)c->Rsp <= us.prev_rip + 15
                   && *(const DWORD64 *)c->Rsp != c->Rip) {
            if (us.depth == MAX_DEPTH) {
                snprintf(us.fatal, sizeof(us.fatal),
                         "call depth above %d at 0x%llx", MAX_DEPTH,
                         (unsigned long long)c->Rip);
                stop_stepping(c);
                return EXCEPTION_CONTINUE_EXECUTION;
            }
            record_entry(&us.fr[us.depth++], c);
        }
    }

    us.steps++;
    check_unwind(c);
    us.prev_rip = c->Rip;
    us.prev_rsp = c->Rsp;
    if (us.steps >= us.max_steps) {
        snprintf(us.fatal, sizeof(us.fatal),
                 "gave up after %lu instructions (runaway? set ABI_MAX_STEPS "
                 "to allow more)", us.steps);
        stop_stepping(c);
        return EXCEPTION_CONTINUE_EXECUTION;
    }
    c->EFlags |= EFLAGS_TF;
    return EXCEPTION_CONTINUE_EXECUTION;
}

int unwind_check(const void *fn, const uint64_t *args, int nargs,
                 struct unwind_stats *st, char *err, size_t errlen)
{
    struct w64_io io;
    const char *env = getenv("ABI_MAX_STEPS");
    PVOID h;

    if (st != NULL)
        st->steps = st->unwinds = st->handled = 0;
    if (fill_io(&io, fn, args, nargs, EFLAGS_TF, err, errlen) != 0)
        return -1;

    int chain = us.chain;
    memset(&us, 0, sizeof(us));
    us.chain = chain;
    us.fn = (DWORD64)(uintptr_t)fn;
    us.max_steps = DEFAULT_MAX_STEPS;
    if (env != NULL && strtoul(env, NULL, 0) > 0)
        us.max_steps = strtoul(env, NULL, 0);

    h = AddVectoredExceptionHandler(1, step_handler);
    if (h == NULL) {
        abi_set_err(err, errlen, "AddVectoredExceptionHandler failed (%lu)",
            (unsigned long)GetLastError());
        return -1;
    }
    us.state = ST_WAIT_ENTRY;
    abi_win64_trampoline(&io);
    if (us.state != ST_DONE && !us.fatal[0])
        snprintf(us.fatal, sizeof(us.fatal), "%s",
                 us.state == ST_WAIT_ENTRY
                     ? "the trap flag never fired (no single-step exceptions)"
                     : "fn returned without the handler noticing");
    us.state = ST_IDLE;
    RemoveVectoredExceptionHandler(h);

    if (st != NULL) {
        st->steps = us.steps;
        st->unwinds = us.unwinds;
        st->handled = us.handler_calls;
    }
    if (us.fatal[0] || us.failures) {
        if (us.failures && us.fatal[0])
            abi_set_err(err, errlen, "%s; %lu of %lu instructions failed; also: %s",
                us.first, us.failures, us.unwinds, us.fatal);
        else if (us.failures)
            abi_set_err(err, errlen, "%s; %lu of %lu instructions failed", us.first,
                us.failures, us.unwinds);
        else
            abi_set_err(err, errlen, "%s", us.fatal);
        return -1;
    }
    if (err != NULL && errlen > 0)
        err[0] = '\0';
    return 0;
}

void unwind_set_chain(int on)
{
    us.chain = on;
}
