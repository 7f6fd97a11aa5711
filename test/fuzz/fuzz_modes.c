/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target: every AES implementation in the registry, through the
 * casm_* API, against textbook ECB, CBC, CTR, XTS and LRW written below on
 * top of the C AES (aes_c_encrypt/aes_c_decrypt, aes_c.h).  The references follow the definitions
 * in include/openssl/modes.h literally and favour plainness over speed
 * (LRW computes each tweak with a bit-by-bit GF(2^128) multiplication), so
 * they share no code or shortcut with crypto/modes/.
 *
 * Input:
 *   byte 0    mode: 0 ECB, 1 CBC, 2 CTR, 3 XTS, 4 LRW (mod 5)
 *   byte 1    bits 0-1 key size, bit 2 in place, bits 3-6 buffer
 *             misalignment 0-15, bit 7 counter/index near a carry
 *   byte 2    bits 0-1 number of split points, bit 2 where the buffers
 *             meet their guard page (0 at the end, 1 at the start, plus
 *             the misalignment); then 2 bytes per split point
 *   64 bytes  key material (XTS: data key || tweak key; LRW: key || K2)
 *   16 bytes  IV, initial counter, XTS sector IV or LRW block index
 *   the rest  data
 * Splits cut the data into several API calls (ECB, CBC and LRW at block
 * boundaries, CTR at any byte); XTS takes a data unit in one call.  What
 * the API passes to assembly (data in and out, the key structure, the
 * IV) lies in guarded memory (test/lib/guard.h): flush at the end, where
 * the misalignment does not apply, or at the start plus it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cryptoasm.h>
#include "aes/aes_c.h"
#include "impl.h"

#include "fuzz_util.h"

#define NAME "fuzz_modes"
#define MAX_SPLITS 3

enum mode { ECB, CBC, CTR, XTS, LRW, MODES };
static const char *const mode_name[MODES] = { "ECB", "CBC", "CTR", "XTS", "LRW" };

struct job {
    enum mode mode;
    int bits, in_place;
    enum guard_side side;
    size_t offset, nsplit, split[MAX_SPLITS];
    unsigned char key[64], iv[16];
    const unsigned char *data;
    size_t len;
};

/* --- the references ------------------------------------------------------ */

static void aes_block(const AES_KEY *k, int enc, const unsigned char in[16],
                      unsigned char out[16])
{
    if (enc)
        aes_c_encrypt(in, out, k);
    else
        aes_c_decrypt(in, out, k);
}

static void xor16(unsigned char *dst, const unsigned char *a,
                  const unsigned char *b)
{
    for (int i = 0; i < 16; i++)
        dst[i] = a[i] ^ b[i];
}

/* v += n, v a 128-bit big-endian number. */
static void be128_add(unsigned char v[16], size_t n)
{
    for (int i = 15; i >= 0 && n != 0; i--) {
        n += v[i];
        v[i] = (unsigned char)n;
        n >>= 8;
    }
}

/* Coefficient of x^i in a GF(2^128) element as LRW stores it (modes.h):
 * byte 0's top bit is x^127, byte 15's low bit x^0. */
static int coeff(const unsigned char a[16], int i)
{
    return a[15 - i / 8] >> (i % 8) & 1;
}

/* a = a·x, reduced by x^128 = x^7 + x^2 + x + 1. */
static void times_x(unsigned char a[16])
{
    int top = coeff(a, 127);
    for (int i = 0; i < 15; i++)
        a[i] = (unsigned char)(a[i] << 1 | a[i + 1] >> 7);
    a[15] = (unsigned char)(a[15] << 1);
    if (top)
        a[15] ^= 0x87;
}

/* r = a·b: the sum of a·x^i over the coefficients i of b that are 1. */
static void gf128_mul(unsigned char r[16], const unsigned char a[16],
                      const unsigned char b[16])
{
    unsigned char a_xi[16], sum[16] = { 0 };
    memcpy(a_xi, a, 16);
    for (int i = 0; i < 128; i++) {
        if (coeff(b, i))
            xor16(sum, sum, a_xi);
        times_x(a_xi);
    }
    memcpy(r, sum, 16);
}

static void ref_ecb(const AES_KEY *k, int enc, const unsigned char *in,
                    unsigned char *out, size_t len)
{
    for (size_t off = 0; off < len; off += 16)
        aes_block(k, enc, in + off, out + off);
}

/* C_i = E(P_i ^ C_{i-1}), C_{-1} = IV;  P_i = D(C_i) ^ C_{i-1}. */
static void ref_cbc(const AES_KEY *k, int enc, const unsigned char iv[16],
                    const unsigned char *in, unsigned char *out, size_t len)
{
    unsigned char buf[16];
    for (size_t off = 0; off < len; off += 16) {
        const unsigned char *prev = off ? (enc ? out : in) + off - 16 : iv;
        if (enc) {
            xor16(buf, in + off, prev);
            aes_c_encrypt(buf, out + off, k);
        } else {
            aes_c_decrypt(in + off, buf, k);
            xor16(out + off, buf, prev);
        }
    }
}

/* Byte i is XORed with byte i%16 of E(counter0 + i/16), 128-bit counter. */
static void ref_ctr(const AES_KEY *k, const unsigned char counter0[16],
                    const unsigned char *in, unsigned char *out, size_t len)
{
    unsigned char ctr[16], stream[16];
    for (size_t i = 0; i < len; i++) {
        if (i % 16 == 0) {
            memcpy(ctr, counter0, 16);
            be128_add(ctr, i / 16);
            aes_c_encrypt(ctr, stream, k);
        }
        out[i] = in[i] ^ stream[i % 16];
    }
}

/* XEX: E(P ^ T) ^ T (or the decryption). */
static void xex(const AES_KEY *k1, int enc, const unsigned char t[16],
                const unsigned char in[16], unsigned char out[16])
{
    unsigned char buf[16];
    xor16(buf, in, t);
    aes_block(k1, enc, buf, buf);
    xor16(out, buf, t);
}

/*
 * XTS, IEEE 1619-2007 §5.3 and §5.4.  T_j = E_K2(iv)·α^j; XTS keeps the
 * field element little-endian (x^k is bit k%8 of byte k/8), which is the
 * LRW layout with the bytes reversed, so α^j is reached through the same
 * multiplication.  With m whole blocks and a tail of b bytes, block m-1
 * and the tail are processed with tweaks m-1 and m in the order the
 * standard gives (ciphertext stealing).
 */
static void ref_xts(const AES_KEY *k1, const AES_KEY *k2, int enc,
                    const unsigned char iv[16], const unsigned char *in,
                    unsigned char *out, size_t len)
{
    size_t m = len / 16, b = len % 16;
    unsigned char (*t)[16] = fuzz_alloc((m + 1) * 16);
    unsigned char le[16], be[16], alpha[16] = { 0 };

    alpha[15] = 0x02;   /* x, in the LRW layout */
    aes_c_encrypt(iv, le, k2);
    for (size_t j = 0; j <= m; j++) {
        memcpy(t[j], le, 16);
        for (int i = 0; i < 16; i++)
            be[i] = le[15 - i];
        gf128_mul(be, be, alpha);
        for (int i = 0; i < 16; i++)
            le[i] = be[15 - i];
    }

    size_t plain = b ? m - 1 : m;
    for (size_t j = 0; j < plain; j++)
        xex(k1, enc, t[j], in + 16 * j, out + 16 * j);
    if (b != 0) {
        const unsigned char *last = in + 16 * (m - 1), *tail = last + 16;
        unsigned char cc[16], pp[16];
        /* Encrypt: CC = XEX(P_{m-1}, T_{m-1}); C_m = CC[0..b);
         *          C_{m-1} = XEX(P_m || CC[b..16), T_m).
         * Decrypt: the same with T_{m-1} and T_m swapped. */
        xex(k1, enc, t[enc ? m - 1 : m], last, cc);
        memcpy(pp, tail, b);
        memcpy(pp + b, cc + b, 16 - b);
        memcpy(out + 16 * m, cc, b);
        xex(k1, enc, t[enc ? m : m - 1], pp, out + 16 * (m - 1));
    }
    free(t);
}

/* LRW: T_j = K2·(I + j),  C_j = E(P_j ^ T_j) ^ T_j  (modes.h). */
static void ref_lrw(const AES_KEY *k1, const unsigned char k2[16], int enc,
                    const unsigned char index[16], const unsigned char *in,
                    unsigned char *out, size_t len)
{
    unsigned char i_j[16], t[16];
    for (size_t j = 0; j < len / 16; j++) {
        memcpy(i_j, index, 16);
        be128_add(i_j, j);
        gf128_mul(t, k2, i_j);
        xex(k1, enc, t, in + 16 * j, out + 16 * j);
    }
}

static void reference(const struct job *jb, int enc, const unsigned char *in,
                      unsigned char *out)
{
    const unsigned char *key = jb->key;
    AES_KEY k1, k2;
    /* CTR runs the cipher forwards in both directions. */
    int rc = enc || jb->mode == CTR ? aes_c_set_encrypt_key(key, jb->bits, &k1)
                                    : aes_c_set_decrypt_key(key, jb->bits, &k1);
    if (rc == 0 && jb->mode == XTS)
        rc = aes_c_set_encrypt_key(key + jb->bits / 8, jb->bits, &k2);
    if (rc != 0)
        fuzz_fail(NAME, "AES_set_*_key refused a %d-bit key", jb->bits);

    switch (jb->mode) {
    case ECB: ref_ecb(&k1, enc, in, out, jb->len); break;
    case CBC: ref_cbc(&k1, enc, jb->iv, in, out, jb->len); break;
    case CTR: ref_ctr(&k1, jb->iv, in, out, jb->len); break;
    case XTS: ref_xts(&k1, &k2, enc, jb->iv, in, out, jb->len); break;
    case LRW: ref_lrw(&k1, key + jb->bits / 8, enc, jb->iv, in, out, jb->len); break;
    case MODES: break;
    }
}

/* --- the implementations under test ------------------------------------- */

union casm_keys {
    CASM_AES_KEY aes;
    CASM_AES_XTS_KEY xts;
    CASM_AES_LRW_KEY lrw;
};

static void describe(const struct job *jb, const char *impl)
{
    fprintf(stderr, "impl \"%s\", AES-%d %s, %zu bytes, %s, guarded at the %s, "
            "offset %zu, split at", impl, jb->bits, mode_name[jb->mode], jb->len,
            jb->in_place ? "in place" : "out of place",
            jb->side == GUARD_END ? "end" : "start", jb->offset);
    for (size_t i = 0; i < jb->nsplit; i++)
        fprintf(stderr, " %zu", jb->split[i]);
    fprintf(stderr, jb->nsplit ? "\n" : " nothing\n");
    fuzz_hex("key", jb->key, sizeof(jb->key));
    fuzz_hex("iv/counter/index", jb->iv, 16);
}

static void expect_rc(const struct job *jb, const char *impl, const char *call,
                      int got, int want)
{
    if (got == want)
        return;
    describe(jb, impl);
    fuzz_fail(NAME, "%s returned %d, expected %d", call, got, want);
}

/* The guarded regions, mapped once. */
static struct guard_region g_in, g_out[3], g_key, g_iv;

static void *guarded(struct guard_region *r, const char *name,
                     const struct job *jb, size_t len, size_t off)
{
    return fuzz_guarded(r, name, jb->side, len, off);
}

/*
 * Runs the mode through the API, cut at the split points, into out (a
 * guarded buffer); the input is copied to its own guarded buffer first
 * (in place: to out).
 */
static void run_casm(const struct job *jb, const union casm_keys *k,
                     const char *impl, int enc, const unsigned char *in,
                     unsigned char *out)
{
    unsigned char ecount[16] = { 0 };
    unsigned int num = 0;
    size_t len = jb->len;

    if (jb->in_place) {
        memcpy(out, in, len);
        in = out;
    } else {
        unsigned char *in_buf = guarded(&g_in, "in", jb, len, jb->offset);
        memcpy(in_buf, in, len);
        in = in_buf;
    }
    unsigned char *iv = guarded(&g_iv, "iv", jb, 16, jb->offset);
    memcpy(iv, jb->iv, 16);

    if (jb->mode == XTS) {
        expect_rc(jb, impl, "casm_aes_xts",
                  casm_aes_xts(&k->xts, iv, in, out, len, enc), 0);
    } else {
        for (size_t s = 0, from = 0; s <= jb->nsplit; s++) {
            size_t to = s < jb->nsplit ? jb->split[s] : len, n = to - from;
            const unsigned char *i = in + from;
            unsigned char *o = out + from;
            int rc = 0;
            switch (jb->mode) {
            case ECB: rc = casm_aes_ecb(&k->aes, i, o, n, enc); break;
            case CBC: rc = casm_aes_cbc(&k->aes, i, o, n, iv, enc); break;
            case CTR: rc = casm_aes_ctr(&k->aes, i, o, n, iv, ecount, &num); break;
            case LRW:
                rc = casm_aes_lrw(&k->lrw, iv, i, o, n, enc);
                be128_add(iv, n / 16);  /* the next call's first index */
                break;
            case XTS: case MODES: break;
            }
            expect_rc(jb, impl, mode_name[jb->mode], rc, 0);
            from = to;
        }
    }
}

static void check(const struct job *jb, const char *impl, const char *what,
                  const unsigned char *got, const unsigned char *want)
{
    if (memcmp(got, want, jb->len) == 0)
        return;
    describe(jb, impl);
    fuzz_expect_eq(NAME, what, got, want, jb->len);
}

static void test_impl(const struct job *jb, const struct casm_aes_impl *impl,
                      const unsigned char *ref_enc, const unsigned char *ref_dec)
{
    /* The key structure the mode uses, flush like the data (at the
     * start rounded down to the structure's alignment). */
    size_t ksize = jb->mode == XTS ? sizeof(CASM_AES_XTS_KEY)
                 : jb->mode == LRW ? sizeof(CASM_AES_LRW_KEY) : sizeof(CASM_AES_KEY);
    union casm_keys *k = guarded(&g_key, "key", jb, ksize,
                                 jb->offset & ~(_Alignof(union casm_keys) - 1));
    int rc;
    switch (jb->mode) {
    case XTS: rc = casm_aes_xts_set_key_with(&k->xts, impl, jb->key, jb->bits); break;
    case LRW: rc = casm_aes_lrw_set_key_with(&k->lrw, impl, jb->key, jb->bits); break;
    default: rc = casm_aes_set_key_with(&k->aes, impl, jb->key, jb->bits); break;
    }
    expect_rc(jb, impl->name, "casm_aes_*_set_key_with", rc, 0);

    unsigned char *enc = guarded(&g_out[0], "out", jb, jb->len, jb->offset);
    unsigned char *dec = guarded(&g_out[1], "out", jb, jb->len, jb->offset);
    unsigned char *back = guarded(&g_out[2], "out", jb, jb->len, jb->offset);

    run_casm(jb, k, impl->name, 1, jb->data, enc);
    check(jb, impl->name, "encryption: casm (got) vs reference (expected)",
          enc, ref_enc);
    if (jb->mode != CTR) {
        run_casm(jb, k, impl->name, 0, jb->data, dec);
        check(jb, impl->name, "decryption: casm (got) vs reference (expected)",
              dec, ref_dec);
    }
    /* (CTR ignores the direction: decryption is the same operation.) */
    run_casm(jb, k, impl->name, 0, enc, back);
    check(jb, impl->name, "decrypt(encrypt(data)) (got) vs data (expected)",
          back, jb->data);
}

/* What the API must say about a length its mode does not allow. */
static void test_bad_length(const struct job *jb,
                            const struct casm_aes_impl *impl, size_t len)
{
    union casm_keys k;
    unsigned char out[16];
    int rc;

    if (jb->mode == XTS) {
        expect_rc(jb, impl->name, "casm_aes_xts_set_key_with",
                  casm_aes_xts_set_key_with(&k.xts, impl, jb->key, jb->bits), 0);
        rc = casm_aes_xts(&k.xts, jb->iv, jb->data, out, len, 1);
    } else if (jb->mode == LRW) {
        expect_rc(jb, impl->name, "casm_aes_lrw_set_key_with",
                  casm_aes_lrw_set_key_with(&k.lrw, impl, jb->key, jb->bits), 0);
        rc = casm_aes_lrw(&k.lrw, jb->iv, jb->data, out, len, 1);
    } else {
        unsigned char iv[16];
        memcpy(iv, jb->iv, 16);
        expect_rc(jb, impl->name, "casm_aes_set_key_with",
                  casm_aes_set_key_with(&k.aes, impl, jb->key, jb->bits), 0);
        rc = jb->mode == ECB ? casm_aes_ecb(&k.aes, jb->data, out, len, 1)
                             : casm_aes_cbc(&k.aes, jb->data, out, len, iv, 1);
    }
    if (rc != CASM_ERR_LENGTH) {
        describe(jb, impl->name);
        fuzz_fail(NAME, "%s of %zu bytes returned %d, expected CASM_ERR_LENGTH",
                  mode_name[jb->mode], len, rc);
    }
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const int key_bits[4] = { 128, 192, 256, 128 };
    struct fuzz_in in = { data, size };
    struct job jb;

    jb.mode = (enum mode)(fuzz_byte(&in) % MODES);
    uint8_t flags = fuzz_byte(&in);
    jb.bits = key_bits[flags & 3];
    if (jb.mode == XTS && jb.bits == 192)
        jb.bits = 256;              /* XTS-AES is defined for 128 and 256 */
    jb.in_place = (flags >> 2) & 1;
    jb.offset = (flags >> 3) & 15;
    uint8_t split_byte = fuzz_byte(&in);
    jb.nsplit = split_byte % (MAX_SPLITS + 1);
    jb.side = split_byte & 4 ? GUARD_START : GUARD_END;
    if (jb.mode == XTS)
        jb.nsplit = 0;
    uint16_t raw_split[MAX_SPLITS];
    for (size_t i = 0; i < jb.nsplit; i++)
        raw_split[i] = fuzz_u16(&in);
    fuzz_bytes(&in, jb.key, sizeof(jb.key));
    fuzz_bytes(&in, jb.iv, sizeof(jb.iv));
    if (flags & 0x80) {
        /* Counter/index within 16 blocks of a carry out of its low 32 and
         * 64 bits, or (first byte odd) of wrapping to zero. */
        memset(jb.iv + 4, 0xff, 11);
        if (jb.iv[0] & 1)
            memset(jb.iv, 0xff, 4);
        jb.iv[15] |= 0xf0;
    }
    jb.data = in.p;
    jb.len = in.left;

    /* A length the mode refuses first, then the longest one it accepts. */
    int refused = jb.mode == XTS ? jb.len < 16
                                 : jb.mode != CTR && jb.len % 16 != 0;
    if (refused) {
        for (size_t i = 0; i < casm_aes_impl_count; i++)
            if (casm_cpu_has(casm_aes_impls[i]->need))
                test_bad_length(&jb, casm_aes_impls[i], jb.len);
        if (jb.mode == XTS)
            return 0;
        jb.len -= jb.len % 16;
    }

    /* Split points: any byte for CTR, block boundaries otherwise. */
    for (size_t i = 0; i < jb.nsplit; i++)
        jb.split[i] = jb.mode == CTR ? raw_split[i] % (jb.len + 1)
                                     : raw_split[i] % (jb.len / 16 + 1) * 16;
    qsort(jb.split, jb.nsplit, sizeof(jb.split[0]), cmp_size);

    unsigned char *ref_enc = fuzz_alloc(jb.len), *ref_dec = fuzz_alloc(jb.len);
    reference(&jb, 1, jb.data, ref_enc);
    if (jb.mode != CTR)
        reference(&jb, 0, jb.data, ref_dec);

    for (size_t i = 0; i < casm_aes_impl_count; i++) {
        const struct casm_aes_impl *impl = casm_aes_impls[i];
        if (!casm_cpu_has(impl->need))
            continue;               /* this CPU cannot run it */
        test_impl(&jb, impl, ref_enc, ref_dec);
    }
    free(ref_enc);
    free(ref_dec);
    return 0;
}
