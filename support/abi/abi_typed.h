/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Typed entry to the ABI and unwind checkers (abi_check.h) for the
 * registry's functions: one handle constructor per prototype shape.  It
 * takes the function with its exact type, so a function of another shape
 * does not compile, and records that shape's argument count, against which
 * module_abi.c checks every argument list it passes (support/lib/code_handle.h).
 */
#ifndef TEST_ABI_TYPED_H
#define TEST_ABI_TYPED_H

#include "abi_check.h"
#include "impl.h"
#include "../lib/code_handle.h"

#define ABI_SHAPE(shape, type, n) CODE_HANDLE_SHAPE(abi_##shape, type, n)

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
