/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Differential test against the system OpenSSL (EVP, loaded by dlopen).
 *
 *   diff_openssl              the dispatching API (casm_*, SHA1_*)
 *   diff_openssl --impl NAME  one registry implementation, called directly
 *   diff_openssl --list       NAME<TAB>FORCE_MASK per AES implementation,
 *                             then per SHA-1 one not named like an AES one
 *                             ("-" when it has no force mask)
 *
 * --impl NAME tests the AES and the SHA-1 entry of that name, whichever
 * exist; modes whose entry is missing or needs a CPU feature this machine
 * lacks are skipped, and if both are, the whole run is.
 *
 * Environment: DIFF_SEED (default 1), DIFF_CASES per mode (default 100000),
 * DIFF_CASE=N runs only case N of each mode (to replay a failure).
 *
 * Every case draws its own parameters from a PRNG seeded by (seed, mode,
 * case number), so a failing case replays alone with DIFF_CASE.  Cases vary
 * key size, length (0..4096, a few up to 1 MiB), buffer offsets 0..15,
 * in-place operation, CTR counters about to carry and streaming splits.
 * A 16-byte guard on both sides of the output catches stray writes.  Last,
 * the XTS data-unit limit: the same lengths accepted and refused.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cryptoasm.h"
#include "impl.h"
#include "../support/lib/ossl.h"
#include "lib/tap.h"

#define MAX_LEN   (1u << 20)
#define SMALL_MAX 4096
#define N_BIG     8          /* cases per mode that use up to MAX_LEN */
#define GUARD     16
#define GUARD_BYTE 0xa5

/* --- PRNG: xoshiro256** seeded through splitmix64 ------------------------ */

struct rng {
    uint64_t s[4];
};

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static void rng_seed(struct rng *r, uint64_t seed, unsigned mode,
                     uint64_t index)
{
    uint64_t x = seed ^ ((uint64_t)mode << 56) ^ (index * 0xd1b54a32d192ed03u);
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

static uint64_t rotl64(uint64_t v, int k)
{
    return (v << k) | (v >> (64 - k));
}

static uint64_t rng_next(struct rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = rotl64(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl64(s[3], 45);
    return out;
}

/* Uniform enough in [0, n]: the modulo bias is far below what matters. */
static size_t rng_upto(struct rng *r, size_t n)
{
    return (size_t)(rng_next(r) % ((uint64_t)n + 1));
}

static void rng_fill(struct rng *r, uint8_t *p, size_t n)
{
    while (n >= 8) {
        uint64_t v = rng_next(r);
        memcpy(p, &v, 8);
        p += 8;
        n -= 8;
    }
    if (n > 0) {
        uint64_t v = rng_next(r);
        memcpy(p, &v, n);
    }
}

/* --- what is under test ---------------------------------------------------- */

/* NULL: the dispatching API; otherwise that registry entry directly. */
static const struct casm_aes_impl *aes_impl;
static const struct casm_sha1_impl *sha1_impl;
static const char *aes_skip, *sha1_skip;  /* why a family is not tested */

static int our_set_key(CASM_AES_KEY *k, const uint8_t *key, int bits)
{
    return aes_impl ? casm_aes_set_key_with(k, aes_impl, key, bits)
                    : casm_aes_set_key(k, key, bits);
}

static int our_xts_set_key(CASM_AES_XTS_KEY *k, const uint8_t *key, int bits)
{
    return aes_impl ? casm_aes_xts_set_key_with(k, aes_impl, key, bits)
                    : casm_aes_xts_set_key(k, key, bits);
}

static void our_sha1_update(SHA_CTX *c, const void *p, size_t n)
{
    if (sha1_impl)
        casm_sha1_update_with(c, p, n, sha1_impl->block);
    else
        SHA1_Update(c, p, n);
}

static void our_sha1_final(uint8_t md[20], SHA_CTX *c)
{
    if (sha1_impl)
        casm_sha1_final_with(md, c, sha1_impl->block);
    else
        SHA1_Final(md, c);
}

static int our_sha1_oneshot(const void *p, size_t n, uint8_t md[20])
{
    if (sha1_impl) {
        casm_sha1_with(sha1_impl->block, p, n, md);
        return 0;
    }
    return casm_sha1(p, n, md);
}

/* --- cases ------------------------------------------------------------------ */

enum mode_id {
    ECB_ENC, ECB_DEC, CBC_ENC, CBC_DEC, CTR_WHOLE, CTR_STREAM,
    XTS_ENC, XTS_DEC, SHA1_SPLIT, N_MODES
};

struct mode {
    const char *title;
    const char *evp;        /* OpenSSL mode name, NULL for SHA-1 */
    int enc;
    int whole_blocks;       /* length a multiple of 16 */
    int min_len;
};

static const struct mode modes[N_MODES] = {
    [ECB_ENC] = { "ECB encrypt", "ecb", 1, 1, 0 },
    [ECB_DEC] = { "ECB decrypt", "ecb", 0, 1, 0 },
    [CBC_ENC] = { "CBC encrypt", "cbc", 1, 1, 0 },
    [CBC_DEC] = { "CBC decrypt", "cbc", 0, 1, 0 },
    [CTR_WHOLE] = { "CTR whole messages", "ctr", 1, 0, 0 },
    [CTR_STREAM] = { "CTR streamed in random chunks", "ctr", 1, 0, 0 },
    [XTS_ENC] = { "XTS encrypt", "xts", 1, 0, 16 },
    [XTS_DEC] = { "XTS decrypt", "xts", 0, 0, 16 },
    [SHA1_SPLIT] = { "SHA-1 with random update splits", NULL, 1, 0, 0 },
};

struct kase {
    enum mode_id mode;
    uint64_t index;
    int bits;
    size_t len;
    unsigned in_off, out_off;
    int inplace;
    uint8_t key[64];
    uint8_t iv[16];
};

static uint64_t seed;
static uint8_t *src_base, *dst_base, *ref_base;

static size_t draw_len(struct rng *r, const struct mode *m, uint64_t index)
{
    size_t len, max = index < N_BIG ? MAX_LEN : SMALL_MAX;
    /* Short lengths hold most edge cases, so draw them more often. */
    switch (index < N_BIG ? 0 : rng_next(r) & 3) {
    case 0:
    case 1: len = rng_upto(r, max); break;
    case 2: len = rng_upto(r, 300); break;
    default: len = rng_upto(r, 48); break;
    }
    if (m->whole_blocks)
        len &= ~(size_t)15;
    if (len < (size_t)m->min_len)
        len = m->min_len + rng_upto(r, 32);
    return len;
}

/* Counters just below a 2^32, 2^64 or 2^128 boundary, to exercise carries. */
static void draw_counter(struct rng *r, uint8_t iv[16])
{
    unsigned k = rng_next(r) & 7;
    int from = k == 0 ? 12 : k == 1 ? 8 : k == 2 ? 0 : 16;
    if (from == 16)
        return;
    memset(iv + from, 0xff, 16 - from);
    iv[15] = (uint8_t)(0xff - rng_upto(r, 40));
}

static void draw_case(struct kase *c, struct rng *r, enum mode_id mode,
                      uint64_t index)
{
    const struct mode *m = &modes[mode];
    static const int sizes[3] = { 128, 192, 256 };
    int xts = mode == XTS_ENC || mode == XTS_DEC;

    memset(c, 0, sizeof(*c));
    c->mode = mode;
    c->index = index;
    c->bits = xts ? (rng_next(r) & 1 ? 256 : 128) : sizes[rng_upto(r, 2)];
    c->len = draw_len(r, m, index);
    c->in_off = rng_next(r) & 15;
    c->out_off = rng_next(r) & 15;
    c->inplace = (rng_next(r) & 7) == 0;
    rng_fill(r, c->key, sizeof(c->key));
    rng_fill(r, c->iv, sizeof(c->iv));
    if (mode == CTR_WHOLE || mode == CTR_STREAM)
        draw_counter(r, c->iv);
    /* OpenSSL 3 rejects XTS keys whose halves are equal. */
    if (xts && memcmp(c->key, c->key + c->bits / 8, c->bits / 8) == 0)
        c->key[0] ^= 1;
}

/* --- reporting ------------------------------------------------------------- */

static void describe(const struct kase *c)
{
    if (c->mode == SHA1_SPLIT) {
        tap_diag("  mode %s, len %zu, data offset %u", modes[c->mode].title,
                 c->len, c->in_off);
    } else {
        int xts = c->mode == XTS_ENC || c->mode == XTS_DEC;
        tap_diag("  mode %s, AES-%d, len %zu, in offset %u, out offset %u, %s",
                 modes[c->mode].title, c->bits, c->len, c->in_off,
                 c->inplace ? c->in_off : c->out_off,
                 c->inplace ? "in-place" : "separate buffers");
        tap_hexdump("key", c->key, (size_t)(c->bits / 8 * (xts ? 2 : 1)));
        tap_hexdump("iv ", c->iv, 16);
    }
    tap_diag("  replay: DIFF_SEED=%" PRIu64 " DIFF_CASE=%" PRIu64
             " with the same --impl", seed, c->index);
}

static int differs(const struct kase *c, const char *what, const uint8_t *got,
                   const uint8_t *want, size_t n)
{
    if (memcmp(got, want, n) == 0)
        return 0;
    size_t i = 0;
    while (got[i] == want[i])
        i++;
    tap_diag("case %" PRIu64 ": %s differs from OpenSSL at byte %zu "
             "(got %02x, want %02x)", c->index, what, i, got[i], want[i]);
    size_t from = i & ~(size_t)15, show = n - from < 32 ? n - from : 32;
    tap_hexdump("got ", got + from, show);
    tap_hexdump("want", want + from, show);
    describe(c);
    return 1;
}

static int returned(const struct kase *c, const char *fn, int rc)
{
    if (rc == 0)
        return 0;
    tap_diag("case %" PRIu64 ": %s returned %d", c->index, fn, rc);
    describe(c);
    return 1;
}

/* --- buffers ----------------------------------------------------------------- */

struct io {
    const uint8_t *in;      /* the message, c->in_off into src_base */
    uint8_t *out;
    unsigned out_off;
};

/* Sets up guards, and for in-place cases copies the message to out. */
static struct io prepare(const struct kase *c)
{
    struct io io;
    io.out_off = c->inplace ? c->in_off : c->out_off;
    io.out = dst_base + io.out_off;
    memset(dst_base, GUARD_BYTE, io.out_off);
    memset(io.out + c->len, GUARD_BYTE, GUARD);
    io.in = src_base + c->in_off;
    if (c->inplace) {
        memcpy(io.out, io.in, c->len);
        io.in = io.out;
    }
    return io;
}

static int guards_intact(const struct kase *c, const struct io *io)
{
    for (unsigned i = 0; i < io->out_off; i++) {
        if (dst_base[i] != GUARD_BYTE) {
            tap_diag("case %" PRIu64 ": wrote %u bytes before the output",
                     c->index, io->out_off - i);
            describe(c);
            return 0;
        }
    }
    for (unsigned i = 0; i < GUARD; i++) {
        if (io->out[c->len + i] != GUARD_BYTE) {
            tap_diag("case %" PRIu64 ": wrote past the output (byte %zu)",
                     c->index, c->len + i);
            describe(c);
            return 0;
        }
    }
    return 1;
}

static void reference(const struct kase *c, const uint8_t *msg)
{
    const struct mode *m = &modes[c->mode];
    if (ossl_cipher(m->evp, c->bits, m->enc, c->key, c->iv, msg, ref_base,
                    c->len) != 0)
        tap_bail("OpenSSL AES-%d-%s: %s", c->bits, m->evp, ossl_error());
}

/* --- one case per mode ------------------------------------------------------- */

static int run_ecb(const struct kase *c, struct rng *r)
{
    (void)r;
    CASM_AES_KEY k;
    reference(c, src_base + c->in_off);
    struct io io = prepare(c);
    if (returned(c, "casm_aes_set_key", our_set_key(&k, c->key, c->bits)) ||
        returned(c, "casm_aes_ecb",
                 casm_aes_ecb(&k, io.in, io.out, c->len, modes[c->mode].enc)))
        return 1;
    return differs(c, "output", io.out, ref_base, c->len) ||
           !guards_intact(c, &io);
}

/* CBC, sometimes in several calls chained through the updated IV. */
static int run_cbc(const struct kase *c, struct rng *r)
{
    const uint8_t *msg = src_base + c->in_off;
    int enc = modes[c->mode].enc;
    CASM_AES_KEY k;
    uint8_t iv[16];

    reference(c, msg);
    struct io io = prepare(c);
    if (returned(c, "casm_aes_set_key", our_set_key(&k, c->key, c->bits)))
        return 1;
    memcpy(iv, c->iv, 16);
    size_t blocks = c->len / 16, done = 0;
    int chunks = (rng_next(r) & 3) == 0 ? 4 : 1;
    for (int i = 0; i < chunks; i++) {
        size_t n = i == chunks - 1 ? blocks - done : rng_upto(r, blocks - done);
        if (returned(c, "casm_aes_cbc",
                     casm_aes_cbc(&k, io.in + 16 * done, io.out + 16 * done,
                                  16 * n, iv, enc)))
            return 1;
        done += n;
    }
    if (differs(c, "output", io.out, ref_base, c->len) ||
        !guards_intact(c, &io))
        return 1;
    /* The IV to continue with is the last ciphertext block. */
    const uint8_t *want_iv = c->len == 0 ? c->iv
                             : (enc ? ref_base : msg) + c->len - 16;
    return differs(c, "updated iv", iv, want_iv, 16);
}

/* counter + n as a 128-bit big-endian number */
static void counter_add(uint8_t ctr[16], uint64_t n)
{
    for (int i = 15; i >= 0 && n != 0; i--) {
        n += ctr[i];
        ctr[i] = (uint8_t)n;
        n >>= 8;
    }
}

static int run_ctr(const struct kase *c, struct rng *r)
{
    CASM_AES_KEY k;
    uint8_t ctr[16], ecount[16] = { 0 }, want_ctr[16];
    unsigned int num = 0;

    reference(c, src_base + c->in_off);
    struct io io = prepare(c);
    if (returned(c, "casm_aes_set_key", our_set_key(&k, c->key, c->bits)))
        return 1;
    memcpy(ctr, c->iv, 16);
    if (c->mode == CTR_WHOLE) {
        if (returned(c, "casm_aes_ctr",
                     casm_aes_ctr(&k, io.in, io.out, c->len, ctr, ecount,
                                  &num)))
            return 1;
    } else {
        /* Mostly short pieces, so partial blocks meet at every offset. */
        int small = rng_next(r) & 1;
        for (size_t done = 0; done < c->len;) {
            size_t left = c->len - done;
            size_t n = rng_upto(r, small && left > 40 ? 40 : left);
            if (returned(c, "casm_aes_ctr (streamed)",
                         casm_aes_ctr(&k, io.in + done, io.out + done, n,
                                      ctr, ecount, &num)))
                return 1;
            done += n;
        }
    }
    if (differs(c, "output", io.out, ref_base, c->len) ||
        !guards_intact(c, &io))
        return 1;
    /* As CRYPTO_ctr128_encrypt: one step per block begun. */
    memcpy(want_ctr, c->iv, 16);
    counter_add(want_ctr, (c->len + 15) / 16);
    if (differs(c, "final counter", ctr, want_ctr, 16))
        return 1;
    if (num != c->len % 16) {
        tap_diag("case %" PRIu64 ": num is %u after %zu bytes, want %zu",
                 c->index, num, c->len, c->len % 16);
        describe(c);
        return 1;
    }
    return 0;
}

static int run_xts(const struct kase *c, struct rng *r)
{
    (void)r;
    CASM_AES_XTS_KEY k;
    reference(c, src_base + c->in_off);
    struct io io = prepare(c);
    if (returned(c, "casm_aes_xts_set_key",
                 our_xts_set_key(&k, c->key, c->bits)) ||
        returned(c, "casm_aes_xts",
                 casm_aes_xts(&k, c->iv, io.in, io.out, c->len,
                              modes[c->mode].enc)))
        return 1;
    return differs(c, "output", io.out, ref_base, c->len) ||
           !guards_intact(c, &io);
}

static int run_sha1(const struct kase *c, struct rng *r)
{
    const uint8_t *msg = src_base + c->in_off;
    uint8_t want[20], got[20];
    SHA_CTX ctx;

    if (ossl_sha1(msg, c->len, want) != 0)
        tap_bail("OpenSSL SHA-1: %s", ossl_error());

    /* Split styles: one update, many tiny ones, or random sizes. */
    unsigned style = rng_next(r) & 3;
    size_t updates = 0;
    SHA1_Init(&ctx);
    for (size_t done = 0; done < c->len || updates == 0; updates++) {
        size_t left = c->len - done;
        size_t n = style == 0 ? left
                   : style == 1 ? rng_upto(r, left < 70 ? left : 70)
                   : rng_upto(r, left);
        our_sha1_update(&ctx, msg + done, n);
        done += n;
    }
    our_sha1_final(got, &ctx);
    if (differs(c, "digest (split updates)", got, want, 20)) {
        tap_diag("  %zu updates, split style %u", updates, style);
        return 1;
    }
    if (returned(c, "one-shot SHA-1", our_sha1_oneshot(msg, c->len, got)) ||
        differs(c, "digest (one-shot)", got, want, 20))
        return 1;
    /* The OpenSSL-compatible one-shot, when testing the public API. */
    if (sha1_impl == NULL && (SHA1(msg, c->len, got) != got ||
                              differs(c, "digest (SHA1())", got, want, 20)))
        return 1;
    return 0;
}

typedef int (*case_f) (const struct kase *c, struct rng *r);

static const case_f runners[N_MODES] = {
    [ECB_ENC] = run_ecb, [ECB_DEC] = run_ecb,
    [CBC_ENC] = run_cbc, [CBC_DEC] = run_cbc,
    [CTR_WHOLE] = run_ctr, [CTR_STREAM] = run_ctr,
    [XTS_ENC] = run_xts, [XTS_DEC] = run_xts,
    [SHA1_SPLIT] = run_sha1,
};

/* --- driver ------------------------------------------------------------------- */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t env_u64(const char *name, uint64_t dflt)
{
    const char *s = getenv(name);
    if (s == NULL || *s == '\0')
        return dflt;
    char *end;
    unsigned long long v = strtoull(s, &end, 0);
    if (*end != '\0' || *s == '-')
        tap_bail("%s=%s is not a number", name, s);
    return v;
}

static void run_mode(enum mode_id mode, uint64_t cases, int only, uint64_t one)
{
    const struct mode *m = &modes[mode];
    const char *skip = mode == SHA1_SPLIT ? sha1_skip : aes_skip;
    if (skip) {
        tap_skip(skip, "%s", m->title);
        return;
    }
    uint64_t total = only ? 1 : cases;
    double t0 = now();
    for (uint64_t n = 0; n < total; n++) {
        /* The big cases 0..N_BIG-1 go last, so a bug tends to show first
         * on a short message. */
        uint64_t i = only ? one : cases <= N_BIG ? n : (n + N_BIG) % cases;
        struct rng r;
        struct kase c;
        rng_seed(&r, seed, mode, i);
        draw_case(&c, &r, mode, i);
        rng_fill(&r, src_base + c.in_off, c.len);
        if (runners[mode](&c, &r)) {
            tap_ok(0, "%s: case %" PRIu64 " differs from %s (seed %" PRIu64
                   ")", m->title, i, ossl_version_short(), seed);
            return;
        }
    }
    tap_ok(1, "%s: %" PRIu64 " cases match %s (seed %" PRIu64 ")", m->title,
           total, ossl_version_short(), seed);
    tap_diag("%s took %.2f s", m->title, now() - t0);
}

/*
 * The XTS data-unit limit, OpenSSL's against ours: each length either both
 * accept, with the same bytes, or both refuse (ours with CASM_ERR_LENGTH).
 */
static void xts_limit(void)
{
    static const size_t lens[] = {
        CASM_AES_XTS_MAX_LEN - 1, CASM_AES_XTS_MAX_LEN,
        CASM_AES_XTS_MAX_LEN + 1, CASM_AES_XTS_MAX_LEN + 16,
    };
    const size_t n = sizeof(lens) / sizeof(lens[0]), big = lens[n - 1];
    const char *title = "XTS data-unit limit: 2^24 - 1 and 2^24 bytes accepted, "
                        "2^24 + 1 and 2^24 + 16 refused, as by OpenSSL";
    if (aes_skip) {
        tap_skip(aes_skip, "%s", title);
        return;
    }
    uint8_t key[64], iv[16] = {9}, *in = malloc(big), *ours = malloc(big),
            *theirs = malloc(big);
    if (!in || !ours || !theirs)
        tap_bail("out of memory");
    for (size_t i = 0; i < sizeof(key); i++)
        key[i] = (uint8_t)(i * 7 + 3);          /* two different halves */
    for (size_t i = 0; i < big; i++)
        in[i] = (uint8_t)(i * 131 + (i >> 11));
    CASM_AES_XTS_KEY k;
    if (our_xts_set_key(&k, key, 256) != 0)
        tap_bail("casm_aes_xts_set_key(256) failed");
    size_t bad = 0;
    int a = 0, b = 0;
    for (size_t i = 0; i < n && bad == 0; i++) {
        a = casm_aes_xts(&k, iv, in, ours, lens[i], 1);
        b = ossl_cipher("xts", 256, 1, key, iv, in, theirs, lens[i]);
        int accepted = lens[i] <= (size_t)1 << 24;
        if (a != (accepted ? 0 : CASM_ERR_LENGTH) || (b == 0) != accepted ||
            (accepted && memcmp(ours, theirs, lens[i]) != 0))
            bad = lens[i];
    }
    if (!tap_ok(bad == 0, "%s", title))
        tap_diag("  at %zu bytes: casm_aes_xts returned %d, OpenSSL %s", bad, a,
                 b == 0 ? "accepted" : "refused");
    free(in);
    free(ours);
    free(theirs);
}

/* AES entries, then SHA-1 entries whose name no AES entry has. */
static void list_impls(void)
{
    char buf[CASM_FORCE_MASK_MAX];
    for (size_t i = 0; i < casm_aes_impl_count; i++) {
        const struct casm_aes_impl *a = casm_aes_impls[i];
        const char *mask = casm_force_mask_text(a->force_clear, buf);
        printf("%s\t%s\n", a->name, mask ? mask : "-");
    }
    for (size_t i = 0; i < casm_sha1_impl_count; i++) {
        const struct casm_sha1_impl *h = casm_sha1_impls[i];
        const char *mask = casm_force_mask_text(h->force_clear, buf);
        if (casm_aes_impl_by_name(h->name) == NULL)
            printf("%s\t%s\n", h->name, mask ? mask : "-");
    }
}

/* Picks the registry entries named `name`; decides what gets skipped. */
static void select_impl(const char *name)
{
    static char aes_why[160], sha1_why[160];
    aes_impl = casm_aes_impl_by_name(name);
    sha1_impl = casm_sha1_impl_by_name(name);
    if (aes_impl == NULL && sha1_impl == NULL) {
        fprintf(stderr, "diff_openssl: no implementation named %s\n", name);
        exit(2);
    }
    if (aes_impl == NULL)
        snprintf(aes_why, sizeof(aes_why), "no AES implementation %s", name);
    else if (!casm_cpu_has(aes_impl->need))
        snprintf(aes_why, sizeof(aes_why), "AES %s needs %s", name,
                 aes_impl->need_name);
    if (sha1_impl == NULL)
        snprintf(sha1_why, sizeof(sha1_why), "no SHA-1 implementation %s",
                 name);
    else if (!casm_cpu_has(sha1_impl->need))
        snprintf(sha1_why, sizeof(sha1_why), "SHA-1 %s needs %s", name,
                 sha1_impl->need_name);
    aes_skip = aes_why[0] ? aes_why : NULL;
    sha1_skip = sha1_why[0] ? sha1_why : NULL;
    if (aes_skip && sha1_skip)
        tap_skip_all("%s; %s", aes_skip, sha1_skip);
}

static void usage(void)
{
    fprintf(stderr, "usage: diff_openssl [--list | --impl NAME]\n"
                    "env: DIFF_SEED, DIFF_CASES, DIFF_CASE\n");
    exit(2);
}

int main(int argc, char **argv)
{
    const char *impl_name = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--list") == 0) {
            list_impls();
            return 0;
        } else if (strcmp(argv[i], "--impl") == 0 && i + 1 < argc) {
            impl_name = argv[++i];
        } else {
            usage();
        }
    }
    if (impl_name)
        select_impl(impl_name);

    seed = env_u64("DIFF_SEED", 1);
    uint64_t cases = env_u64("DIFF_CASES", 100000);
    int only = getenv("DIFF_CASE") != NULL;
    uint64_t one = env_u64("DIFF_CASE", 0);

    char err[512];
    if (!ossl_load(err, sizeof(err))) {
        tap_diag("dlopen: %s", err);
        tap_skip_all("libcrypto.so.3 not found (install libssl3)");
    }
    src_base = aligned_alloc(64, MAX_LEN + 64);
    dst_base = aligned_alloc(64, MAX_LEN + 64);
    ref_base = aligned_alloc(64, MAX_LEN + 64);
    if (!src_base || !dst_base || !ref_base)
        tap_bail("out of memory");

    tap_plan(N_MODES + 3);
    const char *cap = getenv("OPENSSL_ia32cap");
    tap_diag("reference: %s (%s)", ossl_version(), ossl_path());
    tap_diag("OPENSSL_ia32cap=%s", cap ? cap : "(unset)");
    if (impl_name) {
        tap_diag("under test: registry entry %s, called directly", impl_name);
    } else {
        CASM_AES_KEY k;
        static const uint8_t zero[16];
        casm_aes_set_key(&k, zero, 128);
        tap_diag("under test: dispatching API (AES %s, SHA-1 %s)",
                 casm_aes_key_impl(&k), casm_sha1_impl());
    }
    tap_diag("seed %" PRIu64 ", %" PRIu64 " cases per mode", seed,
             only ? 1 : cases);

    char report[1024];
    int distinct = ossl_check_distinct(report, sizeof(report));
    tap_ok(distinct, "OpenSSL and perlasm-x86 are separate code");
    tap_diag("%s", report);

    for (int m = 0; m < N_MODES; m++) {
        run_mode((enum mode_id)m, cases, only, one);
        if (m == XTS_DEC)
            tap_skip("no OpenSSL counterpart", "LRW");
    }
    xts_limit();
    return tap_done();
}
