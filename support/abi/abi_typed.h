/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Typed entry to the ABI and unwind checkers (abi_check.h) for the
 * registry's functions: a handle (abi_shapes.h) takes the function with
 * its exact type, so a function of another shape does not compile, and
 * records that shape's argument count, which every call below checks.
 */
#ifndef TEST_ABI_TYPED_H
#define TEST_ABI_TYPED_H

#include "abi_check.h"
#include "abi_shapes.h"

/* The length of an argument array, as the calls below take it. */
#define ABI_NARGS(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* abi_call and unwind_check on a handle; a wrong argument count fails. */
static inline int abi_call_fn(struct code_handle fn, const uint64_t *args,
                              int nargs, uint64_t *ret, char *err,
                              size_t errlen)
{
    if (!code_handle_nargs_ok(fn, nargs, err, errlen))
        return -1;
    return abi_call(fn.code, args, nargs, ret, err, errlen);
}

static inline int unwind_check_fn(struct code_handle fn, const uint64_t *args,
                                  int nargs, struct unwind_stats *st,
                                  char *err, size_t errlen)
{
    if (!code_handle_nargs_ok(fn, nargs, err, errlen))
        return -1;
    return unwind_check(fn.code, args, nargs, st, err, errlen);
}

#endif
