/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every global function of an aes-586 object (crypto/aes/asm/aes-586.pl),
 * each compact variant's fixed paths included, through the cdecl ABI
 * checker and the per-instruction CFI checker (abi_cdecl.c), under
 * qemu-i386.  Linked with one variant's 32-bit
 * archive (build/m32/VARIANT/libcrypto-asm.a), whose aes_c_* functions are
 * the reference: every call's output (key schedule, blocks, CBC output and
 * the updated ivec) must equal the C AES's, so the checkers are known to
 * have run the real code paths.
 *
 *   aes586_abi [--list] [--aes128-only] [--compact-only] [--dispatch]
 *     --list          the function names covered (test/t/82-x86-abi.t
 *                     compares them with the object's global symbols)
 *     --aes128-only   single-step only AES-128 calls (every call is still
 *                     made through the ABI checker)
 *     --compact-only  single-step only what the MMX/SSE choice changes
 *     --dispatch      also single-step AES_cbc_encrypt at 512 bytes
 *     --coverage FILE the address of every instruction single-stepped, one
 *                     per line, in hex (82-x86-abi.t checks that every
 *                     instruction of aes-586 was stepped)
 * Environment: OPENSSL_ia32cap as usual (the compact path's MMX/SSE choice).
 */
#include "../../support/abi/abi32_typed.h"
#include "../../support/abi/abi_shapes.h"
#include "../lib/tap.h"

#include <stdio.h>
#include <string.h>

#include "aes/aes586.h"
#include "aes/aes_c.h"
#include "impl.h"

/* A 386 build has no MMX code, hence no mmx fixed paths: weak references,
 * NULL there, and left out (as where the CPU lacks what the registry's
 * x86_mmx entry needs). */
#pragma weak AES_encrypt_mmx
#pragma weak AES_decrypt_mmx
#pragma weak AES_cbc_encrypt_mmx

enum kind { SET_ENC, SET_DEC, BLOCK_ENC, BLOCK_DEC, CBC };


/* The function in the field its kind's shape names; mmx: an mmx fixed path. */
struct fn {
    const char *name;
    enum kind kind;
    int mmx;
    casm_aes_set_key_f set_key;
    aes_block_f block;
    casm_aes_cbc_f cbc;
};

static const struct fn fns[] = {
    { "AES_set_encrypt_key", SET_ENC, .set_key = AES_set_encrypt_key },
    { "AES_set_decrypt_key", SET_DEC, .set_key = AES_set_decrypt_key },
    { "AES_encrypt", BLOCK_ENC, .block = AES_encrypt },
    { "AES_decrypt", BLOCK_DEC, .block = AES_decrypt },
    { "aes586_encrypt_full", BLOCK_ENC, .block = aes586_encrypt_full },
    { "aes586_decrypt_full", BLOCK_DEC, .block = aes586_decrypt_full },
    { "AES_cbc_encrypt", CBC, .cbc = AES_cbc_encrypt },
    { "aes586_cbc_encrypt_full", CBC, .cbc = aes586_cbc_encrypt_full },
    { "aes586_cbc_encrypt_compact", CBC, .cbc = aes586_cbc_encrypt_compact },
    { "AES_encrypt_mmx", BLOCK_ENC, 1, .block = AES_encrypt_mmx },
    { "AES_decrypt_mmx", BLOCK_DEC, 1, .block = AES_decrypt_mmx },
    { "AES_cbc_encrypt_mmx", CBC, 1, .cbc = AES_cbc_encrypt_mmx },
    { "AES_encrypt_integer", BLOCK_ENC, .block = AES_encrypt_integer },
    { "AES_decrypt_integer", BLOCK_DEC, .block = AES_decrypt_integer },
    { "AES_cbc_encrypt_integer", CBC, .cbc = AES_cbc_encrypt_integer },
};
#define NFNS (sizeof(fns) / sizeof(fns[0]))

#define MAX_LEN 528
static unsigned char user_key[32], in[MAX_LEN + 8], out[MAX_LEN + 8], want[MAX_LEN + 8];
static unsigned char ivec[16], want_iv[16];
static const unsigned char iv0[16] = { 0xf0, 0xe1, 0xd2, 0xc3, 0xb4, 0xa5, 0x96, 0x87,
                                       0x78, 0x69, 0x5a, 0x4b, 0x3c, 0x2d, 0x1e, 0x0f };
static AES_KEY key_out, ref_enc, ref_dec;

#define PTR(p) ((uint32_t)(uintptr_t)(p))

static struct code_handle handle(const struct fn *f)
{
    return f->set_key ? abi_set_key(f->set_key) : f->block ? abi_aes_block(f->block)
           : abi_cbc(f->cbc);
}

static int is(const struct fn *f, const char *name)
{
    return strcmp(f->name, name) == 0;
}

/* Whether this build defines f (see the weak references above). */
static int defined(const struct fn *f)
{
    return f->set_key || f->block || f->cbc;
}

/* AES_cbc_encrypt or one of its fixed paths: full tables from 512 bytes. */
static int cbc_by_length(const struct fn *f)
{
    return strncmp(f->name, "AES_cbc_encrypt", strlen("AES_cbc_encrypt")) == 0;
}

/* One call: its arguments, and how to reset and judge the buffers. */
struct job {
    const struct fn *fn;
    int bits;               /* key size (or a bad one) */
    int null_key;           /* set_key with a NULL user key */
    size_t len;             /* CBC length */
    int enc;                /* CBC direction */
    int unwind;             /* also through unwind32_check */
};

static void describe(const struct job *j, char *buf, size_t n)
{
    if (j->fn->kind == CBC)
        snprintf(buf, n, "%s(AES-%d, %zu bytes, %s)", j->fn->name, j->bits, j->len,
                 j->enc ? "encrypt" : "decrypt");
    else if (j->null_key)
        snprintf(buf, n, "%s(NULL key)", j->fn->name);
    else
        snprintf(buf, n, "%s(AES-%d)", j->fn->name, j->bits);
}

/* Arguments for the job (unaligned buffers); the expected results into
 * want, want_iv.  Returns the argument count. */
static int prepare(const struct job *j, uint32_t args[ABI32_MAX_ARGS], int *want_ret)
{
    const AES_KEY *ref = j->fn->kind == BLOCK_DEC || (j->fn->kind == CBC && !j->enc)
                         ? &ref_dec : &ref_enc;
    memset(&key_out, 0x55, sizeof(key_out));
    memset(out, 0xaa, sizeof(out));
    memset(want, 0xaa, sizeof(want));
    memcpy(ivec, iv0, 16);
    memcpy(want_iv, iv0, 16);
    *want_ret = 0;
    switch (j->fn->kind) {
    case SET_ENC:
    case SET_DEC:
        args[0] = j->null_key ? 0 : PTR(user_key);
        args[1] = (uint32_t)j->bits;
        args[2] = PTR(&key_out);
        *want_ret = j->null_key ? -1 : j->bits == 128 || j->bits == 192 || j->bits == 256 ? 0 : -2;
        return 3;
    case BLOCK_ENC:
    case BLOCK_DEC:
        (j->fn->kind == BLOCK_ENC ? aes_c_encrypt : aes_c_decrypt)(in + 1, want + 3, ref);
        args[0] = PTR(in + 1);
        args[1] = PTR(out + 3);
        args[2] = PTR(ref);      /* equal to aes-586's own (SET_* cases check) */
        return 3;
    case CBC:
        aes_c_cbc_encrypt(in + 1, want + 3, j->len, ref, want_iv, j->enc);
        args[0] = PTR(in + 1);
        args[1] = PTR(out + 3);
        args[2] = (uint32_t)j->len;
        args[3] = PTR(ref);
        args[4] = PTR(ivec);
        args[5] = (uint32_t)j->enc;
        return 6;
    }
    return 0;
}

/* Did the call do what the C AES does?  "" if so, else why not. */
static const char *judge(const struct job *j, int ret, int want_ret, char *why, size_t n)
{
    why[0] = 0;
    if (j->fn->kind == SET_ENC || j->fn->kind == SET_DEC) {
        const AES_KEY *ref = j->fn->kind == SET_ENC ? &ref_enc : &ref_dec;
        if (ret != want_ret)
            snprintf(why, n, "returned %d, want %d", ret, want_ret);
        else if (want_ret == 0 && (key_out.rounds != ref->rounds
                 || memcmp(key_out.rd_key, ref->rd_key, 16 * (ref->rounds + 1)) != 0))
            snprintf(why, n, "key schedule differs from aes_core.c's");
    } else if (memcmp(out, want, sizeof(out)) != 0) {
        snprintf(why, n, "output differs from aes_core.c's");
    } else if (memcmp(ivec, want_iv, 16) != 0) {
        snprintf(why, n, "ivec differs from aes_core.c's");
    }
    return why;
}

static void run(const struct job *j)
{
    char what[120], err[512], why[120] = "";
    uint32_t args[ABI32_MAX_ARGS] = { 0 };
    int nargs = 0, want_ret = 0, rc = 0;
    uint64_t ret = 0;

    describe(j, what, sizeof(what));
    for (int k = 0; k < 4 && rc == 0 && !why[0]; k++) {
        nargs = prepare(j, args, &want_ret);
        rc = abi32_call_fn(handle(j->fn), args, nargs, &ret, err, sizeof(err));
        if (rc == 0)
            judge(j, (int)(uint32_t)ret, want_ret, why, sizeof(why));
    }
    if (!tap_ok(rc == 0 && !why[0], "%s: cdecl ABI kept (4 calls, random registers), "
                "result as aes_core.c's", what))
        tap_diag("%s: %s", what, rc ? err : why);
    if (j->unwind) {
        struct unwind_stats st;
        nargs = prepare(j, args, &want_ret);
        rc = unwind32_check_fn(handle(j->fn), args, nargs, &st, err, sizeof(err));
        if (!tap_ok(rc == 0 && st.steps > 0 && st.unwinds == st.steps,
                    "%s: CFI right at all %lu instructions executed", what, st.steps))
            tap_diag("%s: %s", what, err);
    }
}

static const char *coverage_file;

/* Which calls are also single-stepped (slow under qemu: about 0.1 ms per
 * instruction), from the command line. */
static struct {
    int sizes[3];           /* key sizes stepped (128 192 256 by default) */
    int compact_only;       /* only what the MMX/SSE choice changes */
    int dispatch;           /* AES_cbc_encrypt at its full-table length */
} opt = { { 1, 1, 1 }, 0, 0 };

static int stepped(const struct fn *f, int b, size_t len)
{
    int compact = is(f, "AES_encrypt") || is(f, "AES_decrypt") || is(f, "AES_cbc_encrypt");
    if (!opt.sizes[b] || (opt.compact_only && !compact))
        return 0;
    switch (f->kind) {
    case SET_DEC:
        return b == 0;      /* its expansion is SET_ENC's, stepped for each size */
    case CBC:
        /* The loops at AES-128 (the rounds are the block functions');
         * aes586_cbc_encrypt_compact is where AES_cbc_encrypt goes below
         * 512 bytes, stepped through it.  Two-block decryption has rounds
         * of its own: 48 bytes through the full path at every size. */
        if (is(f, "aes586_cbc_encrypt_full") && len == 48)
            return 1;
        if (is(f, "aes586_cbc_encrypt_compact") || b != 0)
            return 0;
        return len == 20 || (len == 512 && opt.dispatch);
    default:
        return 1;
    }
}

int main(int argc, char **argv)
{
    static const int bits[3] = { 128, 192, 256 };

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--list") == 0) {
            for (size_t k = 0; k < NFNS; k++)
                if (defined(&fns[k]))
                    printf("%s\n", fns[k].name);
            return 0;
        } else if (strcmp(argv[i], "--aes128-only") == 0) {
            opt.sizes[1] = opt.sizes[2] = 0;
        } else if (strcmp(argv[i], "--compact-only") == 0) {
            opt.compact_only = 1;
        } else if (strcmp(argv[i], "--dispatch") == 0) {
            opt.dispatch = 1;
        } else if (strcmp(argv[i], "--coverage") == 0 && i + 1 < argc) {
            coverage_file = argv[++i];
        } else {
            fprintf(stderr, "usage: %s [--list] [--aes128-only] [--compact-only] [--dispatch] "
                    "[--coverage FILE]\n", argv[0]);
            return 2;
        }
    }
    if (coverage_file && unwind32_coverage_start() != 0)
        tap_bail("no memory for the coverage map");
    for (unsigned i = 0; i < sizeof(user_key); i++)
        user_key[i] = (unsigned char)(i * 29 + 3);
    for (unsigned i = 0; i < sizeof(in); i++)
        in[i] = (unsigned char)(i * 151 + 17);

    const struct casm_aes_impl *mmx = casm_aes_impl_by_name("x86_mmx");
    int run_mmx = mmx != NULL && casm_cpu_has(mmx->need);
    if (!run_mmx)
        tap_skip(mmx ? "this CPU lacks what they need" : "a 386 build has none",
                 "the mmx fixed paths%s%s", mmx ? ": " : "", mmx ? mmx->need_name : "");
    /* The round functions are private, with their own register convention
     * (aes-586.pl): callee-saved registers are checked at fn's caller. */
    unwind32_set_private_callees(1);
    for (int b = 0; b < 3; b++) {
        if (aes_c_set_encrypt_key(user_key, bits[b], &ref_enc) != 0
            || aes_c_set_decrypt_key(user_key, bits[b], &ref_dec) != 0)
            tap_bail("aes_c_set_*_key(%d) failed", bits[b]);
        for (size_t i = 0; i < NFNS; i++) {
            const struct fn *f = &fns[i];
            struct job j = { .fn = f, .bits = bits[b] };
            if (!defined(f) || (f->mmx && !run_mmx))
                continue;
            if (f->kind != CBC) {
                j.unwind = stepped(f, b, 0);
                run(&j);
                continue;
            }
            /* A partial block (20 bytes), three blocks, and for the
             * dispatcher its full-table length (cbc_thresh, 512). */
            static const size_t lens[3] = { 20, 48, 512 };
            for (int enc = 1; enc >= 0; enc--) {
                for (int l = 0; l < 3; l++) {
                    if (lens[l] == 512 && !cbc_by_length(f))
                        continue;
                    j.enc = enc;
                    j.len = lens[l];
                    j.unwind = stepped(f, b, lens[l]);
                    run(&j);
                }
            }
        }
    }
    /* The key schedules' error returns. */
    for (int i = 0; i < 2; i++) {
        struct job j = { .fn = &fns[i], .bits = 128, .null_key = 1, .unwind = !opt.compact_only };
        run(&j);
        j.null_key = 0;
        j.bits = 100;
        run(&j);
    }
    if (coverage_file && unwind32_coverage_write(coverage_file) != 0)
        tap_bail("cannot write %s", coverage_file);
    return tap_done();
}
