/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Guard pages around every assembly entry point of the registry: each
 * non-NULL function of every casm_aes_impls[] entry but the C one (key
 * schedules, one block, ECB, CBC, CTR32, XTS, CCM64, OCB) and of every
 * casm_sha1_impls[] entry but the C one, called with every buffer it is
 * given in its own guarded region (test/lib/guard.h): data in and out,
 * user key, key schedules, IV/tweak/counter, CCM's cmac, OCB's offset,
 * checksum and L_ table, SHA-1's context.  Each call runs under six
 * layouts: every buffer flush at the end (out of place, in place), then
 * flush at the start at offsets 0/0, 1/9, 15/4 (in/out; the small buffers
 * take in's, the 4-byte-aligned AES_KEY and SHA_CTX that rounded down) and
 * 7 in place.  Lengths: every one 0..4096 the function accepts (whole
 * blocks for all but XTS, 16..4096 for XTS; 1..64 blocks for SHA-1), the
 * key size turning over 128/192/256 with the length; with --quick (qemu)
 * every block count 0..40, then every fifth to 256, and XTS every byte
 * length 16..400, then three per fifth block count: the six-block
 * (aesni-x86) and eight-block (aesni-x86_64) loops with every remainder,
 * every stealing tail, and the 512-byte switch of the table code are
 * still crossed.
 *
 * Every call is also a differential against the C reference (the "c"
 * entry's AES, the generic CTR and XTS over it, the CCM and OCB models,
 * the C SHA-1 compression): output, written-back state, input untouched,
 * and no byte changed in the rest of the regions.  A fault in a guard
 * page is reported by the handler (function, length, layout, which
 * buffer and which end) and fails that function's line.  Entries the CPU
 * lacks are counted SKIPs; a function two entries share is tested once.
 *
 * --list prints the functions it would test (entry, function) and exits.
 * --plant over-read|over-write|under-read|stray-write|asm-over-read|
 * wrong-byte runs only a planted ECB (over the C AES, or the table assembly's, with one
 * stray access at one length; see planted_ecb) through the same harness:
 * the negative controls of test/t/21-guard-pages.t.  Prints TAP.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impl.h"
#include "aes/aes_c.h"
#include "lib/ccm_model.h"
#include "lib/guard.h"
#include "../support/lib/ocb_model.h"
#include "lib/tap.h"

enum { MAXLEN = 4096, OCB_L = 16 };

enum kind { K_SETKEY, K_BLOCK, K_ECB, K_CBC, K_CTR32, K_XTS, K_CCM, K_OCB, K_SHA1 };

struct job {
    const char *impl, *fn;
    enum kind kind;
    int enc;
    const struct casm_aes_impl *aes;
    const struct casm_sha1_impl *sha;
};

struct layout {
    const char *name;
    enum guard_side side;
    int in_place;
    size_t in_off, out_off;
};
static const struct layout layouts[] = {
    { "end", GUARD_END, 0, 0, 0 },
    { "end, in place", GUARD_END, 1, 0, 0 },
    { "start+0/+0", GUARD_START, 0, 0, 0 },
    { "start+1/+9", GUARD_START, 0, 1, 9 },
    { "start+15/+4", GUARD_START, 0, 15, 4 },
    { "start+7, in place", GUARD_START, 1, 7, 7 },
};
#define NLAYOUTS (sizeof(layouts) / sizeof(layouts[0]))

/* The regions, one per buffer an entry point is given. */
static struct guard_region r_in, r_out, r_key, r_ks, r_ks2, r_iv, r_st1, r_st2, r_l, r_ctx;

/* Inputs, the same for every implementation. */
static unsigned char src[MAXLEN], user_key[64], iv0[16], st0[16], st1[16];
static unsigned char l_table[OCB_L][16];

/* The call in progress, for the fault report. */
static const struct job *volatile cur_job;
static volatile size_t cur_len;
static volatile int cur_bits;
static const struct layout *volatile cur_layout;

static void describe(struct guard_msg *m)
{
    const struct job *j = cur_job;
    if (j == NULL) {
        guard_msg_str(m, "no call");
        return;
    }
    guard_msg_str(m, j->impl);
    guard_msg_str(m, ".");
    guard_msg_str(m, j->fn);
    if (j->kind != K_SHA1) {
        guard_msg_str(m, j->enc ? " (encrypt), AES-" : " (decrypt), AES-");
        guard_msg_num(m, cur_bits);
    }
    guard_msg_str(m, ", length ");
    guard_msg_num(m, (long long)cur_len);
    guard_msg_str(m, ", layout ");
    guard_msg_str(m, cur_layout->name);
}

static void fill(unsigned char *p, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        p[i] = (unsigned char)(seed >> 16);
    }
}

/* A buffer of len bytes in r under layout ly, off from the layout. */
static void *put(struct guard_region *r, size_t len, const struct layout *ly,
                 size_t off)
{
    return guard_place(r, ly->side, len, off);
}

/* --- the lengths -------------------------------------------------------- */

static int quick, list;

/* The next length after len for kind k (-1 after the last); from -1 the
 * first. */
static long next_len(enum kind k, long len)
{
    if (k == K_SETKEY || k == K_BLOCK)
        return len < 0 ? 128 : len < 256 ? len + 64 : -1;
    if (k == K_SHA1) {
        long n = len < 0 ? 1 : len / 64 + 1;
        return n <= MAXLEN / 64 ? n * 64 : -1;
    }
    if (k == K_XTS) {
        if (len < 0)
            return 16;
        if (!quick || len < 400)
            return len < MAXLEN ? len + 1 : -1;
        /* 16b, 16b + 1, 16b + 15 for every fifth block count b */
        long b = len / 16, r = len % 16;
        if (r == 0)
            return len + 1;
        if (r == 1)
            return len + 14;
        b += 5 - b % 5;
        return b * 16 <= MAXLEN ? b * 16 : -1;
    }
    long b = len < 0 ? 0 : len / 16 + 1;
    if (quick && b > 40 && b % 5 != 0 && b < MAXLEN / 16)
        b += 5 - b % 5;
    return b <= MAXLEN / 16 ? b * 16 : -1;
}

static int key_bits(enum kind k, long len, long index)
{
    if (k == K_SETKEY || k == K_BLOCK)
        return (int)len;
    if (k == K_XTS)
        return index % 2 ? 256 : 128;
    return 128 + 64 * (int)(index % 3);
}

/* --- the reference ------------------------------------------------------ */

struct expect {
    unsigned char out[MAXLEN];
    unsigned char st1[16], st2[16];
    SHA_CTX ctx;
};

static const struct casm_aes_impl *ref;

static void reference(const struct job *j, size_t len, int bits,
                      struct expect *w)
{
    AES_KEY ek, dk, tk;
    ref->set_encrypt_key(user_key, bits, &ek);
    ref->set_decrypt_key(user_key, bits, &dk);
    ref->set_encrypt_key(user_key + 32, bits, &tk);
    AES_KEY *k = j->enc ? &ek : &dk;
    unsigned char ecount[16];
    unsigned int num = 0;
    memcpy(w->st1, st0, 16);
    memcpy(w->st2, st1, 16);

    switch (j->kind) {
    case K_SETKEY:
    case K_BLOCK:
        (j->enc ? ref->encrypt : ref->decrypt)(src, w->out, k);
        break;
    case K_ECB:
        for (size_t i = 0; i < len; i += 16)
            (j->enc ? ref->encrypt : ref->decrypt)(src + i, w->out + i, k);
        break;
    case K_CBC:
        memcpy(w->st1, iv0, 16);
        ref->cbc(src, w->out, len, k, w->st1, j->enc);
        break;
    case K_CTR32:
        memcpy(w->st1, iv0, 16);
        CRYPTO_ctr128_encrypt(src, w->out, len, &ek, w->st1, ecount, &num,
                              ref->encrypt);
        memcpy(w->st1, iv0, 16);        /* ctr32 does not write it back */
        break;
    case K_XTS: {
        XTS128_CONTEXT x = { k, &tk,
                             j->enc ? ref->encrypt : ref->decrypt, ref->encrypt };
        CRYPTO_xts128_encrypt(&x, iv0, src, w->out, len, j->enc);
        memcpy(w->st1, iv0, 16);
        break;
    }
    case K_CCM:
        memcpy(w->st1, iv0, 16);
        ccm_model_bulk(src, w->out, len / 16, &ek, ref->encrypt, j->enc,
                       iv0, w->st2);
        break;
    case K_OCB:
        ocb_model_bulk(src, w->out, len / 16, k,
                       j->enc ? ref->encrypt : ref->decrypt, j->enc,
                       1 + len / 16 % 7, w->st1,
                       (const unsigned char (*)[16])l_table, w->st2);
        break;
    case K_SHA1:
        memcpy(w->out, src, len);       /* the data, unchanged */
        SHA1_Init(&w->ctx);
        memcpy(&w->ctx.h0, st0, 4);
        sha1_block_data_order_c(&w->ctx, src, len / 64);
        break;
    }
}

/* --- one call under one layout ----------------------------------------- */

/* The schedules the job's own implementation makes, copied into the
 * guarded regions for each call. */
struct scheds {
    AES_KEY ek, dk, tk;
};

/* One call's arguments, all in guarded regions. */
struct call {
    const struct job *j;
    const unsigned char *in, *key;
    unsigned char *out, *iv, *a, *b;
    const unsigned char (*l)[16];
    AES_KEY *ks, *ks2;
    SHA_CTX *ctx;
    size_t len, start;
    int bits, rc;
};

static void invoke(struct call *c)
{
    const struct casm_aes_impl *im = c->j->aes;
    const int enc = c->j->enc;
    switch (c->j->kind) {
    case K_SETKEY:
        /* The schedule, then one block through it. */
        c->rc = (enc ? im->set_encrypt_key : im->set_decrypt_key)(c->key, c->bits, c->ks);
        (enc ? im->encrypt : im->decrypt)(c->in, c->out, c->ks);
        break;
    case K_BLOCK:
        (enc ? im->encrypt : im->decrypt)(c->in, c->out, c->ks);
        break;
    case K_ECB:
        im->ecb(c->in, c->out, c->len, c->ks, enc);
        break;
    case K_CBC:
        im->cbc(c->in, c->out, c->len, c->ks, c->iv, enc);
        break;
    case K_CTR32:
        im->ctr32(c->in, c->out, c->len / 16, c->ks, c->iv);
        break;
    case K_XTS:
        (enc ? im->xts_enc : im->xts_dec)(c->in, c->out, c->len, c->ks, c->ks2, c->iv);
        break;
    case K_CCM:
        (enc ? im->ccm64_enc : im->ccm64_dec)(c->in, c->out, c->len / 16, c->ks, c->iv, c->b);
        break;
    case K_OCB:
        (enc ? im->ocb_enc : im->ocb_dec)(c->in, c->out, c->len / 16, c->ks, c->start,
                                          c->a, c->l, c->b);
        break;
    case K_SHA1:
        c->j->sha->block(c->ctx, c->in, c->len / 64);
        break;
    }
}

/* 1 when the call faulted in a guard page (the handler reported it). */
static int guarded_invoke(struct call *c)
{
    int faulted;
    GUARD_CALL(faulted, invoke(c));
    return faulted;
}

/* NULL, or what went wrong (the fault report's text for a fault). */
static const char *one_call(const struct job *j, size_t length, int bits,
                            const struct layout *ly, const struct scheds *s,
                            const struct expect *w)
{
    static char why[1200];
    /* A key schedule is checked through one block; len is the key's. */
    const int one_block = j->kind == K_SETKEY || j->kind == K_BLOCK;
    const size_t len = one_block ? 16 : length;
    /* SHA-1's data is in and out at once: the output region holds it. */
    const int in_place = ly->in_place || j->kind == K_SHA1;
    const size_t off = ly->in_off, off4 = ly->in_off & ~(size_t)3;
    struct call c = { .j = j, .len = len, .bits = bits };

    c.out = put(&r_out, len, ly, ly->out_off);
    guard_fill_slack(&r_out);
    if (in_place) {
        c.in = c.out;
        memcpy(c.out, src, len);
    } else {
        unsigned char *in = put(&r_in, len, ly, ly->in_off);
        guard_fill_slack(&r_in);
        memcpy(in, src, len);
        c.in = in;
    }
    c.ks = put(&r_ks, sizeof(AES_KEY), ly, off4);
    c.ks2 = put(&r_ks2, sizeof(AES_KEY), ly, off4);
    memcpy(c.ks, j->enc || j->kind == K_CTR32 || j->kind == K_CCM ? &s->ek : &s->dk,
           sizeof(AES_KEY));
    memcpy(c.ks2, &s->tk, sizeof(AES_KEY));
    c.iv = put(&r_iv, 16, ly, off);
    c.a = put(&r_st1, 16, ly, off);
    c.b = put(&r_st2, 16, ly, off);
    memcpy(c.iv, iv0, 16);
    memcpy(c.a, st0, 16);
    memcpy(c.b, st1, 16);
    if (j->kind == K_SETKEY) {
        unsigned char *uk = put(&r_key, (size_t)bits / 8, ly, off);
        memcpy(uk, user_key, (size_t)bits / 8);
        memset(c.ks, 0, sizeof(AES_KEY));
        c.key = uk;
    }
    if (j->kind == K_OCB) {
        /* Exactly the L_ entries blocks start .. start + n - 1 use. */
        c.start = 1 + len / 16 % 7;
        size_t nl = ocb_model_l_entries((unsigned long long)(c.start + len / 16 - 1));
        unsigned char *l = put(&r_l, 16 * nl, ly, ly->out_off);
        memcpy(l, l_table, 16 * nl);
        c.l = (const unsigned char (*)[16])l;
    }
    if (j->kind == K_SHA1) {
        c.ctx = put(&r_ctx, sizeof(SHA_CTX), ly, off4);
        SHA1_Init(c.ctx);
        memcpy(&c.ctx->h0, st0, 4);
    }

    cur_len = j->kind == K_SETKEY ? (size_t)bits / 8 : len;
    cur_bits = bits;
    cur_layout = ly;
    int faulted = guarded_invoke(&c);
    unsigned char *out = c.out;
    const unsigned char *in = c.in, *a = c.a, *b = c.b;
    /* CBC's IV and the counter and tweak blocks: compared in a's place. */
    if (j->kind == K_CBC || j->kind == K_CTR32 || j->kind == K_XTS || j->kind == K_CCM)
        a = c.iv;
    if (!faulted && j->kind == K_SHA1 && memcmp(c.ctx, &w->ctx, sizeof(SHA_CTX)) != 0)
        return "the chaining value differs from the C compression's";
    int rc = c.rc;
    if (faulted) {
        snprintf(why, sizeof(why), "%s", guard_last_report());
        return why;
    }
    if (rc != 0)
        return "the key schedule returned an error";
    if (memcmp(out, w->out, len) != 0)
        return "the output differs from the C reference";
    if (memcmp(a, w->st1, 16) != 0 || memcmp(b, w->st2, 16) != 0)
        return "the written-back state (IV, counter, cmac, offset or checksum) differs";
    if (!in_place && memcmp(in, src, len) != 0)
        return "the input was written";
    long at;
    const char *where = !guard_slack_ok(&r_out, &at) ? r_out.name
                      : !in_place && !guard_slack_ok(&r_in, &at) ? r_in.name : NULL;
    if (where != NULL) {
        snprintf(why, sizeof(why), "a write at offset %ld of the %zu-byte buffer %s, "
                 "outside it but not on a guard page", at, len, where);
        return why;
    }
    return NULL;
}

/* --- one function: every length, every layout --------------------------- */

static void run_job(const struct job *j)
{
    static struct expect w;
    const char *why = NULL;
    long calls = 0, lengths = 0, index = 0;
    size_t bad_len = 0;
    const struct layout *bad_ly = NULL;

    cur_job = j;
    for (long len = next_len(j->kind, -1); len >= 0 && why == NULL;
         len = next_len(j->kind, len), index++) {
        int bits = key_bits(j->kind, len, index);
        struct scheds s;
        if (j->aes != NULL) {
            j->aes->set_encrypt_key(user_key, bits, &s.ek);
            j->aes->set_decrypt_key(user_key, bits, &s.dk);
            j->aes->set_encrypt_key(user_key + 32, bits, &s.tk);
        }
        reference(j, (size_t)len, bits, &w);
        lengths++;
        for (size_t l = 0; l < NLAYOUTS && why == NULL; l++) {
            why = one_call(j, (size_t)len, bits, &layouts[l], &s, &w);
            calls++;
            bad_len = (size_t)len;
            bad_ly = &layouts[l];
        }
    }
    cur_job = NULL;
    const char *what = j->kind == K_SETKEY || j->kind == K_BLOCK ? "key sizes" : "lengths";
    if (!tap_ok(why == NULL, "%s %s%s: %ld %s x %zu layouts, %ld calls, no access outside "
                "its buffers, equal to the C reference", j->impl, j->fn,
                j->kind == K_SHA1 || j->kind == K_SETKEY ? "" : j->enc ? " encrypt" : " decrypt",
                lengths, what, NLAYOUTS, calls))
        tap_diag("%s (length %zu, layout %s)", why, bad_len, bad_ly ? bad_ly->name : "-");
}

/* --- the jobs ----------------------------------------------------------- */

/* 1 when job j's function is the same as job k's. */
static int same_fn(const struct job *j, const struct job *k)
{
    if (j->kind != k->kind || j->enc != k->enc)
        return 0;
    const struct casm_aes_impl *a = j->aes, *b = k->aes;
    switch (j->kind) {
    case K_SETKEY:
        return j->enc ? a->set_encrypt_key == b->set_encrypt_key
                      : a->set_decrypt_key == b->set_decrypt_key;
    case K_BLOCK: return j->enc ? a->encrypt == b->encrypt : a->decrypt == b->decrypt;
    case K_ECB: return a->ecb == b->ecb;
    case K_CBC: return a->cbc == b->cbc;
    case K_CTR32: return a->ctr32 == b->ctr32;
    case K_XTS: return j->enc ? a->xts_enc == b->xts_enc : a->xts_dec == b->xts_dec;
    case K_CCM: return j->enc ? a->ccm64_enc == b->ccm64_enc : a->ccm64_dec == b->ccm64_dec;
    case K_OCB: return j->enc ? a->ocb_enc == b->ocb_enc : a->ocb_dec == b->ocb_dec;
    case K_SHA1: return j->sha->block == k->sha->block;
    }
    return 0;
}

enum { MAXJOBS = 256 };
static struct job jobs[MAXJOBS];
static size_t njobs;

static void add(const struct casm_aes_impl *im, const struct casm_sha1_impl *sh,
                const char *fn, enum kind k, int enc, int present)
{
    if (!present || njobs == MAXJOBS)
        return;
    struct job j = { im ? im->name : sh->name, fn, k, enc, im, sh };
    for (size_t i = 0; i < njobs; i++) {
        if (same_fn(&j, &jobs[i])) {
            if (!list)
                tap_diag("%s %s%s is %s's: tested there", j.impl, fn,
                         k == K_SHA1 || k == K_SETKEY ? "" : enc ? " encrypt" : " decrypt",
                         jobs[i].impl);
            return;
        }
    }
    jobs[njobs++] = j;
}

static void add_aes(const struct casm_aes_impl *im)
{
    add(im, NULL, "set_encrypt_key", K_SETKEY, 1, im->set_encrypt_key != NULL);
    add(im, NULL, "set_decrypt_key", K_SETKEY, 0, im->set_decrypt_key != NULL);
    add(im, NULL, "block", K_BLOCK, 1, im->encrypt != NULL);
    add(im, NULL, "block", K_BLOCK, 0, im->decrypt != NULL);
    for (int enc = 1; enc >= 0; enc--) {
        add(im, NULL, "ecb", K_ECB, enc, im->ecb != NULL);
        add(im, NULL, "cbc", K_CBC, enc, im->cbc != NULL);
    }
    add(im, NULL, "ctr32", K_CTR32, 1, im->ctr32 != NULL);
    add(im, NULL, "xts", K_XTS, 1, im->xts_enc != NULL);
    add(im, NULL, "xts", K_XTS, 0, im->xts_dec != NULL);
    add(im, NULL, "ccm64", K_CCM, 1, im->ccm64_enc != NULL);
    add(im, NULL, "ccm64", K_CCM, 0, im->ccm64_dec != NULL);
    add(im, NULL, "ocb", K_OCB, 1, im->ocb_enc != NULL);
    add(im, NULL, "ocb", K_OCB, 0, im->ocb_dec != NULL);
}

/* --- the planted faults (the negative controls) -------------------------- */

enum {
    PLANT_NONE, PLANT_OVER_READ, PLANT_OVER_WRITE, PLANT_UNDER_READ,
    PLANT_STRAY_WRITE, PLANT_ASM_OVER_READ, PLANT_WRONG_BYTE
};
static const char *const plant_names[] = {
    "", "over-read", "over-write", "under-read", "stray-write", "asm-over-read",
    "wrong-byte"
};
static int plant;
static volatile unsigned char sink;
/* The table AES entry ("x86_64" or "x86"): OpenSSL's AES_encrypt, in
 * assembly, for the fault that must be caught inside a .s function. */
static const struct casm_aes_impl *table;

/* ECB over the planted entry's block functions, plus one stray access at
 * one length: in[272], out[1040], in[-1] at 528 bytes, out[-64] at 784
 * (mapped memory: only the slack check sees it), the assembly block
 * function handed in + 272 at 272 bytes; or, for the differential, one
 * output bit flipped at 400 bytes. */
static void planted_ecb(const unsigned char *in, unsigned char *out, size_t len,
                        const AES_KEY *key, int enc)
{
    static unsigned char block[16];
    const struct casm_aes_impl *base = plant == PLANT_ASM_OVER_READ ? table : ref;
    for (size_t i = 0; i < len; i += 16)
        (enc ? base->encrypt : base->decrypt)(in + i, out + i, key);
    volatile unsigned char *o = out;
    const volatile unsigned char *p = in;
    if (plant == PLANT_OVER_READ && len == 272)
        sink = p[len];
    if (plant == PLANT_OVER_WRITE && len == 1040)
        o[len] = sink;
    if (plant == PLANT_UNDER_READ && len == 528)
        sink = *(p - 1);
    if (plant == PLANT_STRAY_WRITE && len == 784)
        *(o - 64) = 0;
    if (plant == PLANT_ASM_OVER_READ && len == 272)
        base->encrypt(in + len, block, key);
    if (plant == PLANT_WRONG_BYTE && len == 400)
        o[123] ^= 1;
}

static struct casm_aes_impl planted = {
    .name = "planted",
    .ecb = planted_ecb,
};

/* --- main --------------------------------------------------------------- */

static void region(struct guard_region *r, const char *name, size_t max_len)
{
    if (guard_region_init(r, name, max_len) != 0)
        tap_bail("cannot map a guarded region for %s", name);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0)
            quick = 1;
        else if (strcmp(argv[i], "--list") == 0)
            list = 1;
        else if (strcmp(argv[i], "--plant") == 0 && i + 1 < argc) {
            const char *p = argv[++i];
            for (int k = PLANT_OVER_READ; k <= PLANT_WRONG_BYTE; k++)
                if (strcmp(p, plant_names[k]) == 0)
                    plant = k;
            if (plant == PLANT_NONE)
                tap_bail("--plant: over-read, over-write, under-read, stray-write, "
                         "asm-over-read or wrong-byte, not %s", p);
        } else {
            tap_bail("usage: guard_pages [--quick] [--list] "
                     "[--plant over-read|over-write|under-read|stray-write|asm-over-read|wrong-byte]");
        }
    }
    ref = casm_aes_impl_by_name("c");
    if (ref == NULL)
        tap_bail("no \"c\" AES implementation in the registry");
    region(&r_in, "in", MAXLEN);
    region(&r_out, "out", MAXLEN);
    region(&r_key, "key", 32);
    region(&r_ks, "key schedule", sizeof(AES_KEY));
    region(&r_ks2, "tweak key schedule", sizeof(AES_KEY));
    region(&r_iv, "ivec", 16);
    region(&r_st1, "offset", 16);
    region(&r_st2, "cmac/checksum", 16);
    region(&r_l, "L_", 16 * OCB_L);
    region(&r_ctx, "SHA_CTX", sizeof(SHA_CTX));
    guard_trap(describe);

    fill(src, sizeof(src), 1);
    fill(user_key, sizeof(user_key), 2);
    fill(iv0, 12, 3);
    iv0[12] = 0x00, iv0[13] = 0x12, iv0[14] = 0x34, iv0[15] = 0x56;   /* no 2^32 wrap */
    fill(st0, 16, 4);
    fill(st1, 16, 5);
    fill(&l_table[0][0], sizeof(l_table), 6);

    if (plant != PLANT_NONE) {
        table = casm_aes_impl_by_name("x86_64");
        if (table == NULL)
            table = casm_aes_impl_by_name("x86");
        if (plant == PLANT_ASM_OVER_READ && table == NULL)
            tap_skip_all("no table AES assembly in this build");
        const struct casm_aes_impl *base = plant == PLANT_ASM_OVER_READ ? table : ref;
        if (plant == PLANT_ASM_OVER_READ)
            planted.name = "planted-asm";
        planted.set_encrypt_key = base->set_encrypt_key;
        planted.set_decrypt_key = base->set_decrypt_key;
        planted.encrypt = base->encrypt;
        planted.decrypt = base->decrypt;
        add(&planted, NULL, "ecb", K_ECB, 1, 1);
        run_job(&jobs[0]);
        return tap_done();
    }

    if (casm_aes_impl_count == 1 && casm_sha1_impl_count == 1 && !list)
        tap_skip_all("the registry holds only the C entries (no assembly in this build)");
    for (size_t i = 0; i < casm_aes_impl_count; i++) {
        const struct casm_aes_impl *im = casm_aes_impls[i];
        if (im == ref)
            continue;
        if (!casm_cpu_has(im->need)) {
            if (!list)
                tap_skip(im->need_name, "AES %s: this CPU lacks it", im->name);
            continue;
        }
        add_aes(im);
    }
    for (size_t i = 0; i < casm_sha1_impl_count; i++) {
        const struct casm_sha1_impl *sh = casm_sha1_impls[i];
        if (sh->block == sha1_block_data_order_c)
            continue;
        if (!casm_cpu_has(sh->need)) {
            if (!list)
                tap_skip(sh->need_name, "SHA-1 %s: this CPU lacks it", sh->name);
            continue;
        }
        add(NULL, sh, "block", K_SHA1, 1, 1);
    }
    for (size_t i = 0; i < njobs; i++) {
        if (list)
            printf("%s\t%s%s\n", jobs[i].impl, jobs[i].fn,
                   jobs[i].kind == K_SHA1 || jobs[i].kind == K_SETKEY ? ""
                   : jobs[i].enc ? " encrypt" : " decrypt");
        else
            run_job(&jobs[i]);
    }
    return list ? 0 : tap_done();
}
