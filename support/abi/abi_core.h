/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the ABI and unwind checkers do alike, whatever the ABI: the SysV
 * (abi_sysv.c), Win64 (abi_win64.c) and i386 cdecl (abi_cdecl.c) ends
 * keep only how to get registers, how to step, how to unwind one frame
 * and which registers are callee-saved.  Here:
 *
 *   abi_prepare      the argument words and random callee-saved values of
 *                    one call (splitmix64 from a fixed seed: abi_set_seed)
 *   abi_violation    abi_call's verdict: the first violation told in full,
 *   abi_verdict_*    the others counted; the stack pointer checked first
 *   abi_enter_fn     the shadow stack of entered frames: fn's, then at
 *   abi_next         each stop which call returned or which was made, the
 *                    step limit, the steps counted
 *   abi_fail         a failure at the current stop, located as
 *                    "at fn+0x1c (step 7[; depth, callee, call site]): ..."
 *   abi_fail_unwound an unwound register that is not its entry value
 *   abi_stop         why stepping ended early (a rig or system error)
 *   abi_run_end      the unwind check's verdict and statistics
 *
 * Words are uintptr_t: 64 bits on SysV and Win64, 32 on i386.  The end
 * defines ABI_CS_WORDS (callee-saved words recorded per frame) and
 * ABI_STEP_LIMIT (default most instructions stepped) first.  Static (but
 * for the two setters): the tests link each end as one object by name.
 */
#ifndef SUPPORT_ABI_ABI_CORE_H
#define SUPPORT_ABI_ABI_CORE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "abi_common.h"

#if !defined(ABI_CS_WORDS) || !defined(ABI_STEP_LIMIT)
#error "an end defines ABI_CS_WORDS and ABI_STEP_LIMIT before including abi_core.h"
#endif

#define ABI_STATIC static __attribute__((unused))
#define ABI_FORMAT(a, b) __attribute__((format(printf, a, b)))
#define ABI_MAX_DEPTH 256
#define ABI_PRE_STEPS 1000000UL    /* stops allowed between setting TF and fn */

typedef uintptr_t abi_word;

/* --- messages ---------------------------------------------------------------- */

ABI_STATIC ABI_FORMAT(3, 4) void abi_set_err(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    if (!err || errlen == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* "fn+0x1c", "fn-0x30" (within 1 MiB of fn) or the absolute address. */
ABI_STATIC const char *abi_where(abi_word fn, abi_word ip, char *buf, size_t n)
{
    if (ip >= fn && ip - fn < 0x100000)
        snprintf(buf, n, "fn+0x%llx", (unsigned long long)(ip - fn));
    else if (ip < fn && fn - ip < 0x100000)
        snprintf(buf, n, "fn-0x%llx", (unsigned long long)(fn - ip));
    else
        snprintf(buf, n, "0x%llx", (unsigned long long)ip);
    return buf;
}

/* A register of `words` words, the highest first, in hex. */
ABI_STATIC const char *abi_hex(char *buf, size_t n, const abi_word *w, int words)
{
    size_t used = (size_t)snprintf(buf, n, "0x");
    for (int i = words - 1; i >= 0 && used < n; i--)
        used += (size_t)snprintf(buf + used, n - used, "%0*llx", (int)sizeof(abi_word) * 2,
                                 (unsigned long long)w[i]);
    return buf;
}

/* --- one call's values ----------------------------------------------------- */

static uint64_t abi_prng = UINT64_C(0x243f6a8885a308d3);

/* Seeds the random register and unused-argument values (splitmix64). */
void abi_set_seed(uint64_t seed)
{
    abi_prng = seed;
}

ABI_STATIC abi_word abi_random(void)
{
    uint64_t z = (abi_prng += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return (abi_word)(z ^ (z >> 31));
}

/* slots[0..max-1]: the nargs arguments, random words after them (fn must
 * not read them); cs[0..ncs-1] random.  -1 (why in err) for an argument
 * list the trampoline cannot pass. */
ABI_STATIC int abi_prepare(abi_word *slots, int max, const abi_word *args, int nargs,
                           abi_word *cs, int ncs, char *err, size_t errlen)
{
    if (nargs < 0 || nargs > max || (nargs > 0 && !args)) {
        abi_set_err(err, errlen, "bad argument list: nargs %d (0..%d allowed)%s", nargs, max,
                    nargs > 0 && !args ? ", args NULL" : "");
        return -1;
    }
    for (int i = 0; i < max; i++)
        slots[i] = i < nargs ? args[i] : abi_random();
    for (int i = 0; i < ncs; i++)
        cs[i] = abi_random();
    return 0;
}

/* --- abi_call's verdict ---------------------------------------------------- */

struct abi_verdict {
    int bad;                /* violations found */
    char first[240];        /* the first one, in words */
};

ABI_STATIC ABI_FORMAT(3, 4) void abi_violation(struct abi_verdict *v, int bad, const char *fmt, ...)
{
    va_list ap;
    if (!bad || v->bad++ > 0)
        return;
    va_start(ap, fmt);
    vsnprintf(v->first, sizeof(v->first), fmt, ap);
    va_end(ap);
}

/* Which stack pointer, and by how much it moved over the call. */
ABI_STATIC void abi_verdict_sp(struct abi_verdict *v, const char *sp, long long delta)
{
    abi_violation(v, delta != 0, "%s not restored: fn returned with %s %+lld bytes from "
                  "where it was at the call (unbalanced stack, or ret N)", sp, sp, delta);
}

/* n registers of `words` words each: in[] loaded for fn, out[] as fn left them. */
ABI_STATIC void abi_verdict_regs(struct abi_verdict *v, const char *const *names,
                                 const abi_word *in, const abi_word *out, int n, int words)
{
    char a[40], b[40];
    for (int i = 0; i < n; i++, in += words, out += words)
        abi_violation(v, memcmp(in, out, (size_t)words * sizeof(abi_word)) != 0,
                      "%s not preserved: %s on entry, %s on return", names[i],
                      abi_hex(a, sizeof(a), in, words), abi_hex(b, sizeof(b), out, words));
}

ABI_STATIC void abi_verdict_df(struct abi_verdict *v, abi_word flags)
{
    abi_violation(v, (flags & 0x400) != 0, "direction flag (DF) left set on return "
                  "(flags 0x%llx)", (unsigned long long)flags);
}

/* The x87 control word and MXCSR's control bits (DAZ, exception masks,
 * rounding, FZ) on entry and on return. */
ABI_STATIC void abi_verdict_fpu(struct abi_verdict *v, unsigned fcw_in, unsigned fcw_out,
                                unsigned mxcsr_in, unsigned mxcsr_out)
{
    abi_violation(v, ((mxcsr_in ^ mxcsr_out) & 0xffc0) != 0, "MXCSR control bits not "
                  "preserved: 0x%04x on entry, 0x%04x on return", mxcsr_in, mxcsr_out);
    abi_violation(v, fcw_in != fcw_out, "x87 control word not preserved: 0x%04x on entry, "
                  "0x%04x on return", fcw_in, fcw_out);
}

/* 0 when nothing was found; else -1 with the verdict in err. */
ABI_STATIC int abi_verdict_end(const struct abi_verdict *v, char *err, size_t errlen)
{
    if (v->bad > 1)
        abi_set_err(err, errlen, "%s (and %d more ABI violations)", v->first, v->bad - 1);
    else if (v->bad)
        abi_set_err(err, errlen, "%s", v->first);
    else
        abi_set_err(err, errlen, "%s", "");
    return v->bad ? -1 : 0;
}

/* --- single-stepping ------------------------------------------------------- */

/* One call level: frame 0 is fn, called by the trampoline. */
struct abi_frame {
    abi_word entry;             /* its first instruction */
    abi_word entry_sp;          /* the stack pointer there */
    abi_word ret;               /* where it returns to */
    abi_word call_site;         /* the call instruction (frame 0: the trampoline's) */
    abi_word cs[ABI_CS_WORDS];  /* callee-saved registers at its entry */
    int owner;                  /* cdecl: the frame whose CFI describes it */
};

struct abi_run {
    abi_word fn;
    unsigned long pre, steps, unwinds, handled, failures;
    int depth;                  /* the frame being executed */
    abi_word prev_ip, prev_sp;
    /* Reads a word of the stepped program (0, or -1 if unreadable). */
    int (*peek)(abi_word addr, abi_word *val);
    struct abi_frame frames[ABI_MAX_DEPTH];
    char first[640];            /* the first failure */
    char stop[256];             /* why stepping ended early */
};

static unsigned long abi_step_limit = ABI_STEP_LIMIT;

/* Most instructions an unwind check steps inside fn before it fails. */
void unwind_set_step_limit(unsigned long max_steps)
{
    abi_step_limit = max_steps ? max_steps : 1;
}

ABI_STATIC void abi_run_init(struct abi_run *r, const void *fn, int (*peek)(abi_word, abi_word *))
{
    memset(r, 0, sizeof(*r));
    r->fn = (abi_word)fn;
    r->peek = peek;
}

ABI_STATIC ABI_FORMAT(2, 3) void abi_stop(struct abi_run *r, const char *fmt, ...)
{
    va_list ap;
    if (r->stop[0])
        return;
    va_start(ap, fmt);
    vsnprintf(r->stop, sizeof(r->stop), fmt, ap);
    va_end(ap);
}

/* A failure at the instruction ip, told with where it is. */
ABI_STATIC ABI_FORMAT(3, 4) void abi_fail(struct abi_run *r, abi_word ip, const char *fmt, ...)
{
    const struct abi_frame *f = &r->frames[r->depth];
    char what[400], at[40], entry[40], site[40];
    va_list ap;
    if (r->failures++ > 0)
        return;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    abi_where(r->fn, ip, at, sizeof(at));
    if (r->depth == 0)
        snprintf(r->first, sizeof(r->first), "at %s (step %lu): %s", at, r->steps, what);
    else
        snprintf(r->first, sizeof(r->first), "at %s (step %lu; depth %d, callee+0x%llx, "
                 "callee at %s called from %s): %s", at, r->steps, r->depth,
                 (unsigned long long)(ip - f->entry), abi_where(r->fn, f->entry, entry, sizeof(entry)),
                 abi_where(r->fn, f->call_site, site, sizeof(site)), what);
}

/* 0 when got[] (n registers of `words` words) equals want[]; else fails
 * on the first that differs: "<up>unwound NAME = got, expected want (its
 * value at entry<note>)". */
ABI_STATIC int abi_unwound_same(struct abi_run *r, abi_word ip, const char *up,
                                const char *const *names, const abi_word *got,
                                const abi_word *want, int n, int words, const char *note)
{
    char a[40], b[40];
    for (int i = 0; i < n; i++, got += words, want += words)
        if (memcmp(got, want, (size_t)words * sizeof(abi_word)) != 0) {
            abi_fail(r, ip, "%sunwound %s = %s, expected %s (its value at entry%s)", up, names[i],
                     abi_hex(a, sizeof(a), got, words), abi_hex(b, sizeof(b), want, words),
                     note ? note : "");
            return -1;
        }
    return 0;
}

/* Before fn: counts a stop on the way; -1 once too many. */
ABI_STATIC int abi_pre_step(struct abi_run *r)
{
    if (++r->pre <= ABI_PRE_STEPS)
        return 0;
    abi_stop(r, "single-stepping did not reach fn in %lu steps", ABI_PRE_STEPS);
    return -1;
}

/* fn's first instruction: frame 0, returning to ret from call_site. */
ABI_STATIC struct abi_frame *abi_enter_fn(struct abi_run *r, abi_word sp, abi_word ret,
                                          abi_word call_site)
{
    struct abi_frame *f = &r->frames[0];
    r->depth = 0;
    r->steps = 1;
    f->entry = r->prev_ip = r->fn;
    f->entry_sp = r->prev_sp = sp;
    f->ret = ret;
    f->call_site = call_site;
    return f;
}

/* Is the instruction at p a near call (E8, or FF /2), after prefixes? */
static int abi_call_opcode(const unsigned char *p)
{
    int i = 0;
    while (i < 4 && memchr("\x66\x67\xf2\x2e\x3e\x26\x36\x64\x65", p[i], 9))
        i++;
    if (sizeof(abi_word) == 8 && (p[i] & 0xf0) == 0x40)     /* REX */
        i++;
    return p[i] == 0xe8 || (p[i] == 0xff && ((p[i + 1] >> 3) & 7) == 2);
}

enum abi_next { ABI_SAME, ABI_CALLED, ABI_RETURNED, ABI_STOPPED };

/*
 * The stop after an instruction, at (ip, sp): fn returned (with any sp:
 * abi_call judges that); or, past the step limit, stepping stops; or a
 * return popped the frame it left, and any it skipped; or a call entered
 * a new frame (ABI_CALLED: the end records its registers in
 * r->frames[r->depth].cs).  A call pushes the address just past itself
 * (at most 15 bytes on) and does not go there; "call 1f; 1:" does go
 * there, so it counts as a push, which is how unwind info describes it.
 */
ABI_STATIC enum abi_next abi_next(struct abi_run *r, abi_word ip, abi_word sp)
{
    abi_word ret = 0;
    enum abi_next what = ABI_SAME;
    int k;
    if (ip == r->frames[0].ret)
        return ABI_RETURNED;
    if (r->steps >= abi_step_limit) {
        char at[40];
        abi_stop(r, "step limit reached: %lu instructions single-stepped and fn has not "
                 "returned (now at %s, depth %d); see unwind_set_step_limit()", r->steps,
                 abi_where(r->fn, ip, at, sizeof(at)), r->depth);
        return ABI_STOPPED;
    }
    for (k = r->depth; k > 0; k--)
        if (ip == r->frames[k].ret && sp > r->frames[k].entry_sp)
            break;
    if (k > 0) {
        r->depth = k - 1;
    } else if (sp == r->prev_sp - sizeof(abi_word) && r->peek(sp, &ret) == 0
               && ret > r->prev_ip && ret <= r->prev_ip + 15 && ip != ret
               && abi_call_opcode((const unsigned char *)r->prev_ip)) {
        struct abi_frame *f;
        if (r->depth + 1 >= ABI_MAX_DEPTH) {
            abi_fail(r, ip, "calls nested deeper than %d", ABI_MAX_DEPTH);
            return ABI_STOPPED;
        }
        f = &r->frames[++r->depth];
        f->entry = ip;
        f->entry_sp = sp;
        f->ret = ret;
        f->call_site = r->prev_ip;
        what = ABI_CALLED;
    }
    r->steps++;
    r->prev_ip = ip;
    r->prev_sp = sp;
    return what;
}

/* The unwind check's statistics (if st) and verdict: 0, or -1 with the
 * first failure (and how many instructions failed) or the stop in err. */
ABI_STATIC int abi_run_end(const struct abi_run *r, struct unwind_stats *st, char *err,
                           size_t errlen)
{
    char count[80] = "";
    if (st) {
        st->steps = r->steps;
        st->unwinds = r->unwinds;
        st->handled = r->handled;
    }
    if (r->failures > 1)
        snprintf(count, sizeof(count), "; %lu of %lu instructions failed", r->failures, r->unwinds);
    if (r->failures)
        abi_set_err(err, errlen, "%s%s%s%s", r->first, count, r->stop[0] ? "; also: " : "",
                    r->stop);
    else
        abi_set_err(err, errlen, "%s", r->stop);
    return r->failures || r->stop[0] ? -1 : 0;
}

#endif
