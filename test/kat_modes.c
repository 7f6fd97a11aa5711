/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Known-answer tests for the AES modes CTR, XTS and LRW over the files in
 * $VECTORS/{ctr,xts,lrw}, for one registry implementation.
 *
 *   kat_modes --list                          NAME<TAB>FORCE_MASK per entry
 *   kat_modes --impl NAME [--expect-dispatch]
 *
 * CTR runs through casm_aes_ctr (whole, in place, and split into random
 * chunks to exercise streaming) and through CRYPTO_ctr128_encrypt and
 * CRYPTO_ctr128_encrypt_ctr32 with NAME's block and ctr32 functions (a
 * shim over the block function when NAME has no ctr32).  XTS
 * and LRW run through casm_aes_xts / casm_aes_lrw with keys scheduled by
 * NAME, in both directions.  One TAP test per file.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impl.h"
#include "lib/impl_cli.h"
#include "lib/tap.h"
#include "lib/vecfile.h"

static const struct casm_aes_impl *impl;

/* Adds n to a 128-bit big-endian counter block. */
static void ctr_add(unsigned char ctr[16], unsigned long long n)
{
    for (int i = 15; i >= 0 && n; i--) {
        n += ctr[i];
        ctr[i] = (unsigned char)n;
        n >>= 8;
    }
}

/* xorshift32: reproducible chunk sizes, no dependence on rand(). */
static unsigned rng_next(unsigned *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

/* ---- CTR ---------------------------------------------------------------- */

/* The three ways to run CTR with impl: same arguments, same streaming. */
struct ctr_api {
    const char *name;
    int (*run)(const CASM_AES_KEY *k, const unsigned char *in,
               unsigned char *out, size_t len, unsigned char ctr[16],
               unsigned char ecount[16], unsigned int *num);
};

static int via_casm(const CASM_AES_KEY *k, const unsigned char *in,
                    unsigned char *out, size_t len, unsigned char ctr[16],
                    unsigned char ecount[16], unsigned int *num)
{
    return casm_aes_ctr(k, in, out, len, ctr, ecount, num);
}

static int via_ctr128(const CASM_AES_KEY *k, const unsigned char *in,
                      unsigned char *out, size_t len, unsigned char ctr[16],
                      unsigned char ecount[16], unsigned int *num)
{
    CRYPTO_ctr128_encrypt(in, out, len, &k->enc, ctr, ecount, num,
                          impl->encrypt);
    return 0;
}

/*
 * A ctr128_f built from impl's block function, so that the generic
 * CRYPTO_ctr128_encrypt_ctr32 is covered for implementations without a
 * ctr32 routine of their own: the low 32 bits count and wrap alone.
 */
static void ctr32_over_block(const unsigned char *in, unsigned char *out,
                             size_t blocks, const void *key,
                             const unsigned char ivec[16])
{
    unsigned char ctr[16], ks[16];
    memcpy(ctr, ivec, 16);
    for (size_t b = 0; b < blocks; b++) {
        impl->encrypt(ctr, ks, key);
        for (int i = 0; i < 16; i++)
            out[16 * b + i] = in[16 * b + i] ^ ks[i];
        for (int i = 15; i >= 12 && ++ctr[i] == 0; i--)
            ;
    }
}

static int via_ctr32(const CASM_AES_KEY *k, const unsigned char *in,
                     unsigned char *out, size_t len, unsigned char ctr[16],
                     unsigned char ecount[16], unsigned int *num)
{
    CRYPTO_ctr128_encrypt_ctr32(in, out, len, &k->enc, ctr, ecount, num,
                                impl->ctr32 ? impl->ctr32 : ctr32_over_block);
    return 0;
}

/*
 * How the input is fed: whole, whole in place, or in chunks whose sizes
 * come from the seed (0 .. max-1 bytes, zero-length calls included).
 */
struct feed {
    int inplace;
    unsigned seed, max;
};

static const struct feed feeds[] = {
    { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 20 }, { 0, 2, 20 }, { 0, 3, 40 },
    { 0, 4, 2 },
};

/*
 * in -> want under CTR with the initial counter block iv, through every
 * API and feed.  Afterwards the counter must have advanced once per block
 * started and *num must give the bytes used of the last key-stream block,
 * since streaming callers continue from exactly that state.
 */
static void ctr_check(struct vec_file *vf, const struct vec_record *r,
                      const unsigned char *key, size_t keylen,
                      const unsigned char iv[16], const unsigned char *in,
                      const unsigned char *want, size_t len, const char *dir)
{
    static CASM_AES_KEY k;
    const struct ctr_api apis[] = {
        { "casm_aes_ctr", via_casm },
        { "CRYPTO_ctr128_encrypt", via_ctr128 },
        { impl->ctr32 ? "CRYPTO_ctr128_encrypt_ctr32"
                      : "CRYPTO_ctr128_encrypt_ctr32 (block-function shim)",
          via_ctr32 },
    };
    unsigned char end_ctr[16];
    unsigned char *buf = malloc(len + 1);
    int rc;

    if (!buf) {
        vec_fail(vf, r, "out of memory");
        return;
    }
    if ((rc = casm_aes_set_key_with(&k, impl, key, (int)keylen * 8)) != 0) {
        vec_fail(vf, r, "casm_aes_set_key_with(%zu bits) returned %d",
                 keylen * 8, rc);
        free(buf);
        return;
    }
    memcpy(end_ctr, iv, 16);
    ctr_add(end_ctr, (len + 15) / 16);

    for (size_t a = 0; a < sizeof(apis) / sizeof(apis[0]); a++) {
        for (size_t f = 0; f < sizeof(feeds) / sizeof(feeds[0]); f++) {
            const struct feed *fd = &feeds[f];
            unsigned char ctr[16], ecount[16] = {0};
            unsigned int num = 0;
            unsigned seed = fd->seed;
            char what[128];

            if (fd->max)
                snprintf(what, sizeof(what), "%s %s in 0-%u byte chunks "
                         "(seed %u)", apis[a].name, dir, fd->max - 1, fd->seed);
            else
                snprintf(what, sizeof(what), "%s %s%s", apis[a].name, dir,
                         fd->inplace ? " in place" : "");
            memcpy(ctr, iv, 16);
            memset(buf, 0, len);
            if (fd->inplace)
                memcpy(buf, in, len);
            rc = 0;
            for (size_t pos = 0; pos < len && rc == 0;) {
                size_t n = len - pos;
                if (fd->max) {
                    size_t pick = rng_next(&seed) % fd->max;
                    if (pick < n)
                        n = pick;
                }
                rc = apis[a].run(&k, (fd->inplace ? buf : in) + pos,
                                 buf + pos, n, ctr, ecount, &num);
                pos += n;
            }
            if (rc != 0) {
                vec_fail(vf, r, "%s returned %d", what, rc);
                continue;
            }
            if (!vec_cmp(vf, r, what, want, buf, len))
                continue;
            char state[160];
            snprintf(state, sizeof(state), "%s: counter block afterwards", what);
            vec_cmp(vf, r, state, end_ctr, ctr, 16);
            if (num != len % 16)
                vec_fail(vf, r, "%s: *num is %u afterwards, expected %zu",
                         what, num, len % 16);
        }
    }
    free(buf);
}

/* Field names of one KEY/IV/PT/CT-like file layout. */
struct fields {
    const char *key, *iv, *pt, *ct;
};

static const struct fields simple_fields = { "KEY", "IV", "PT", "CT" };
static const struct fields cavp_fields = { "KEY", "IV", "PLAINTEXT", "CIPHERTEXT" };

/* Reads key, a 16-byte IV, and equal-length PT and CT of a record. */
static int get_vector(struct vec_file *vf, const struct vec_record *r,
                      const struct fields *fn, unsigned char **key,
                      size_t *keylen, unsigned char iv[16],
                      unsigned char **pt, unsigned char **ct, size_t *len)
{
    size_t ivlen, ctlen;
    unsigned char *v = NULL;
    *key = vec_hex(vf, r, fn->key, keylen);
    *pt = vec_hex(vf, r, fn->pt, len);
    *ct = vec_hex(vf, r, fn->ct, &ctlen);
    int ok = *key && *pt && *ct && (v = vec_hex(vf, r, fn->iv, &ivlen));
    if (ok && ivlen != 16)
        ok = vec_fail(vf, r, "%s is %zu bytes, expected 16", fn->iv, ivlen);
    if (ok && *len != ctlen)
        ok = vec_fail(vf, r, "%s is %zu bytes but %s is %zu", fn->pt, *len,
                      fn->ct, ctlen);
    if (ok)
        memcpy(iv, v, 16);
    free(v);
    if (!ok) {
        free(*key);
        free(*pt);
        free(*ct);
        *key = *pt = *ct = NULL;
    }
    return ok;
}

/*
 * ctr/nist-examples-AES_CTR.txt is text extracted from NIST's PDF: labelled
 * values ("Key is", "Plaintext is", ...) followed by lines of 8-digit hex
 * groups, per-block "InputBlock/OutputBlock/Text-In/Text-Out <hex>" lines,
 * page rules (----, ====, ****, ####), and values split across page breaks.
 */
#define EX_MAX_BLOCKS 4

struct hexbuf {
    unsigned char b[64];
    size_t n;
};

struct ctr_example {
    char title[48];             /* "CTR-AES128 (Encryption)" */
    int line, bits, enc, nblocks;
    struct hexbuf key, in, out;
    struct hexbuf blk[EX_MAX_BLOCKS][4]; /* InputBlock, OutputBlock, Text-In, Text-Out */
};

static const char *const blk_labels[4] = {
    "InputBlock", "OutputBlock", "Text-In", "Text-Out"
};

/* Appends the hex groups of s to h; -1 if s is not only hex groups. */
static int append_hex(struct hexbuf *h, const char *s)
{
    for (;;) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s)
            return 0;
        size_t n = 0;
        while (isxdigit((unsigned char)s[n]))
            n++;
        if (n == 0 || n % 2 || (s[n] && s[n] != ' ' && s[n] != '\t'))
            return -1;
        char group[65];
        if (n >= sizeof(group) || h->n + n / 2 > sizeof(h->b))
            return -1;
        memcpy(group, s, n);
        group[n] = '\0';
        h->n += (size_t)hex_decode(group, h->b + h->n, sizeof(h->b) - h->n);
        s += n;
    }
}

static int is_rule(const char *s)
{
    if (!*s || !strchr("-=*#", *s))
        return 0;
    for (const char *p = s; *p; p++)
        if (*p != *s)
            return 0;
    return 1;
}

/* Parses the examples into ex[]; returns their number, or -1 (vf->err). */
static int parse_nist_ctr(struct vec_file *vf, struct ctr_example *ex, int max,
                          struct hexbuf *counter)
{
    struct hexbuf scratch = {{0}, 0};
    struct hexbuf *target = NULL;   /* where bare hex lines go */
    struct ctr_example *cur = NULL;
    int nex = 0, lineno = 0;
    char *next = vf->text, *line = NULL;

    while (*next) {
        char *nl = strchr(line = next, '\n');
        next = nl ? nl + 1 : line + strlen(line);
        if (nl)
            *nl = '\0';
        lineno++;
        while (*line == ' ')
            line++;
        size_t len = strlen(line);
        while (len && isspace((unsigned char)line[len - 1]))
            line[--len] = '\0';

        int bits, blockno;
        char dirword[16];
        if (!*line || is_rule(line) ||
            strcmp(line, "Block Cipher Modes of Operation") == 0 ||
            strcmp(line, "Counter (CTR)") == 0)
            continue;
        if (strcmp(line, "Initial Counter is") == 0) {
            target = counter;
        } else if (sscanf(line, "CTR-AES%d (%15[A-Za-z])", &bits, dirword) == 2) {
            if (nex == max)
                goto bad;
            cur = &ex[nex++];
            memset(cur, 0, sizeof(*cur));
            snprintf(cur->title, sizeof(cur->title), "%s", line);
            cur->line = lineno;
            cur->bits = bits;
            cur->enc = strcmp(dirword, "Encryption") == 0;
            if (!cur->enc && strcmp(dirword, "Decryption") != 0)
                goto bad;
            target = NULL;
        } else if (strcmp(line, "Key is") == 0 && cur) {
            target = &cur->key;
        } else if (strcmp(line, "Plaintext is") == 0 ||
                   strcmp(line, "Ciphertext is") == 0) {
            /* Before the blocks: the input; after them: the result. */
            target = !cur ? &scratch : cur->nblocks ? &cur->out : &cur->in;
        } else if (sscanf(line, "Block #%d", &blockno) == 1 && cur) {
            if (blockno != cur->nblocks + 1 || blockno > EX_MAX_BLOCKS)
                goto bad;
            cur->nblocks = blockno;
            target = NULL;
        } else {
            int labelled = 0;
            for (int f = 0; f < 4 && cur && cur->nblocks; f++) {
                size_t ll = strlen(blk_labels[f]);
                if (strncmp(line, blk_labels[f], ll) == 0 && line[ll] == ' ') {
                    struct hexbuf *h = &cur->blk[cur->nblocks - 1][f];
                    if (h->n || append_hex(h, line + ll) != 0)
                        goto bad;
                    labelled = 1;
                    target = NULL;
                }
            }
            if (!labelled && (!target || append_hex(target, line) != 0))
                goto bad;
        }
    }
    return nex;
bad:
    snprintf(vf->err, sizeof(vf->err), "%s:%d: unexpected line \"%.60s\"",
             vf->path, lineno, line);
    return -1;
}

static void nist_ctr_file(const char *name, long expect)
{
    struct vec_file vf;
    struct ctr_example ex[8];
    struct hexbuf counter = {{0}, 0};
    int n, nenc = 0, blocks = 0;

    if (vec_read(&vf, name) != 0 ||
        (n = parse_nist_ctr(&vf, ex, 8, &counter)) < 0) {
        vec_fail_file(&vf);
        vec_free(&vf);
        return;
    }
    if (counter.n != 16)
        vec_fail(&vf, NULL, "initial counter is %zu bytes, expected 16",
                 counter.n);
    for (int i = 0; i < n && counter.n == 16; i++) {
        struct ctr_example *e = &ex[i];
        /* A record stand-in so diagnostics name the example and its line. */
        struct vec_record r = { e->title, e->line, 0, NULL };
        size_t len = (size_t)e->nblocks * 16;
        nenc += e->enc;
        blocks += e->nblocks;

        if (e->key.n * 8 != (size_t)e->bits || e->nblocks == 0 ||
            e->in.n != len || e->out.n != len) {
            vec_fail(&vf, &r, "incomplete example: %zu-byte key, %d blocks, "
                     "%zu bytes in, %zu bytes out", e->key.n, e->nblocks,
                     e->in.n, e->out.n);
            continue;
        }
        ctr_check(&vf, &r, e->key.b, e->key.n, counter.b, e->in.b, e->out.b,
                  len, e->enc ? "encrypt" : "decrypt");

        /* Intermediate values: counter blocks and their encryptions. */
        CASM_AES_KEY k;
        unsigned char ctr[16], ks[16];
        char what[96];
        if (casm_aes_set_key_with(&k, impl, e->key.b, e->bits) != 0) {
            vec_fail(&vf, &r, "casm_aes_set_key_with failed");
            continue;
        }
        memcpy(ctr, counter.b, 16);
        for (int b = 0; b < e->nblocks; b++, ctr_add(ctr, 1)) {
            struct hexbuf *h = e->blk[b];
            if (h[0].n != 16 || h[1].n != 16 || h[2].n != 16 || h[3].n != 16) {
                vec_fail(&vf, &r, "block #%d lacks a 16-byte value", b + 1);
                continue;
            }
            snprintf(what, sizeof(what), "block #%d InputBlock (counter)", b + 1);
            vec_cmp(&vf, &r, what, h[0].b, ctr, 16);
            casm_aes_ecb(&k, ctr, ks, 16, 1);
            snprintf(what, sizeof(what), "block #%d OutputBlock (casm_aes_ecb "
                     "of the counter)", b + 1);
            vec_cmp(&vf, &r, what, h[1].b, ks, 16);
            /* The file's own consistency: per-block texts vs the totals. */
            snprintf(what, sizeof(what), "block #%d Text-In vs the input", b + 1);
            vec_cmp(&vf, &r, what, h[2].b, e->in.b + 16 * b, 16);
            snprintf(what, sizeof(what), "block #%d Text-Out vs the result", b + 1);
            vec_cmp(&vf, &r, what, h[3].b, e->out.b + 16 * b, 16);
        }
    }
    if (n != expect)
        vec_fail(&vf, NULL, "file has %d examples, expected %ld", n, expect);
    vec_finish(&vf, "%d vectors (%d encrypt, %d decrypt; %d blocks of "
               "intermediate values)", n, nenc, n - nenc, blocks);
    vec_free(&vf);
}

/* ---- XTS and LRW ------------------------------------------------------- */

/*
 * One direction of a tweakable mode, out of place and in place.  run() is
 * casm_aes_xts or casm_aes_lrw bound to a key.
 */
typedef int (*tweak_f)(const void *k, const unsigned char tweak[16],
                       const unsigned char *in, unsigned char *out,
                       size_t len, int enc);

static int run_xts(const void *k, const unsigned char tweak[16],
                   const unsigned char *in, unsigned char *out, size_t len,
                   int enc)
{
    return casm_aes_xts(k, tweak, in, out, len, enc);
}

static int run_lrw(const void *k, const unsigned char tweak[16],
                   const unsigned char *in, unsigned char *out, size_t len,
                   int enc)
{
    return casm_aes_lrw(k, tweak, in, out, len, enc);
}

/* The entry's ECB in ecb128_f's shape, or one over its block functions
 * when it has none, so CRYPTO_lrw128_encrypt_ecb is covered for every
 * entry. */
static void ecb_over_block(const unsigned char *in, unsigned char *out,
                           size_t len, const void *key, int enc)
{
    if (impl->ecb != NULL) {
        impl->ecb(in, out, len, key, enc);
        return;
    }
    for (size_t i = 0; i < len; i += 16)
        (enc ? impl->encrypt : impl->decrypt)(in + i, out + i, key);
}

static int run_lrw_ecb(const void *k, const unsigned char tweak[16],
                       const unsigned char *in, unsigned char *out,
                       size_t len, int enc)
{
    const CASM_AES_LRW_KEY *lk = k;
    return CRYPTO_lrw128_encrypt_ecb(&lk->tweak, enc ? &lk->aes.enc : &lk->aes.dec,
                                     ecb_over_block,
                                     enc, tweak, in, out, len);
}

static void tweak_check(struct vec_file *vf, const struct vec_record *r,
                        const char *fname, tweak_f run, const void *k,
                        const unsigned char tweak[16], const unsigned char *in,
                        const unsigned char *want, size_t len, int enc)
{
    unsigned char *buf = malloc(len + 1);
    if (!buf) {
        vec_fail(vf, r, "out of memory");
        return;
    }
    for (int inplace = 0; inplace <= 1; inplace++) {
        char what[64];
        snprintf(what, sizeof(what), "%s %s%s", fname,
                 enc ? "encrypt" : "decrypt", inplace ? " in place" : "");
        memset(buf, 0, len);
        if (inplace)
            memcpy(buf, in, len);
        int rc = run(k, tweak, inplace ? buf : in, buf, len, enc);
        if (rc != 0)
            vec_fail(vf, r, "%s returned %d", what, rc);
        else
            vec_cmp(vf, r, what, want, buf, len);
    }
    free(buf);
}

/* One XTS vector: the record's own direction first, then the inverse. */
static void xts_vector(struct vec_file *vf, const struct vec_record *r,
                       const unsigned char *key, size_t keylen,
                       const unsigned char iv[16], const unsigned char *pt,
                       const unsigned char *ct, size_t len, int enc)
{
    static CASM_AES_XTS_KEY xk;
    int rc = casm_aes_xts_set_key_with(&xk, impl, key, (int)keylen * 4);
    if (rc != 0) {
        vec_fail(vf, r, "casm_aes_xts_set_key_with(%zu-byte key) returned %d",
                 keylen, rc);
        return;
    }
    tweak_check(vf, r, "casm_aes_xts", run_xts, &xk, iv, enc ? pt : ct,
                enc ? ct : pt, len, enc);
    tweak_check(vf, r, "casm_aes_xts", run_xts, &xk, iv, enc ? ct : pt,
                enc ? pt : ct, len, !enc);
}

/* LRW: KEY is the AES key followed by the 16-byte tweak key K2; both
 * directions through casm_aes_lrw and CRYPTO_lrw128_encrypt_ecb. */
static void lrw_vector(struct vec_file *vf, const struct vec_record *r,
                       const unsigned char *key, size_t keylen,
                       const unsigned char iv[16], const unsigned char *pt,
                       const unsigned char *ct, size_t len)
{
    static CASM_AES_LRW_KEY lk;
    int rc = keylen > 16
        ? casm_aes_lrw_set_key_with(&lk, impl, key, (int)(keylen - 16) * 8)
        : CASM_ERR_BITS;
    if (rc != 0) {
        vec_fail(vf, r, "casm_aes_lrw_set_key_with(%zu-byte key) returned %d", keylen, rc);
        return;
    }
    for (int enc = 1; enc >= 0; enc--) {
        tweak_check(vf, r, "casm_aes_lrw", run_lrw, &lk, iv, enc ? pt : ct, enc ? ct : pt,
                    len, enc);
        tweak_check(vf, r, "CRYPTO_lrw128_encrypt_ecb", run_lrw_ecb, &lk, iv, enc ? pt : ct,
                    enc ? ct : pt, len, enc);
    }
}

/*
 * A file of KEY/IV/PT/CT-like records for one mode.  NIST's XTSGen files
 * (Key, i, PT, CT, DataUnitLen) have [ENCRYPT]/[DECRYPT] sections, and
 * their bit-granular records are counted and skipped: byte-oriented XTS
 * cannot express them.
 */
struct mode_file {
    const char *name;
    enum { CTR_FILE, CTR_EXAMPLES, XTS_FILE, LRW_FILE } mode;
    const struct fields *fields;    /* NULL: a NIST XTSGen file */
    long expect, expect_skip;
};

static void mode_file(const struct mode_file *mf)
{
    static const struct fields nist_fields = { "Key", "i", "PT", "CT" };
    int nist = mf->fields == NULL;
    struct vec_file vf;
    long n[2] = {0, 0}, skipped = 0, total = 0;

    if (mf->mode == CTR_EXAMPLES) {
        nist_ctr_file(mf->name, mf->expect);
        return;
    }
    if (vec_load(&vf, mf->name) != 0) {
        vec_fail_file(&vf);
        return;
    }
    for (size_t i = 0; i < vf.nrecords; i++) {
        const struct vec_record *r = &vf.records[i];
        unsigned char *key, *pt, *ct, iv[16];
        size_t keylen, len;
        long bits = 0;
        int enc = !nist || strcmp(r->section, "ENCRYPT") == 0;

        total++;
        if (nist ? !enc && strcmp(r->section, "DECRYPT") != 0
                 : *r->section && strcmp(r->section, "ENCRYPT") != 0) {
            vec_fail(&vf, r, "unexpected section [%s]", r->section);
            continue;
        }
        if (nist && (bits = vec_int(&vf, r, "DataUnitLen")) < 0)
            continue;
        if (bits % 8) {
            skipped++;
            continue;
        }
        if (!get_vector(&vf, r, nist ? &nist_fields : mf->fields, &key, &keylen, iv, &pt, &ct,
                        &len))
            continue;
        n[enc]++;
        if (nist && (size_t)bits != len * 8) {
            vec_fail(&vf, r, "DataUnitLen = %ld but PT is %zu bytes", bits, len);
        } else if (mf->mode == CTR_FILE) {
            /* CTR is its own inverse: the same vector checks both directions. */
            ctr_check(&vf, r, key, keylen, iv, pt, ct, len, "encrypt");
            ctr_check(&vf, r, key, keylen, iv, ct, pt, len, "decrypt");
        } else if (mf->mode == XTS_FILE) {
            xts_vector(&vf, r, key, keylen, iv, pt, ct, len, enc);
        } else {
            lrw_vector(&vf, r, key, keylen, iv, pt, ct, len);
        }
        free(key);
        free(pt);
        free(ct);
    }
    if (total != mf->expect || skipped != mf->expect_skip)
        vec_fail(&vf, NULL, "file has %ld records (%ld bit-granular), expected %ld (%ld)",
                 total, skipped, mf->expect, mf->expect_skip);
    if (nist)
        vec_finish(&vf, "%ld vectors (%ld encrypt, %ld decrypt), each also run in the "
                   "inverse direction", n[1] + n[0], n[1], n[0]);
    else
        vec_finish(&vf, "%ld vectors, each encrypted and decrypted", n[1]);
    if (nist) {
        char why[96];
        snprintf(why, sizeof(why), "%ld bit-granular records (DataUnitLen %% 8 != 0)", skipped);
        tap_skip(why, "%s", mf->name);
    }
    vec_free(&vf);
}

/* ---- main --------------------------------------------------------------- */

int main(int argc, char **argv)
{
    impl = impl_cli_aes(argc, argv);
    static const struct mode_file files[] = {
        { "ctr/sp800-38a-f5-ctr.txt", CTR_FILE, &simple_fields, 3, 0 },
        { "ctr/rfc3686/aes-128-ctr.txt", CTR_FILE, &cavp_fields, 3, 0 },
        { "ctr/rfc3686/aes-192-ctr.txt", CTR_FILE, &cavp_fields, 3, 0 },
        { "ctr/rfc3686/aes-256-ctr.txt", CTR_FILE, &cavp_fields, 3, 0 },
        { "ctr/nist-examples-AES_CTR.txt", CTR_EXAMPLES, NULL, 6, 0 },
        { "xts/XTSGenAES128.rsp", XTS_FILE, NULL, 1000, 200 },
        { "xts/XTSGenAES256.rsp", XTS_FILE, NULL, 1000, 400 },
        { "xts/ieee1619-2007-annexB.txt", XTS_FILE, &simple_fields, 19, 0 },
        { "lrw/lrw-aes.txt", LRW_FILE, &simple_fields, 9, 0 },
    };
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
        mode_file(&files[i]);
    return tap_done();
}
