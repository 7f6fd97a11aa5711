/*
 * Every assembly implementation in the registry through the ABI checker and
 * the single-step unwind checker (abi_check.h), with its result compared to
 * the C reference.  Built for SysV (ELF, native) and for Win64 (mingw64 and
 * nasm flavours of the modules, under wine), from this one source.
 * Implementations the CPU cannot run are counted SKIPs naming the feature.
 * Prints TAP; argv[1], if given, prefixes every test name.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "abi_check.h"
#include "impl.h"
#include "../lib/tap.h"

/* Deterministic bytes: the input does not matter, only that it is fixed. */
static void fill(unsigned char *p, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        p[i] = (unsigned char)(seed >> 24);
    }
}

static unsigned long total_steps;

/* One SHA-1 block function: 3 blocks from an unaligned buffer. */
static void check_sha1(const char *label, const struct casm_sha1_impl *im)
{
    enum { BLOCKS = 3 };
    static unsigned char buf[BLOCKS * 64 + 1];
    const unsigned char *data = buf + 1;
    SHA_CTX want, got;
    char err[512];

    fill(buf, sizeof(buf), 7);
    SHA1_Init(&want);
    want.h0 ^= 0x01234567;                /* not the initial state */
    got = want;
    sha1_block_data_order_c(&want, data, BLOCKS);

    uint64_t args[3] = { (uint64_t)(uintptr_t)&got, (uint64_t)(uintptr_t)data, BLOCKS };
    uint64_t ret;
    int rc = abi_call((const void *)im->block, args, 3, &ret, err, sizeof(err));
    if (!tap_ok(rc == 0 && memcmp(&got, &want, 20) == 0,
                "%ssha1 %s: callee-saved state kept and digest state right",
                label, im->name))
        tap_diag("%s", rc ? err : "h0..h4 differ from the C reference");

#ifndef _WIN32
    const char *why = NULL;
    if (!unwind_check_available(&why)) {
        tap_skip(why, "%ssha1 %s: unwind check", label, im->name);
        return;
    }
#endif
    struct unwind_stats st = { 0, 0 };
    got = want;
    rc = unwind_check((const void *)im->block, args, 3, &st, err, sizeof(err));
    if (!tap_ok(rc == 0 && st.steps > 0,
                "%ssha1 %s: unwinds correctly at each of %lu instructions",
                label, im->name, st.steps))
        tap_diag("%s", err);
    total_steps += st.steps;
}

int main(int argc, char **argv)
{
    const char *label = argc > 1 ? argv[1] : "";
    int checked = 0;

    for (size_t i = 0; i < casm_sha1_impl_count; i++) {
        const struct casm_sha1_impl *im = casm_sha1_impls[i];
        if (strcmp(im->name, "c") == 0)
            continue;                       /* compiled C, not ours to check */
        checked++;
        if (!casm_cpu_has(im->need)) {
            tap_skip(im->need_name, "%ssha1 %s: this CPU lacks it", label, im->name);
            continue;
        }
        check_sha1(label, im);
    }
    if (checked == 0)
        tap_skip_all("this build has no assembly (NO_ASM)");
    tap_diag("%s%lu instructions single-stepped, each unwound and checked",
             label, total_steps);
    return tap_done();
}
