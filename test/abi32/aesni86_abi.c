/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every exported function of crypto/aes/asm/aesni-x86.pl, each variant's
 * fixed path included, through the cdecl ABI checker and the
 * per-instruction CFI checker (abi_cdecl.c), under qemu-i386, at every key
 * size and at lengths that reach each loop of each function (six-block
 * groups, the ymm path's fourteen-block groups and single registers where
 * the CPU has VAES, single blocks, partial tails, XTS stealing, the key
 * schedules' error returns).  The ymm fixed paths run only where the CPU
 * has what the registry's aesni_ymm entry needs (else a SKIP).  Each
 * call's results (output buffer, ivec, cmac, offset, checksum, return
 * value) through the ABI checker must equal those of the same call made
 * directly, so the checker is known to have run the real code; the modes'
 * correctness is 84-aesni-x86.t's other programs' job.
 *
 *   aesni86_abi [--list] [--coverage FILE]
 *     --list          the function names covered (84-aesni-x86.t compares
 *                     them with the object's global symbols)
 *     --coverage FILE the address of every instruction single-stepped
 */
#include "../../support/abi/abi32_typed.h"
#include "../../support/abi/abi_shapes.h"
#include "../lib/tap.h"

#include <stdio.h>
#include <string.h>

#include "impl.h"
#include "variants.h"

/* enc: which key schedule the call takes (1 encryption, 0 decryption);
 * ymm: the ymm fixed path, run only where the CPU has VAES and AVX2. */
struct fn {
    const char *name;
    int enc, ymm;
    casm_aes_set_key_f set_key;
    aes_block_f block;
    casm_aes_ecb_f ecb;
    casm_aes_cbc_f cbc;
    ctr128_f ctr;
    xts128_f xts;
    ccm128_f ccm;
    ocb128_f ocb;
};

static const struct fn fns[] = {
    { "aesni_set_encrypt_key", 1, .set_key = aesni_set_encrypt_key },
    { "aesni_set_decrypt_key", 0, .set_key = aesni_set_decrypt_key },
    { "aesni_encrypt", 1, .block = aesni_encrypt },
    { "aesni_decrypt", 0, .block = aesni_decrypt },
    { "aesni_ecb_encrypt", 1, .ecb = aesni_ecb_encrypt },
    { "aesni_ecb_encrypt", 0, .ecb = aesni_ecb_encrypt },
    { "aesni_cbc_encrypt", 1, .cbc = aesni_cbc_encrypt },
    { "aesni_cbc_encrypt", 0, .cbc = aesni_cbc_encrypt },
    { "aesni_ctr32_encrypt_blocks", 1, .ctr = aesni_ctr32_encrypt_blocks },
    { "aesni_xts_encrypt", 1, .xts = aesni_xts_encrypt },
    { "aesni_xts_decrypt", 0, .xts = aesni_xts_decrypt },
    { "aesni_ccm64_encrypt_blocks", 1, .ccm = aesni_ccm64_encrypt_blocks },
    { "aesni_ccm64_decrypt_blocks", 1, .ccm = aesni_ccm64_decrypt_blocks },
    { "aesni_ocb_encrypt", 1, .ocb = aesni_ocb_encrypt },
    { "aesni_ocb_decrypt", 0, .ocb = aesni_ocb_decrypt },
#define FIXED(variant, ymm)                                                                     \
    { "aesni_ecb_encrypt_" #variant, 1, ymm, .ecb = aesni_ecb_encrypt_##variant },             \
    { "aesni_ecb_encrypt_" #variant, 0, ymm, .ecb = aesni_ecb_encrypt_##variant },             \
    { "aesni_cbc_encrypt_" #variant, 1, ymm, .cbc = aesni_cbc_encrypt_##variant },             \
    { "aesni_cbc_encrypt_" #variant, 0, ymm, .cbc = aesni_cbc_encrypt_##variant },             \
    { "aesni_ctr32_encrypt_blocks_" #variant, 1, ymm, .ctr = aesni_ctr32_encrypt_blocks_##variant }, \
    { "aesni_xts_encrypt_" #variant, 1, ymm, .xts = aesni_xts_encrypt_##variant },             \
    { "aesni_xts_decrypt_" #variant, 0, ymm, .xts = aesni_xts_decrypt_##variant },             \
    { "aesni_ocb_encrypt_" #variant, 1, ymm, .ocb = aesni_ocb_encrypt_##variant },             \
    { "aesni_ocb_decrypt_" #variant, 0, ymm, .ocb = aesni_ocb_decrypt_##variant },
    FIXED(ymm, 1)
    FIXED(xmm, 0)
#undef FIXED
};
#define NFNS (sizeof(fns) / sizeof(fns[0]))

#define MAX_LEN 256
/* What a call may write, reset before each call and compared after. */
struct state {
    unsigned char out[MAX_LEN + 8];
    unsigned char ivec[16], cmac[16], offset[16], checksum[16];
    AES_KEY key_out;
    int ret;
};
static struct state got, want;
static unsigned char user_key[32], in[MAX_LEN + 8], L_[8][16];
static AES_KEY enc_key, dec_key, tweak_key;

#define PTR(p) ((uint32_t)(uintptr_t)(p))

static struct code_handle handle(const struct fn *f)
{
    return f->set_key ? abi_set_key(f->set_key) : f->block ? abi_aes_block(f->block)
           : f->ecb ? abi_ecb(f->ecb) : f->cbc ? abi_cbc(f->cbc)
           : f->ctr ? abi_ctr32(f->ctr) : f->xts ? abi_xts(f->xts)
           : f->ccm ? abi_ccm64(f->ccm) : abi_ocb(f->ocb);
}

static void reset(struct state *s)
{
    memset(s, 0x5a, sizeof(*s));
    for (int i = 0; i < 16; i++) {
        s->ivec[i] = (unsigned char)(0xf0 - 15 * i);
        s->cmac[i] = (unsigned char)(3 * i + 1);
        s->offset[i] = (unsigned char)(7 * i);
        s->checksum[i] = (unsigned char)(11 * i + 5);
    }
    memset(s->ivec + 12, 0xff, 4);           /* CTR32 and CCM64 wrap their low word */
}

/* One call's arguments into args, its buffers those of s; the count. */
static int arguments(const struct fn *f, int bits, size_t n, struct state *s,
                     uint32_t args[ABI32_MAX_ARGS])
{
    const AES_KEY *k = f->enc ? &enc_key : &dec_key;
    const uint32_t a_in = PTR(in + 1), a_out = PTR(s->out + 3);
    if (f->set_key) {
        args[0] = n == 1 ? 0 : PTR(user_key);        /* n: 1 a NULL key, 2 bad bits */
        args[1] = (uint32_t)(n == 2 ? 100 : bits);
        args[2] = PTR(&s->key_out);
        return 3;
    }
    args[0] = a_in;
    args[1] = a_out;
    if (f->block) {
        args[2] = PTR(k);
        return 3;
    }
    args[2] = (uint32_t)n;
    args[3] = PTR(k);
    if (f->ecb) {
        args[4] = (uint32_t)f->enc;
        return 5;
    }
    if (f->cbc) {
        args[4] = PTR(s->ivec);
        args[5] = (uint32_t)f->enc;
        return 6;
    }
    if (f->ctr) {
        args[4] = PTR(s->ivec);
        return 5;
    }
    if (f->xts) {
        args[4] = PTR(&tweak_key);
        args[5] = PTR(s->ivec);
        return 6;
    }
    if (f->ccm) {
        args[4] = PTR(s->ivec);
        args[5] = PTR(s->cmac);
        return 6;
    }
    args[4] = n == 26 ? 7 : 5;                       /* start_block_num: ntz 0..3; 7: groups
                                                        from 3 mod 4 (the other offset set) */
    args[5] = PTR(s->offset);
    args[6] = PTR(L_);
    args[7] = PTR(s->checksum);
    return 8;
}

/* The same call made directly, into want. */
static void direct(const struct fn *f, const uint32_t *a)
{
#define P(i) ((void *)(uintptr_t)a[i])
    if (f->set_key)
        want.ret = f->set_key(P(0), (int)a[1], P(2));
    else if (f->block)
        f->block(P(0), P(1), P(2));
    else if (f->ecb)
        f->ecb(P(0), P(1), a[2], P(3), (int)a[4]);
    else if (f->cbc)
        f->cbc(P(0), P(1), a[2], P(3), P(4), (int)a[5]);
    else if (f->ctr)
        f->ctr(P(0), P(1), a[2], P(3), P(4));
    else if (f->xts)
        f->xts(P(0), P(1), a[2], P(3), P(4), P(5));
    else if (f->ccm)
        f->ccm(P(0), P(1), a[2], P(3), P(4), P(5));
    else
        f->ocb(P(0), P(1), a[2], P(3), a[4], P(5), P(6), P(7));
#undef P
}

static void run(const struct fn *f, int bits, size_t n)
{
    char what[120], err[512];
    uint32_t args[ABI32_MAX_ARGS] = { 0 };
    uint64_t ret = 0;
    int nargs, rc;

    snprintf(what, sizeof(what), "%s(AES-%d, %s %zu)%s", f->name, bits,
             f->set_key ? "case" : f->ctr || f->ccm || f->ocb ? "blocks" : "bytes", n,
             f->ecb || f->cbc ? (f->enc ? " encrypt" : " decrypt") : "");
    reset(&want);
    direct(f, (arguments(f, bits, n, &want, args), args));

    reset(&got);
    nargs = arguments(f, bits, n, &got, args);
    rc = abi32_call_fn(handle(f), args, nargs, &ret, err, sizeof(err));
    got.ret = want.ret;
    if (f->set_key)
        got.ret = (int)(uint32_t)ret;
    int same = rc == 0 && memcmp(&got, &want, sizeof(got)) == 0;
    if (!tap_ok(same, "%s: cdecl ABI kept, results as a direct call's", what))
        tap_diag("%s: %s", what, rc ? err : "results differ");

    /* The single-stepped call's results are not compared: under
     * qemu-i386 7.2 the xmm registers do not survive the trap signal's
     * handler (even aesni_encrypt's output differs), so only the CFI is. */
    struct unwind_stats st;
    reset(&got);
    nargs = arguments(f, bits, n, &got, args);
    rc = unwind32_check_fn(handle(f), args, nargs, &st, err, sizeof(err));
    if (!tap_ok(rc == 0 && st.steps > 0 && st.unwinds == st.steps,
                "%s: CFI right at all %lu instructions executed", what, st.steps))
        tap_diag("%s: %s", what, err);
}

int main(int argc, char **argv)
{
    static const int bits[3] = { 128, 192, 256 };
    const char *coverage = NULL;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--list") == 0) {
            for (size_t k = 0; k < NFNS; k++)
                if (k == 0 || strcmp(fns[k].name, fns[k - 1].name) != 0)
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
    for (unsigned i = 0; i < sizeof(user_key); i++)
        user_key[i] = (unsigned char)(i * 29 + 3);
    for (unsigned i = 0; i < sizeof(in); i++)
        in[i] = (unsigned char)(i * 151 + 17);
    for (unsigned i = 0; i < sizeof(L_); i++)
        L_[i / 16][i % 16] = (unsigned char)(i * 13 + 7);

    const struct casm_aes_impl *vaes = casm_aes_impl_by_name("aesni_ymm");
    if (vaes == NULL)
        tap_bail("the registry has no aesni_ymm entry");
    int have_ymm = casm_cpu_has(vaes->need);
    if (!have_ymm)
        tap_skip("this CPU lacks what they need", "the ymm fixed paths (%s)", vaes->need_name);
    unwind32_set_private_callees(1);     /* _aesni_expand_key: checked at its caller */
    for (int b = 0; b < 3; b++) {
        if (aesni_set_encrypt_key(user_key, bits[b], &enc_key) != 0
            || aesni_set_decrypt_key(user_key, bits[b], &dec_key) != 0
            || aesni_set_encrypt_key(user_key + 8, bits[b], &tweak_key) != 0)
            tap_bail("aesni_set_*_key(%d) failed", bits[b]);
        for (size_t i = 0; i < NFNS; i++) {
            const struct fn *f = &fns[i];
            if (f->ymm && !have_ymm)
                continue;
            if (f->set_key || f->block) {
                run(f, bits[b], 0);
            } else if (f->ctr || f->ccm || f->ocb) {
                run(f, bits[b], 0);
                run(f, bits[b], 1);
                run(f, bits[b], 8);          /* a group of six and two single blocks */
                run(f, bits[b], 25);         /* four groups (OCB: both sets made ahead and last), one block */
                run(f, bits[b], 26);         /* OCB from block 7: the first group in the other set */
            } else {
                /* ECB ignores a partial block; CBC pads or writes part of
                 * one; XTS steals (under 16 bytes it does nothing);
                 * 213 bytes give XTS a group whose successor's tweaks it
                 * makes, in both directions; 128, 213 and 496 bytes
                 * reach the ymm (VAES) path's loops: single registers,
                 * and two fourteen-block groups, a register and a block. */
                static const size_t lens[] = { 0, 7, 16, 20, 128, 133, 213, 496 };
                for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++)
                    run(f, bits[b], lens[l]);
            }
        }
    }
    run(&fns[0], 128, 1);                    /* the key schedules' error returns */
    run(&fns[0], 128, 2);
    run(&fns[1], 128, 1);
    run(&fns[1], 128, 2);
    if (coverage && unwind32_coverage_write(coverage) != 0)
        tap_bail("cannot write %s", coverage);
    return tap_done();
}
