/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A function as the ABI checkers (test/abi, test/abi32) run it: its entry
 * address and its prototype's argument count.  CODE_HANDLE_SHAPE declares
 * one constructor per prototype shape, taking the function with its exact
 * pointer type, so a function of another shape does not compile; the one
 * conversion from a function to a code address is made there.  Every call
 * through a handle checks its argument count with code_handle_nargs_ok.
 */
#ifndef TEST_LIB_CODE_HANDLE_H
#define TEST_LIB_CODE_HANDLE_H

#include <stdio.h>
#include <string.h>

struct code_handle {
    const void *code;   /* where the checkers enter */
    int nargs;          /* the prototype's argument count */
};

/* NAME(f): a handle on f, of pointer type FNPTR with N arguments. */
#define CODE_HANDLE_SHAPE(name, fnptr, n) \
    static inline struct code_handle name(fnptr f) \
    { \
        struct code_handle h = { NULL, n }; \
        _Static_assert(sizeof(f) == sizeof(h.code), \
                       "a code address fits a data pointer"); \
        memcpy(&h.code, &f, sizeof(h.code)); \
        return h; \
    }

static inline int code_handle_nargs_ok(struct code_handle fn, int nargs,
                                       char *err, size_t errlen)
{
    if (nargs == fn.nargs)
        return 1;
    snprintf(err, errlen, "%d arguments given to a prototype of %d", nargs,
             fn.nargs);
    return 0;
}

#endif
