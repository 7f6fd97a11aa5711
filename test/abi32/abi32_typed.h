/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Typed entry to the 32-bit checkers (abi_cdecl.h): a handle per prototype
 * shape, built from a function of exactly that type (another shape does
 * not compile), recording its argument count, which every call on the
 * handle checks.  The one conversion from a function to the address the
 * checkers run is made here, in ABI32_SHAPE; each user declares its
 * shapes with it (aes586_abi.c: set-key, block, cbc).
 */
#ifndef TEST_ABI32_ABI32_TYPED_H
#define TEST_ABI32_ABI32_TYPED_H

#include <stdio.h>
#include <string.h>

#include "abi_cdecl.h"

struct abi32_fn {
    const void *code;   /* where the checkers enter */
    int nargs;          /* the prototype's argument count */
};

/* abi32_SHAPE(f): a handle on f, a function of type TYPE with N arguments. */
#define ABI32_SHAPE(shape, type, n) \
    static inline struct abi32_fn abi32_##shape(type *f) \
    { \
        struct abi32_fn h = { NULL, n }; \
        _Static_assert(sizeof(f) == sizeof(h.code), \
                       "a code address fits a data pointer"); \
        memcpy(&h.code, &f, sizeof(h.code)); \
        return h; \
    }

static inline int abi32_nargs_ok(struct abi32_fn fn, int nargs, char *err, size_t errlen)
{
    if (nargs == fn.nargs)
        return 1;
    snprintf(err, errlen, "%d arguments given to a prototype of %d", nargs, fn.nargs);
    return 0;
}

static inline int abi32_call_fn(struct abi32_fn fn, const uint32_t *args, int nargs,
                                uint64_t *ret, char *err, size_t errlen)
{
    if (!abi32_nargs_ok(fn, nargs, err, errlen))
        return -1;
    return abi32_call(fn.code, args, nargs, ret, err, errlen);
}

static inline int unwind32_check_fn(struct abi32_fn fn, const uint32_t *args, int nargs,
                                    struct unwind32_stats *st, char *err, size_t errlen)
{
    if (!abi32_nargs_ok(fn, nargs, err, errlen))
        return -1;
    return unwind32_check(fn.code, args, nargs, st, err, errlen);
}

static inline int trace32_call_fn(struct abi32_fn fn, const uint32_t *args, int nargs,
                                  uint32_t *eips, size_t cap, size_t *n, char *err,
                                  size_t errlen)
{
    if (!abi32_nargs_ok(fn, nargs, err, errlen))
        return -1;
    return trace32_call(fn.code, args, nargs, eips, cap, n, err, errlen);
}

#endif
