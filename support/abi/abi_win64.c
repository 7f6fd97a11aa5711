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

#define ABI_CS_WORDS   28      /* rbx rbp rdi rsi r12-r15, then xmm6-15 (2 words each) */
#define ABI_STEP_LIMIT 2000000UL
#include "abi_core.h"

#include <windows.h>

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

static const char *const gpr_name[8] = { "rbx", "rbp", "rdi", "rsi", "r12", "r13", "r14", "r15" };
static const char *const xmm_name[10] = { "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11",
                                          "xmm12", "xmm13", "xmm14", "xmm15" };
/* Windows register numbers of the same registers (CONTEXT order). */
static const int gpr_winreg[8] = { 3, 5, 7, 6, 12, 13, 14, 15 };

static int fill_io(struct w64_io *io, const void *fn, const uint64_t *args, int nargs,
                   uint64_t tf, char *err, size_t errlen)
{
    memset(io, 0, sizeof(*io));
    io->fn = (uint64_t)(uintptr_t)fn;
    io->tf = tf;
    if (!fn) {
        abi_set_err(err, errlen, "bad function: NULL");
        return -1;
    }
    abi_prepare(NULL, 0, NULL, 0, &io->xmm_in[0][0], 20, NULL, 0);
    return abi_prepare(io->args, ABI_MAX_ARGS, args, nargs, io->gpr_in, 8, err, errlen);
}

int abi_call(const void *fn, const uint64_t *args, int nargs, uint64_t *ret,
             char *err, size_t errlen)
{
    struct w64_io io;
    struct abi_verdict v = { 0 };

    if (fill_io(&io, fn, args, nargs, 0, err, errlen) != 0)
        return -1;
    abi_win64_trampoline(&io);
    if (ret != NULL)
        *ret = io.rax;
    abi_verdict_sp(&v, "rsp", (long long)(io.rsp_after - io.rsp_call));
    abi_verdict_regs(&v, gpr_name, io.gpr_in, io.gpr_out, 8, 1);
    abi_verdict_regs(&v, xmm_name, &io.xmm_in[0][0], &io.xmm_out[0][0], 10, 2);
    abi_verdict_df(&v, io.rflags);
    /* The trampoline's own promise; a failure here is a bug in the rig. */
    abi_violation(&v, (io.rsp_call & 15) != 0, "trampoline bug: rsp 0x%llx not 16-aligned "
                  "at the call", (unsigned long long)io.rsp_call);
    return abi_verdict_end(&v, err, errlen);
}

/* ------------------------------------------------------------------------ */
/* unwind_check                                                             */

int unwind_check_available(const char **why)
{
    if (why)
        *why = NULL;
    return 1;
}

enum { ST_IDLE, ST_WAIT_ENTRY, ST_STEPPING, ST_DONE };

/*
 * The vectored handler has no user argument, so the state is static: one
 * unwind_check at a time (the tests are single-threaded).
 */
static struct abi_run run;
static volatile int state;
static int chain;                   /* unwind_set_chain */
/* Guard around RtlVirtualUnwind: bad unwind info can make it fault. */
static volatile int in_unwind;
static void *jb[5];

/* The callee-saved registers of a context, as a frame records them. */
static void ctx_cs(const CONTEXT *c, abi_word cs[ABI_CS_WORDS])
{
    const DWORD64 gpr[8] = { c->Rbx, c->Rbp, c->Rdi, c->Rsi, c->R12, c->R13, c->R14, c->R15 };
    memcpy(cs, gpr, sizeof(gpr));
    for (int i = 0; i < 10; i++) {
        cs[8 + 2 * i] = c->FltSave.XmmRegisters[i + 6].Low;
        cs[9 + 2 * i] = (abi_word)c->FltSave.XmmRegisters[i + 6].High;
    }
}

static int peek(abi_word addr, abi_word *val)
{
    *val = *(const abi_word *)addr;
    return 0;
}

/* Where the unwinder found a register, for the failure message. */
static const char *describe_source(char *buf, size_t len, const void *p,
                                   const struct abi_frame *f, int have_pdata)
{
    if (!have_pdata)
        snprintf(buf, len, "; no .pdata: leaf rule, register not restored");
    else if (p == NULL)
        snprintf(buf, len, "; not restored by the unwind codes");
    else
        snprintf(buf, len, "; the unwinder read it at entry rsp%+lld",
                 (long long)((abi_word)p - f->entry_sp));
    return buf;
}

/* Entered from the handler when RtlVirtualUnwind faults; see unwind_one. */
static void __attribute__((noinline, noreturn)) escape_unwinder(void)
{
    __builtin_longjmp(jb, 1);
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
    if (__builtin_setjmp(jb)) {
        in_unwind = 0;
        return -1;
    }
    in_unwind = 1;
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
        run.handled++;
        handler(&rec, (PVOID)(uintptr_t)establisher, &at_pc, &disp);
    }
    in_unwind = 0;
    return 0;
}

/*
 * Unwinds a copy of the live context by one frame and checks it against
 * that frame's entry state; in chain mode (unwind_set_chain) by as many
 * frames as lie above fn's, checked against fn's entry state.
 */
static void check_unwind(const CONTEXT *live)
{
    const struct abi_frame *f = &run.frames[chain ? 0 : run.depth];
    static CONTEXT c;   /* static: CONTEXT is large and 16-aligned */
    KNONVOLATILE_CONTEXT_POINTERS ptrs;
    DWORD64 base = 0, rip = live->Rip;
    PRUNTIME_FUNCTION rf = NULL;
    abi_word got[ABI_CS_WORDS];
    const char *leaf;
    char src[96];

    c = *live;
    memset(&ptrs, 0, sizeof(ptrs));
    run.unwinds++;
    for (int up = chain ? run.depth + 1 : 1; up > 0; up--) {
        rf = RtlLookupFunctionEntry(c.Rip, &base, NULL);
        if (rf == NULL) {
            /* Leaf: the return address must be at [rsp]. */
            c.Rip = *(const DWORD64 *)c.Rsp;
            c.Rsp += 8;
        } else if (guarded_virtual_unwind(base, rf, &c, &ptrs) != 0) {
            abi_fail(&run, rip, "RtlVirtualUnwind faulted: the unwind info makes it read "
                     "outside memory (frame register or offsets wrong?)");
            return;
        }
    }
    leaf = rf ? "" : " [no .pdata: leaf rule]";
    if (c.Rip != f->ret) {
        abi_fail(&run, rip, "unwound return address 0x%llx, expected 0x%llx (caller rsp "
                 "0x%llx, expected 0x%llx)%s", (unsigned long long)c.Rip,
                 (unsigned long long)f->ret, (unsigned long long)c.Rsp,
                 (unsigned long long)(f->entry_sp + 8), leaf);
        return;
    }
    if (c.Rsp != f->entry_sp + 8) {
        abi_fail(&run, rip, "unwound rsp is entry rsp %+lld, expected entry rsp + 8%s",
                 (long long)(c.Rsp - f->entry_sp), leaf);
        return;
    }
    ctx_cs(&c, got);
    for (int i = 0; i < 8; i++)
        if (got[i] != f->cs[i])
            return (void)abi_unwound_same(&run, rip, "", &gpr_name[i], &got[i], &f->cs[i], 1, 1,
                                          describe_source(src, sizeof(src),
                                                          ptrs.IntegerContext[gpr_winreg[i]],
                                                          f, rf != NULL));
    for (int i = 0; i < 10; i++)
        if (memcmp(&got[8 + 2 * i], &f->cs[8 + 2 * i], 2 * sizeof(abi_word)) != 0)
            return (void)abi_unwound_same(&run, rip, "", &xmm_name[i], &got[8 + 2 * i],
                                          &f->cs[8 + 2 * i], 1, 2,
                                          describe_source(src, sizeof(src),
                                                          ptrs.FloatingContext[i + 6],
                                                          f, rf != NULL));
}

static void stop_stepping(CONTEXT *c)
{
    c->EFlags &= ~EFLAGS_TF;
    state = ST_DONE;
}

static LONG CALLBACK step_handler(EXCEPTION_POINTERS *ep)
{
    DWORD code = ep->ExceptionRecord->ExceptionCode;
    CONTEXT *c = ep->ContextRecord;

    /* Any error (access violation, misalignment...) inside the unwinder. */
    if (in_unwind && (code & 0xc0000000u) == 0xc0000000u)
        escape_unwinder();
    if (code != EXCEPTION_SINGLE_STEP || (state != ST_WAIT_ENTRY && state != ST_STEPPING))
        return EXCEPTION_CONTINUE_SEARCH;

    if (state == ST_WAIT_ENTRY) {
        if (c->Rip != run.fn) {
            /* Still in the trampoline, between popfq and the call. */
            if (abi_pre_step(&run) != 0)
                stop_stepping(c);
            else
                c->EFlags |= EFLAGS_TF;
            return EXCEPTION_CONTINUE_EXECUTION;
        }
        ctx_cs(c, abi_enter_fn(&run, c->Rsp, *(const DWORD64 *)c->Rsp, 0)->cs);
        if (run.frames[0].ret != (abi_word)abi_win64_trampoline_ret)
            abi_stop(&run, "trampoline bug: return address 0x%llx at fn entry",
                     (unsigned long long)run.frames[0].ret);
        state = ST_STEPPING;
    } else {
        enum abi_next next = abi_next(&run, c->Rip, c->Rsp);
        if (next == ABI_RETURNED || next == ABI_STOPPED) {
            /* (abi_call reports a bad rsp after the return.) */
            stop_stepping(c);
            return EXCEPTION_CONTINUE_EXECUTION;
        }
        if (next == ABI_CALLED)
            ctx_cs(c, run.frames[run.depth].cs);
    }
    check_unwind(c);
    c->EFlags |= EFLAGS_TF;
    return EXCEPTION_CONTINUE_EXECUTION;
}

int unwind_check(const void *fn, const uint64_t *args, int nargs,
                 struct unwind_stats *st, char *err, size_t errlen)
{
    struct w64_io io;
    PVOID h;

    abi_run_init(&run, fn, peek);
    if (fill_io(&io, fn, args, nargs, EFLAGS_TF, err, errlen) != 0) {
        abi_run_end(&run, st, NULL, 0);
        return -1;
    }
    h = AddVectoredExceptionHandler(1, step_handler);
    if (h == NULL) {
        abi_stop(&run, "AddVectoredExceptionHandler failed (%lu)", (unsigned long)GetLastError());
        return abi_run_end(&run, st, err, errlen);
    }
    state = ST_WAIT_ENTRY;
    abi_win64_trampoline(&io);
    if (state != ST_DONE)
        abi_stop(&run, "%s", state == ST_WAIT_ENTRY
                 ? "the trap flag never fired (no single-step exceptions)"
                 : "fn returned without the handler noticing");
    state = ST_IDLE;
    RemoveVectoredExceptionHandler(h);
    return abi_run_end(&run, st, err, errlen);
}

void unwind_set_chain(int on)
{
    chain = on;
}
