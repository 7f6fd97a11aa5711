/* SPDX-License-Identifier: Apache-2.0 */
/*
 * aes-x86_64's two paths meet where crypto/aes/AesPaths.pm says
 * (AES_X86_64_FULL_TABLES_FROM, build/gen/aes_paths.h): single-stepped,
 * ECB (aes_x86_64_ecb, C), AES_cbc_encrypt (assembly), XTS and CCM64
 * (aes_x86_64_xts_ccm.c, C over the assembly's mode loops) run only the
 * compact code one block below that length and only the full-table code
 * at it, encrypting and decrypting.  Prints TAP.
 */
#include <stdint.h>
#include <string.h>

#include "aes_paths.h"
#include "../lib/tap.h"
#include "step_trace.h"

#ifndef CASM_AES_ASM
int main(void)
{
    tap_skip_all("no aes-x86_64 in this build (NO_ASM)");
}
#else
#include <openssl/aes.h>

#include "aes/aes_x86_64.h"

#define T AES_X86_64_FULL_TABLES_FROM

/* The functions of each path, by name (hidden symbols included). */
#define PATH_FNS(path) \
    "aes_x86_64_cbc_encrypt_" #path, "aes_x86_64_xts_enc_" #path, \
    "aes_x86_64_xts_dec_" #path, "aes_x86_64_ccm64_enc_" #path, \
    "aes_x86_64_ccm64_dec_" #path
static const char *const compact_fns[] = {
    "AES_encrypt", "AES_decrypt", PATH_FNS(compact),
};
static const char *const full_fns[] = {
    "aes_x86_64_encrypt_full", "aes_x86_64_decrypt_full", PATH_FNS(full),
};
#define NFNS 7

struct ranges {
    uintptr_t start[2][NFNS];
    size_t size[2][NFNS];
    unsigned long seen[2];         /* instructions in compact [0], full [1] */
};

static void on_step(const unsigned char *rip, void *ctx)
{
    struct ranges *r = ctx;
    uintptr_t a;
    memcpy(&a, &rip, sizeof(a));
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < NFNS; i++)
            if (a - r->start[p][i] < r->size[p][i])
                r->seen[p]++;
}

enum mode { ECB, CBC, XTS, CCM, NMODES };
static const char *const mode_names[NMODES] = {
    "aes_x86_64_ecb", "AES_cbc_encrypt", "aes_x86_64_xts", "aes_x86_64_ccm64",
};

struct call {
    enum mode mode;
    int enc;
    size_t len;
    const AES_KEY *key, *ekey;      /* the direction's schedule; encryption's */
    unsigned char in[T], out[T], iv[16], cmac[16];
};

static void run_call(void *arg)
{
    struct call *c = arg;
    switch (c->mode) {
    case ECB:
        aes_x86_64_ecb(c->in, c->out, c->len, c->key, c->enc);
        break;
    case CBC:
        AES_cbc_encrypt(c->in, c->out, c->len, c->key, c->iv, c->enc);
        break;
    case XTS:
        (c->enc ? aes_x86_64_xts_encrypt : aes_x86_64_xts_decrypt)
            (c->in, c->out, c->len, c->key, c->ekey, c->iv);
        break;
    default:
        (c->enc ? aes_x86_64_ccm64_encrypt_blocks : aes_x86_64_ccm64_decrypt_blocks)
            (c->in, c->out, c->len / 16, c->ekey, c->iv, c->cmac);
        break;
    }
}

int main(void)
{
    struct ranges r;
    struct call c;
    AES_KEY ek, dk;
    unsigned char user[16];
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < NFNS; i++) {
            const char *name = p ? full_fns[i] : compact_fns[i];
            if (!step_function_range(name, &r.start[p][i], &r.size[p][i]) ||
                r.size[p][i] == 0)
                tap_bail("no symbol %s (with its size) in this program", name);
        }
    for (int i = 0; i < 16; i++)
        user[i] = (unsigned char)(i * 7 + 1);
    if (AES_set_encrypt_key(user, 128, &ek) != 0 || AES_set_decrypt_key(user, 128, &dk) != 0)
        tap_bail("AES key setup failed");
    for (int i = 0; i < T; i++)
        c.in[i] = (unsigned char)i;

    tap_plan(4 * NMODES);
    for (enum mode m = ECB; m < NMODES; m++)
        for (int enc = 1; enc >= 0; enc--)
            for (size_t len = T - 16; len <= T; len += 16) {
                int full = len >= T;
                c.mode = m;
                c.enc = enc;
                c.len = len;
                c.key = enc ? &ek : &dk;
                c.ekey = &ek;
                memset(c.iv, 0, sizeof(c.iv));
                memset(c.cmac, 0, sizeof(c.cmac));
                r.seen[0] = r.seen[1] = 0;
                unsigned long steps = step_trace(run_call, &c, on_step, &r);
                if (!tap_ok(steps > 0 && r.seen[full] > 0 && r.seen[!full] == 0,
                            "%s %s of %zu bytes runs only the %s path (full from %d)",
                            mode_names[m],
                            enc ? "encrypt" : "decrypt", len,
                            full ? "full-table" : "compact", T))
                    tap_diag("%lu steps: %lu in the compact code, %lu in the full",
                             steps, r.seen[0], r.seen[1]);
            }
    return tap_done();
}
#endif
