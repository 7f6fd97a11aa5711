/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fixed-width entries of aesni-x86_64 (NAME_vaes512, NAME_vaes256)
 * run at their width whatever OPENSSL_ia32cap_P says, and OpenSSL's names
 * follow it.  Each call of 1024 bytes is single-stepped and the widest
 * vector instruction it executed is decoded (VEX.L, EVEX.L'L):
 *   - NAME_vaesW: exactly W bits, with the capability words as detected
 *     and with the wide paths' bits cleared (run under OPENSSL_ia32cap =
 *     `vaes_width --mask`);
 *   - NAME: the mode's widest width unmasked, at most 128 bits masked (the
 *     control: the same observation sees a narrower path);
 *   - every entry's output equals OpenSSL's name's, run untraced.
 * Prints TAP; `--mask` prints the OPENSSL_ia32cap value of the masked run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impl.h"
#include "cpuid/capset.h"
#include "../lib/tap.h"
#include "step_trace.h"

/* The capabilities of the wide paths, cleared in the masked run. */
static const unsigned int wide_caps[4] =
    CAPSET(AVX2, AVX512F, AVX512BW, AVX512VL, VAES, VPCLMULQDQ);

#ifndef CASM_AESNI_ASM
int main(int argc, char **argv)
{
    char buf[CASM_FORCE_MASK_MAX];
    if (argc > 1 && strcmp(argv[1], "--mask") == 0) {
        puts(casm_force_mask_text(wide_caps, buf));
        return 0;
    }
    tap_skip_all("no aesni-x86_64 in this build (NO_ASM)");
}
#else
#include "variants.h"

#define LEN 1024
#define OCB_LS 32

enum shape { ECB, CBC, CTR, XTS, OCB };

struct entry {
    const char *name;
    int width;                     /* 0: OpenSSL's name, the CPU chooses */
    enum shape shape;
    int enc;
    casm_aes_ecb_f ecb;
    casm_aes_cbc_f cbc;
    ctr128_f ctr;
    xts128_f xts;
    ocb128_f ocb;
};

#define E_ECB(fn, w, e) { #fn, w, ECB, e, .ecb = fn }
#define E_CBC(fn, w) { #fn, w, CBC, 0, .cbc = fn }
#define E_CTR(fn, w) { #fn, w, CTR, 1, .ctr = fn }
#define E_XTS(fn, w, e) { #fn, w, XTS, e, .xts = fn }
#define E_OCB(fn, w, e) { #fn, w, OCB, e, .ocb = fn }

/* Each mode's OpenSSL name first, then its fixed widths (CBC encryption
 * is a serial chain and has none). */
static const struct entry entries[] = {
    E_ECB(aesni_ecb_encrypt, 0, 1), E_ECB(aesni_ecb_encrypt_vaes512, 512, 1),
    E_ECB(aesni_ecb_encrypt_vaes256, 256, 1),
    E_ECB(aesni_ecb_encrypt, 0, 0), E_ECB(aesni_ecb_encrypt_vaes512, 512, 0),
    E_ECB(aesni_ecb_encrypt_vaes256, 256, 0),
    E_CBC(aesni_cbc_encrypt, 0), E_CBC(aesni_cbc_encrypt_vaes512, 512),
    E_CBC(aesni_cbc_encrypt_vaes256, 256),
    E_CTR(aesni_ctr32_encrypt_blocks, 0),
    E_CTR(aesni_ctr32_encrypt_blocks_vaes512, 512),
    E_CTR(aesni_ctr32_encrypt_blocks_vaes256, 256),
    E_XTS(aesni_xts_encrypt, 0, 1), E_XTS(aesni_xts_encrypt_vaes512, 512, 1),
    E_XTS(aesni_xts_encrypt_vaes256, 256, 1),
    E_XTS(aesni_xts_decrypt, 0, 0), E_XTS(aesni_xts_decrypt_vaes512, 512, 0),
    E_XTS(aesni_xts_decrypt_vaes256, 256, 0),
    E_OCB(aesni_ocb_encrypt, 0, 1), E_OCB(aesni_ocb_encrypt_vaes512, 512, 1),
    E_OCB(aesni_ocb_encrypt_vaes256, 256, 1),
    E_OCB(aesni_ocb_decrypt, 0, 0), E_OCB(aesni_ocb_decrypt_vaes512, 512, 0),
    E_OCB(aesni_ocb_decrypt_vaes256, 256, 0),
};
#define NENTRIES (sizeof(entries) / sizeof(entries[0]))

/* One call's inputs and output, set afresh before each call. */
struct call {
    const struct entry *e;
    AES_KEY ek, dk, tweak;
    unsigned char in[LEN], out[LEN], iv[16], offset[16], checksum[16];
    unsigned char ls[OCB_LS][16];
};

static void run_call(void *arg)
{
    struct call *c = arg;
    const struct entry *e = c->e;
    const AES_KEY *k = e->enc ? &c->ek : &c->dk;
    switch (e->shape) {
    case ECB: e->ecb(c->in, c->out, LEN, k, e->enc); break;
    case CBC: e->cbc(c->in, c->out, LEN, k, c->iv, e->enc); break;
    case CTR: e->ctr(c->in, c->out, LEN / 16, &c->ek, c->iv); break;
    case XTS: e->xts(c->in, c->out, LEN, k, &c->tweak, c->iv); break;
    case OCB:
        e->ocb(c->in, c->out, LEN / 16, k, 1, c->offset,
               (const unsigned char (*)[16])c->ls, c->checksum);
        break;
    }
}

/* The vector length of the instruction at p: 512, 256 or 128 for VEX and
 * EVEX encodings, 0 for any other (legacy SSE included). */
static int vector_bits(const unsigned char *p)
{
    while (*p == 0x26 || *p == 0x2e || *p == 0x36 || *p == 0x3e ||
           *p == 0x64 || *p == 0x65 || *p == 0x67)
        p++;
    if (p[0] == 0x62)              /* EVEX: L'L in bits 6:5 of its third byte */
        return 128 << ((p[3] >> 5) & 3);
    if (p[0] == 0xc4)              /* three-byte VEX: L in bit 2 of byte 2 */
        return p[2] & 4 ? 256 : 128;
    if (p[0] == 0xc5)              /* two-byte VEX: L in bit 2 of byte 1 */
        return p[1] & 4 ? 256 : 128;
    return 0;
}

static void widest(const unsigned char *rip, void *ctx)
{
    int *max = ctx, w = vector_bits(rip);
    if (w > *max)
        *max = w;
}

static void reset(struct call *c, const struct entry *e)
{
    c->e = e;
    for (int i = 0; i < LEN; i++)
        c->in[i] = (unsigned char)(i * 13 + 5);
    memset(c->out, 0, sizeof(c->out));
    for (int i = 0; i < 16; i++) {
        c->iv[i] = (unsigned char)(0xf0 + i);
        c->offset[i] = (unsigned char)(3 * i);
        c->checksum[i] = (unsigned char)(5 * i);
    }
    for (int j = 0; j < OCB_LS; j++)
        for (int i = 0; i < 16; i++)
            c->ls[j][i] = (unsigned char)(j * 16 + i);
}

int main(int argc, char **argv)
{
    char buf[CASM_FORCE_MASK_MAX];
    if (argc > 1 && strcmp(argv[1], "--mask") == 0) {
        puts(casm_force_mask_text(wide_caps, buf));
        return 0;
    }
    int masked = getenv("OPENSSL_ia32cap") != NULL;
    unsigned int detected[CASM_IA32CAP_WORDS];
    casm_ia32cap_detect(detected);
    const struct casm_aes_impl *need512 = casm_aes_impl_by_name("aesni_vaes512");
    const struct casm_aes_impl *need256 = casm_aes_impl_by_name("aesni_vaes256");
    if (need512 == NULL || need256 == NULL)
        tap_bail("the registry has no aesni_vaes512 or aesni_vaes256 entry");
    for (int w = 0; w < 4; w++)
        if ((detected[w] & (need512->need[w] | need256->need[w])) !=
            (need512->need[w] | need256->need[w]))
            tap_skip_all("this CPU lacks %s or %s, so the wide entries cannot run",
                         need512->need_name, need256->need_name);
    for (int w = 0; w < 4; w++)
        if (masked && (OPENSSL_ia32cap_P[w] & wide_caps[w]))
            tap_bail("OPENSSL_ia32cap=%s leaves wide-path bits in word %d (%08x)",
                     getenv("OPENSSL_ia32cap"), w, OPENSSL_ia32cap_P[w] & wide_caps[w]);

    struct call *c = malloc(sizeof(*c)), *ref = malloc(sizeof(*ref));
    if (c == NULL || ref == NULL)
        tap_bail("out of memory");
    unsigned char user[32];
    for (int i = 0; i < 32; i++)
        user[i] = (unsigned char)(i * 11 + 7);
    if (aesni_set_encrypt_key(user, 128, &c->ek) || aesni_set_decrypt_key(user, 128, &c->dk) ||
        aesni_set_encrypt_key(user + 16, 128, &c->tweak))
        tap_bail("AES-NI key setup failed");
    ref->ek = c->ek;
    ref->dk = c->dk;
    ref->tweak = c->tweak;

    tap_plan(2 * (int)NENTRIES);
    const struct entry *base = NULL;
    int mode_widest = 0;
    for (size_t i = 0; i < NENTRIES; i++) {
        const struct entry *e = &entries[i];
        if (e->width == 0) {
            /* A new mode: its reference output, and its widest entry. */
            base = e;
            reset(ref, e);
            run_call(ref);
            mode_widest = 0;
            for (size_t j = i + 1; j < NENTRIES && entries[j].width; j++)
                mode_widest = entries[j].width > mode_widest ? entries[j].width : mode_widest;
        }
        reset(c, e);
        int max = 0;
        unsigned long steps = step_trace(run_call, c, widest, &max);
        const char *dir = e->shape == CTR ? "" : e->enc ? " (encrypt)" : " (decrypt)";
        if (e->width)
            tap_ok(steps > 0 && max == e->width, "%s%s runs %d-bit code %s (widest seen: %d, %lu steps)",
                   e->name, dir, e->width, masked ? "with the wide bits masked" : "as detected",
                   max, steps);
        else if (masked)
            tap_ok(steps > 0 && max <= 128, "%s%s follows the mask: nothing wider than 128 bits (widest seen: %d, %lu steps)",
                   e->name, dir, max, steps);
        else
            tap_ok(steps > 0 && max == mode_widest, "%s%s takes the mode's widest path, %d bits (widest seen: %d, %lu steps)",
                   e->name, dir, mode_widest, max, steps);
        tap_ok(memcmp(c->out, ref->out, LEN) == 0 && memcmp(c->iv, ref->iv, 16) == 0 &&
               memcmp(c->offset, ref->offset, 16) == 0 &&
               memcmp(c->checksum, ref->checksum, 16) == 0,
               "%s%s: output and state equal %s's", e->name, dir, base->name);
    }
    free(c);
    free(ref);
    return tap_done();
}
#endif
