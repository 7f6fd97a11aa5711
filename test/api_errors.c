/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Return codes of the public API on bad arguments, and that a rejected call
 * leaves its output alone:
 *   AES_set_encrypt_key / AES_set_decrypt_key: 0, -1 (NULL), -2 (bits),
 *     as OpenSSL's;
 *   the dispatching API (cryptoasm.h): CASM_ERR_NULL, CASM_ERR_BITS,
 *     CASM_ERR_LENGTH;
 *   CRYPTO_xts128_encrypt and CRYPTO_lrw128_encrypt: -1 on a bad length;
 *   SHA-1 of the empty message.
 * Runs once, through the dispatcher (whatever OPENSSL_ia32cap selects).
 */
#include <stdio.h>
#include <string.h>

#include "cryptoasm.h"
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

/* Reports one check of a return code; on failure says what it got. */
static int check_rc(int got, int want, const char *what)
{
    if (tap_ok(got == want, "%s", what))
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
    char name[160];

    for (size_t f = 0; f < 2; f++) {
        AES_KEY ks;
        const char *fn = fns[f].name;

        snprintf(name, sizeof(name), "%s(NULL key, 128, &ks) returns -1", fn);
        check_rc(fns[f].f(NULL, 128, &ks), -1, name);
        snprintf(name, sizeof(name), "%s(key, 128, NULL AES_KEY) returns -1", fn);
        check_rc(fns[f].f(key32, 128, NULL), -1, name);
        snprintf(name, sizeof(name),
                 "%s(NULL, 0, &ks) returns -1: NULL is checked before bits, as in OpenSSL",
                 fn);
        check_rc(fns[f].f(NULL, 0, &ks), -1, name);

        for (size_t i = 0; i < sizeof(bad_bits) / sizeof(bad_bits[0]); i++) {
            snprintf(name, sizeof(name), "%s with bits %d returns -2", fn,
                     bad_bits[i]);
            check_rc(fns[f].f(key32, bad_bits[i], &ks), -2, name);
        }
        for (size_t i = 0; i < 3; i++) {
            memset(&ks, SENTINEL, sizeof(ks));
            int rc = fns[f].f(key32, good[i].bits, &ks);
            snprintf(name, sizeof(name),
                     "%s with bits %d returns 0 and sets rounds to %d", fn,
                     good[i].bits, good[i].rounds);
            if (!tap_ok(rc == 0 && ks.rounds == good[i].rounds, "%s", name))
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
    char name[160];

    check_rc(casm_aes_set_key(NULL, key32, 128), CASM_ERR_NULL,
             "casm_aes_set_key(NULL CASM_AES_KEY) returns CASM_ERR_NULL");
    check_rc(casm_aes_set_key(&k, NULL, 128), CASM_ERR_NULL,
             "casm_aes_set_key(NULL key bytes) returns CASM_ERR_NULL");
    for (size_t i = 0; i < sizeof(bad_bits) / sizeof(bad_bits[0]); i++) {
        snprintf(name, sizeof(name),
                 "casm_aes_set_key with bits %d returns CASM_ERR_BITS", bad_bits[i]);
        check_rc(casm_aes_set_key(&k, key32, bad_bits[i]), CASM_ERR_BITS, name);
    }
    for (size_t i = 0; i < 3; i++) {
        int rc = casm_aes_set_key(&k, key32, good_bits[i]);
        const char *impl = rc == 0 ? casm_aes_key_impl(&k) : NULL;
        snprintf(name, sizeof(name),
                 "casm_aes_set_key with bits %d returns 0 and names its implementation",
                 good_bits[i]);
        if (!tap_ok(rc == 0 && impl != NULL && impl[0] != '\0', "%s", name))
            tap_diag("  expected rc 0 and a name; got rc %d, name %s", rc,
                     impl ? impl : "(null)");
    }
}

/* ---- ECB and CBC ----------------------------------------------------------- */

static void test_ecb_cbc(void)
{
    static const size_t bad_len[] = {1, 15, 17, 31, 33, 63};
    CASM_AES_KEY k;
    unsigned char out[64], iv[16];
    char name[200];

    if (casm_aes_set_key(&k, key32, 128) != 0)
        tap_bail("casm_aes_set_key(128) failed");

    for (int enc = 1; enc >= 0; enc--) {
        const char *dir = enc ? "encrypt" : "decrypt";

        for (size_t i = 0; i < sizeof(bad_len) / sizeof(bad_len[0]); i++) {
            memset(out, SENTINEL, sizeof(out));
            int rc = casm_aes_ecb(&k, input, out, bad_len[i], enc);
            snprintf(name, sizeof(name),
                     "casm_aes_ecb %s len %zu (not a multiple of 16) returns "
                     "CASM_ERR_LENGTH, output untouched", dir, bad_len[i]);
            if (!tap_ok(untouched(out, sizeof(out), "out") && rc == CASM_ERR_LENGTH,
                        "%s", name))
                tap_diag("  expected %d, got %d", CASM_ERR_LENGTH, rc);

            memset(out, SENTINEL, sizeof(out));
            memset(iv, SENTINEL, sizeof(iv));
            rc = casm_aes_cbc(&k, input, out, bad_len[i], iv, enc);
            snprintf(name, sizeof(name),
                     "casm_aes_cbc %s len %zu (not a multiple of 16) returns "
                     "CASM_ERR_LENGTH, output and iv untouched", dir, bad_len[i]);
            int ok_out = untouched(out, sizeof(out), "out");
            int ok_iv = untouched(iv, sizeof(iv), "iv");
            if (!tap_ok(rc == CASM_ERR_LENGTH && ok_out && ok_iv, "%s", name))
                tap_diag("  expected %d, got %d", CASM_ERR_LENGTH, rc);
        }

        memset(out, SENTINEL, sizeof(out));
        int rc = casm_aes_ecb(&k, input, out, 0, enc);
        snprintf(name, sizeof(name),
                 "casm_aes_ecb %s len 0 returns 0, output untouched", dir);
        if (!tap_ok(untouched(out, sizeof(out), "out") && rc == 0, "%s", name))
            tap_diag("  expected 0, got %d", rc);

        memset(out, SENTINEL, sizeof(out));
        memset(iv, SENTINEL, sizeof(iv));
        rc = casm_aes_cbc(&k, input, out, 0, iv, enc);
        snprintf(name, sizeof(name),
                 "casm_aes_cbc %s len 0 returns 0, output and iv untouched", dir);
        int ok_out = untouched(out, sizeof(out), "out");
        int ok_iv = untouched(iv, sizeof(iv), "iv");
        if (!tap_ok(rc == 0 && ok_out && ok_iv, "%s", name))
            tap_diag("  expected 0, got %d", rc);

        /* A whole block is accepted and written. */
        memset(out, SENTINEL, sizeof(out));
        rc = casm_aes_ecb(&k, input, out, 16, enc);
        snprintf(name, sizeof(name),
                 "casm_aes_ecb %s len 16 returns 0 and writes exactly 16 bytes", dir);
        int wrote = written(out, 16);
        if (!tap_ok(untouched(out + 16, sizeof(out) - 16, "out past 16") &&
                    wrote && rc == 0, "%s", name))
            tap_diag("  expected rc 0 and 16 bytes written; got rc %d, %s", rc,
                     wrote ? "written" : "nothing written");

        snprintf(name, sizeof(name),
                 "casm_aes_ecb %s with a NULL key returns CASM_ERR_NULL", dir);
        check_rc(casm_aes_ecb(NULL, input, out, 16, enc), CASM_ERR_NULL, name);
        snprintf(name, sizeof(name),
                 "casm_aes_cbc %s with a NULL key returns CASM_ERR_NULL", dir);
        check_rc(casm_aes_cbc(NULL, input, out, 16, iv, enc), CASM_ERR_NULL, name);
        snprintf(name, sizeof(name),
                 "casm_aes_cbc %s with a NULL iv returns CASM_ERR_NULL", dir);
        check_rc(casm_aes_cbc(&k, input, out, 16, NULL, enc), CASM_ERR_NULL, name);
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
    char name[200];

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
            int rc = casm_aes_xts(&xk, iv, input, out, len, enc);
            snprintf(name, sizeof(name),
                     "casm_aes_xts %s len %zu (< 16) returns CASM_ERR_LENGTH, output untouched",
                     enc ? "encrypt" : "decrypt", len);
            if (!tap_ok(untouched(out, sizeof(out), "out") && rc == CASM_ERR_LENGTH,
                        "%s", name))
                tap_diag("  expected %d, got %d", CASM_ERR_LENGTH, rc);
        }
    }
    /* 16 and 17 (ciphertext stealing) are valid. */
    for (size_t len = 16; len <= 17; len++) {
        memset(out, SENTINEL, sizeof(out));
        int rc = casm_aes_xts(&xk, iv, input, out, len, 1);
        snprintf(name, sizeof(name),
                 "casm_aes_xts encrypt len %zu returns 0 and writes exactly %zu bytes",
                 len, len);
        if (!tap_ok(untouched(out + len, sizeof(out) - len, "out past len") && rc == 0,
                    "%s", name))
            tap_diag("  expected 0, got %d", rc);
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
        int rc = CRYPTO_xts128_encrypt(&ctx, iv, input, out, len, 1);
        snprintf(name, sizeof(name),
                 "CRYPTO_xts128_encrypt len %zu (< 16) returns -1, output untouched", len);
        if (!tap_ok(untouched(out, sizeof(out), "out") && rc == -1, "%s", name))
            tap_diag("  expected -1, got %d", rc);
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
    char name[200];

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
            int rc = casm_aes_lrw(&lk, index, input, out, bad_len[i], enc);
            snprintf(name, sizeof(name),
                     "casm_aes_lrw %s len %zu (not a multiple of 16) returns "
                     "CASM_ERR_LENGTH, output untouched", dir, bad_len[i]);
            if (!tap_ok(untouched(out, sizeof(out), "out") && rc == CASM_ERR_LENGTH,
                        "%s", name))
                tap_diag("  expected %d, got %d", CASM_ERR_LENGTH, rc);
        }
        memset(out, SENTINEL, sizeof(out));
        int rc = casm_aes_lrw(&lk, index, input, out, 0, enc);
        snprintf(name, sizeof(name),
                 "casm_aes_lrw %s len 0 returns 0, output untouched", dir);
        if (!tap_ok(untouched(out, sizeof(out), "out") && rc == 0, "%s", name))
            tap_diag("  expected 0, got %d", rc);
        memset(out, SENTINEL, sizeof(out));
        rc = casm_aes_lrw(&lk, index, input, out, 32, enc);
        snprintf(name, sizeof(name),
                 "casm_aes_lrw %s len 32 returns 0 and writes exactly 32 bytes", dir);
        if (!tap_ok(untouched(out + 32, sizeof(out) - 32, "out past 32") && rc == 0,
                    "%s", name))
            tap_diag("  expected 0, got %d", rc);
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
    int rc = CRYPTO_lrw128_encrypt(&tw, &k1, aes_enc_block, index, input, out, 17);
    if (!tap_ok(untouched(out, sizeof(out), "out") && rc == -1,
                "CRYPTO_lrw128_encrypt len 17 returns -1, output untouched"))
        tap_diag("  expected -1, got %d", rc);
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

static void test_sha1(void)
{
    static const char empty_hex[] = "da39a3ee5e6b4b0d3255bfef95601890afd80709";
    static const char abc_hex[] = "a9993e364706816aba3e25717850c26c9cd0d89d";
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
    return tap_done();
}
