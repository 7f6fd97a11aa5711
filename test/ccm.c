/* SPDX-License-Identifier: Apache-2.0 */
/*
 * AES-CCM: the bulk functions aesni_ccm64_encrypt_blocks/_decrypt_blocks
 * (registry hooks ccm64_enc/ccm64_dec) and CCM built on them by
 * support/lib/ccm_glue.c as OpenSSL's ccm128.c builds it.
 *
 *  1. NIST CAVP CCM vectors (VADT, VNT, VPT, VTT: encrypt and decrypt;
 *     DVPT: decrypt with pass/fail), for every implementation the CPU has;
 *     from Debian's python3-cryptography-vectors, or the directory in
 *     $CCM_VECTORS.
 *  2. The bulk functions against a plain C model (over the C AES) at every
 *     block count 0..64, with 64-bit counters about to wrap, unaligned and
 *     in place, with guard bytes around the output.
 *  3. Differential against OpenSSL's EVP AES-CCM (libcrypto.so.3 by
 *     dlopen): random keys, nonce and tag lengths, AAD (across the 0xff00
 *     encoding switch), payloads up to 64 KiB, unaligned and in place;
 *     ciphertext and tag compared, both directions, forged tags rejected.
 *     $CCM_CASES cases per key size (default 3000), seed $DIFF_SEED.
 *
 * Prints TAP.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impl.h"
#include "aes/aes_c.h"
#include "../support/lib/ccm_glue.h"
#include "lib/ccm_model.h"
#include "../support/lib/ossl.h"
#include "../support/lib/ossl_ccm.h"
#include "lib/tap.h"
#include "lib/vecfile.h"

#define CAVP_DIR "/usr/lib/python3/dist-packages/cryptography_vectors/ciphers/AES/CCM"
#define GUARD 16

/* splitmix64: reproducible from the seed alone. */
static uint64_t rng_state;
static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}
static size_t rnd_upto(size_t n) { return (size_t)(rnd() % ((uint64_t)n + 1)); }
static void rnd_fill(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rnd();
}

static struct ccm_glue glue_for(const struct casm_aes_impl *im, const AES_KEY *k)
{
    struct ccm_glue g = { k, im->encrypt, im->ccm64_enc, im->ccm64_dec };
    return g;
}

/* ---- 1. NIST CAVP vectors ------------------------------------------------ */

/* The parameters in force: from section headers and from records without
 * a Count ("Plen = 24", "Key = ...", "Nonce = ..."). */
struct cavp_state {
    long alen, plen, nlen, tlen;
    char key[80], nonce[40];
};

static void take_param(struct cavp_state *st, const char *name, const char *value)
{
    if (strcmp(name, "Alen") == 0) st->alen = strtol(value, NULL, 10);
    else if (strcmp(name, "Plen") == 0) st->plen = strtol(value, NULL, 10);
    else if (strcmp(name, "Nlen") == 0) st->nlen = strtol(value, NULL, 10);
    else if (strcmp(name, "Tlen") == 0) st->tlen = strtol(value, NULL, 10);
    else if (strcmp(name, "Key") == 0) snprintf(st->key, sizeof(st->key), "%s", value);
    else if (strcmp(name, "Nonce") == 0) snprintf(st->nonce, sizeof(st->nonce), "%s", value);
}

/* "[Alen = 0, Plen = 0, Nlen = 7, Tlen = 4]" */
static void take_section(struct cavp_state *st, const char *sec)
{
    char name[16];
    long v;
    int used;
    while (sscanf(sec, " %15[A-Za-z] = %ld%n", name, &v, &used) == 2) {
        char num[24];
        snprintf(num, sizeof(num), "%ld", v);
        take_param(st, name, num);
        sec += used;
        sec += strspn(sec, " ,");
    }
}

/* Hex of a record field (or the state's value) into buf; -1 if bad. */
static long hex_field(struct vec_file *vf, const struct vec_record *r,
                      const char *name, const char *fallback, uint8_t *buf,
                      size_t cap)
{
    const char *h = vec_find(r, name);
    if (h == NULL)
        h = fallback;
    long n = h ? hex_decode(h, buf, cap) : -1;
    if (n < 0)
        vec_fail(vf, r, "missing or malformed %s", name);
    return n;
}

static void cavp_file(const struct casm_aes_impl *im, const char *file)
{
    struct vec_file vf;
    int bits = atoi(file + strcspn(file, "0123456789"));
    int decrypt_only = strncmp(file, "DVPT", 4) == 0;
    unsigned vectors = 0, rejected = 0;

    if (vec_load(&vf, file) != 0) {
        vec_fail_file(&vf);
        return;
    }
    struct cavp_state st;
    memset(&st, 0, sizeof(st));
    const char *section = NULL;
    for (size_t i = 0; i < vf.nrecords; i++) {
        const struct vec_record *r = &vf.records[i];
        if (r->section != section) {
            section = r->section;
            take_section(&st, section);
        }
        if (vec_find(r, "Count") == NULL) {
            for (size_t f = 0; f < r->nfields; f++)
                take_param(&st, r->fields[f].name, r->fields[f].value);
            continue;
        }
        uint8_t key[32], nonce[16], aad[64], pt[64], ct[96], out[96], tag[16];
        AES_KEY k;
        long kl = hex_field(&vf, r, "Key", st.key, key, sizeof(key));
        long nl = hex_field(&vf, r, "Nonce", st.nonce, nonce, sizeof(nonce));
        long al = hex_field(&vf, r, "Adata", NULL, aad, sizeof(aad));
        long cl = hex_field(&vf, r, "CT", NULL, ct, sizeof(ct));
        if (kl != bits / 8 || nl != st.nlen || al < st.alen || cl != st.plen + st.tlen) {
            vec_fail(&vf, r, "lengths disagree with the parameters");
            continue;
        }
        im->set_encrypt_key(key, bits, &k);
        struct ccm_glue g = glue_for(im, &k);
        size_t alen = (size_t)st.alen, plen = (size_t)st.plen, tlen = (size_t)st.tlen;
        const char *result = vec_find(r, "Result");
        int want_pass = !decrypt_only || (result && strncmp(result, "Pass", 4) == 0);
        vectors++;
        if (want_pass && hex_field(&vf, r, "Payload", NULL, pt, sizeof(pt)) < st.plen)
            continue;
        if (!decrypt_only) {
            /* Encrypt out of place and in place. */
            if (ccm_seal(&g, nonce, nl, aad, alen, pt, out, plen, tag, tlen) != 0) {
                vec_fail(&vf, r, "ccm_seal refused the parameters");
                continue;
            }
            memcpy(out + plen, tag, tlen);
            vec_cmp(&vf, r, "CT (encrypt)", ct, out, plen + tlen);
            memcpy(out, pt, plen);
            ccm_seal(&g, nonce, nl, aad, alen, out, out, plen, tag, tlen);
            memcpy(out + plen, tag, tlen);
            vec_cmp(&vf, r, "CT (encrypt in place)", ct, out, plen + tlen);
        }
        int rc = ccm_open(&g, nonce, nl, aad, alen, ct, out, plen, ct + plen, tlen);
        if (want_pass) {
            if (rc != 0)
                vec_fail(&vf, r, "decryption rejected a valid tag (%d)", rc);
            else
                vec_cmp(&vf, r, "Payload (decrypt)", pt, out, plen);
        } else if (rc != CCM_BAD_TAG) {
            vec_fail(&vf, r, "decryption accepted a forged message (%d)", rc);
        } else {
            rejected++;
        }
    }
    vec_finish(&vf, "%s: %u vectors, AES-%d, %s (%u forgeries rejected)",
               im->name, vectors, bits,
               decrypt_only ? "decrypt with tag check" : "encrypt and decrypt",
               rejected);
    vec_free(&vf);
}

static void cavp_all(const struct casm_aes_impl *im, const char *dir)
{
    static const char *const kinds[] = { "VADT", "VNT", "VPT", "VTT", "DVPT" };
    static const int sizes[] = { 128, 192, 256 };
    if (dir == NULL) {
        tap_skip("no NIST CCM vectors (python3-cryptography-vectors, or set CCM_VECTORS)",
                 "%s: NIST CAVP CCM vectors", im->name);
        return;
    }
    setenv("VECTORS", dir, 1);       /* vecfile reads from $VECTORS */
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        for (size_t s = 0; s < 3; s++) {
            char file[32];
            snprintf(file, sizeof(file), "%s%d.rsp", kinds[i], sizes[s]);
            cavp_file(im, file);
        }
    }
}

/* ---- 2. the bulk functions against a C model ------------------------------- */

static void bulk_vs_model(const struct casm_aes_impl *im, int enc)
{
    enum { MAXB = 64 };
    static uint8_t in[16 * MAXB + 16], out[16 * MAXB + 2 * GUARD + 16], want[16 * MAXB];
    ccm128_f fn = enc ? im->ccm64_enc : im->ccm64_dec;
    unsigned calls = 0, bad = 0;
    /* Low 64 bits of the counter: arbitrary, the last value before the
     * wrap, wrapping in mid-call, ending exactly at the wrap, and carrying
     * out of the low 32 bits in mid-call (a 32-bit counter would fail). */
    for (size_t blocks = 0; blocks <= MAXB; blocks++) {
        for (int start = 0; start < 5; start++) {
            int bits = 128 + 64 * (int)((blocks + start) % 3);
            uint8_t key[32], ivec[16], iv_copy[16], cmac[16], cmac_want[16];
            AES_KEY ours, ref;
            rnd_fill(key, sizeof(key));
            rnd_fill(ivec, 16);
            uint64_t low = start == 0 ? rnd() : start == 1 ? UINT64_MAX
                         : start == 2 ? UINT64_MAX - blocks / 2
                         : start == 3 ? (uint64_t)0 - blocks : 0x1ffffffffu - blocks / 2;
            for (int i = 15; i >= 8; i--, low >>= 8)
                ivec[i] = (uint8_t)low;
            rnd_fill(cmac, 16);
            memcpy(cmac_want, cmac, 16);
            memcpy(iv_copy, ivec, 16);
            im->set_encrypt_key(key, bits, &ours);
            aes_c_set_encrypt_key(key, bits, &ref);

            size_t ioff = rnd_upto(15), ooff = GUARD + rnd_upto(15), n = 16 * blocks;
            int in_place = (blocks + start) % 2;
            rnd_fill(in, sizeof(in));
            memset(out, 0xa5, sizeof(out));
            ccm_model_bulk(in + ioff, want, blocks, &ref, aes_c_encrypt_block128, enc,
                           ivec, cmac_want);
            const uint8_t *src = in + ioff;
            if (in_place) {
                memcpy(out + ooff, in + ioff, n);
                src = out + ooff;
            }
            fn(src, out + ooff, blocks, &ours, ivec, cmac);
            int guards = 1;
            for (size_t i = 0; i < ooff; i++)
                guards &= out[i] == 0xa5;
            for (size_t i = ooff + n; i < sizeof(out); i++)
                guards &= out[i] == 0xa5;
            calls++;
            if (memcmp(out + ooff, want, n) || memcmp(cmac, cmac_want, 16) ||
                memcmp(ivec, iv_copy, 16) || !guards) {
                if (bad++ < 5)
                    tap_diag("%s %s: %zu blocks, counter start %d, AES-%d, %s: %s differs",
                             im->name, enc ? "encrypt" : "decrypt", blocks, start, bits,
                             in_place ? "in place" : "out of place",
                             memcmp(out + ooff, want, n) ? "output"
                             : memcmp(cmac, cmac_want, 16) ? "cmac"
                             : !guards ? "a guard byte" : "ivec (must not be written)");
            }
        }
    }
    tap_ok(bad == 0, "%s ccm64_%s_blocks: %u calls (0..64 blocks, counters across the "
           "64-bit wrap, unaligned, in place) equal the C model, cmac updated, ivec kept",
           im->name, enc ? "encrypt" : "decrypt", calls);
}

/* ---- 3. differential against OpenSSL --------------------------------------- */

static void diff_openssl(const struct casm_aes_impl *im, int bits, unsigned cases)
{
    enum { MAXLEN = 65536, MAXAAD = 70000 };
    static uint8_t pt[MAXLEN + 16], buf[MAXLEN + 32], ref[MAXLEN + 16], back[MAXLEN + 16];
    static uint8_t aad[MAXAAD];
    static struct ossl_ccm *oe, *od;
    unsigned bad = 0, long_aad = 0, in_place = 0, big = 0;

    if (oe == NULL && ((oe = ossl_ccm_new()) == NULL || (od = ossl_ccm_new()) == NULL)) {
        tap_ok(0, "OpenSSL CCM context: %s", ossl_error());
        return;
    }
    for (unsigned c = 0; c < cases; c++) {
        uint8_t key[32], nonce[13], tag[16], otag[16];
        AES_KEY k;
        size_t nlen = 7 + rnd_upto(6), tlen = 4 + 2 * rnd_upto(6);
        size_t q = 15 - nlen, maxlen = q >= 3 ? MAXLEN : 65535;
        size_t len = c % 64 == 0 ? rnd_upto(maxlen) : rnd_upto(c % 2 ? 4096 : 300);
        size_t alen = c % 4 == 0 ? 0 : c % 97 == 0 ? 0xff00 - 8 + rnd_upto(MAXAAD - 0xff00 + 8)
                                                   : rnd_upto(c % 3 ? 80 : 600);
        size_t off = rnd_upto(15);
        int inplace = c % 3 == 0;
        long_aad += alen >= 0xff00;
        in_place += inplace;
        big += len > 4096;
        rnd_fill(key, sizeof(key));
        rnd_fill(nonce, sizeof(nonce));
        rnd_fill(aad, alen);
        rnd_fill(pt, len);

        im->set_encrypt_key(key, bits, &k);
        struct ccm_glue g = glue_for(im, &k);
        uint8_t *dst = buf + off;
        const uint8_t *src = pt;
        if (inplace) {
            memcpy(dst, pt, len);
            src = dst;
        }
        int ours = ccm_seal(&g, nonce, nlen, aad, alen, src, dst, len, tag, tlen);
        if (ossl_ccm_init(oe, bits, 1, key, nlen, tlen) != 0 ||
            ossl_ccm_message(oe, nonce, aad, alen, pt, ref, len, otag) != 0) {
            tap_diag("case %u: OpenSSL: %s", c, ossl_error());
            bad++;
            continue;
        }
        const char *what = ours != 0 ? "ccm_seal failed"
                         : memcmp(dst, ref, len) ? "ciphertext"
                         : memcmp(tag, otag, tlen) ? "tag" : NULL;
        /* Back through our decryption (in place when the encryption was),
         * then a forged tag, which must be refused. */
        if (what == NULL) {
            uint8_t *pdst = inplace ? dst : back;
            if (ccm_open(&g, nonce, nlen, aad, alen, dst, pdst, len, tag, tlen) != 0)
                what = "our decryption rejected our tag";
            else if (memcmp(pdst, pt, len))
                what = "our decryption's plaintext";
            tag[c % tlen] ^= (uint8_t)(1u << (c % 8));
            if (what == NULL &&
                ccm_open(&g, nonce, nlen, aad, alen, ref, back, len, tag, tlen) != CCM_BAD_TAG)
                what = "our decryption accepted a forged tag";
            tag[c % tlen] ^= (uint8_t)(1u << (c % 8));
        }
        /* And OpenSSL decrypts ours, every fourth case. */
        if (what == NULL && c % 4 == 1) {
            int rc = ossl_ccm_init(od, bits, 0, key, nlen, tlen) != 0 ? -1
                     : ossl_ccm_message(od, nonce, aad, alen, ref, back, len, tag);
            if (rc != 0)
                what = rc < 0 ? ossl_error() : "OpenSSL rejected our tag";
            else if (memcmp(back, pt, len))
                what = "OpenSSL's decryption of our ciphertext";
        }
        if (what != NULL && bad++ < 5)
            tap_diag("%s AES-%d case %u (nonce %zu, tag %zu, aad %zu, len %zu, offset %zu%s): %s",
                     im->name, bits, c, nlen, tlen, alen, len, off,
                     inplace ? ", in place" : "", what);
    }
    tap_ok(bad == 0, "%s AES-%d CCM equals OpenSSL's EVP in %u random cases (%u in place, "
           "%u with AAD >= 0xff00 bytes, %u payloads > 4 KiB), both directions, forgeries "
           "refused", im->name, bits, cases, in_place, long_aad, big);
}

int main(void)
{
    const char *env = getenv("CCM_VECTORS");
    const char *dir = env && *env ? env : CAVP_DIR;
    char probe[1200];
    snprintf(probe, sizeof(probe), "%s/VADT128.rsp", dir);
    FILE *f = fopen(probe, "r");
    if (f)
        fclose(f);
    else
        dir = NULL;
    const char *cs = getenv("CCM_CASES"), *seed = getenv("DIFF_SEED");
    unsigned cases = cs && *cs ? (unsigned)strtoul(cs, NULL, 10) : 3000;
    rng_state = seed && *seed ? strtoull(seed, NULL, 10) : 1;

    char err[512], report[1024];
    int have_ossl = ossl_load(err, sizeof(err));
    if (have_ossl) {
        int distinct = ossl_check_distinct(report, sizeof(report));
        if (!tap_ok(distinct, "OpenSSL's code and ours are separate"))
            tap_diag("%s", report);
        have_ossl = distinct;
    }
    int bulk = 0;
    for (size_t i = 0; i < casm_aes_impl_count; i++) {
        const struct casm_aes_impl *im = casm_aes_impls[i];
        if (!casm_cpu_has(im->need)) {
            tap_skip(im->need_name, "%s: this CPU lacks it", im->name);
            continue;
        }
        cavp_all(im, dir);
        if (im->ccm64_enc == NULL || im->ccm64_dec == NULL)
            continue;              /* CCM a block at a time: the vectors cover it */
        bulk++;
        bulk_vs_model(im, 1);
        bulk_vs_model(im, 0);
        for (int bits = 128; bits <= 256; bits += 64) {
            if (have_ossl)
                diff_openssl(im, bits, cases);
            else
                tap_skip(err, "%s AES-%d CCM against OpenSSL", im->name, bits);
        }
    }
    if (bulk == 0)
        tap_skip("no implementation in this build has CCM bulk functions (NO_ASM?)",
                 "ccm64 bulk functions against the model and OpenSSL");
    return tap_done();
}
