/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Runs the functions of layer_probe.pl (built by test/t/82-x86-abi.t)
 * through the 32-bit ABI and CFI checkers, under qemu-i386.
 */
#include "../../support/abi/abi32_typed.h"
#include "../lib/tap.h"

#include <stdint.h>

uint32_t probe_leave(uint32_t x);
uint32_t probe_frame(uint32_t x);

typedef uint32_t probe_f(uint32_t x);
ABI32_SHAPE(probe, probe_f, 1)

/* FN(x) must return x + ADD, keep the cdecl ABI and unwind at every step. */
static void probe(const char *name, struct code_handle fn, uint32_t x, uint32_t add)
{
    char err[512];
    uint64_t ret = 0;
    struct unwind_stats st;
    int rc = abi32_call_fn(fn, &x, 1, &ret, err, sizeof(err));
    if (!tap_ok(rc == 0 && (uint32_t)ret == x + add, "%s: cdecl ABI kept, returns %u",
                name, (unsigned)(x + add)))
        tap_diag("%s: %s", name, rc ? err : "wrong result");
    rc = unwind32_check_fn(fn, &x, 1, &st, err, sizeof(err));
    if (!tap_ok(rc == 0, "%s: CFI right at all %lu instructions (leave included)",
                name, st.steps))
        tap_diag("%s: %s", name, err);
}

int main(void)
{
    probe("probe_leave", abi32_probe(probe_leave), 41, 1);
    probe("probe_frame", abi32_probe(probe_frame), 41, 2);
    probe("probe_frame", abi32_probe(probe_frame), 40, 2);
    return tap_done();
}
