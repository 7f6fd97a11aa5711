/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every global function of sha1-586 (crypto/sha/asm/sha1-586.pl: the
 * dispatcher sha1_block_data_order and each path) through the cdecl ABI
 * checker and the per-instruction CFI checker (abi_cdecl.c).  Linked with
 * the 32-bit archive (build/m32/libcrypto-asm.a), whose C compression
 * function is the reference: every call's state must equal the C's, so
 * the checkers are known to have run the real code.
 *
 *   sha1_586_abi [--list] [--coverage FILE]
 *     --list          the function names covered (test/t/86-sha1-586.t
 *                     compares them with the object's global symbols)
 *     --coverage FILE the address of every instruction single-stepped
 * A path the CPU (or qemu's model of one) lacks is a counted skip; the
 * dispatcher follows OPENSSL_ia32cap, which the test sets per path.
 */
#include "../../support/abi/abi32_typed.h"
#include "../../support/abi/abi_shapes.h"
#include "../lib/tap.h"

#include <stdio.h>
#include <string.h>

#include "impl.h"
#include "variants.h"


static const struct fn {
    const char *name;
    sha1_block_f fn;
    const char *entry;      /* the registry entry whose needs it has */
} fns[] = {
    { "sha1_block_data_order", sha1_block_data_order, NULL },
    { "sha1_block_data_order_shaext", sha1_block_data_order_shaext, "shani" },
    { "sha1_block_data_order_avx", sha1_block_data_order_avx, "avx" },
    { "sha1_block_data_order_ssse3", sha1_block_data_order_ssse3, "ssse3" },
    { "sha1_block_data_order_integer", sha1_block_data_order_integer, "integer" },
};
#define NFNS (sizeof(fns) / sizeof(fns[0]))

#define PTR(p) ((uint32_t)(uintptr_t)(p))
static unsigned char msg[3 * 64 + 8];

/* The call on n blocks at an odd address: ABI (4 calls) and, for n = 2
 * (the loop and its last block), CFI at every instruction. */
static void run(const struct fn *f, size_t n)
{
    char err[512];
    struct { uint32_t lo; SHA_CTX c; uint32_t hi; } got, want;
    uint32_t args[3];
    uint64_t ret;
    int rc = 0, same = 1;

    for (int k = 0; k < 4 && rc == 0 && same; k++) {
        memset(&want, 0x5a + k, sizeof(want));
        SHA1_Init(&want.c);
        want.c.h0 ^= (uint32_t)k;
        got = want;
        sha1_block_data_order_c(&want.c, msg + 3, n);
        args[0] = PTR(&got.c);
        args[1] = PTR(msg + 3);
        args[2] = (uint32_t)n;
        rc = abi32_call_fn(abi_sha1_block(f->fn), args, 3, &ret, err, sizeof(err));
        same = memcmp(&got, &want, sizeof(got)) == 0;
    }
    if (!tap_ok(rc == 0 && same, "%s(%zu blocks): cdecl ABI kept (4 calls, random registers), "
                "state as the C's, nothing else written", f->name, n))
        tap_diag("%s: %s", f->name, rc ? err : "state differs from the C compression's");
    if (n != 2)
        return;
    struct unwind_stats st;
    SHA1_Init(&got.c);
    args[0] = PTR(&got.c);
    rc = unwind32_check_fn(abi_sha1_block(f->fn), args, 3, &st, err, sizeof(err));
    if (!tap_ok(rc == 0 && st.steps > 0 && st.unwinds == st.steps,
                "%s(2 blocks): CFI right at all %lu instructions executed", f->name, st.steps))
        tap_diag("%s: %s", f->name, err);
}

int main(int argc, char **argv)
{
    const char *coverage = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--list") == 0) {
            for (size_t k = 0; k < NFNS; k++)
                printf("%s\n", fns[k].name);
            return 0;
        } else if (strcmp(argv[i], "--coverage") == 0 && i + 1 < argc) {
            coverage = argv[++i];
        } else {
            fprintf(stderr, "usage: %s [--list] [--coverage FILE]\n", argv[0]);
            return 2;
        }
    }
    if (coverage && unwind32_coverage_start() != 0)
        tap_bail("no memory for the coverage map");
    for (unsigned i = 0; i < sizeof(msg); i++)
        msg[i] = (unsigned char)(i * 151 + 17);
    for (size_t i = 0; i < NFNS; i++) {
        const struct fn *f = &fns[i];
        const struct casm_sha1_impl *e = f->entry ? casm_sha1_impl_by_name(f->entry) : NULL;
        if (f->entry && !e)
            tap_bail("no registry entry %s", f->entry);
        if (e && !casm_cpu_has(e->need)) {
            tap_skip("this CPU lacks it", "%s needs %s", f->name, e->need_name);
            continue;
        }
        for (size_t n = 1; n <= 3; n++)
            run(f, n);
    }
    if (coverage && unwind32_coverage_write(coverage) != 0)
        tap_bail("cannot write %s", coverage);
    return tap_done();
}
