/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SysV x86_64 (ELF) implementation of abi_check.h.
 *
 * abi_call runs fn through abi_trampoline_sysv (trampoline_sysv.pl) in this
 * process.  unwind_check runs the same call in a forked child that the
 * parent single-steps with ptrace; at every stop inside fn (or inside
 * anything fn calls) it unwinds one frame with libunwind-ptrace and
 * compares the result with what the registers were when that frame was
 * entered.  Built with -DABI_NO_LIBUNWIND (no libunwind-dev), unwind_check
 * only reports that it is unavailable.
 */
#include "abi_check.h"

#define ABI_CS_WORDS   6       /* rbx rbp r12 r13 r14 r15 */
#define ABI_STEP_LIMIT 50000000UL
#include "abi_core.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef ABI_NO_LIBUNWIND
#include <libunwind-ptrace.h>
#endif

/* Shared with trampoline_sysv.pl, which hard-codes these offsets. */
struct abi_sysv_io {
    uint64_t args[ABI_MAX_ARGS];    /* all ten are passed; unused ones random */
    uint64_t cs_in[ABI_CS_WORDS];   /* rbx rbp r12 r13 r14 r15 loaded for fn */
    uint64_t cs_out[ABI_CS_WORDS];           /* ... and what fn left in them */
    uint64_t rax;
    uint64_t rflags;
    int64_t rsp_delta;              /* rsp after the return - rsp at the call */
    uint64_t call_rsp;
    uint32_t mxcsr_in, mxcsr_out;
    uint16_t fcw_in, fcw_out;
};

_Static_assert(ABI_MAX_ARGS == 10, "trampoline_sysv.pl passes exactly 10 arguments");
_Static_assert(offsetof(struct abi_sysv_io, cs_in) == 80, "IO_CS_IN");
_Static_assert(offsetof(struct abi_sysv_io, cs_out) == 128, "IO_CS_OUT");
_Static_assert(offsetof(struct abi_sysv_io, rax) == 176, "IO_RAX");
_Static_assert(offsetof(struct abi_sysv_io, rflags) == 184, "IO_RFLAGS");
_Static_assert(offsetof(struct abi_sysv_io, rsp_delta) == 192, "IO_RSP_DELTA");
_Static_assert(offsetof(struct abi_sysv_io, call_rsp) == 200, "IO_CALL_RSP");
_Static_assert(offsetof(struct abi_sysv_io, mxcsr_in) == 208, "IO_MXCSR_IN");
_Static_assert(offsetof(struct abi_sysv_io, mxcsr_out) == 212, "IO_MXCSR_OUT");
_Static_assert(offsetof(struct abi_sysv_io, fcw_in) == 216, "IO_FCW_IN");
_Static_assert(offsetof(struct abi_sysv_io, fcw_out) == 218, "IO_FCW_OUT");

void abi_trampoline_sysv(const void *fn, struct abi_sysv_io *io);
extern const char abi_trampoline_sysv_call[], abi_trampoline_sysv_ret[];

static const char *const cs_names[6] = { "rbx", "rbp", "r12", "r13", "r14", "r15" };


/* Fills io for one call: the arguments, random words in the rest. */
static int io_prepare(struct abi_sysv_io *io, const uint64_t *args, int nargs,
                      char *err, size_t errlen)
{
    memset(io, 0, sizeof(*io));
    return abi_prepare(io->args, ABI_MAX_ARGS, args, nargs, io->cs_in, ABI_CS_WORDS, err, errlen);
}

/* --- abi_call ------------------------------------------------------------ */

int abi_call(const void *fn, const uint64_t *args, int nargs, uint64_t *ret,
             char *err, size_t errlen)
{
    struct abi_sysv_io io;
    struct abi_verdict v = { 0 };

    if (io_prepare(&io, args, nargs, err, errlen) != 0)
        return -1;
    abi_trampoline_sysv(fn, &io);
    if (ret)
        *ret = io.rax;

    abi_verdict_sp(&v, "rsp", io.rsp_delta);
    abi_verdict_regs(&v, cs_names, io.cs_in, io.cs_out, ABI_CS_WORDS, 1);
    abi_verdict_df(&v, io.rflags);
    abi_verdict_fpu(&v, io.fcw_in, io.fcw_out, io.mxcsr_in, io.mxcsr_out);
    return abi_verdict_end(&v, err, errlen);
}

/* --- unwind_check ------------------------------------------------------- */

#ifdef ABI_NO_LIBUNWIND

int unwind_check_available(const char **why)
{
    if (why)
        *why = "built without libunwind-ptrace (install libunwind-dev)";
    return 0;
}

int unwind_check(const void *fn, const uint64_t *args, int nargs,
                 struct unwind_stats *st, char *err, size_t errlen)
{
    (void)fn, (void)args, (void)nargs;
    if (st)
        st->steps = st->unwinds = st->handled = 0;
    abi_set_err(err, errlen, "unwind checker unavailable: built without "
            "libunwind-ptrace (install libunwind-dev)");
    return -1;
}

#else

int unwind_check_available(const char **why)
{
    if (why)
        *why = NULL;
    return 1;
}

/* The stepping: one child at a time (unwind_check is not re-entrant). */
static struct abi_run run;
static pid_t child;
static int reaped;                  /* child already waited for */
static struct user_regs_struct regs;

static const int cs_unw[ABI_CS_WORDS] = {
    UNW_X86_64_RBX, UNW_X86_64_RBP, UNW_X86_64_R12,
    UNW_X86_64_R13, UNW_X86_64_R14, UNW_X86_64_R15,
};

static void regs_cs(abi_word cs[ABI_CS_WORDS])
{
    cs[0] = regs.rbx, cs[1] = regs.rbp, cs[2] = regs.r12;
    cs[3] = regs.r13, cs[4] = regs.r14, cs[5] = regs.r15;
}

static int get_regs(void)
{
    if (ptrace(PTRACE_GETREGS, child, NULL, &regs) == 0)
        return 0;
    abi_stop(&run, "PTRACE_GETREGS: %s", strerror(errno));
    return -1;
}

static pid_t wait_child(int *status)
{
    pid_t r;
    do
        r = waitpid(child, status, 0);
    while (r < 0 && errno == EINTR);
    return r;
}

/* Explains a wait status that is not the SIGTRAP of a completed step. */
static void explain_stop(int status, const char *phase)
{
    if (WIFEXITED(status) || WIFSIGNALED(status))
        reaped = 1;
    if (WIFEXITED(status))
        abi_stop(&run, "child exited with status %d %s", WEXITSTATUS(status), phase);
    else if (WIFSIGNALED(status))
        abi_stop(&run, "child killed by signal %d (%s) %s", WTERMSIG(status),
                 strsignal(WTERMSIG(status)), phase);
    else if (WIFSTOPPED(status) && get_regs() == 0)
        abi_fail(&run, regs.rip, "child stopped by signal %d (%s) %s", WSTOPSIG(status),
                 strsignal(WSTOPSIG(status)), phase);
    else if (!WIFSTOPPED(status))
        abi_stop(&run, "unexpected wait status 0x%x %s", status, phase);
}

/* Runs the child for one instruction and reads its registers. */
static int step(const char *phase)
{
    int status;
    if (ptrace(PTRACE_SINGLESTEP, child, NULL, NULL) != 0) {
        abi_stop(&run, "PTRACE_SINGLESTEP: %s", strerror(errno));
        return -1;
    }
    if (wait_child(&status) < 0) {
        abi_stop(&run, "waitpid: %s", strerror(errno));
        return -1;
    }
    if (!WIFSTOPPED(status) || WSTOPSIG(status) != SIGTRAP) {
        explain_stop(status, phase);
        return -1;
    }
    return get_regs();
}

static int peek(abi_word addr, abi_word *val)
{
    long v;
    errno = 0;
    v = ptrace(PTRACE_PEEKDATA, child, (void *)addr, NULL);
    if (v == -1 && errno != 0)
        return -1;
    *val = (abi_word)v;
    return 0;
}

/*
 * Accessors for libunwind.  _UPT_accessors read each register with its own
 * PTRACE_GETREGSET and memory one word per PTRACE_PEEKDATA, ten syscalls
 * a step; we already hold the registers, and one process_vm_readv of a
 * page serves most words.  Reads made with our context as arg, or with
 * the _UPT handle (_UPT_find_proc_info reading .eh_frame), are served here
 * (the cache is dropped at every step); anything else goes to _UPT_*.
 */
#define ACC_PAGES 4

struct uw_acc {
    void *upt;
    unsigned next;                  /* round-robin victim */
    struct {
        uint64_t base;              /* 1 = empty (never page aligned) */
        unsigned char bytes[4096];
    } page[ACC_PAGES];
};

static struct uw_acc acc_ctx;

static void acc_flush(void)
{
    for (int i = 0; i < ACC_PAGES; i++)
        acc_ctx.page[i].base = 1;
}

static void *upt_of(void *arg)
{
    return arg == &acc_ctx ? acc_ctx.upt : arg;
}

static const unsigned long long *reg_slot(const struct user_regs_struct *r,
                                          unw_regnum_t reg)
{
    switch (reg) {
    case UNW_X86_64_RAX: return &r->rax;
    case UNW_X86_64_RDX: return &r->rdx;
    case UNW_X86_64_RCX: return &r->rcx;
    case UNW_X86_64_RBX: return &r->rbx;
    case UNW_X86_64_RSI: return &r->rsi;
    case UNW_X86_64_RDI: return &r->rdi;
    case UNW_X86_64_RBP: return &r->rbp;
    case UNW_X86_64_RSP: return &r->rsp;
    case UNW_X86_64_R8:  return &r->r8;
    case UNW_X86_64_R9:  return &r->r9;
    case UNW_X86_64_R10: return &r->r10;
    case UNW_X86_64_R11: return &r->r11;
    case UNW_X86_64_R12: return &r->r12;
    case UNW_X86_64_R13: return &r->r13;
    case UNW_X86_64_R14: return &r->r14;
    case UNW_X86_64_R15: return &r->r15;
    case UNW_X86_64_RIP: return &r->rip;
    default: return NULL;
    }
}

static int acc_access_reg(unw_addr_space_t as, unw_regnum_t reg,
                          unw_word_t *val, int write, void *arg)
{
    const unsigned long long *p;
    if (arg == &acc_ctx && !write && (p = reg_slot(&regs, reg))) {
        *val = *p;
        return 0;
    }
    return _UPT_access_reg(as, reg, val, write, upt_of(arg));
}

static int acc_access_mem(unw_addr_space_t as, unw_word_t addr,
                          unw_word_t *val, int write, void *arg)
{
    uint64_t base = addr & ~(uint64_t)4095, off = addr & 4095;
    int ours = arg == &acc_ctx || (arg && arg == acc_ctx.upt);
    if (ours && !write && off <= 4096 - sizeof(*val)) {
        int i;
        for (i = 0; i < ACC_PAGES && acc_ctx.page[i].base != base; i++)
            ;
        if (i == ACC_PAGES) {
            struct iovec local, remote;
            i = (int)(acc_ctx.next++ % ACC_PAGES);
            local.iov_base = acc_ctx.page[i].bytes;
            local.iov_len = remote.iov_len = 4096;
            remote.iov_base = (void *)(uintptr_t)base;
            acc_ctx.page[i].base =
                process_vm_readv(child, &local, 1, &remote, 1, 0) == 4096
                ? base : 1;
        }
        if (acc_ctx.page[i].base == base) {
            memcpy(val, acc_ctx.page[i].bytes + off, sizeof(*val));
            return 0;
        }
    }
    return _UPT_access_mem(as, addr, val, write, upt_of(arg));
}

static int acc_find_proc_info(unw_addr_space_t as, unw_word_t ip,
                              unw_proc_info_t *pi, int need, void *arg)
{
    return _UPT_find_proc_info(as, ip, pi, need, upt_of(arg));
}

static void acc_put_unwind_info(unw_addr_space_t as, unw_proc_info_t *pi, void *arg)
{
    _UPT_put_unwind_info(as, pi, upt_of(arg));
}

static int acc_get_dyn_info_list_addr(unw_addr_space_t as, unw_word_t *addr,
                                      void *arg)
{
    return _UPT_get_dyn_info_list_addr(as, addr, upt_of(arg));
}

static int acc_access_fpreg(unw_addr_space_t as, unw_regnum_t reg,
                            unw_fpreg_t *val, int write, void *arg)
{
    return _UPT_access_fpreg(as, reg, val, write, upt_of(arg));
}

static int acc_resume(unw_addr_space_t as, unw_cursor_t *c, void *arg)
{
    return _UPT_resume(as, c, upt_of(arg));
}

static int acc_get_proc_name(unw_addr_space_t as, unw_word_t addr, char *buf,
                             size_t len, unw_word_t *off, void *arg)
{
    return _UPT_get_proc_name(as, addr, buf, len, off, upt_of(arg));
}

static unw_accessors_t accessors(void)
{
    unw_accessors_t a = _UPT_accessors;     /* keeps any fields added later */
    a.find_proc_info = acc_find_proc_info;
    a.put_unwind_info = acc_put_unwind_info;
    a.get_dyn_info_list_addr = acc_get_dyn_info_list_addr;
    a.access_mem = acc_access_mem;
    a.access_reg = acc_access_reg;
    a.access_fpreg = acc_access_fpreg;
    a.resume = acc_resume;
    a.get_proc_name = acc_get_proc_name;
    return a;
}

/* Unwinds one frame from the current stop and compares it with the frame
 * being executed.  Returns 0, or -1 with the failure recorded. */
static int check_unwind(unw_addr_space_t as)
{
    const struct abi_frame *f = &run.frames[run.depth];
    abi_word got[ABI_CS_WORDS];
    unw_cursor_t cur;
    unw_word_t ip, sp, v;
    int r;

    acc_flush();                    /* the child has run since */
    run.unwinds++;
    if ((r = unw_init_remote(&cur, as, &acc_ctx)) < 0) {
        abi_fail(&run, regs.rip, "unw_init_remote failed: %s", unw_strerror(r));
        return -1;
    }
    if ((r = unw_step(&cur)) <= 0) {
        abi_fail(&run, regs.rip, "unw_step %s", r == 0 ? "found no caller frame" : unw_strerror(r));
        return -1;
    }
    if ((r = unw_get_reg(&cur, UNW_REG_IP, &ip)) < 0
        || (r = unw_get_reg(&cur, UNW_REG_SP, &sp)) < 0) {
        abi_fail(&run, regs.rip, "unw_get_reg(IP/SP) failed: %s", unw_strerror(r));
        return -1;
    }
    if (ip != f->ret) {
        abi_fail(&run, regs.rip, "unwound return address 0x%" PRIx64 ", expected 0x%" PRIx64
                 " (%s)", (uint64_t)ip, (uint64_t)f->ret,
                 run.depth ? "just past the call" : "abi_trampoline_sysv_ret");
        return -1;
    }
    if (sp != f->entry_sp + 8) {
        abi_fail(&run, regs.rip, "unwound rsp is entry rsp %+" PRId64 ", expected entry rsp + 8",
                 (int64_t)(sp - f->entry_sp));
        return -1;
    }
    for (int i = 0; i < ABI_CS_WORDS; i++) {
        if ((r = unw_get_reg(&cur, cs_unw[i], &v)) < 0) {
            abi_fail(&run, regs.rip, "unw_get_reg(%s) failed: %s", cs_names[i], unw_strerror(r));
            return -1;
        }
        got[i] = v;
    }
    return abi_unwound_same(&run, regs.rip, "", cs_names, got, f->cs, ABI_CS_WORDS, 1, NULL);
}

/* The tracer's side, from the child's SIGSTOP until fn has returned. */
static int trace(void)
{
    const abi_word call_at = (abi_word)abi_trampoline_sysv_call;
    const abi_word ret_at = (abi_word)abi_trampoline_sysv_ret;
    unw_accessors_t acc;
    unw_addr_space_t as = NULL;
    void *upt = NULL;
    int status, rc = -1;

    if (wait_child(&status) < 0) {
        abi_stop(&run, "waitpid: %s", strerror(errno));
        return -1;
    }
    if (!WIFSTOPPED(status) || WSTOPSIG(status) != SIGSTOP) {
        explain_stop(status, "before it stopped itself (PTRACE_TRACEME refused? exit 126 means so)");
        return -1;
    }
    /* If we die, so does the child: no stopped orphans. */
    if (ptrace(PTRACE_SETOPTIONS, child, NULL, (void *)PTRACE_O_EXITKILL) != 0) {
        abi_stop(&run, "PTRACE_SETOPTIONS: %s", strerror(errno));
        return -1;
    }
    if (get_regs() != 0)
        return -1;
    /* Out of raise() and into the trampoline: no breakpoints needed. */
    while (regs.rip != call_at)
        if (abi_pre_step(&run) != 0 || step("before calling fn") != 0)
            return -1;
    if (step("at the call into fn") != 0)
        return -1;
    regs_cs(abi_enter_fn(&run, regs.rsp, ret_at, call_at)->cs);

    acc = accessors();
    as = unw_create_addr_space(&acc, 0);
    if (!as) {
        abi_stop(&run, "unw_create_addr_space failed");
        goto out;
    }
    unw_set_caching_policy(as, UNW_CACHE_GLOBAL);
    upt = _UPT_create(child);
    if (!upt) {
        abi_stop(&run, "_UPT_create failed");
        goto out;
    }
    acc_ctx.upt = upt;

    for (;;) {
        enum abi_next next;
        if (check_unwind(as) != 0 || step("while fn ran") != 0)
            goto out;
        next = abi_next(&run, regs.rip, regs.rsp);
        if (next == ABI_RETURNED)
            break;
        if (next == ABI_STOPPED)
            goto out;
        if (next == ABI_CALLED)
            regs_cs(run.frames[run.depth].cs);
    }
    rc = 0;
out:
    acc_ctx.upt = NULL;
    if (upt)
        _UPT_destroy(upt);
    if (as)
        unw_destroy_addr_space(as);
    return rc;
}

int unwind_check(const void *fn, const uint64_t *args, int nargs,
                 struct unwind_stats *st, char *err, size_t errlen)
{
    struct abi_sysv_io io;
    pid_t parent = getpid();
    int status;

    abi_run_init(&run, fn, peek);
    if (io_prepare(&io, args, nargs, err, errlen) != 0) {
        abi_run_end(&run, st, NULL, 0);
        return -1;
    }
    reaped = 0;
    fflush(NULL);                   /* no buffered output twice */
    child = fork();
    if (child < 0) {
        abi_stop(&run, "fork: %s", strerror(errno));
        return abi_run_end(&run, st, err, errlen);
    }
    if (child == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(125);
        if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0)
            _exit(126);
        raise(SIGSTOP);
        abi_trampoline_sysv(fn, &io);
        _exit(0);
    }

    if (trace() == 0) {
        /* fn returned: let the child finish on its own. */
        if (ptrace(PTRACE_CONT, child, NULL, NULL) != 0)
            abi_stop(&run, "PTRACE_CONT: %s", strerror(errno));
        else if (wait_child(&status) < 0)
            abi_stop(&run, "waitpid: %s", strerror(errno));
        else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            explain_stop(status, "after fn returned");
        else
            reaped = 1;
    }
    if (!reaped) {
        kill(child, SIGKILL);
        while (wait_child(&status) > 0 && !WIFEXITED(status) && !WIFSIGNALED(status))
            ;
    }
    return abi_run_end(&run, st, err, errlen);
}

#endif /* ABI_NO_LIBUNWIND */
