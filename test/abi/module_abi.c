/* SPDX-License-Identifier: Apache-2.0 */
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

#include "../../support/abi/abi_typed.h"
#include "impl.h"
#include "aes/aes_c.h"
#include "../lib/tap.h"
#include "../../support/lib/ocb_model.h"

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
    const struct code_handle fn = abi_sha1_block(im->block);
    int rc = abi_call_fn(fn, args, ABI_NARGS(args), &ret, err, sizeof(err));
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
    struct unwind_stats st = { 0, 0, 0 };
    got = want;
    rc = unwind_check_fn(fn, args, ABI_NARGS(args), &st, err, sizeof(err));
    if (!tap_ok(rc == 0 && st.steps > 0,
                "%ssha1 %s: unwinds correctly at each of %lu instructions",
                label, im->name, st.steps))
        tap_diag("%s", err);
    total_steps += st.steps;
}

/* fn(args) single-stepped through the unwind checker. */
static void check_unwind(const char *label, const char *what, struct code_handle fn,
                         const uint64_t *args, int nargs)
{
    char err[512];
#ifndef _WIN32
    const char *why = NULL;
    if (!unwind_check_available(&why)) {
        tap_skip(why, "%s%s: unwind check", label, what);
        return;
    }
#endif
    struct unwind_stats st = { 0, 0, 0 };
    int urc = unwind_check_fn(fn, args, nargs, &st, err, sizeof(err));
    if (!tap_ok(urc == 0 && st.steps > 0,
                "%s%s: unwinds correctly at each of %lu instructions", label,
                what, st.steps))
        tap_diag("%s", err);
    total_steps += st.steps;
}

/* Calls fn(args) through both checkers; `what` names it in the output. */
static int check_call(const char *label, const char *what, struct code_handle fn,
                      const uint64_t *args, int nargs, uint64_t *ret)
{
    char err[512];
    int rc = abi_call_fn(fn, args, nargs, ret, err, sizeof(err));
    if (!tap_ok(rc == 0, "%s%s: callee-saved state kept (ABI checker)", label, what))
        tap_diag("%s", err);
    check_unwind(label, what, fn, args, nargs);
    return rc;
}

#define U(p) ((uint64_t)(uintptr_t)(p))

/* fn(args) through both checkers, then out[0..n) against want. */
static void check_bytes(const char *label, const char *what, struct code_handle fn,
                        const uint64_t *args, int nargs,
                        const unsigned char *out, const unsigned char *want,
                        size_t n)
{
    uint64_t ret;
    if (check_call(label, what, fn, args, nargs, &ret) == 0)
        tap_ok(memcmp(out, want, n) == 0, "%s%s gives the C reference's bytes",
               label, what);
}

/*
 * The CCM bulk hooks (aesni_ccm64_*), against a C model: the 64-bit
 * counter crosses its wrap, cmac is updated in place and ivec is not.
 * cmac is reset before each of the two calls (ABI, then unwind), as the
 * CBC iv is below.
 */
static void check_ccm(const char *label, const struct casm_aes_impl *im,
                      const AES_KEY *ek, const AES_KEY *ref_e)
{
    enum { BLOCKS = 37 };
    static unsigned char in[16 * BLOCKS + 1], out[16 * BLOCKS], want[16 * BLOCKS];
    unsigned char ivec[16], cmac0[16], cmac[16], cmac_want[16], ctr[16], ks[16];
    char what[96], err[512];
    if (im->ccm64_enc == NULL || im->ccm64_dec == NULL)
        return;
    fill(in, sizeof(in), 31);
    fill(ivec, 16, 37);
    memset(ivec + 8, 0xff, 8);
    ivec[15] = 0xf0;                        /* wraps after 16 blocks */
    fill(cmac0, 16, 41);
    for (int enc = 1; enc >= 0; enc--) {
        memcpy(ctr, ivec, 16);
        memcpy(cmac_want, cmac0, 16);
        for (size_t b = 0; b < BLOCKS; b++) {
            const unsigned char *p = in + 1 + 16 * b;
            aes_c_encrypt(ctr, ks, ref_e);
            for (int i = 0; i < 16; i++) {
                want[16 * b + i] = p[i] ^ ks[i];
                cmac_want[i] ^= enc ? p[i] : want[16 * b + i];
            }
            aes_c_encrypt(cmac_want, cmac_want, ref_e);
            for (int i = 15; i >= 8 && ++ctr[i] == 0; i--)
                ;
        }
        const struct code_handle fn = abi_ccm64(enc ? im->ccm64_enc : im->ccm64_dec);
        uint64_t a[6] = { U(in + 1), U(out), BLOCKS, U(ek), U(ivec), U(cmac) };
        uint64_t ret;
        snprintf(what, sizeof(what), "aes %s ccm64 %s (across the 64-bit counter wrap)",
                 im->name, enc ? "encrypt" : "decrypt");
        memcpy(cmac, cmac0, 16);
        int rc = abi_call_fn(fn, a, ABI_NARGS(a), &ret, err, sizeof(err));
        if (!tap_ok(rc == 0 && memcmp(out, want, sizeof(out)) == 0 &&
                    memcmp(cmac, cmac_want, 16) == 0,
                    "%s%s: callee-saved state kept, bytes and cmac as the C model's",
                    label, what))
            tap_diag("%s", rc ? err : "output or cmac differs from the C model");
        memcpy(cmac, cmac0, 16);
        check_unwind(label, what, fn, a, ABI_NARGS(a));
    }
}

/*
 * The bulk hooks an implementation may have (ECB, CTR32, XTS), against
 * the generic modes over the C AES.  Lengths cover the 8-block groups of
 * the parallel code and a tail.
 */
static void check_aes_bulk(const char *label, const struct casm_aes_impl *im,
                           const AES_KEY *ek, const AES_KEY *dk,
                           const AES_KEY *ref_e, const AES_KEY *ref_d)
{
    enum { N = 40 * 16 + 7 };     /* past one 32-block wide group */
    static unsigned char in[N + 1], out[N], want[N], ctr[16], iv[16];
    char what[96];
    fill(in, sizeof(in), 19);
    fill(ctr, 16, 23);
    ctr[12] = ctr[13] = ctr[14] = 0xff;     /* the 32-bit counter wraps */
    fill(iv, 16, 29);

    if (im->ecb != NULL) {
        for (int enc = 1; enc >= 0; enc--) {
            for (size_t i = 0; i + 16 <= N - 7; i += 16)
                (enc ? aes_c_encrypt : aes_c_decrypt)(in + 1 + i, want + i, enc ? ref_e : ref_d);
            uint64_t a[5] = { U(in + 1), U(out), N - 7, U(enc ? ek : dk), (uint64_t)enc };
            snprintf(what, sizeof(what), "aes %s ecb %s", im->name, enc ? "encrypt" : "decrypt");
            check_bytes(label, what, abi_ecb(im->ecb), a, ABI_NARGS(a), out, want, N - 7);
        }
    }
    if (im->ctr32 != NULL) {
        /* ctr32 wraps the low 32 bits without carry: so does the model. */
        unsigned char c[16], ks[16];
        memcpy(c, ctr, 16);
        for (size_t i = 0; i < (N - 7) / 16; i++) {
            aes_c_encrypt(c, ks, ref_e);
            for (int j = 0; j < 16; j++)
                want[16 * i + j] = in[1 + 16 * i + j] ^ ks[j];
            for (int j = 15; j >= 12 && ++c[j] == 0; j--)
                ;
        }
        uint64_t a[5] = { U(in + 1), U(out), (N - 7) / 16, U(ek), U(ctr) };
        snprintf(what, sizeof(what), "aes %s ctr32 (across the 32-bit wrap)", im->name);
        check_bytes(label, what, abi_ctr32(im->ctr32), a, ABI_NARGS(a), out, want, N - 7);
    }
    if (im->xts_enc != NULL && im->xts_dec != NULL) {
        /* The data key doubles as the tweak key: fine for a model check. */
        for (int enc = 1; enc >= 0; enc--) {
            XTS128_CONTEXT ctx = { (void *)(enc ? ref_e : ref_d), (void *)ref_e,
                                   enc ? aes_c_encrypt_block128 : aes_c_decrypt_block128,
                                   aes_c_encrypt_block128 };
            CRYPTO_xts128_encrypt(&ctx, iv, in + 1, want, N, enc);
            uint64_t a[6] = { U(in + 1), U(out), N, U(enc ? ek : dk), U(ek), U(iv) };
            snprintf(what, sizeof(what), "aes %s xts %s (with stealing)", im->name,
                     enc ? "encrypt" : "decrypt");
            check_bytes(label, what, abi_xts(enc ? im->xts_enc : im->xts_dec),
                        a, ABI_NARGS(a), out, want, N);
        }
    }
    check_ccm(label, im, ek, ref_e);
}

/*
 * OCB bulk functions: 79 blocks from block 5 (zmm: a head of 28, 12 in
 * xmm and a ymm group of 16, then one zmm group of 32, one ymm group of
 * 16 and 3 in xmm; ymm: a head of 12, four groups of 16, then 3; else xmm
 * groups of 8 then 4, 2 and 1), so ntz(i) reaches 6, against the C
 * model.  offset_i and checksum are
 * read and written, so they are reset before each of the two calls (ABI
 * checker, then unwind checker); the bytes are compared after the first.
 */
static void check_ocb(const char *label, const struct casm_aes_impl *im,
                      const AES_KEY *ek, const AES_KEY *dk,
                      const AES_KEY *ref_e, const AES_KEY *ref_d)
{
    enum { BLOCKS = 79, START = 5 };
    static unsigned char in[BLOCKS * 16 + 1], out[BLOCKS * 16], want[BLOCKS * 16];
    static unsigned char l[7][16];
    unsigned char off[16], sum[16], off_w[16], sum_w[16];
    char what[96], err[512];
    uint64_t ret;
    fill(in, sizeof(in), 31);
    fill(&l[0][0], sizeof(l), 37);
    for (int enc = 1; enc >= 0; enc--) {
        fill(off_w, 16, 41);
        fill(sum_w, 16, 43);
        ocb_model_bulk(in + 1, want, BLOCKS, enc ? ref_e : ref_d,
                       enc ? aes_c_encrypt_block128 : aes_c_decrypt_block128,
                       enc, START, off_w, (const unsigned char (*)[16])l, sum_w);
        fill(off, 16, 41);
        fill(sum, 16, 43);
        uint64_t a[8] = { U(in + 1), U(out), BLOCKS, U(enc ? ek : dk), START,
                          U(off), U(l), U(sum) };
        const struct code_handle fn = abi_ocb(enc ? im->ocb_enc : im->ocb_dec);
        snprintf(what, sizeof(what), "aes %s ocb %s (%d blocks from block %d)",
                 im->name, enc ? "encrypt" : "decrypt", BLOCKS, START);
        int rc = abi_call_fn(fn, a, ABI_NARGS(a), &ret, err, sizeof(err));
        if (!tap_ok(rc == 0 && memcmp(out, want, sizeof(want)) == 0 &&
                    memcmp(off, off_w, 16) == 0 && memcmp(sum, sum_w, 16) == 0,
                    "%s%s: callee-saved state kept, bytes, offset and checksum "
                    "as the C model's", label, what))
            tap_diag("%s", rc ? err : "output, offset_i or checksum differs from the model");
        fill(off, 16, 41);
        fill(sum, 16, 43);
        check_unwind(label, what, fn, a, ABI_NARGS(a));
    }
}

/*
 * The single-block entries of the CTR32 and XTS hooks (the short-message
 * paths, which leave the function by their own epilogue): one block, one
 * 16-byte XTS message each way, against the C AES.
 */
static void check_aes_one_block(const char *label,
                                const struct casm_aes_impl *im,
                                const AES_KEY *ek, const AES_KEY *dk,
                                const AES_KEY *ref_e, const AES_KEY *ref_d)
{
    static unsigned char in[17], out[16], want[16], ctr[16], iv[16];
    char what[96];
    fill(in, sizeof(in), 31);
    fill(ctr, 16, 37);
    fill(iv, 16, 41);
    if (im->ctr32 != NULL) {
        aes_c_encrypt(ctr, want, ref_e);
        for (int j = 0; j < 16; j++)
            want[j] ^= in[1 + j];
        uint64_t a[5] = { U(in + 1), U(out), 1, U(ek), U(ctr) };
        snprintf(what, sizeof(what), "aes %s ctr32 (one block)", im->name);
        check_bytes(label, what, abi_ctr32(im->ctr32), a, ABI_NARGS(a), out, want, 16);
    }
    if (im->xts_enc != NULL && im->xts_dec != NULL) {
        for (int enc = 1; enc >= 0; enc--) {
            XTS128_CONTEXT ctx = { (void *)(enc ? ref_e : ref_d), (void *)ref_e,
                                   enc ? aes_c_encrypt_block128 : aes_c_decrypt_block128,
                                   aes_c_encrypt_block128 };
            CRYPTO_xts128_encrypt(&ctx, iv, in + 1, want, 16, enc);
            uint64_t a[6] = { U(in + 1), U(out), 16, U(enc ? ek : dk), U(ek), U(iv) };
            snprintf(what, sizeof(what), "aes %s xts %s (one block)", im->name,
                     enc ? "encrypt" : "decrypt");
            check_bytes(label, what, abi_xts(enc ? im->xts_enc : im->xts_dec),
                        a, ABI_NARGS(a), out, want, 16);
        }
    }
}

/*
 * One AES implementation: its key schedules, block functions and CBC,
 * each through both checkers, and the bytes compared with the C AES.
 * unwind_check runs the call again, so inputs are never overwritten.
 */
static void check_aes(const char *label, const struct casm_aes_impl *im)
{
    /* Whole blocks and a partial one; the long length crosses 512 bytes,
     * where table code switches to its bulk path. */
    enum { LEN_SHORT = 3 * 16 + 5, LEN_LONG = 37 * 16 + 8, MAXLEN = LEN_LONG };
    static unsigned char key[32], in[MAXLEN + 16 + 1], out[MAXLEN + 16], want[MAXLEN + 16];
    static unsigned char iv[16], iv_want[16];
    AES_KEY ek, dk, ref_e, ref_d;
    char what[96];
    uint64_t ret = 0;

    fill(key, sizeof(key), 11);
    fill(in, sizeof(in), 13);
    aes_c_set_encrypt_key(key, 256, &ref_e);
    aes_c_set_decrypt_key(key, 256, &ref_d);

    uint64_t ka[3] = { U(key), 256, U(&ek) };
    snprintf(what, sizeof(what), "aes %s set_encrypt_key", im->name);
    if (check_call(label, what, abi_set_key(im->set_encrypt_key), ka, ABI_NARGS(ka), &ret) == 0)
        tap_ok(ret == 0, "%s%s returns 0", label, what);
    ka[2] = U(&dk);
    snprintf(what, sizeof(what), "aes %s set_decrypt_key", im->name);
    if (check_call(label, what, abi_set_key(im->set_decrypt_key), ka, ABI_NARGS(ka), &ret) == 0)
        tap_ok(ret == 0, "%s%s returns 0", label, what);

    const struct code_handle blocks[2] = { abi_block(im->encrypt), abi_block(im->decrypt) };
    for (int dir = 0; dir < 2; dir++) {
        uint64_t ba[3] = { U(in + 1), U(out), U(dir ? &dk : &ek) };
        snprintf(what, sizeof(what), "aes %s %s", im->name, dir ? "decrypt" : "encrypt");
        check_call(label, what, blocks[dir], ba, ABI_NARGS(ba), &ret);
        (dir ? aes_c_decrypt : aes_c_encrypt)(in + 1, want, dir ? &ref_d : &ref_e);
        tap_ok(memcmp(out, want, 16) == 0, "%s%s gives the C AES's block", label, what);
    }
    check_aes_bulk(label, im, &ek, &dk, &ref_e, &ref_d);
    if (im->ocb_enc != NULL && im->ocb_dec != NULL)
        check_ocb(label, im, &ek, &dk, &ref_e, &ref_d);
    check_aes_one_block(label, im, &ek, &dk, &ref_e, &ref_d);
    if (im->cbc == NULL)
        return;
    for (int run = 0; run < 4; run++) {
        const int enc = !(run & 1);
        const size_t LEN = run < 2 ? LEN_SHORT : LEN_LONG;
        /* The call is made twice (ABI, then unwind): the iv must start the
         * same each time, so it is reset here and compared after the ABI
         * run through the copy the checker leaves. */
        fill(iv, 16, 17);
        memcpy(iv_want, iv, 16);
        aes_c_cbc_encrypt(in + 1, want, LEN, enc ? &ref_e : &ref_d, iv_want, enc);
        fill(iv, 16, 17);
        uint64_t ca[6] = { U(in + 1), U(out), LEN, U(enc ? &ek : &dk), U(iv), (uint64_t)enc };
        char err[512];
        const struct code_handle fn = abi_cbc(im->cbc);
        int rc = abi_call_fn(fn, ca, ABI_NARGS(ca), &ret, err, sizeof(err));
        snprintf(what, sizeof(what), "aes %s cbc %s %zu bytes", im->name,
                 enc ? "encrypt" : "decrypt", LEN);
        if (!tap_ok(rc == 0 && memcmp(out, want, enc ? (LEN + 15) / 16 * 16 : LEN) == 0 &&
                    memcmp(iv, iv_want, 16) == 0,
                    "%s%s: callee-saved state kept, bytes and iv as the C AES's",
                    label, what))
            tap_diag("%s", rc ? err : "output or iv differs from aes_c_cbc_encrypt");
        fill(iv, 16, 17);
#ifndef _WIN32
        const char *why = NULL;
        if (!unwind_check_available(&why)) {
            tap_skip(why, "%s%s: unwind check", label, what);
            continue;
        }
#endif
        struct unwind_stats st = { 0, 0, 0 };
        rc = unwind_check_fn(fn, ca, ABI_NARGS(ca), &st, err, sizeof(err));
        if (!tap_ok(rc == 0 && st.steps > 0,
                    "%s%s: unwinds correctly at each of %lu instructions", label,
                    what, st.steps))
            tap_diag("%s", err);
        total_steps += st.steps;
    }
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
    for (size_t i = 0; i < casm_aes_impl_count; i++) {
        const struct casm_aes_impl *im = casm_aes_impls[i];
        if (strcmp(im->name, "c") == 0)
            continue;
        checked++;
        if (!casm_cpu_has(im->need)) {
            tap_skip(im->need_name, "%saes %s: this CPU lacks it", label, im->name);
            continue;
        }
        check_aes(label, im);
    }
    if (checked == 0)
        tap_skip_all("this build has no assembly (NO_ASM)");
    tap_diag("%s%lu instructions single-stepped, each unwound and checked",
             label, total_steps);
    return tap_done();
}
