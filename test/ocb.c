/* SPDX-License-Identifier: Apache-2.0 */
/*
 * AES-OCB through OpenSSL's bulk functions aesni_ocb_encrypt/decrypt, for
 * every registry entry that has them (struct casm_aes_impl ocb_enc/dec):
 *
 *  1. RFC 7253 Appendix A: the sixteen sample results (AES-128, 128-bit
 *     tag) and the iterated test for AES-128/192/256 with 128-, 96- and
 *     64-bit tags, through a whole OCB (support/lib/ocb_mode.c) that hands its
 *     whole blocks to the bulk functions as OpenSSL's ocb128.c does.  The
 *     same OCB over the C AES without a bulk function runs first, as a
 *     check of the driver itself.
 *  2. The bulk functions against the C model (support/lib/ocb_model.h) for
 *     every count 0..80 blocks and start_block_num 1..33 (every alignment
 *     of the wide paths' groups) and values around powers of two up to
 *     2^63 (so ntz(i) reaches 63), buffers unaligned or in place,
 *     with L_ holding exactly the entries the call may need and ending at
 *     an unmapped page: reading one more is a fault, reported as a failure.
 *  3. Differential against OpenSSL's AES-OCB through EVP (libcrypto.so.3,
 *     RTLD_LOCAL | RTLD_DEEPBIND): random keys of each size, nonces of
 *     1..15 bytes, tags of 1..16, AAD and data lengths, unaligned and in
 *     place, with our data cut into calls of random whole blocks so
 *     start_block_num varies.  OCB_CASES (default 20000), OCB_SEED
 *     (default 1); OCB_CASE=N runs only case N.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impl.h"
#include "aes/aes_c.h"
#include "lib/guard.h"
#include "../support/lib/ocb_mode.h"
#include "../support/lib/ocb_model.h"
#include "../support/lib/ossl.h"
#include "../support/lib/ossl_ocb.h"
#include "lib/tap.h"

#define MAX_BLOCKS 80
#define GUARD 16

/* --- the OCB under test ----------------------------------------------------- */

struct ocb_key {
    AES_KEY ek, dk;
    struct ocb_mode o;
};

/* impl NULL: the C AES one block at a time (no bulk function). */
static int ocb_key_set(struct ocb_key *k, const struct casm_aes_impl *impl,
                       const unsigned char *key, int bits)
{
    if (impl == NULL) {
        if (aes_c_set_encrypt_key(key, bits, &k->ek) != 0 ||
            aes_c_set_decrypt_key(key, bits, &k->dk) != 0)
            return -1;
        ocb_mode_init(&k->o, &k->ek, &k->dk, aes_c_encrypt_block128,
                      aes_c_decrypt_block128, NULL, NULL);
        return 0;
    }
    if (impl->set_encrypt_key(key, bits, &k->ek) != 0 ||
        impl->set_decrypt_key(key, bits, &k->dk) != 0)
        return -1;
    ocb_mode_init(&k->o, &k->ek, &k->dk, impl->encrypt, impl->decrypt,
                  impl->ocb_enc, impl->ocb_dec);
    return 0;
}

/* A whole message in one call each; out gets len bytes, tag taglen. */
static void ocb_seal(struct ocb_key *k, const unsigned char *nonce,
                     size_t nlen, const unsigned char *aad, size_t alen,
                     const unsigned char *in, unsigned char *out, size_t len,
                     unsigned char *tag, size_t taglen, int enc)
{
    ocb_mode_setiv(&k->o, nonce, nlen, taglen);
    ocb_mode_aad(&k->o, aad, alen);
    ocb_mode_crypt(&k->o, in, out, len, enc);
    ocb_mode_tag(&k->o, tag, taglen);
}

/* --- 1. RFC 7253 Appendix A --------------------------------------------------- */

/*
 * Appendix A, "Sample Results": K = 000102..0F, N = BBAA99887766554433221100
 * with the last byte the sample's number, A and P the first a_len / p_len
 * bytes of 00 01 02 ..., C the ciphertext followed by the 16-byte tag.
 */
static const struct {
    int a_len, p_len;
    const char *c;
} rfc_samples[] = {
    {  0,  0, "785407BFFFC8AD9EDCC5520AC9111EE6" },
    {  8,  8, "6820B3657B6F615A5725BDA0D3B4EB3A257C9AF1F8F03009" },
    {  8,  0, "81017F8203F081277152FADE694A0A00" },
    {  0,  8, "45DD69F8F5AAE72414054CD1F35D82760B2CD00D2F99BFA9" },
    { 16, 16, "571D535B60B277188BE5147170A9A22C3AD7A4FF3835B8C5701C1CCEC8FC3358" },
    { 16,  0, "8CF761B6902EF764462AD86498CA6B97" },
    {  0, 16, "5CE88EC2E0692706A915C00AEB8B2396F40E1C743F52436BDF06D8FA1ECA343D" },
    { 24, 24, "1CA2207308C87C010756104D8840CE1952F09673A448A122C92C62241051F573"
              "56D7F3C90BB0E07F" },
    { 24,  0, "6DC225A071FC1B9F7C69F93B0F1E10DE" },
    {  0, 24, "221BD0DE7FA6FE993ECCD769460A0AF2D6CDED0C395B1C3CE725F32494B9F914"
              "D85C0B1EB38357FF" },
    { 32, 32, "BD6F6C496201C69296C11EFD138A467ABD3C707924B964DEAFFC40319AF5A485"
              "40FBBA186C5553C68AD9F592A79A4240" },
    { 32,  0, "FE80690BEE8A485D11F32965BC9D2A32" },
    {  0, 32, "2942BFC773BDA23CABC6ACFD9BFD5835BD300F0973792EF46040C53F1432BCDF"
              "B5E1DDE3BC18A5F840B52E653444D5DF" },
    { 40, 40, "D5CA91748410C1751FF8A2F618255B68A0A12E093FF454606E59F9C1D0DDC54B"
              "65E8628E568BAD7AED07BA06A4A69483A7035490C5769E60" },
    { 40,  0, "C5CD9D1850C141E358649994EE701B68" },
    {  0, 40, "4412923493C57D5DE0D700F753CCE0D1D2D95060122E9F15A5DDBFC5787E50B5"
              "CC55EE507BCB084E479AD363AC366B95A98CA5F3000B1479" },
};

/*
 * Appendix A, the iterated test: K = zeros(KEYLEN-8) || num2str(TAGLEN,8);
 * for i = 0..127, S = zeros(8i), C accumulates OCB-ENCRYPT(K, N, S, S),
 * OCB-ENCRYPT(K, N', <empty>, S), OCB-ENCRYPT(K, N'', S, <empty>) with
 * N = num2str(3i+1,96), num2str(3i+2,96), num2str(3i+3,96); the output is
 * OCB-ENCRYPT(K, num2str(385,96), C, <empty>), i.e. a tag.
 */
static const struct {
    int bits, tag_bits;
    const char *out;
} rfc_iterated[] = {
    { 128, 128, "67E944D23256C5E0B6C61FA22FDF1EA2" },
    { 192, 128, "F673F2C3E7174AAE7BAE986CA9F29E17" },
    { 256, 128, "D90EB8E9C977C88B79DD793D7FFA161C" },
    { 128, 96, "77A3D8E73589158D25D01209" },
    { 192, 96, "05D56EAD2752C86BE6932C5E" },
    { 256, 96, "5458359AC23B0CBA9E6330DD" },
    { 128, 64, "192C9B7BD90BA06A" },
    { 192, 64, "0066BC6E0EF34E24" },
    { 256, 64, "7D4EA5D445501CBE" },
};

static void num2str96(unsigned char n[12], unsigned v)
{
    memset(n, 0, 12);
    n[8] = (unsigned char)(v >> 24);
    n[9] = (unsigned char)(v >> 16);
    n[10] = (unsigned char)(v >> 8);
    n[11] = (unsigned char)v;
}

static int rfc_iterate(const struct casm_aes_impl *impl, int bits, int tag_bits,
                       unsigned char *out)
{
    static unsigned char c[3 * 128 * (127 + 16) + 64];
    static const unsigned char s[127];            /* zeros(8i) */
    unsigned char key[32] = { 0 }, n[12];
    size_t clen = 0, t = (size_t)tag_bits / 8;
    struct ocb_key k;
    key[bits / 8 - 1] = (unsigned char)tag_bits;
    if (ocb_key_set(&k, impl, key, bits) != 0)
        return -1;
    for (unsigned i = 0; i < 128; i++) {
        num2str96(n, 3 * i + 1);
        ocb_seal(&k, n, 12, s, i, s, c + clen, i, c + clen + i, t, 1);
        clen += i + t;
        num2str96(n, 3 * i + 2);
        ocb_seal(&k, n, 12, NULL, 0, s, c + clen, i, c + clen + i, t, 1);
        clen += i + t;
        num2str96(n, 3 * i + 3);
        ocb_seal(&k, n, 12, s, i, NULL, NULL, 0, c + clen, t, 1);
        clen += t;
    }
    num2str96(n, 385);
    ocb_seal(&k, n, 12, c, clen, NULL, NULL, 0, out, t, 1);
    return 0;
}

static void check_rfc(const char *name, const struct casm_aes_impl *impl)
{
    unsigned char key[16], nonce[12], seq[40];
    for (int i = 0; i < 16; i++)
        key[i] = (unsigned char)i;
    for (int i = 0; i < 40; i++)
        seq[i] = (unsigned char)i;
    static const unsigned char n0[12] = { 0xBB, 0xAA, 0x99, 0x88, 0x77, 0x66,
                                          0x55, 0x44, 0x33, 0x22, 0x11, 0x00 };
    struct ocb_key k;
    if (!tap_ok(ocb_key_set(&k, impl, key, 128) == 0, "%s: AES-128 key set", name))
        return;
    for (size_t v = 0; v < sizeof(rfc_samples) / sizeof(rfc_samples[0]); v++) {
        unsigned char want[56], got[56], plain[40], tag[16];
        size_t a = (size_t)rfc_samples[v].a_len, p = (size_t)rfc_samples[v].p_len;
        long wl = hex_decode(rfc_samples[v].c, want, sizeof(want));
        memcpy(nonce, n0, 12);
        nonce[11] = (unsigned char)v;
        ocb_seal(&k, nonce, 12, seq, a, seq, got, p, got + p, 16, 1);
        ocb_seal(&k, nonce, 12, seq, a, want, plain, p, tag, 16, 0);
        int enc_ok = wl == (long)(p + 16) && memcmp(got, want, p + 16) == 0;
        int dec_ok = memcmp(plain, seq, p) == 0 && memcmp(tag, want + p, 16) == 0;
        if (!tap_ok(enc_ok && dec_ok,
                    "%s: RFC 7253 Appendix A sample %zu (A %zu, P %zu bytes): "
                    "C || T as published, and decryption gives P and T back",
                    name, v + 1, a, p)) {
            tap_hexdump("got C || T", got, p + 16);
            tap_hexdump("want      ", want, p + 16);
        }
    }
    for (size_t v = 0; v < sizeof(rfc_iterated) / sizeof(rfc_iterated[0]); v++) {
        unsigned char want[16], got[16];
        size_t t = (size_t)rfc_iterated[v].tag_bits / 8;
        hex_decode(rfc_iterated[v].out, want, sizeof(want));
        int rc = rfc_iterate(impl, rfc_iterated[v].bits, rfc_iterated[v].tag_bits, got);
        if (!tap_ok(rc == 0 && memcmp(got, want, t) == 0,
                    "%s: RFC 7253 Appendix A iterated test AEAD_AES_%d_OCB_TAGLEN%d",
                    name, rfc_iterated[v].bits, rfc_iterated[v].tag_bits)) {
            tap_hexdump("got ", got, t);
            tap_hexdump("want", want, t);
        }
    }
}

/* --- 2. bulk functions against the C model ------------------------------------- */

/* L_ ends at a guard page (test/lib/guard.h). */
static struct guard_region l_region;

static void describe(struct guard_msg *m)
{
    guard_msg_str(m, "an OCB bulk call (the next failing line names it)");
}

/* fn(...), -1 when it faulted in a guard page. */
static int guarded(ocb128_f fn, const unsigned char *in, unsigned char *out,
                   size_t blocks, const void *key, size_t start,
                   unsigned char *offset, const unsigned char (*l)[16],
                   unsigned char *checksum)
{
    int faulted;
    GUARD_CALL(faulted, fn(in, out, blocks, key, start, offset, l, checksum));
    return faulted ? -1 : 0;
}

static void fill(unsigned char *p, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 0x5851f42d4c957f2dULL + 0x14057b7ef767814fULL;
        p[i] = (unsigned char)(seed >> 57 ^ seed >> 33);
    }
}

static void check_bulk(const char *name, const struct casm_aes_impl *impl)
{
    static const unsigned shifts[] = { 4, 5, 6, 7, 8, 10, 12, 16, 20, 24, 31,
                                       32, 33, 40, 48, 56, 62, 63 };
    uint64_t starts[96];
    size_t ns = 0;
    for (uint64_t s = 1; s <= 33; s++)        /* every i mod 32, the zmm groups' */
        starts[ns++] = s;
    for (size_t i = 0; i < sizeof(shifts) / sizeof(shifts[0]); i++) {
        uint64_t p = (uint64_t)1 << shifts[i];
        if (p - 1 > (uint64_t)SIZE_MAX - MAX_BLOCKS)
            break;                            /* past size_t (a 32-bit build) */
        starts[ns++] = p - 1;                 /* i = 2^k comes second */
        if (p > 64)
            starts[ns++] = p - 41;            /* ... in the middle of 80 */
    }
    starts[ns++] = (uint64_t)SIZE_MAX - MAX_BLOCKS; /* the last counts size_t has */

    static unsigned char inbuf[MAX_BLOCKS * 16 + 32], outbuf[MAX_BLOCKS * 16 + 2 * GUARD + 16];
    static unsigned char want[MAX_BLOCKS * 16 + 16];
    for (int enc = 1; enc >= 0; enc--) {
        for (size_t si = 0; si < ns; si++) {
            const int bits = 128 + 64 * (int)(si % 3);
            const int in_place = si % 4 == 3;
            const size_t ioff = si % 16, ooff = (si * 7) % 16;
            const uint64_t start = starts[si];
            unsigned char key[32];
            AES_KEY ek, rk;
            fill(key, sizeof(key), si + 100 * (uint64_t)enc);
            (enc ? impl->set_encrypt_key : impl->set_decrypt_key)(key, bits, &ek);
            (enc ? aes_c_set_encrypt_key : aes_c_set_decrypt_key)(key, bits, &rk);
            /* L_ as ocb_mode computes it. */
            struct ocb_key ref;
            ocb_key_set(&ref, NULL, key, bits);

            const char *failure = NULL;
            size_t fail_blocks = 0;
            for (size_t blocks = 0; blocks <= MAX_BLOCKS && !failure; blocks++) {
                /* Only the entries this call may read are in reach,
                 * copied so that they end at the guard page. */
                const size_t need = ocb_model_l_entries(start + blocks - 1);
                unsigned char *lg = guard_end(&l_region, 16 * need);
                memcpy(lg, ref.o.l, 16 * need);
                const unsigned char (*lc)[16] = (const unsigned char (*)[16])lg;
                unsigned char off[16], sum[16], off_w[16], sum_w[16];
                unsigned char *in = inbuf + ioff, *out = outbuf + GUARD + ooff;
                fill(in, blocks * 16, blocks + 1000 * si);
                fill(off, 16, blocks + 7);
                fill(sum, 16, blocks + 9);
                memcpy(off_w, off, 16);
                memcpy(sum_w, sum, 16);
                ocb_model_bulk(in, want, blocks, &rk,
                               enc ? aes_c_encrypt_block128 : aes_c_decrypt_block128,
                               enc, (size_t)start, off_w, lc, sum_w);
                memset(outbuf, 0xa5, sizeof(outbuf));
                if (in_place) {
                    out = outbuf + GUARD + ioff;
                    memcpy(out, in, blocks * 16);
                    in = out;
                }
                if (guarded(enc ? impl->ocb_enc : impl->ocb_dec, in, out, blocks,
                            &ek, (size_t)start, off, lc, sum) != 0) {
                    failure = "fault: read outside the input or L_[0 .. floor(log2(last i))]";
                } else if (memcmp(out, want, blocks * 16) != 0) {
                    failure = "output differs from the model";
                } else if (memcmp(off, off_w, 16) != 0) {
                    failure = "offset_i written back differs from the model";
                } else if (memcmp(sum, sum_w, 16) != 0) {
                    failure = "checksum written back differs from the model";
                } else {
                    for (size_t g = 0; g < sizeof(outbuf); g++) {
                        unsigned char *o = outbuf + g;
                        if ((o < out || o >= out + blocks * 16) && *o != 0xa5)
                            failure = "wrote outside the output";
                    }
                }
                fail_blocks = blocks;
            }
            if (!tap_ok(failure == NULL,
                        "%s ocb %s: 0..%d blocks from start_block_num %llu "
                        "(AES-%d%s) as the C model, reading only the L_ entries needed",
                        name, enc ? "encrypt" : "decrypt", MAX_BLOCKS,
                        (unsigned long long)start, bits, in_place ? ", in place" : ""))
                tap_diag("at %zu blocks: %s", fail_blocks, failure);
        }
    }
}

/* --- 3. differential against OpenSSL ---------------------------------------- */

struct rng {
    uint64_t s;
};

static uint64_t rng_next(struct rng *r)
{
    r->s = r->s * 0x5851f42d4c957f2dULL + 0x14057b7ef767814fULL;
    uint64_t x = r->s;
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ULL;
    return x ^ x >> 32;
}

static size_t rng_below(struct rng *r, size_t n)
{
    return n ? (size_t)(rng_next(r) % n) : 0;
}

/* Encrypts or decrypts in calls of random whole blocks (the last one may
 * be partial), so start_block_num takes many values. */
static void crypt_split(struct ocb_key *k, struct rng *r, const unsigned char *in,
                        unsigned char *out, size_t len, int enc)
{
    size_t done = 0;
    while (done < len) {
        size_t left = len - done;
        size_t n = 16 * (1 + rng_below(r, 24));
        if (n > left || rng_below(r, 8) == 0)
            n = left;
        ocb_mode_crypt(&k->o, in + done, out + done, n, enc);
        done += n;
    }
}

#define DIFF_MAX (64 * 1024)

static int check_diff(const struct casm_aes_impl *const *impls, size_t nimpl)
{
    char err[512];
    if (!ossl_load(err, sizeof(err))) {
        tap_skip(err, "differential against OpenSSL's AES-OCB: no libcrypto.so.3");
        return 0;
    }
    int distinct = ossl_check_distinct(err, sizeof(err));
    if (!tap_ok(distinct, "OpenSSL's code and ours are separate"))
        tap_diag("%s", err);
    struct ossl_ocb *oe = ossl_ocb_new();
    if (!tap_ok(oe != NULL, "OpenSSL AES-OCB context"))
        return tap_diag("%s", ossl_error()), 0;

    const char *e = getenv("OCB_CASES"), *sd = getenv("OCB_SEED"), *one = getenv("OCB_CASE");
    long cases = e ? atol(e) : 20000;
    uint64_t seed = sd ? strtoull(sd, NULL, 0) : 1;
    static unsigned char msg[DIFF_MAX + 32], ref[DIFF_MAX + 32], buf[DIFF_MAX + 64];
    static unsigned char aad[2048];
    unsigned long fails[8][3] = { { 0 } }, runs[3] = { 0 };
    long first_fail[8][3];
    memset(first_fail, 0xff, sizeof(first_fail));

    for (long c = one ? atol(one) : 0; c < (one ? atol(one) + 1 : cases); c++) {
        struct rng r = { seed * 0x9e3779b97f4a7c15ULL ^ (uint64_t)c * 0xd1b54a32d192ed03ULL };
        rng_next(&r);
        const int b = (int)rng_below(&r, 3), bits = 128 + 64 * b;
        const size_t nlen = 1 + rng_below(&r, 15);
        static const size_t tags[] = { 16, 16, 12, 8 };
        const size_t tlen = rng_below(&r, 4) ? tags[rng_below(&r, 4)] : 1 + rng_below(&r, 16);
        const size_t alen = rng_below(&r, 4) == 0 ? 0 : rng_below(&r, rng_below(&r, 8) ? 300 : sizeof(aad));
        size_t len = rng_below(&r, 50) == 0 ? rng_below(&r, DIFF_MAX + 1) : rng_below(&r, 4097);
        if (rng_below(&r, 3) == 0)
            len &= ~(size_t)15;
        const size_t ioff = rng_below(&r, 16), ooff = rng_below(&r, 16);
        const int in_place = rng_below(&r, 4) == 0;
        unsigned char key[32], nonce[15], tag_ref[16], tag[16];
        for (size_t i = 0; i < sizeof(key); i++)
            key[i] = (unsigned char)rng_next(&r);
        for (size_t i = 0; i < nlen; i++)
            nonce[i] = (unsigned char)rng_next(&r);
        for (size_t i = 0; i < alen; i++)
            aad[i] = (unsigned char)rng_next(&r);
        unsigned char *p = msg + ioff;
        for (size_t i = 0; i < len; i++)
            p[i] = (unsigned char)rng_next(&r);

        if (ossl_ocb_init(oe, bits, 1, key, nlen, tlen) != 0 ||
            ossl_ocb_message(oe, nonce, aad, alen, p, ref, len, tag_ref) != 0) {
            tap_ok(0, "case %ld: OpenSSL AES-%d-OCB encryption", c, bits);
            tap_diag("%s", ossl_error());
            ossl_ocb_free(oe);
            return -1;
        }
        runs[b]++;
        for (size_t m = 0; m < nimpl; m++) {
            struct ocb_key k;
            struct rng split = r;
            int bad = ocb_key_set(&k, impls[m], key, bits) != 0;
            /* Encryption, the AAD also in two calls. */
            unsigned char *in = in_place ? buf + ooff : p, *out = buf + ooff;
            if (in_place)
                memcpy(in, p, len);
            ocb_mode_setiv(&k.o, nonce, nlen, tlen);
            size_t a1 = alen / 16 * 16 / 2 / 16 * 16;
            ocb_mode_aad(&k.o, aad, a1);
            ocb_mode_aad(&k.o, aad + a1, alen - a1);
            crypt_split(&k, &split, in, out, len, 1);
            ocb_mode_tag(&k.o, tag, tlen);
            bad |= memcmp(out, ref, len) != 0 || memcmp(tag, tag_ref, tlen) != 0;
            /* Decryption of OpenSSL's ciphertext, split another way. */
            in = in_place ? buf + ioff : ref;
            out = buf + ioff;
            if (in_place)
                memcpy(in, ref, len);
            ocb_mode_setiv(&k.o, nonce, nlen, tlen);
            ocb_mode_aad(&k.o, aad, alen);
            crypt_split(&k, &split, in, out, len, 0);
            ocb_mode_tag(&k.o, tag, tlen);
            bad |= memcmp(out, p, len) != 0 || memcmp(tag, tag_ref, tlen) != 0;
            if (bad && fails[m][b]++ == 0)
                first_fail[m][b] = c;
        }
    }
    for (size_t m = 0; m < nimpl; m++)
        for (int b = 0; b < 3; b++)
            if (!tap_ok(fails[m][b] == 0,
                        "%s: %lu random AES-%d-OCB messages (nonce 1..15, tag 1..16, "
                        "AAD, 0..64 KiB, unaligned, in place, split calls) encrypt "
                        "and decrypt as OpenSSL's EVP", impls[m]->name, runs[b],
                        128 + 64 * b))
                tap_diag("%lu failed; replay the first with OCB_SEED=%llu OCB_CASE=%ld",
                         fails[m][b], (unsigned long long)seed, first_fail[m][b]);
    ossl_ocb_free(oe);
    return 0;
}

/* --- main ------------------------------------------------------------------ */

int main(void)
{
    const struct casm_aes_impl *impls[8];
    size_t nimpl = 0;

    check_rfc("c (no bulk function: checks the driver)", NULL);
    for (size_t i = 0; i < casm_aes_impl_count && nimpl < 8; i++) {
        const struct casm_aes_impl *im = casm_aes_impls[i];
        if (im->ocb_enc == NULL || im->ocb_dec == NULL)
            continue;
        if (!casm_cpu_has(im->need)) {
            tap_skip(im->need_name, "%s ocb: this CPU lacks it", im->name);
            continue;
        }
        impls[nimpl++] = im;
    }
    if (nimpl == 0)
        tap_skip("no OCB bulk function in this build or on this CPU",
                 "OCB bulk functions");

    if (guard_region_init(&l_region, "L_", 16 * OCB_MODE_L) != 0)
        tap_bail("cannot map a guard page for L_");
    guard_trap(describe);
    for (size_t m = 0; m < nimpl; m++) {
        check_rfc(impls[m]->name, impls[m]);
        check_bulk(impls[m]->name, impls[m]);
    }
    if (nimpl > 0)
        check_diff(impls, nimpl);
    return tap_done();
}
