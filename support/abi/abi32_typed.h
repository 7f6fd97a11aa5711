/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Typed entry to the 32-bit checkers (abi_cdecl.h): a handle per prototype
 * shape, built from a function of exactly that type (another shape does
 * not compile), recording its argument count, which every call on the
 * handle checks.  The one conversion from a function to the address the
 * checkers run is made in support/lib/code_handle.h; the registry's shapes
 * are abi_shapes.h's, others a user declares with ABI32_SHAPE.
 */
#ifndef TEST_ABI32_ABI32_TYPED_H
#define TEST_ABI32_ABI32_TYPED_H

#include "abi_cdecl.h"
#include "../lib/code_handle.h"

/* abi32_SHAPE(f): a handle on f, a function of type TYPE with N arguments. */
#define ABI32_SHAPE(shape, type, n) CODE_HANDLE_SHAPE(abi32_##shape, type *, n)

static inline int abi32_call_fn(struct code_handle fn, const uint32_t *args, int nargs,
                                uint64_t *ret, char *err, size_t errlen)
{
    if (!code_handle_nargs_ok(fn, nargs, err, errlen))
        return -1;
    return abi32_call(fn.code, args, nargs, ret, err, errlen);
}

static inline int unwind32_check_fn(struct code_handle fn, const uint32_t *args, int nargs,
                                    struct unwind_stats *st, char *err, size_t errlen)
{
    if (!code_handle_nargs_ok(fn, nargs, err, errlen))
        return -1;
    return unwind32_check(fn.code, args, nargs, st, err, errlen);
}

static inline int trace32_call_fn(struct code_handle fn, const uint32_t *args, int nargs,
                                  uint32_t *eips, size_t cap, size_t *n, char *err,
                                  size_t errlen)
{
    if (!code_handle_nargs_ok(fn, nargs, err, errlen))
        return -1;
    return trace32_call(fn.code, args, nargs, eips, cap, n, err, errlen);
}

#endif
