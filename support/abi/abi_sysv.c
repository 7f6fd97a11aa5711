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
#include "abi_report.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
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
    uint64_t cs_in[6];              /* rbx rbp r12 r13 r14 r15 loaded for fn */
    uint64_t cs_out[6];             /* ... and what fn left in them */
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

#define RFLAGS_DF      0x400u
#define MXCSR_CONTROL  0xffc0u      /* DAZ, exception masks, RC, FZ */

/* --- random register values ------------------------------------------- */

/* splitmix64: a fixed default seed keeps failures reproducible. */
static uint64_t prng_state = UINT64_C(0x243f6a8885a308d3);

void abi_set_seed(uint64_t seed)
{
    prng_state = seed;
}

static uint64_t prng_next(void)
{
    uint64_t z = (prng_state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Fills io for one call: the caller's arguments, random values for the
 * argument slots fn should not read and for every callee-saved register. */
static int io_prepare(struct abi_sysv_io *io, const uint64_t *args, int nargs,
                      char *err, size_t errlen)
{
    if (abi_args_ok(args, nargs, ABI_MAX_ARGS, err, errlen) != 0)
        return -1;
    memset(io, 0, sizeof(*io));
    for (int i = 0; i < ABI_MAX_ARGS; i++)
        io->args[i] = i < nargs ? args[i] : prng_next();
    for (int i = 0; i < 6; i++)
        io->cs_in[i] = prng_next();
    return 0;
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

    abi_violation(&v, io.rsp_delta != 0, "rsp not restored: fn returned with rsp %+"
                  PRId64 " bytes from where it was at the call (unbalanced stack)",
                  io.rsp_delta);
    for (int i = 0; i < 6; i++)
        abi_violation(&v, io.cs_out[i] != io.cs_in[i], "%s not preserved: 0x%016"
                      PRIx64 " on entry, 0x%016" PRIx64 " on return", cs_names[i],
                      io.cs_in[i], io.cs_out[i]);
    abi_violation(&v, (io.rflags & RFLAGS_DF) != 0, "direction flag (DF) left set on "
                  "return (rflags 0x%" PRIx64 ")", io.rflags);
    abi_violation(&v, ((io.mxcsr_in ^ io.mxcsr_out) & MXCSR_CONTROL) != 0,
                  "MXCSR control bits not preserved: 0x%04x on entry, 0x%04x on return",
                  (unsigned)io.mxcsr_in, (unsigned)io.mxcsr_out);
    abi_violation(&v, io.fcw_in != io.fcw_out, "x87 control word not preserved: "
                  "0x%04x on entry, 0x%04x on return", (unsigned)io.fcw_in,
                  (unsigned)io.fcw_out);
    return abi_verdict_end(&v, err, errlen);
}

/* --- unwind_check ------------------------------------------------------- */

static unsigned long step_limit = 50000000UL;

void unwind_set_step_limit(unsigned long max_steps)
{
    step_limit = max_steps ? max_steps : 1;
}

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

/* Steps allowed between the child's SIGSTOP and the call into fn. */
#define PRE_STEP_LIMIT 1000000UL
#define MAX_DEPTH      256

/* One call level being tracked: frame 0 is fn, called by the trampoline. */
struct uw_frame {
    uint64_t ret;           /* where this call returns to */
    uint64_t entry_rsp;     /* rsp at its first instruction */
    uint64_t entry;         /* its first instruction */
    uint64_t call_site;     /* address of the call instruction */
    uint64_t cs[6];         /* rbx rbp r12-r15 at its first instruction */
};

struct uw_run {
    pid_t pid;
    int reaped;             /* child already waited for */
    uint64_t fn;
    unsigned long steps;
    int depth;
    struct uw_frame frames[MAX_DEPTH];
    struct user_regs_struct regs;
    char *err;
    size_t errlen;
};

static const int cs_unw[6] = {
    UNW_X86_64_RBX, UNW_X86_64_RBP, UNW_X86_64_R12,
    UNW_X86_64_R13, UNW_X86_64_R14, UNW_X86_64_R15,
};

static void regs_cs(const struct user_regs_struct *r, uint64_t cs[6])
{
    cs[0] = r->rbx, cs[1] = r->rbp, cs[2] = r->r12;
    cs[3] = r->r13, cs[4] = r->r14, cs[5] = r->r15;
}

static const char *where(const struct uw_run *u, uint64_t ip, char *buf, size_t n)
{
    return abi_where(u->fn, ip, buf, n);
}

/* Prefix for a failure at the current stop: where, which step, which call. */
static void fail_at(struct uw_run *u, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void fail_at(struct uw_run *u, const char *fmt, ...)
{
    const struct uw_frame *f = &u->frames[u->depth];
    char what[256], at[40], entry[40], site[40];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    where(u, u->regs.rip, at, sizeof(at));
    if (u->depth == 0)
        abi_set_err(u->err, u->errlen, "at %s (step %lu): %s", at, u->steps, what);
    else
        abi_set_err(u->err, u->errlen, "at %s (step %lu; depth %d, callee+0x%" PRIx64
                ", callee at %s called from %s): %s", at, u->steps, u->depth,
                (uint64_t)u->regs.rip - f->entry, where(u, f->entry, entry, sizeof(entry)),
                where(u, f->call_site, site, sizeof(site)), what);
}

static int get_regs(struct uw_run *u)
{
    if (ptrace(PTRACE_GETREGS, u->pid, NULL, &u->regs) != 0) {
        abi_set_err(u->err, u->errlen, "PTRACE_GETREGS: %s", strerror(errno));
        return -1;
    }
    return 0;
}

static pid_t wait_child(pid_t pid, int *status)
{
    pid_t r;
    do
        r = waitpid(pid, status, 0);
    while (r < 0 && errno == EINTR);
    return r;
}

/* Explains a wait status that is not the SIGTRAP of a completed step. */
static void explain_stop(struct uw_run *u, int status, const char *phase)
{
    if (WIFEXITED(status)) {
        u->reaped = 1;
        abi_set_err(u->err, u->errlen, "child exited with status %d %s",
                WEXITSTATUS(status), phase);
    } else if (WIFSIGNALED(status)) {
        u->reaped = 1;
        abi_set_err(u->err, u->errlen, "child killed by signal %d (%s) %s",
                WTERMSIG(status), strsignal(WTERMSIG(status)), phase);
    } else if (WIFSTOPPED(status)) {
        int sig = WSTOPSIG(status);
        if (get_regs(u) == 0)
            fail_at(u, "child stopped by signal %d (%s) %s", sig, strsignal(sig), phase);
    } else {
        abi_set_err(u->err, u->errlen, "unexpected wait status 0x%x %s", status, phase);
    }
}

/* Runs the child for one instruction and reads its registers. */
static int step(struct uw_run *u, const char *phase)
{
    int status;
    if (ptrace(PTRACE_SINGLESTEP, u->pid, NULL, NULL) != 0) {
        abi_set_err(u->err, u->errlen, "PTRACE_SINGLESTEP: %s", strerror(errno));
        return -1;
    }
    if (wait_child(u->pid, &status) < 0) {
        abi_set_err(u->err, u->errlen, "waitpid: %s", strerror(errno));
        return -1;
    }
    if (!WIFSTOPPED(status) || WSTOPSIG(status) != SIGTRAP) {
        explain_stop(u, status, phase);
        return -1;
    }
    return get_regs(u);
}

static int peek(struct uw_run *u, uint64_t addr, uint64_t *val)
{
    long v;
    errno = 0;
    v = ptrace(PTRACE_PEEKDATA, u->pid, (void *)(uintptr_t)addr, NULL);
    if (v == -1 && errno != 0)
        return -1;
    *val = (uint64_t)v;
    return 0;
}

/* Did the instruction at prev->rip call something?  A call pushes the
 * address just past itself (at most 15 bytes on) and does not go there.
 * "call 1f; 1:" does go there, so it counts as a push, which is how the
 * unwind info must describe it. */
static int was_call(struct uw_run *u, const struct user_regs_struct *prev,
                    uint64_t *ret)
{
    if (u->regs.rsp != prev->rsp - 8 || peek(u, u->regs.rsp, ret) != 0)
        return 0;
    return *ret > prev->rip && *ret <= prev->rip + 15 && u->regs.rip != *ret;
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
    const struct uw_run *u;
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
    if (arg == &acc_ctx && !write && (p = reg_slot(&acc_ctx.u->regs, reg))) {
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
                process_vm_readv(acc_ctx.u->pid, &local, 1, &remote, 1, 0) == 4096
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
 * being executed.  Returns 0, or -1 with the failure described. */
static int check_unwind(struct uw_run *u, unw_addr_space_t as)
{
    const struct uw_frame *f = &u->frames[u->depth];
    unw_cursor_t cur;
    unw_word_t ip, sp, v;
    int r;

    acc_flush();                    /* the child has run since */
    if ((r = unw_init_remote(&cur, as, &acc_ctx)) < 0) {
        fail_at(u, "unw_init_remote failed: %s", unw_strerror(r));
        return -1;
    }
    if ((r = unw_step(&cur)) <= 0) {
        fail_at(u, "unw_step %s", r == 0 ? "found no caller frame"
                                          : unw_strerror(r));
        return -1;
    }
    if ((r = unw_get_reg(&cur, UNW_REG_IP, &ip)) < 0
        || (r = unw_get_reg(&cur, UNW_REG_SP, &sp)) < 0) {
        fail_at(u, "unw_get_reg(IP/SP) failed: %s", unw_strerror(r));
        return -1;
    }
    if (ip != f->ret) {
        fail_at(u, "unwound return address 0x%" PRIx64 ", expected 0x%" PRIx64
                " (%s)", (uint64_t)ip, f->ret,
                u->depth ? "just past the call" : "abi_trampoline_sysv_ret");
        return -1;
    }
    if (sp != f->entry_rsp + 8) {
        fail_at(u, "unwound rsp is entry rsp %+" PRId64 ", expected entry rsp + 8",
                (int64_t)(sp - f->entry_rsp));
        return -1;
    }
    for (int i = 0; i < 6; i++) {
        if ((r = unw_get_reg(&cur, cs_unw[i], &v)) < 0) {
            fail_at(u, "unw_get_reg(%s) failed: %s", cs_names[i], unw_strerror(r));
            return -1;
        }
        if (v != f->cs[i]) {
            fail_at(u, "unwound %s = 0x%016" PRIx64 ", expected 0x%016" PRIx64
                    " (its value at entry)", cs_names[i], (uint64_t)v, f->cs[i]);
            return -1;
        }
    }
    return 0;
}

/* The tracer's side, from the child's SIGSTOP until fn has returned. */
static int trace(struct uw_run *u, struct unwind_stats *st)
{
    const uint64_t call_at = (uint64_t)(uintptr_t)abi_trampoline_sysv_call;
    const uint64_t ret_at = (uint64_t)(uintptr_t)abi_trampoline_sysv_ret;
    struct user_regs_struct prev;
    unw_accessors_t acc;
    unw_addr_space_t as = NULL;
    void *upt = NULL;
    int status, rc = -1;
    unsigned long pre = 0;

    if (wait_child(u->pid, &status) < 0) {
        abi_set_err(u->err, u->errlen, "waitpid: %s", strerror(errno));
        return -1;
    }
    if (!WIFSTOPPED(status) || WSTOPSIG(status) != SIGSTOP) {
        explain_stop(u, status, "before it stopped itself "
                     "(PTRACE_TRACEME refused? exit 126 means so)");
        return -1;
    }
    /* If we die, so does the child: no stopped orphans. */
    if (ptrace(PTRACE_SETOPTIONS, u->pid, NULL, (void *)PTRACE_O_EXITKILL) != 0) {
        abi_set_err(u->err, u->errlen, "PTRACE_SETOPTIONS: %s", strerror(errno));
        return -1;
    }
    if (get_regs(u) != 0)
        return -1;
    /* Out of raise() and into the trampoline: no breakpoints needed. */
    while (u->regs.rip != call_at) {
        if (++pre > PRE_STEP_LIMIT) {
            abi_set_err(u->err, u->errlen, "child did not reach abi_trampoline_sysv_call "
                    "in %lu steps", PRE_STEP_LIMIT);
            return -1;
        }
        if (step(u, "before calling fn") != 0)
            return -1;
    }
    if (step(u, "at the call into fn") != 0)
        return -1;

    u->depth = 0;
    u->frames[0].ret = ret_at;
    u->frames[0].entry_rsp = u->regs.rsp;
    u->frames[0].entry = u->regs.rip;
    u->frames[0].call_site = call_at;
    regs_cs(&u->regs, u->frames[0].cs);

    acc = accessors();
    as = unw_create_addr_space(&acc, 0);
    if (!as) {
        abi_set_err(u->err, u->errlen, "unw_create_addr_space failed");
        goto out;
    }
    unw_set_caching_policy(as, UNW_CACHE_GLOBAL);
    upt = _UPT_create(u->pid);
    if (!upt) {
        abi_set_err(u->err, u->errlen, "_UPT_create failed");
        goto out;
    }
    acc_ctx.upt = upt;
    acc_ctx.u = u;

    for (;;) {
        uint64_t ret;
        int k;
        u->steps++;
        if (st)
            st->steps = u->steps;
        if (check_unwind(u, as) != 0)
            goto out;
        if (st)
            st->unwinds++;
        prev = u->regs;
        if (step(u, "while fn ran") != 0)
            goto out;
        /* fn returned (with whatever rsp: abi_call judges that). */
        if (u->regs.rip == ret_at)
            break;
        if (u->steps >= step_limit) {
            char at[40];
            abi_set_err(u->err, u->errlen, "step limit reached: %lu instructions "
                    "single-stepped and fn has not returned (now at %s, depth %d);"
                    " see unwind_set_step_limit()", u->steps,
                    where(u, u->regs.rip, at, sizeof(at)), u->depth);
            goto out;
        }
        /* A return pops the frame it leaves, and any it skipped. */
        for (k = u->depth; k > 0; k--)
            if (u->regs.rip == u->frames[k].ret && u->regs.rsp > u->frames[k].entry_rsp)
                break;
        if (k > 0) {
            u->depth = k - 1;
        } else if (was_call(u, &prev, &ret)) {
            struct uw_frame *f;
            if (u->depth + 1 >= MAX_DEPTH) {
                fail_at(u, "calls nested deeper than %d", MAX_DEPTH);
                goto out;
            }
            f = &u->frames[++u->depth];
            f->ret = ret;
            f->entry = u->regs.rip;
            f->entry_rsp = u->regs.rsp;
            f->call_site = prev.rip;
            regs_cs(&u->regs, f->cs);
        }
    }
    rc = 0;
out:
    acc_ctx.upt = NULL;
    acc_ctx.u = NULL;
    if (upt)
        _UPT_destroy(upt);
    if (as)
        unw_destroy_addr_space(as);
    return rc;
}

int unwind_check(const void *fn, const uint64_t *args, int nargs,
                 struct unwind_stats *st, char *err, size_t errlen)
{
    static struct uw_run u;         /* large; never used re-entrantly */
    struct abi_sysv_io io;
    pid_t parent = getpid();
    int status, rc;

    if (st)
        st->steps = st->unwinds = st->handled = 0;
    if (io_prepare(&io, args, nargs, err, errlen) != 0)
        return -1;
    memset(&u, 0, sizeof(u));
    u.fn = (uint64_t)(uintptr_t)fn;
    u.err = err;
    u.errlen = errlen;

    fflush(NULL);                   /* no buffered output twice */
    u.pid = fork();
    if (u.pid < 0) {
        abi_set_err(err, errlen, "fork: %s", strerror(errno));
        return -1;
    }
    if (u.pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(125);
        if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0)
            _exit(126);
        raise(SIGSTOP);
        abi_trampoline_sysv(fn, &io);
        _exit(0);
    }

    rc = trace(&u, st);
    if (rc == 0) {
        /* fn returned: let the child finish on its own. */
        if (ptrace(PTRACE_CONT, u.pid, NULL, NULL) != 0) {
            abi_set_err(err, errlen, "PTRACE_CONT: %s", strerror(errno));
            rc = -1;
        } else if (wait_child(u.pid, &status) < 0) {
            abi_set_err(err, errlen, "waitpid: %s", strerror(errno));
            rc = -1;
        } else {
            u.reaped = WIFEXITED(status) || WIFSIGNALED(status);
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
                explain_stop(&u, status, "after fn returned");
                rc = -1;
            }
        }
    }
    if (!u.reaped) {
        kill(u.pid, SIGKILL);
        while (wait_child(u.pid, &status) > 0 && !WIFEXITED(status)
               && !WIFSIGNALED(status))
            ;
    }
    return rc;
}

#endif /* ABI_NO_LIBUNWIND */
