/* SPDX-License-Identifier: Apache-2.0 */
/*
 * AES-ECB and AES-CBC known-answer tests over the NIST CAVP AESAVS files in
 * $VECTORS/aes (KAT, MMT and Monte Carlo), for one registry implementation.
 *
 *   kat_aes --list                          NAME<TAB>FORCE_MASK per entry
 *   kat_aes --impl NAME [--expect-dispatch]
 *
 * Every record runs through the dispatching API with a key scheduled by
 * NAME (casm_aes_set_key_with + casm_aes_ecb/cbc), and, when NAME is the
 * implementation behind the OpenSSL-named functions, through AES_encrypt,
 * AES_decrypt and AES_cbc_encrypt too.  One TAP test per file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impl.h"
#include "lib/impl_cli.h"
#include "lib/tap.h"
#include "lib/vecfile.h"

enum api { API_CASM, API_OPENSSL };

/* A key scheduled through one API, and that API's ECB/CBC entry points. */
struct cipher {
    enum api api;
    const struct casm_aes_impl *impl;
    CASM_AES_KEY ck;
    AES_KEY ek, dk;
};

static int cipher_key(struct cipher *c, const unsigned char *key, int bits)
{
    if (c->api == API_CASM)
        return casm_aes_set_key_with(&c->ck, c->impl, key, bits);
    int rc = AES_set_encrypt_key(key, bits, &c->ek);
    return rc ? rc : AES_set_decrypt_key(key, bits, &c->dk);
}

/* ECB, or CBC when iv is given (iv is updated); in may equal out. */
static int cipher_run(struct cipher *c, const unsigned char *in,
                      unsigned char *out, size_t len, unsigned char *iv,
                      int enc)
{
    if (c->api == API_CASM)
        return iv ? casm_aes_cbc(&c->ck, in, out, len, iv, enc)
                  : casm_aes_ecb(&c->ck, in, out, len, enc);
    if (iv) {
        AES_cbc_encrypt(in, out, len, enc ? &c->ek : &c->dk, iv,
                        enc ? AES_ENCRYPT : AES_DECRYPT);
        return 0;
    }
    for (size_t i = 0; i < len; i += 16) {
        if (enc)
            AES_encrypt(in + i, out + i, &c->ek);
        else
            AES_decrypt(in + i, out + i, &c->dk);
    }
    return 0;
}

static const char *op_name(const struct cipher *c, int cbc)
{
    if (c->api == API_CASM)
        return cbc ? "casm_aes_cbc" : "casm_aes_ecb";
    return cbc ? "AES_cbc_encrypt" : "AES_encrypt/AES_decrypt";
}

struct aes_file {
    char name[64];
    int cbc, bits;
    int mct;                    /* Monte Carlo file, else KAT or MMT */
    long expect;                /* records in the file, per the README */
};

/* Section name -> 1 encrypt, 0 decrypt, -1 neither (a malformed file). */
static int direction(struct vec_file *vf, const struct vec_record *r)
{
    if (strcmp(r->section, "ENCRYPT") == 0)
        return 1;
    if (strcmp(r->section, "DECRYPT") == 0)
        return 0;
    vec_fail(vf, r, "record outside [ENCRYPT]/[DECRYPT] (section \"%s\")",
             r->section);
    return -1;
}

/* A record's KEY (checked against the file's key size) and optional IV. */
static int get_key_iv(struct vec_file *vf, const struct vec_record *r,
                      const struct aes_file *af, unsigned char key[32],
                      unsigned char iv[16])
{
    size_t klen, ivlen;
    unsigned char *k = vec_hex(vf, r, "KEY", &klen), *v = NULL;
    int ok = k != NULL;
    if (ok && klen * 8 != (size_t)af->bits)
        ok = vec_fail(vf, r, "KEY is %zu bits, expected %d", klen * 8, af->bits);
    if (ok)
        memcpy(key, k, klen);
    if (ok && af->cbc) {
        v = vec_hex(vf, r, "IV", &ivlen);
        ok = v != NULL;
        if (ok && ivlen != 16)
            ok = vec_fail(vf, r, "IV is %zu bytes, expected 16", ivlen);
        if (ok)
            memcpy(iv, v, 16);
    }
    free(k);
    free(v);
    return ok;
}

/* KAT and MMT: one record through one API, out of place and in place. */
static void check_record(struct vec_file *vf, const struct vec_record *r,
                         const struct aes_file *af, struct cipher *c, int enc)
{
    unsigned char key[32], iv0[16], iv[16];
    size_t ptlen, ctlen;
    if (!get_key_iv(vf, r, af, key, iv0))
        return;
    unsigned char *pt = vec_hex(vf, r, "PLAINTEXT", &ptlen);
    unsigned char *ct = vec_hex(vf, r, "CIPHERTEXT", &ctlen);
    unsigned char *buf = malloc(ptlen + 1);
    if (!pt || !ct || !buf)
        goto out;
    if (ptlen != ctlen || ptlen == 0 || ptlen % 16) {
        vec_fail(vf, r, "PLAINTEXT/CIPHERTEXT are %zu/%zu bytes, expected "
                 "equal whole blocks", ptlen, ctlen);
        goto out;
    }
    const unsigned char *in = enc ? pt : ct, *want = enc ? ct : pt;
    const char *op = op_name(c, af->cbc), *dir = enc ? "encrypt" : "decrypt";
    char what[96];

    int rc = cipher_key(c, key, af->bits);
    if (rc != 0) {
        vec_fail(vf, r, "%s key setup returned %d", op, rc);
        goto out;
    }
    /* Callers such as OpenSSL's EVP layer encrypt in place, so test both. */
    for (int inplace = 0; inplace <= 1; inplace++) {
        snprintf(what, sizeof(what), "%s %s%s", op, dir,
                 inplace ? " in place" : "");
        memcpy(iv, iv0, 16);
        if (inplace)
            memcpy(buf, in, ptlen);
        rc = cipher_run(c, inplace ? buf : in, buf, ptlen,
                        af->cbc ? iv : NULL, enc);
        if (rc != 0) {
            vec_fail(vf, r, "%s returned %d", what, rc);
            continue;
        }
        vec_cmp(vf, r, what, want, buf, ptlen);
        /* The updated IV chains the next call: the last ciphertext block. */
        if (af->cbc) {
            snprintf(what, sizeof(what), "%s %s%s: updated IV", op, dir,
                     inplace ? " in place" : "");
            vec_cmp(vf, r, what, ct + ctlen - 16, iv, 16);
        }
    }
out:
    free(pt);
    free(ct);
    free(buf);
}

/* The state entering one outer Monte Carlo iteration. */
struct mct_state {
    unsigned char key[32], iv[16], in[16];
};

static int mct_state_of(struct vec_file *vf, const struct vec_record *r,
                        const struct aes_file *af, int enc,
                        struct mct_state *s, unsigned char out[16])
{
    size_t ilen, olen;
    memset(s, 0, sizeof(*s));
    if (!get_key_iv(vf, r, af, s->key, s->iv))
        return 0;
    unsigned char *in = vec_hex(vf, r, enc ? "PLAINTEXT" : "CIPHERTEXT", &ilen);
    unsigned char *o = vec_hex(vf, r, enc ? "CIPHERTEXT" : "PLAINTEXT", &olen);
    int ok = in && o;
    if (ok && (ilen != 16 || olen != 16))
        ok = vec_fail(vf, r, "MCT texts must be one block");
    if (ok) {
        memcpy(s->in, in, 16);
        memcpy(out, o, 16);
    }
    free(in);
    free(o);
    return ok;
}

/*
 * One outer iteration of the AESAVS Monte Carlo test (section 6.4): 1000
 * chained encryptions (or decryptions) from s, giving the last output and
 * the state for the next outer iteration.
 *   ECB: in[j+1] = out[j].
 *   CBC: in[j+1] = IV for j = 0, else out[j-1]; the chaining value is
 *        carried by the API's IV between the one-block calls.
 * Key update: key ^= the last 128, 192 or 256 bits of out[998] || out[999];
 * next IV = out[999]; next input = out[999] (ECB) or out[998] (CBC).
 */
static int mct_outer(struct cipher *c, const struct aes_file *af, int enc,
                     const struct mct_state *s, unsigned char out[16],
                     struct mct_state *next, int *rc)
{
    unsigned char in[16], iv[16], prev[16] = {0}, cur[16];
    size_t klen = (size_t)af->bits / 8;

    if ((*rc = cipher_key(c, s->key, af->bits)) != 0)
        return 0;
    memcpy(in, s->in, 16);
    memcpy(iv, s->iv, 16);
    for (int j = 0; j < 1000; j++) {
        if ((*rc = cipher_run(c, in, cur, 16, af->cbc ? iv : NULL, enc)) != 0)
            return 0;
        if (!af->cbc)
            memcpy(in, cur, 16);
        else
            memcpy(in, j == 0 ? s->iv : prev, 16);
        if (j < 999)
            memcpy(prev, cur, 16);
    }
    memcpy(out, cur, 16);

    /* last32 = out[998] || out[999]; the key takes its last klen bytes. */
    unsigned char last32[32];
    memcpy(last32, prev, 16);
    memcpy(last32 + 16, cur, 16);
    memcpy(next->key, s->key, sizeof(next->key));
    for (size_t i = 0; i < klen; i++)
        next->key[i] ^= last32[32 - klen + i];
    memset(next->iv, 0, 16);
    if (af->cbc)
        memcpy(next->iv, cur, 16);
    memcpy(next->in, af->cbc ? prev : cur, 16);
    return 1;
}

/*
 * Each record starts from its own KEY/IV/input, so a failure stays local;
 * the computed next state is checked against the following record.
 */
static void check_mct(struct vec_file *vf, size_t idx,
                      const struct aes_file *af, struct cipher *c, int enc)
{
    const struct vec_record *r = &vf->records[idx];
    const struct vec_record *nr =
        idx + 1 < vf->nrecords &&
        strcmp(vf->records[idx + 1].section, r->section) == 0
            ? &vf->records[idx + 1] : NULL;
    struct mct_state s, want_next, next;
    unsigned char want[16], got[16], ignore[16];
    const char *op = op_name(c, af->cbc), *dir = enc ? "encrypt" : "decrypt";
    char what[128];
    int rc;

    if (!mct_state_of(vf, r, af, enc, &s, want))
        return;
    if (!mct_outer(c, af, enc, &s, got, &next, &rc)) {
        vec_fail(vf, r, "%s (Monte Carlo %s) returned %d", op, dir, rc);
        return;
    }
    snprintf(what, sizeof(what), "%s Monte Carlo %s, output after 1000 "
             "iterations", op, dir);
    vec_cmp(vf, r, what, want, got, 16);

    if (!nr || !mct_state_of(vf, nr, af, enc, &want_next, ignore))
        return;
    snprintf(what, sizeof(what), "%s Monte Carlo %s, KEY of the next record",
             op, dir);
    vec_cmp(vf, r, what, want_next.key, next.key, (size_t)af->bits / 8);
    if (af->cbc) {
        snprintf(what, sizeof(what), "%s Monte Carlo %s, IV of the next record",
                 op, dir);
        vec_cmp(vf, r, what, want_next.iv, next.iv, 16);
    }
    snprintf(what, sizeof(what), "%s Monte Carlo %s, %s of the next record",
             op, dir, enc ? "PLAINTEXT" : "CIPHERTEXT");
    vec_cmp(vf, r, what, want_next.in, next.in, 16);
}

static void run_file(const struct aes_file *af,
                     const struct casm_aes_impl *impl, int with_openssl)
{
    static struct cipher ciphers[2];
    struct vec_file vf;
    int napis = with_openssl ? 2 : 1;
    long n[2] = {0, 0};         /* decrypt, encrypt records */

    if (vec_load(&vf, af->name) != 0) {
        vec_fail_file(&vf);
        return;
    }
    for (int a = 0; a < napis; a++)
        ciphers[a] = (struct cipher){ .api = (enum api)a, .impl = impl };

    for (size_t i = 0; i < vf.nrecords; i++) {
        const struct vec_record *r = &vf.records[i];
        int enc = direction(&vf, r);
        if (enc < 0)
            continue;
        n[enc]++;
        for (int a = 0; a < napis; a++) {
            if (af->mct)
                check_mct(&vf, i, af, &ciphers[a], enc);
            else
                check_record(&vf, r, af, &ciphers[a], enc);
        }
    }
    if (n[0] + n[1] != af->expect)
        vec_fail(&vf, NULL, "file has %ld records, expected %ld "
                 "(truncated or wrong file?)", n[0] + n[1], af->expect);
    vec_finish(&vf, "%ld vectors (%ld encrypt, %ld decrypt)%s",
               n[0] + n[1], n[1], n[0],
               with_openssl ? "; casm_aes_* and AES_*" : "");
    vec_free(&vf);
}

/* A key from casm_aes_set_key_with must name the implementation asked for. */
static void check_set_key_with(const struct casm_aes_impl *impl)
{
    static const unsigned char key[16];
    CASM_AES_KEY k;
    int rc = casm_aes_set_key_with(&k, impl, key, 128);
    const char *got = rc == 0 ? casm_aes_key_impl(&k) : NULL;
    if (!tap_ok(got && strcmp(got, impl->name) == 0,
                "casm_aes_set_key_with(%s) schedules with %s", impl->name,
                impl->name))
        tap_diag("returned %d, key scheduled by %s", rc, got ? got : "(none)");
}

int main(int argc, char **argv)
{
    const struct casm_aes_impl *impl = impl_cli_aes(argc, argv);
    check_set_key_with(impl);

    /* The OpenSSL-named functions belong to the entry that provides them. */
    int with_openssl = impl == casm_aes_best();
    static const char *const modes[] = { "ECB", "CBC" };
    /* Record counts per key size, from the vectors' README. */
    static const struct { const char *name; int mct; long expect[3]; }
    types[] = {
        { "GFSbox", 0, { 14, 12, 10 } },
        { "KeySbox", 0, { 42, 48, 32 } },
        { "VarKey", 0, { 256, 384, 512 } },
        { "VarTxt", 0, { 256, 256, 256 } },
        { "MMT", 0, { 20, 20, 20 } },
        { "MCT", 1, { 200, 200, 200 } },
    };
    for (int m = 0; m < 2; m++) {
        for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
            for (int b = 0; b < 3; b++) {
                struct aes_file af = {
                    .cbc = m, .bits = 128 + 64 * b, .mct = types[t].mct,
                    .expect = types[t].expect[b],
                };
                snprintf(af.name, sizeof(af.name), "aes/%s%s%d.rsp", modes[m],
                         types[t].name, af.bits);
                run_file(&af, impl, with_openssl);
            }
        }
    }
    return tap_done();
}
