/*
 * Runs the functions of layer_probe.pl (built by test/t/82-x86-abi.t)
 * through the 32-bit ABI and CFI checkers, under qemu-i386.
 */
#include "abi_cdecl.h"
#include "../lib/tap.h"

#include <stdint.h>

uint32_t probe_leave(uint32_t x);

int main(void)
{
    char err[512];
    uint32_t x = 41;
    uint64_t ret = 0;
    struct unwind32_stats st;
    int rc = abi32_call((const void *)probe_leave, &x, 1, &ret, err, sizeof(err));
    if (!tap_ok(rc == 0 && (uint32_t)ret == 42, "probe_leave: cdecl ABI kept, returns 42"))
        tap_diag("probe_leave: %s", rc ? err : "wrong result");
    rc = unwind32_check((const void *)probe_leave, &x, 1, &st, err, sizeof(err));
    if (!tap_ok(rc == 0, "probe_leave: CFI right at all %lu instructions (leave included)",
                st.steps))
        tap_diag("probe_leave: %s", err);
    return tap_done();
}
