/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Return codes of the public API on bad arguments, and that a rejected call
 * leaves its output alone:
 *   AES_set_encrypt_key / AES_set_decrypt_key: 0, -1 (NULL), -2 (bits),
 *     as OpenSSL's;
 *   the dispatching API (cryptoasm.h): CASM_ERR_NULL, CASM_ERR_BITS,
 *     CASM_ERR_LENGTH;
 *   CRYPTO_xts128_encrypt and CRYPTO_lrw128_encrypt: -1 on a bad length;
 *   SHA-1 of the empty message;
 * and the contract cryptoasm.h states: enc 0 or 1, the order of the
 * checks, a failed set_key leaving its key refused, NULL data only at
 * length 0, the XTS data-unit limit, the streamed SHA-1 context's life.
 * These run once, through the dispatcher (whatever OPENSSL_ia32cap
 * selects).  The buffer rules (any alignment, in place, partial overlap
 * refused) run for every AES implementation the CPU has.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impl.h"
#include "lib/tap.h"

#define SENTINEL 0xa5

static const unsigned char key32[32] = {
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
    0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
    0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
    0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
};
static unsigned char key64[64];     /* XTS-256: two AES-256 keys */
static unsigned char input[64];

/* Formats a check's name from the variadic function's own arguments. */
#define TEST_NAME(name, fmt) do {                   \
        va_list ap_;                                \
        va_start(ap_, fmt);                         \
        vsnprintf(name, sizeof(name), fmt, ap_);    \
        va_end(ap_);                                \
    } while (0)

/* Reports one check of a return code; on failure says what it got. */
static int check_rc(int got, int want, const char *fmt, ...) TAP_PRINTF(3, 4);
static int check_rc(int got, int want, const char *fmt, ...)
{
    char name[240];
    TEST_NAME(name, fmt);
    if (tap_ok(got == want, "%s", name))
        return 1;
    tap_diag("  expected %d, got %d", want, got);
    return 0;
}

/* 1 if buf[0..n) is all SENTINEL; else reports the first changed byte. */
static int untouched(const unsigned char *buf, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++) {
        if (buf[i] != SENTINEL) {
            tap_diag("  %s: byte %zu changed to 0x%02x (was 0x%02x)", what, i,
                     buf[i], SENTINEL);
            return 0;
        }
    }
    return 1;
}

/* A call returned got, and buf[0..n) is still all SENTINEL. */
static void check_rc_untouched(int got, int want, const unsigned char *buf, size_t n,
                               const char *fmt, ...) TAP_PRINTF(5, 6);
static void check_rc_untouched(int got, int want, const unsigned char *buf, size_t n,
                               const char *fmt, ...)
{
    char name[240];
    TEST_NAME(name, fmt);
    if (!tap_ok(untouched(buf, n, "out") && got == want, "%s", name))
        tap_diag("  expected %d, got %d", want, got);
}

/* 1 if some byte of buf[0..n) is no longer SENTINEL. */
static int written(const unsigned char *buf, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (buf[i] != SENTINEL)
            return 1;
    return 0;
}

/* ---- AES_set_encrypt_key / AES_set_decrypt_key ---------------------------- */

typedef int (*setkey_f)(const unsigned char *, const int, AES_KEY *);

static void test_aes_set_key(void)
{
    static const struct {
        const char *name;
        setkey_f f;
    } fns[] = {
        {"AES_set_encrypt_key", AES_set_encrypt_key},
        {"AES_set_decrypt_key", AES_set_decrypt_key},
    };
    static const int bad_bits[] = {0, 127, 129, 64, 512, -128, 1, 191, 255, 257};
    static const struct { int bits, rounds; } good[] = {
        {128, 10}, {192, 12}, {256, 14},
    };

    for (size_t f = 0; f < 2; f++) {
        AES_KEY ks;
        const char *fn = fns[f].name;

        check_rc(fns[f].f(NULL, 128, &ks), -1, "%s(NULL key, 128, &ks) returns -1", fn);
        check_rc(fns[f].f(key32, 128, NULL), -1, "%s(key, 128, NULL AES_KEY) returns -1", fn);
        check_rc(fns[f].f(NULL, 0, &ks), -1,
                 "%s(NULL, 0, &ks) returns -1: NULL is checked before bits, as in OpenSSL", fn);
        for (size_t i = 0; i < sizeof(bad_bits) / sizeof(bad_bits[0]); i++)
            check_rc(fns[f].f(key32, bad_bits[i], &ks), -2, "%s with bits %d returns -2", fn,
                     bad_bits[i]);
        for (size_t i = 0; i < 3; i++) {
            memset(&ks, SENTINEL, sizeof(ks));
            int rc = fns[f].f(key32, good[i].bits, &ks);
            if (!tap_ok(rc == 0 && ks.rounds == good[i].rounds, "%s with bits %d returns 0 "
                        "and sets rounds to %d", fn, good[i].bits, good[i].rounds))
                tap_diag("  expected rc 0, rounds %d; got rc %d, rounds %d",
                         good[i].rounds, rc, ks.rounds);
        }
    }
}

/* ---- casm_aes_set_key ------------------------------------------------------ */

static void test_casm_set_key(void)
{
    static const int bad_bits[] = {0, 127, 129, 64, 512, -128};
    static const int good_bits[] = {128, 192, 256};
    CASM_AES_KEY k;

    check_rc(casm_aes_set_key(NULL, key32, 128), CASM_ERR_NULL,
             "casm_aes_set_key(NULL CASM_AES_KEY) returns CASM_ERR_NULL");
    check_rc(casm_aes_set_key(&k, NULL, 128), CASM_ERR_NULL,
             "casm_aes_set_key(NULL key bytes) returns CASM_ERR_NULL");
    for (size_t i = 0; i < sizeof(bad_bits) / sizeof(bad_bits[0]); i++)
        check_rc(casm_aes_set_key(&k, key32, bad_bits[i]), CASM_ERR_BITS,
                 "casm_aes_set_key with bits %d returns CASM_ERR_BITS", bad_bits[i]);
    for (size_t i = 0; i < 3; i++) {
        int rc = casm_aes_set_key(&k, key32, good_bits[i]);
        const char *impl = rc == 0 ? casm_aes_key_impl(&k) : NULL;
        if (!tap_ok(rc == 0 && impl != NULL && impl[0] != '\0', "casm_aes_set_key with bits "
                    "%d returns 0 and names its implementation", good_bits[i]))
            tap_diag("  expected rc 0 and a name; got rc %d, name %s", rc,
                     impl ? impl : "(null)");
    }
}

/* ---- ECB and CBC ----------------------------------------------------------- */

static void test_ecb_cbc(void)
{
    static const size_t bad_len[] = {1, 15, 17, 31, 33, 63};
    CASM_AES_KEY k;
    unsigned char buf[80], *out = buf, *iv = buf + 64;     /* checked as one */

    if (casm_aes_set_key(&k, key32, 128) != 0)
        tap_bail("casm_aes_set_key(128) failed");

    for (int enc = 1; enc >= 0; enc--) {
        const char *dir = enc ? "encrypt" : "decrypt";

        for (size_t i = 0; i < sizeof(bad_len) / sizeof(bad_len[0]); i++) {
            memset(buf, SENTINEL, sizeof(buf));
            check_rc_untouched(casm_aes_ecb(&k, input, out, bad_len[i], enc), CASM_ERR_LENGTH,
                               out, 64, "casm_aes_ecb %s len %zu (not a multiple of 16) "
                               "returns CASM_ERR_LENGTH, output untouched", dir, bad_len[i]);
            memset(buf, SENTINEL, sizeof(buf));
            check_rc_untouched(casm_aes_cbc(&k, input, out, bad_len[i], iv, enc),
                               CASM_ERR_LENGTH, buf, sizeof(buf), "casm_aes_cbc %s len %zu "
                               "(not a multiple of 16) returns CASM_ERR_LENGTH, output and iv "
                               "untouched", dir, bad_len[i]);
        }
        memset(buf, SENTINEL, sizeof(buf));
        check_rc_untouched(casm_aes_ecb(&k, input, out, 0, enc), 0, out, 64,
                           "casm_aes_ecb %s len 0 returns 0, output untouched", dir);
        memset(buf, SENTINEL, sizeof(buf));
        check_rc_untouched(casm_aes_cbc(&k, input, out, 0, iv, enc), 0, buf, sizeof(buf),
                           "casm_aes_cbc %s len 0 returns 0, output and iv untouched", dir);

        /* A whole block is accepted and written. */
        memset(buf, SENTINEL, sizeof(buf));
        int rc = casm_aes_ecb(&k, input, out, 16, enc);
        int wrote = written(out, 16);
        if (!tap_ok(untouched(out + 16, 48, "out past 16") && wrote && rc == 0,
                    "casm_aes_ecb %s len 16 returns 0 and writes exactly 16 bytes", dir))
            tap_diag("  expected rc 0 and 16 bytes written; got rc %d, %s", rc,
                     wrote ? "written" : "nothing written");

        check_rc(casm_aes_ecb(NULL, input, out, 16, enc), CASM_ERR_NULL,
                 "casm_aes_ecb %s with a NULL key returns CASM_ERR_NULL", dir);
        check_rc(casm_aes_cbc(NULL, input, out, 16, iv, enc), CASM_ERR_NULL,
                 "casm_aes_cbc %s with a NULL key returns CASM_ERR_NULL", dir);
        check_rc(casm_aes_cbc(&k, input, out, 16, NULL, enc), CASM_ERR_NULL,
                 "casm_aes_cbc %s with a NULL iv returns CASM_ERR_NULL", dir);
    }
}

/* ---- CTR ------------------------------------------------------------------- */

static void test_ctr(void)
{
    CASM_AES_KEY k;
    unsigned char out[64], ctr[16], ecount[16];
    unsigned int num = 0;

    if (casm_aes_set_key(&k, key32, 256) != 0)
        tap_bail("casm_aes_set_key(256) failed");

    memset(out, SENTINEL, sizeof(out));
    memset(ctr, SENTINEL, sizeof(ctr));
    int rc = casm_aes_ctr(&k, input, out, 0, ctr, ecount, &num);
    int ok_out = untouched(out, sizeof(out), "out");
    int ok_ctr = untouched(ctr, sizeof(ctr), "counter");
    if (!tap_ok(rc == 0 && ok_out && ok_ctr && num == 0,
                "casm_aes_ctr len 0 returns 0; output, counter and num untouched"))
        tap_diag("  expected rc 0, num 0; got rc %d, num %u", rc, num);

    /* Any length is fine in CTR: 5 bytes leave 5 of the key stream used. */
    memset(out, SENTINEL, sizeof(out));
    rc = casm_aes_ctr(&k, input, out, 5, ctr, ecount, &num);
    if (!tap_ok(untouched(out + 5, sizeof(out) - 5, "out past 5") && rc == 0 && num == 5,
                "casm_aes_ctr len 5 returns 0, writes 5 bytes and sets num to 5"))
        tap_diag("  expected rc 0, num 5; got rc %d, num %u", rc, num);

    num = 0;
    check_rc(casm_aes_ctr(NULL, input, out, 16, ctr, ecount, &num), CASM_ERR_NULL,
             "casm_aes_ctr with a NULL key returns CASM_ERR_NULL");
}

/* ---- XTS ------------------------------------------------------------------- */

static void aes_enc_block(const unsigned char in[16], unsigned char out[16],
                          const void *key)
{
    AES_encrypt(in, out, key);
}

static void aes_dec_block(const unsigned char in[16], unsigned char out[16],
                          const void *key)
{
    AES_decrypt(in, out, key);
}

static void test_xts(void)
{
    CASM_AES_XTS_KEY xk;
    unsigned char out[64], iv[16] = {0};

    check_rc(casm_aes_xts_set_key(&xk, key64, 192), CASM_ERR_BITS,
             "casm_aes_xts_set_key with bits 192 returns CASM_ERR_BITS (XTS takes 128 or 256)");
    check_rc(casm_aes_xts_set_key(&xk, key64, 0), CASM_ERR_BITS,
             "casm_aes_xts_set_key with bits 0 returns CASM_ERR_BITS");
    check_rc(casm_aes_xts_set_key(&xk, key64, 512), CASM_ERR_BITS,
             "casm_aes_xts_set_key with bits 512 (both halves counted) returns CASM_ERR_BITS");
    check_rc(casm_aes_xts_set_key(&xk, NULL, 128), CASM_ERR_NULL,
             "casm_aes_xts_set_key with NULL key bytes returns CASM_ERR_NULL");
    check_rc(casm_aes_xts_set_key(NULL, key64, 128), CASM_ERR_NULL,
             "casm_aes_xts_set_key with a NULL CASM_AES_XTS_KEY returns CASM_ERR_NULL");
    check_rc(casm_aes_xts_set_key(&xk, key64, 256), 0,
             "casm_aes_xts_set_key with bits 256 returns 0");
    check_rc(casm_aes_xts_set_key(&xk, key64, 128), 0,
             "casm_aes_xts_set_key with bits 128 returns 0");

    for (size_t len = 0; len < 16; len++) {
        for (int enc = 1; enc >= 0; enc--) {
            memset(out, SENTINEL, sizeof(out));
            check_rc_untouched(casm_aes_xts(&xk, iv, input, out, len, enc), CASM_ERR_LENGTH,
                               out, sizeof(out), "casm_aes_xts %s len %zu (< 16) returns "
                               "CASM_ERR_LENGTH, output untouched", enc ? "encrypt" : "decrypt",
                               len);
        }
    }
    /* 16 and 17 (ciphertext stealing) are valid. */
    for (size_t len = 16; len <= 17; len++) {
        memset(out, SENTINEL, sizeof(out));
        check_rc_untouched(casm_aes_xts(&xk, iv, input, out, len, 1), 0, out + len,
                           sizeof(out) - len, "casm_aes_xts encrypt len %zu returns 0 and "
                           "writes exactly %zu bytes", len, len);
    }
    check_rc(casm_aes_xts(NULL, iv, input, out, 16, 1), CASM_ERR_NULL,
             "casm_aes_xts with a NULL key returns CASM_ERR_NULL");

    /* The OpenSSL-style mode function under the dispatcher. */
    AES_KEY k1, k2;
    if (AES_set_encrypt_key(key64, 128, &k1) != 0 ||
        AES_set_encrypt_key(key64 + 16, 128, &k2) != 0)
        tap_bail("AES_set_encrypt_key failed");
    XTS128_CONTEXT ctx = {&k1, &k2, aes_enc_block, aes_enc_block};
    for (size_t len = 0; len < 16; len++) {
        memset(out, SENTINEL, sizeof(out));
        check_rc_untouched(CRYPTO_xts128_encrypt(&ctx, iv, input, out, len, 1), -1, out,
                           sizeof(out), "CRYPTO_xts128_encrypt len %zu (< 16) returns -1, "
                           "output untouched", len);
    }
    memset(out, SENTINEL, sizeof(out));
    check_rc(CRYPTO_xts128_encrypt(&ctx, iv, input, out, 16, 1), 0,
             "CRYPTO_xts128_encrypt len 16 returns 0");
    AES_KEY d1;
    if (AES_set_decrypt_key(key64, 128, &d1) != 0)
        tap_bail("AES_set_decrypt_key failed");
    XTS128_CONTEXT dctx = {&d1, &k2, aes_dec_block, aes_enc_block};
    check_rc(CRYPTO_xts128_encrypt(&dctx, iv, input, out, 15, 0), -1,
             "CRYPTO_xts128_encrypt decrypt len 15 returns -1");
}

/* ---- LRW ------------------------------------------------------------------- */

static void test_lrw(void)
{
    static const size_t bad_len[] = {1, 15, 17, 31, 33};
    CASM_AES_LRW_KEY lk;
    unsigned char out[64], index[16] = {0};

    /* key is the AES key followed by the 16-byte tweak key. */
    check_rc(casm_aes_lrw_set_key(&lk, key64, 100), CASM_ERR_BITS,
             "casm_aes_lrw_set_key with bits 100 returns CASM_ERR_BITS");
    check_rc(casm_aes_lrw_set_key(&lk, NULL, 128), CASM_ERR_NULL,
             "casm_aes_lrw_set_key with NULL key bytes returns CASM_ERR_NULL");
    check_rc(casm_aes_lrw_set_key(&lk, key64, 192), 0,
             "casm_aes_lrw_set_key with bits 192 returns 0 (any AES key size)");
    check_rc(casm_aes_lrw_set_key(&lk, key64, 128), 0,
             "casm_aes_lrw_set_key with bits 128 returns 0");

    for (int enc = 1; enc >= 0; enc--) {
        const char *dir = enc ? "encrypt" : "decrypt";
        for (size_t i = 0; i < sizeof(bad_len) / sizeof(bad_len[0]); i++) {
            memset(out, SENTINEL, sizeof(out));
            check_rc_untouched(casm_aes_lrw(&lk, index, input, out, bad_len[i], enc),
                               CASM_ERR_LENGTH, out, sizeof(out), "casm_aes_lrw %s len %zu (not "
                               "a multiple of 16) returns CASM_ERR_LENGTH, output untouched",
                               dir, bad_len[i]);
        }
        memset(out, SENTINEL, sizeof(out));
        check_rc_untouched(casm_aes_lrw(&lk, index, input, out, 0, enc), 0, out, sizeof(out),
                           "casm_aes_lrw %s len 0 returns 0, output untouched", dir);
        memset(out, SENTINEL, sizeof(out));
        check_rc_untouched(casm_aes_lrw(&lk, index, input, out, 32, enc), 0, out + 32,
                           sizeof(out) - 32, "casm_aes_lrw %s len 32 returns 0 and writes "
                           "exactly 32 bytes", dir);
    }
    check_rc(casm_aes_lrw(NULL, index, input, out, 16, 1), CASM_ERR_NULL,
             "casm_aes_lrw with a NULL key returns CASM_ERR_NULL");

    /* The mode function itself. */
    AES_KEY k1;
    LRW128_TWEAK tw;
    if (AES_set_encrypt_key(key64, 128, &k1) != 0)
        tap_bail("AES_set_encrypt_key failed");
    CRYPTO_lrw128_init(&tw, key64 + 16);
    memset(out, SENTINEL, sizeof(out));
    check_rc_untouched(CRYPTO_lrw128_encrypt(&tw, &k1, aes_enc_block, index, input, out, 17),
                       -1, out, sizeof(out), "CRYPTO_lrw128_encrypt len 17 returns -1, output "
                       "untouched");
    check_rc(CRYPTO_lrw128_encrypt(&tw, &k1, aes_enc_block, index, input, out, 16),
             0, "CRYPTO_lrw128_encrypt len 16 returns 0");
}

/* ---- SHA-1 ----------------------------------------------------------------- */

static int digest_is(const unsigned char md[20], const char *hex, const char *label)
{
    unsigned char want[20];
    if (hex_decode(hex, want, sizeof(want)) != 20)
        tap_bail("bad expected digest %s", hex);
    if (memcmp(md, want, 20) == 0)
        return 1;
    tap_hexdump("expected", want, 20);
    tap_hexdump(label, md, 20);
    return 0;
}

static const char empty_hex[] = "da39a3ee5e6b4b0d3255bfef95601890afd80709";
static const char abc_hex[] = "a9993e364706816aba3e25717850c26c9cd0d89d";

static void test_sha1(void)
{
    unsigned char md[20];

    memset(md, SENTINEL, sizeof(md));
    int rc = casm_sha1("", 0, md);
    int ok = digest_is(md, empty_hex, "got");
    if (!tap_ok(rc == 0 && ok,
                "casm_sha1 of the empty message returns 0 and gives da39a3ee...0709"))
        tap_diag("  rc %d", rc);

    memset(md, SENTINEL, sizeof(md));
    unsigned char *p = SHA1((const unsigned char *)"", 0, md);
    ok = digest_is(md, empty_hex, "got");
    tap_ok(p == md && ok, "SHA1 of the empty message returns md and gives da39a3ee...0709");

    SHA_CTX c;
    memset(md, SENTINEL, sizeof(md));
    int r1 = SHA1_Init(&c), r2 = SHA1_Update(&c, "", 0), r3 = SHA1_Final(md, &c);
    ok = digest_is(md, empty_hex, "got");
    if (!tap_ok(r1 == 1 && r2 == 1 && r3 == 1 && ok,
                "SHA1_Init/Update(len 0)/Final return 1 and give the empty-message digest"))
        tap_diag("  returned %d %d %d, expected 1 1 1", r1, r2, r3);

    memset(md, SENTINEL, sizeof(md));
    rc = casm_sha1("abc", 3, md);
    ok = digest_is(md, abc_hex, "got");
    if (!tap_ok(rc == 0 && ok, "casm_sha1(\"abc\") returns 0 and gives a9993e36...d89d"))
        tap_diag("  rc %d", rc);

    check_rc(casm_sha1("abc", 3, NULL), CASM_ERR_NULL,
             "casm_sha1 with a NULL md returns CASM_ERR_NULL");
    const char *impl = casm_sha1_impl();
    tap_ok(impl != NULL && impl[0] != '\0', "casm_sha1_impl names the block function (%s)",
           impl ? impl : "(null)");
}

/* ---- enc, the order of the checks, failed set_key -------------------------- */

/* 1 if the n bytes at p are all zero. */
static int all_zero(const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != 0)
            return 0;
    return 1;
}

static void test_enc_values(void)
{
    static const int bad_enc[] = {2, -1, 0x100, INT_MIN};
    CASM_AES_KEY k;
    CASM_AES_XTS_KEY xk;
    CASM_AES_LRW_KEY lk;
    unsigned char out[64], iv[16];

    if (casm_aes_set_key(&k, key32, 128) != 0 ||
        casm_aes_xts_set_key(&xk, key64, 128) != 0 ||
        casm_aes_lrw_set_key(&lk, key64, 128) != 0)
        tap_bail("setting the keys failed");
    for (size_t i = 0; i < sizeof(bad_enc) / sizeof(bad_enc[0]); i++) {
        int e = bad_enc[i], rc[4];
        memset(out, SENTINEL, sizeof(out));
        memset(iv, SENTINEL, sizeof(iv));
        rc[0] = casm_aes_ecb(&k, input, out, 32, e);
        rc[1] = casm_aes_cbc(&k, input, out, 32, iv, e);
        rc[2] = casm_aes_xts(&xk, iv, input, out, 32, e);
        rc[3] = casm_aes_lrw(&lk, iv, input, out, 32, e);
        int ok_out = untouched(out, sizeof(out), "out");
        int ok_iv = untouched(iv, sizeof(iv), "iv");
        if (!tap_ok(rc[0] == CASM_ERR_ENC && rc[1] == CASM_ERR_ENC &&
                    rc[2] == CASM_ERR_ENC && rc[3] == CASM_ERR_ENC && ok_out && ok_iv,
                    "enc %d: casm_aes_ecb, _cbc, _xts and _lrw return CASM_ERR_ENC, "
                    "output and iv untouched", e))
            tap_diag("  expected %d each; got %d %d %d %d", CASM_ERR_ENC, rc[0],
                     rc[1], rc[2], rc[3]);
    }

    /* Several faults at once: the first in the header's list wins. */
    check_rc(casm_aes_ecb(NULL, input, out, 17, 2), CASM_ERR_NULL,
             "casm_aes_ecb with a NULL key, enc 2 and len 17 returns CASM_ERR_NULL");
    check_rc(casm_aes_ecb(&k, input, out, 17, 2), CASM_ERR_ENC,
             "casm_aes_ecb with enc 2 and len 17 returns CASM_ERR_ENC");
    check_rc(casm_aes_ecb(&k, out, out + 1, 17, 1), CASM_ERR_LENGTH,
             "casm_aes_ecb with len 17 and overlapping buffers returns CASM_ERR_LENGTH");
    CASM_AES_KEY zero;
    memset(&zero, 0, sizeof(zero));
    check_rc(casm_aes_ecb(&zero, input, out, 17, 2), CASM_ERR_STATE,
             "casm_aes_ecb with an all-zero key object, enc 2 and len 17 returns "
             "CASM_ERR_STATE");
    tap_ok(casm_aes_key_impl(&zero) == NULL,
           "casm_aes_key_impl of an all-zero key object is NULL");
}

/* Every mode call with k returns CASM_ERR_STATE and writes nothing. */
static int modes_refuse(const CASM_AES_KEY *k)
{
    unsigned char out[64], iv[16], ecount[16];
    unsigned int num = 0;
    memset(out, SENTINEL, sizeof(out));
    memset(iv, SENTINEL, sizeof(iv));
    int rc[4] = {
        casm_aes_ecb(k, input, out, 32, 1),
        casm_aes_cbc(k, input, out, 32, iv, 0),
        casm_aes_ctr(k, input, out, 32, iv, ecount, &num),
        casm_aes_ecb(k, NULL, NULL, 0, 0),
    };
    int ok = untouched(out, sizeof(out), "out") & untouched(iv, sizeof(iv), "iv");
    for (int i = 0; i < 4; i++) {
        if (rc[i] != CASM_ERR_STATE) {
            tap_diag("  call %d returned %d, expected %d", i, rc[i], CASM_ERR_STATE);
            ok = 0;
        }
    }
    return ok && num == 0;
}

/* The two-part keys: set one, and one 32-byte call with it. */
static CASM_AES_XTS_KEY xts_key;
static CASM_AES_LRW_KEY lrw_key;

static int xts_set(const unsigned char *key, int bits)
{
    return casm_aes_xts_set_key(&xts_key, key, bits);
}

static int xts_run(unsigned char *out)
{
    static const unsigned char iv[16];
    return casm_aes_xts(&xts_key, iv, input, out, 32, 1);
}

static int lrw_set(const unsigned char *key, int bits)
{
    return casm_aes_lrw_set_key(&lrw_key, key, bits);
}

static int lrw_run(unsigned char *out)
{
    static const unsigned char index[16];
    return casm_aes_lrw(&lrw_key, index, input, out, 32, 0);
}

static const struct tweaked_key {
    const char *name;           /* the mode function */
    void *obj;
    size_t size;
    int (*set)(const unsigned char *key, int bits);
    int (*run)(unsigned char *out);
} tweaked[] = {
    {"casm_aes_xts", &xts_key, sizeof(xts_key), xts_set, xts_run},
    {"casm_aes_lrw", &lrw_key, sizeof(lrw_key), lrw_set, lrw_run},
};

/* A good key, then a set_key that fails with want: the object is wiped
 * and the mode refuses it without writing. */
static void refused_after(const struct tweaked_key *t, const unsigned char *key,
                          int bits, int want, const char *why)
{
    unsigned char out[64];
    if (t->set(key64, 256) != 0)
        tap_bail("%s_set_key(256) failed", t->name);
    int rc = t->set(key, bits);
    memset(out, SENTINEL, sizeof(out));
    int run = t->run(out);
    if (!tap_ok(rc == want && run == CASM_ERR_STATE && all_zero(t->obj, t->size) &&
                untouched(out, sizeof(out), "out"),
                "%s_set_key with %s over a good key returns %d and wipes the whole key; "
                "%s then returns CASM_ERR_STATE, output untouched",
                t->name, why, want, t->name))
        tap_diag("  set_key %d, %s %d", rc, t->name, run);
}

static void test_failed_set_key(void)
{
    static const struct { const unsigned char *key; int bits, rc; const char *why; } fail[] = {
        {key32, 100, CASM_ERR_BITS, "bits 100"},
        {NULL, 128, CASM_ERR_NULL, "NULL key bytes"},
    };
    CASM_AES_KEY k;
    unsigned char out[64];

    for (size_t i = 0; i < sizeof(fail) / sizeof(fail[0]); i++) {
        if (casm_aes_set_key(&k, key32, 256) != 0)
            tap_bail("casm_aes_set_key(256) failed");
        int rc = casm_aes_set_key(&k, fail[i].key, fail[i].bits);
        int refused = modes_refuse(&k);
        if (!tap_ok(rc == fail[i].rc && casm_aes_key_impl(&k) == NULL &&
                    all_zero(&k, sizeof(k)) && refused, "casm_aes_set_key with %s over a good "
                    "key returns %d, wipes the key, casm_aes_key_impl gives NULL and every "
                    "mode returns CASM_ERR_STATE", fail[i].why, fail[i].rc))
            tap_diag("  rc %d, name %s", rc, casm_aes_key_impl(&k) ? "set" : "NULL");

        for (size_t t = 0; t < 2; t++)
            refused_after(&tweaked[t], fail[i].key, fail[i].bits, fail[i].rc, fail[i].why);
    }
    refused_after(&tweaked[0], key64, 192, CASM_ERR_BITS,
                  "bits 192 (an AES size, not an XTS one)");

    /* A later successful set_key makes the object usable again. */
    check_rc(casm_aes_set_key(&k, key32, 128) ||
             casm_aes_ecb(&k, input, out, 16, 1), 0,
             "casm_aes_set_key after a failed one makes the key usable again");
}

/* ---- NULL pointers: data may be NULL at length 0, nothing else may --------- */

static void test_null_rule(void)
{
    CASM_AES_KEY k;
    CASM_AES_XTS_KEY xk;
    CASM_AES_LRW_KEY lk;
    unsigned char iv[16], ecount[16], md[20];
    unsigned int num = 0;

    if (casm_aes_set_key(&k, key32, 128) != 0 ||
        casm_aes_xts_set_key(&xk, key64, 128) != 0 ||
        casm_aes_lrw_set_key(&lk, key64, 128) != 0)
        tap_bail("setting the keys failed");
    memset(iv, SENTINEL, sizeof(iv));

    /* NULL in and out at length 0: a successful no-op. */
    check_rc(casm_aes_ecb(&k, NULL, NULL, 0, 1), 0,
             "casm_aes_ecb(NULL in, NULL out, len 0) returns 0");
    int rc = casm_aes_cbc(&k, NULL, NULL, 0, iv, 0);
    tap_ok(rc == 0 && untouched(iv, sizeof(iv), "iv"),
           "casm_aes_cbc(NULL in, NULL out, len 0) returns 0, iv untouched (rc %d)", rc);
    rc = casm_aes_ctr(&k, NULL, NULL, 0, iv, ecount, &num);
    tap_ok(rc == 0 && num == 0 && untouched(iv, sizeof(iv), "counter"),
           "casm_aes_ctr(NULL in, NULL out, len 0) returns 0, counter and num untouched "
           "(rc %d)", rc);
    check_rc(casm_aes_lrw(&lk, iv, NULL, NULL, 0, 1), 0,
             "casm_aes_lrw(NULL in, NULL out, len 0) returns 0");
    rc = casm_sha1(NULL, 0, md);
    tap_ok(rc == 0 && digest_is(md, empty_hex, "got"),
           "casm_sha1(NULL, 0, md) returns 0 and the empty message's digest (rc %d)", rc);
    /* XTS passes the NULL check at length 0, then its length rule refuses. */
    check_rc(casm_aes_xts(&xk, iv, NULL, NULL, 0, 1), CASM_ERR_LENGTH,
             "casm_aes_xts(NULL in, NULL out, len 0) returns CASM_ERR_LENGTH");

    /* At a nonzero length the data pointers are needed. */
    check_rc(casm_aes_ecb(&k, NULL, md, 16, 1), CASM_ERR_NULL,
             "casm_aes_ecb(NULL in, len 16) returns CASM_ERR_NULL");
    check_rc(casm_aes_ctr(&k, input, NULL, 1, iv, ecount, &num), CASM_ERR_NULL,
             "casm_aes_ctr(NULL out, len 1) returns CASM_ERR_NULL");
    check_rc(casm_aes_xts(&xk, iv, input, NULL, 16, 0), CASM_ERR_NULL,
             "casm_aes_xts(NULL out, len 16) returns CASM_ERR_NULL");
    check_rc(casm_sha1(NULL, 1, md), CASM_ERR_NULL,
             "casm_sha1(NULL data, len 1) returns CASM_ERR_NULL");

    /* Every other pointer is needed at length 0 as well. */
    static const char *const what[] = {
        "casm_aes_ecb, NULL key", "casm_aes_cbc, NULL key", "casm_aes_cbc, NULL iv",
        "casm_aes_ctr, NULL key", "casm_aes_ctr, NULL counter",
        "casm_aes_ctr, NULL ecount", "casm_aes_ctr, NULL num",
        "casm_aes_xts, NULL key", "casm_aes_xts, NULL iv",
        "casm_aes_lrw, NULL key", "casm_aes_lrw, NULL index",
        "casm_sha1, NULL md",
    };
    const int got[] = {
        casm_aes_ecb(NULL, NULL, NULL, 0, 1),
        casm_aes_cbc(NULL, NULL, NULL, 0, iv, 1),
        casm_aes_cbc(&k, NULL, NULL, 0, NULL, 1),
        casm_aes_ctr(NULL, NULL, NULL, 0, iv, ecount, &num),
        casm_aes_ctr(&k, NULL, NULL, 0, NULL, ecount, &num),
        casm_aes_ctr(&k, NULL, NULL, 0, iv, NULL, &num),
        casm_aes_ctr(&k, NULL, NULL, 0, iv, ecount, NULL),
        casm_aes_xts(NULL, iv, NULL, NULL, 0, 1),
        casm_aes_xts(&xk, NULL, NULL, NULL, 0, 1),
        casm_aes_lrw(NULL, iv, NULL, NULL, 0, 1),
        casm_aes_lrw(&lk, NULL, NULL, NULL, 0, 1),
        casm_sha1(NULL, 0, NULL),
    };
    for (size_t i = 0; i < sizeof(got) / sizeof(got[0]); i++)
        check_rc(got[i], CASM_ERR_NULL, "%s at len 0 returns CASM_ERR_NULL", what[i]);
}

/* ---- XTS data-unit limit ---------------------------------------------------- */

static void test_xts_limit(void)
{
    const size_t max = CASM_AES_XTS_MAX_LEN;
    unsigned char iv[16] = {1};
    CASM_AES_XTS_KEY xk;
    unsigned char *buf = malloc(max + 32);

    if (buf == NULL)
        tap_bail("no memory for %zu bytes", max + 32);
    if (casm_aes_xts_set_key(&xk, key64, 256) != 0)
        tap_bail("casm_aes_xts_set_key(256) failed");
    tap_ok(max == (size_t)16 << 20, "CASM_AES_XTS_MAX_LEN is 2^20 blocks of 16 bytes");

    static const size_t over[] = {1, 15, 16, 17};
    for (size_t i = 0; i < sizeof(over) / sizeof(over[0]); i++) {
        memset(buf, SENTINEL, max + 32);
        check_rc_untouched(casm_aes_xts(&xk, iv, buf, buf, max + over[i], 1), CASM_ERR_LENGTH,
                           buf, max + 32, "casm_aes_xts of 2^24 + %zu bytes returns "
                           "CASM_ERR_LENGTH, buffer untouched", over[i]);
    }
    check_rc(casm_aes_xts(&xk, iv, input, input, SIZE_MAX, 0), CASM_ERR_LENGTH,
             "casm_aes_xts of SIZE_MAX bytes returns CASM_ERR_LENGTH");

    /* Exactly the limit: accepted, and decrypts back. */
    for (size_t i = 0; i < max; i++)
        buf[i] = (unsigned char)(i ^ (i >> 9));
    memset(buf + max, SENTINEL, 32);
    int e = casm_aes_xts(&xk, iv, buf, buf, max, 1);
    int changed = buf[0] != 0 || buf[1] != 1 || buf[max - 1] != (unsigned char)((max - 1) ^ ((max - 1) >> 9));
    int d = casm_aes_xts(&xk, iv, buf, buf, max, 0);
    size_t bad = max;
    for (size_t i = 0; i < max && bad == max; i++)
        if (buf[i] != (unsigned char)(i ^ (i >> 9)))
            bad = i;
    if (!tap_ok(e == 0 && d == 0 && changed && bad == max &&
                untouched(buf + max, 32, "past the unit"),
                "casm_aes_xts of exactly 2^24 bytes in place encrypts, decrypts back and "
                "writes nothing past it"))
        tap_diag("  rc %d/%d, first wrong byte %zu", e, d, bad);
    free(buf);
}

/* ---- Buffers: any alignment, in place, partial overlap refused --------------- */

enum { ECB, CBC, CTR, XTS, LRW, NMODES };
static const char *const mode_name[NMODES] = {"ECB", "CBC", "CTR", "XTS", "LRW"};
/* Lengths a multiple of 16 where the mode needs it; else with a tail. */
static const size_t mode_len[NMODES] = {80, 80, 77, 77, 80};

struct keys {
    CASM_AES_KEY aes;
    CASM_AES_XTS_KEY xts;
    CASM_AES_LRW_KEY lrw;
};

/* The iv, counter or index every call below starts from. */
static const unsigned char fresh_iv[16] = {
    0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7,
    0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff,
};

/* One call of mode from fresh_iv; what it left there in iv_out. */
static int run_mode(const struct keys *ks, int mode, const unsigned char *in,
                    unsigned char *out, size_t len, int enc,
                    unsigned char iv_out[16])
{
    unsigned char iv[16], ecount[16];
    unsigned int num = 0;
    memcpy(iv, fresh_iv, 16);
    int rc;
    switch (mode) {
    case ECB: rc = casm_aes_ecb(&ks->aes, in, out, len, enc); break;
    case CBC: rc = casm_aes_cbc(&ks->aes, in, out, len, iv, enc); break;
    case CTR: rc = casm_aes_ctr(&ks->aes, in, out, len, iv, ecount, &num); break;
    case XTS: rc = casm_aes_xts(&ks->xts, iv, in, out, len, enc); break;
    default:  rc = casm_aes_lrw(&ks->lrw, iv, in, out, len, enc); break;
    }
    memcpy(iv_out, iv, 16);
    return rc;
}

/* One mode, one direction, through one implementation; NULL or what failed. */
static const char *buffer_rules(const struct keys *ks, int mode, int enc)
{
    static char why[120];
    enum { ARENA = 3 * 96 };
    const size_t len = mode_len[mode];
    unsigned char want[96], want_iv[16], iv[16];
    unsigned char a[ARENA], b[ARENA], copy[ARENA];

    if (run_mode(ks, mode, input, want, len, enc, want_iv) != 0)
        return "an error return on aligned, separate buffers";
    /* In place at every offset from a 16-byte boundary. */
    for (size_t off = 0; off < 16; off++) {
        unsigned char *p = a + 16 + off;
        memcpy(p, input, len);
        snprintf(why, sizeof(why), "in place at offset %zu: not the aligned result", off);
        if (run_mode(ks, mode, p, p, len, enc, iv) != 0 ||
            memcmp(p, want, len) != 0 || memcmp(iv, want_iv, 16) != 0)
            return why;
    }
    /* Separate buffers at every pair of offsets, and back to back. */
    for (size_t i = 0; i < 16; i++) {
        for (size_t o = 0; o < 16; o++) {
            snprintf(why, sizeof(why), "in at offset %zu, out at offset %zu: not the "
                     "aligned result, or bytes written outside out", i, o);
            memcpy(a + i, input, len);
            memset(b, SENTINEL, sizeof(b));
            if (run_mode(ks, mode, a + i, b + o, len, enc, iv) != 0 ||
                memcmp(b + o, want, len) != 0 || memcmp(iv, want_iv, 16) != 0 ||
                !untouched(b, o, "before out") ||
                !untouched(b + o + len, sizeof(b) - o - len, "after out"))
                return why;
        }
    }
    for (int side = 0; side < 2; side++) {
        unsigned char *in = a + 96 + (side ? len : 0);
        unsigned char *out = a + 96 + (side ? 0 : len);
        memcpy(in, input, len);
        if (run_mode(ks, mode, in, out, len, enc, iv) != 0 || memcmp(out, want, len) != 0)
            return side ? "out just before in: not the aligned result"
                        : "out just after in: not the aligned result";
    }
    /* Overlap without the same start: refused, nothing written. */
    const size_t shift[] = {1, 8, 15, 16, 17, len - 1};
    for (size_t s = 0; s < sizeof(shift) / sizeof(shift[0]); s++) {
        for (int side = 0; side < 2; side++) {
            unsigned char *in = a + 96, *out = side ? in - shift[s] : in + shift[s];
            snprintf(why, sizeof(why), "out %s in by %zu bytes: not refused, or "
                     "something written", side ? "before" : "after", shift[s]);
            for (size_t i = 0; i < sizeof(a); i++)
                a[i] = (unsigned char)(i * 13 + 5);
            memcpy(copy, a, sizeof(a));
            if (run_mode(ks, mode, in, out, len, enc, iv) != CASM_ERR_OVERLAP ||
                memcmp(a, copy, sizeof(a)) != 0 || memcmp(iv, fresh_iv, 16) != 0)
                return why;
        }
    }
    return NULL;
}

static void test_buffers(void)
{
    static struct keys ks;
    for (size_t i = 0; i < casm_aes_impl_count; i++) {
        const struct casm_aes_impl *im = casm_aes_impls[i];
        if (!casm_cpu_has(im->need)) {
            tap_skip("CPU lacks it", "%s: buffer rules (needs %s)", im->name, im->need_name);
            continue;
        }
        if (casm_aes_set_key_with(&ks.aes, im, key32, 192) != 0 ||
            casm_aes_xts_set_key_with(&ks.xts, im, key64, 256) != 0 ||
            casm_aes_lrw_set_key_with(&ks.lrw, im, key64, 128) != 0)
            tap_bail("%s: setting the keys failed", im->name);
        for (int mode = 0; mode < NMODES; mode++) {
            for (int enc = 1; enc >= 0; enc--) {
                if (mode == CTR && !enc)
                    continue;           /* one operation both ways */
                const char *bad = buffer_rules(&ks, mode, enc);
                if (!tap_ok(bad == NULL,
                            "%s %s %s, %zu bytes: in place at 16 offsets, separate "
                            "buffers at 256 alignments and back to back equal the aligned "
                            "result; 12 partial overlaps refused, nothing written",
                            im->name, mode_name[mode], enc ? "encrypt" : "decrypt",
                            mode_len[mode]))
                    tap_diag("  %s", bad);
            }
        }
    }
}

/* ---- Streaming SHA-1: the context's life ------------------------------------- */

static void test_sha1_stream(void)
{
    CASM_SHA1_CTX c, before;
    unsigned char md[20];

    check_rc(casm_sha1_init(NULL), CASM_ERR_NULL,
             "casm_sha1_init(NULL) returns CASM_ERR_NULL");
    memset(&c, 0, sizeof(c));
    check_rc(casm_sha1_update(&c, "a", 1), CASM_ERR_STATE,
             "casm_sha1_update on an all-zero context returns CASM_ERR_STATE");
    memset(md, SENTINEL, sizeof(md));
    int rc = casm_sha1_final(&c, md);
    tap_ok(rc == CASM_ERR_STATE && untouched(md, sizeof(md), "md"),
           "casm_sha1_final on an all-zero context returns CASM_ERR_STATE, md untouched "
           "(rc %d)", rc);

    check_rc(casm_sha1_init(&c), 0, "casm_sha1_init returns 0");
    int r[5] = {
        casm_sha1_update(&c, NULL, 0), casm_sha1_update(&c, "ab", 2),
        casm_sha1_update(&c, "", 0), casm_sha1_update(NULL, "c", 1),
        casm_sha1_update(&c, NULL, 1),
    };
    tap_ok(r[0] == 0 && r[1] == 0 && r[2] == 0 && r[3] == CASM_ERR_NULL &&
           r[4] == CASM_ERR_NULL,
           "casm_sha1_update: NULL data at len 0 and \"\" return 0; a NULL context or NULL "
           "data at len 1 return CASM_ERR_NULL (got %d %d %d %d %d)",
           r[0], r[1], r[2], r[3], r[4]);
    check_rc(casm_sha1_update(&c, "c", 1), 0, "casm_sha1_update(\"c\") returns 0");
    before = c;
    rc = casm_sha1_final(&c, NULL);
    tap_ok(rc == CASM_ERR_NULL && memcmp(&c, &before, sizeof(c)) == 0,
           "casm_sha1_final with a NULL md returns CASM_ERR_NULL, context unchanged "
           "(rc %d)", rc);
    check_rc(casm_sha1_final(NULL, md), CASM_ERR_NULL,
             "casm_sha1_final with a NULL context returns CASM_ERR_NULL");
    rc = casm_sha1_final(&c, md);
    tap_ok(rc == 0 && digest_is(md, abc_hex, "got"),
           "casm_sha1 streamed \"\", \"ab\", \"\", \"c\" returns 0 and gives a9993e36...d89d "
           "(rc %d)", rc);
    tap_ok(all_zero(&c, sizeof(c)), "casm_sha1_final wipes the context");
    memset(md, SENTINEL, sizeof(md));
    int u = casm_sha1_update(&c, "a", 1), f = casm_sha1_final(&c, md);
    tap_ok(u == CASM_ERR_STATE && f == CASM_ERR_STATE && untouched(md, sizeof(md), "md"),
           "after casm_sha1_final, update and final return CASM_ERR_STATE (got %d %d)", u, f);
    rc = casm_sha1_init(&c);
    if (rc == 0)
        rc = casm_sha1_final(&c, md);
    tap_ok(rc == 0 && digest_is(md, empty_hex, "got"),
           "casm_sha1_init makes a finished context usable again (empty message)");
}

int main(void)
{
    for (size_t i = 0; i < sizeof(key64); i++)
        key64[i] = (unsigned char)(0x40 + i);
    for (size_t i = 0; i < sizeof(input); i++)
        input[i] = (unsigned char)(i * 7 + 1);

    test_aes_set_key();
    test_casm_set_key();
    test_ecb_cbc();
    test_ctr();
    test_xts();
    test_lrw();
    test_sha1();
    test_enc_values();
    test_failed_set_key();
    test_null_rule();
    test_xts_limit();
    test_buffers();
    test_sha1_stream();
    return tap_done();
}
