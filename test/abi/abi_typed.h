/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Typed entry to the ABI and unwind checkers (abi_check.h) for the
 * registry's functions: one handle constructor per prototype shape.  It
 * takes the function with its exact type, so a function of another shape
 * does not compile, and records that shape's argument count, against which
 * module_abi.c checks every argument list it passes.  The one conversion
 * from a function to the address the checkers run is made here.
 */
#ifndef TEST_ABI_TYPED_H
#define TEST_ABI_TYPED_H

#include <stdio.h>
#include <string.h>

#include "abi_check.h"
#include "impl.h"

struct abi_fn {
    const void *code;   /* where the checkers enter */
    int nargs;          /* the prototype's argument count */
};

#define ABI_SHAPE(shape, type, n) \
    static inline struct abi_fn abi_##shape(type f) \
    { \
        struct abi_fn h = { NULL, n }; \
        _Static_assert(sizeof(f) == sizeof(h.code), \
                       "a code address fits a data pointer"); \
        memcpy(&h.code, &f, sizeof(h.code)); \
        return h; \
    }

ABI_SHAPE(sha1_block, sha1_block_f, 3)
ABI_SHAPE(set_key, casm_aes_set_key_f, 3)
ABI_SHAPE(block, block128_f, 3)
ABI_SHAPE(ecb, casm_aes_ecb_f, 5)
ABI_SHAPE(cbc, casm_aes_cbc_f, 6)
ABI_SHAPE(ctr32, ctr128_f, 5)
ABI_SHAPE(xts, xts128_f, 6)
ABI_SHAPE(ccm64, ccm128_f, 6)
ABI_SHAPE(ocb, ocb128_f, 8)

/* The length of an argument array, as the calls below take it. */
#define ABI_NARGS(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* abi_call and unwind_check on a handle; a wrong argument count fails. */
static inline int abi_nargs_ok(struct abi_fn fn, int nargs, char *err,
                               size_t errlen)
{
    if (nargs == fn.nargs)
        return 1;
    snprintf(err, errlen, "%d arguments given to a prototype of %d", nargs,
             fn.nargs);
    return 0;
}

static inline int abi_call_fn(struct abi_fn fn, const uint64_t *args,
                              int nargs, uint64_t *ret, char *err,
                              size_t errlen)
{
    if (!abi_nargs_ok(fn, nargs, err, errlen))
        return -1;
    return abi_call(fn.code, args, nargs, ret, err, errlen);
}

static inline int unwind_check_fn(struct abi_fn fn, const uint64_t *args,
                                  int nargs, struct unwind_stats *st,
                                  char *err, size_t errlen)
{
    if (!abi_nargs_ok(fn, nargs, err, errlen))
        return -1;
    return unwind_check(fn.code, args, nargs, st, err, errlen);
}

#endif
