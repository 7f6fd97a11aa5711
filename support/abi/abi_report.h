/* SPDX-License-Identifier: Apache-2.0 */
/*
 * How the ABI checkers word a failure, shared by the SysV, Win64 and cdecl
 * ends (abi_sysv.c, abi_win64.c, support/abi/abi_cdecl.c) so that their
 * messages, which the self-tests match, follow one rule:
 *
 *   abi_set_err   formats the one-line explanation into err (if err).
 *   abi_args_ok   refuses an argument list the trampoline cannot pass.
 *   abi_where     names an address as "fn+0x1c", "fn-0x30" (within 1 MiB
 *                 of fn) or absolutely.
 *   abi_verdict   collects the violations found after one call: the first
 *                 is told in full, the others counted ("(and 2 more ABI
 *                 violations)"); the stack pointer is checked first, since
 *                 everything else is moot when it is wrong.
 *
 * Static functions: each checker is one translation unit, built for its
 * own target (x86_64 ELF, mingw-w64, i386).
 */
#ifndef TEST_ABI_REPORT_H
#define TEST_ABI_REPORT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

static void abi_set_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), unused));

static void abi_set_err(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    if (!err || errlen == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static __attribute__((unused)) const char *abi_where(uint64_t fn, uint64_t ip,
                                                     char *buf, size_t n)
{
    if (ip >= fn && ip - fn < 0x100000)
        snprintf(buf, n, "fn+0x%llx", (unsigned long long)(ip - fn));
    else if (ip < fn && fn - ip < 0x100000)
        snprintf(buf, n, "fn-0x%llx", (unsigned long long)(fn - ip));
    else
        snprintf(buf, n, "0x%llx", (unsigned long long)ip);
    return buf;
}

/* 0 when nargs words at args can be passed (at most max); else -1, why in err. */
static __attribute__((unused)) int abi_args_ok(const void *args, int nargs, int max,
                                               char *err, size_t errlen)
{
    if (nargs >= 0 && nargs <= max && (nargs == 0 || args))
        return 0;
    abi_set_err(err, errlen, "bad argument list: nargs %d (0..%d allowed)%s", nargs, max,
                nargs > 0 && !args ? ", args NULL" : "");
    return -1;
}

struct abi_verdict {
    int bad;                /* violations found */
    char first[200];        /* the first one, in words */
};

/* Records a violation when bad is true; only the first one's words stay. */
static void abi_violation(struct abi_verdict *v, int bad, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), unused));

static void abi_violation(struct abi_verdict *v, int bad, const char *fmt, ...)
{
    va_list ap;
    if (!bad || v->bad++ > 0)
        return;
    va_start(ap, fmt);
    vsnprintf(v->first, sizeof(v->first), fmt, ap);
    va_end(ap);
}

/* 0 when nothing was found; else -1 with the verdict in err. */
static __attribute__((unused)) int abi_verdict_end(const struct abi_verdict *v,
                                                   char *err, size_t errlen)
{
    if (v->bad > 1)
        abi_set_err(err, errlen, "%s (and %d more ABI violations)", v->first, v->bad - 1);
    else if (v->bad)
        abi_set_err(err, errlen, "%s", v->first);
    return v->bad ? -1 : 0;
}

#endif
