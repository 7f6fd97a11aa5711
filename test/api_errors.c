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
 * selects), the calls and their bad arguments as one table (rows[]) that
 * one loop checks.  The buffer rules (any alignment, in place, partial
 * overlap refused) run for every AES implementation the CPU has.
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

/* 1 if some byte of buf[0..n) is no longer SENTINEL. */
static int written(const unsigned char *buf, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (buf[i] != SENTINEL)
            return 1;
    return 0;
}

/* The three key objects of the modes, set with one implementation. */
struct keys {
    CASM_AES_KEY aes;
    CASM_AES_XTS_KEY xts;
    CASM_AES_LRW_KEY lrw;
};

/* ---- The error contract: one row per call and bad input ------------------- */

/* The calls the table makes, each with the keys set in main(). */
enum op {
    ECB, CBC, CTR, XTS, LRW, NMODES,        /* the dispatching API's modes */
    SHA1_ONESHOT = NMODES,                  /* casm_sha1 */
    SET_KEY, XTS_SET_KEY, LRW_SET_KEY,      /* casm_aes_*set_key */
    AES_SET_ENC, AES_SET_DEC,               /* AES_set_encrypt_key/_decrypt_key */
    XTS128, LRW128,                         /* CRYPTO_xts128/lrw128_encrypt */
};
static const char *const op_name[] = {
    "casm_aes_ecb", "casm_aes_cbc", "casm_aes_ctr", "casm_aes_xts", "casm_aes_lrw",
    "casm_sha1", "casm_aes_set_key", "casm_aes_xts_set_key", "casm_aes_lrw_set_key",
    "AES_set_encrypt_key", "AES_set_decrypt_key", "CRYPTO_xts128_encrypt",
    "CRYPTO_lrw128_encrypt",
};

/* Arguments a row passes otherwise: NULL pointers, an all-zero key object,
 * out one byte after in (overlapping). */
enum {
    NO_KEY = 1, NO_DATA = 2, NO_OUT = 4, NO_IV = 8, NO_ECOUNT = 16, NO_NUM = 32,
    ZERO_KEY = 64, OVERLAP = 128, BOTH_WAYS = 256,
};
static const char *const flag_name[] = {
    "NULL key", "NULL data", "NULL out", "NULL iv", "NULL ecount",
    "NULL num", "an all-zero key object", "out overlapping in", NULL,
};

struct row {
    enum op op;
    unsigned flags;
    const char *values; /* the lengths (key sizes for set_key) tried */
    int enc;            /* and the other way too with BOTH_WAYS */
    int want;           /* the return code */
    size_t writes;      /* bytes of out the call writes; nothing past them */
};

static const struct row rows[] = {
    /* NULL key bytes or key object, a NULL key before bad bits (as in
     * OpenSSL), key sizes the call refuses, and those it takes. */
    {AES_SET_ENC, NO_KEY, "128 0", 0, -1, 0},
    {AES_SET_ENC, NO_OUT, "128", 0, -1, 0},
    {AES_SET_ENC, 0, "0 127 129 64 512 -128 1 191 255 257", 0, -2, 0},
    {AES_SET_DEC, NO_KEY, "128 0", 0, -1, 0},
    {AES_SET_DEC, NO_OUT, "128", 0, -1, 0},
    {AES_SET_DEC, 0, "0 127 129 64 512 -128 1 191 255 257", 0, -2, 0},
    {SET_KEY, NO_OUT, "128", 0, CASM_ERR_NULL, 0},
    {SET_KEY, NO_KEY, "128", 0, CASM_ERR_NULL, 0},
    {SET_KEY, 0, "0 127 129 64 512 -128", 0, CASM_ERR_BITS, 0},
    {XTS_SET_KEY, 0, "192 0 512", 0, CASM_ERR_BITS, 0},    /* 512: both halves counted */
    {XTS_SET_KEY, NO_KEY, "128", 0, CASM_ERR_NULL, 0},
    {XTS_SET_KEY, NO_OUT, "128", 0, CASM_ERR_NULL, 0},
    {XTS_SET_KEY, 0, "256 128", 0, 0, 0},
    {LRW_SET_KEY, 0, "100", 0, CASM_ERR_BITS, 0},
    {LRW_SET_KEY, NO_KEY, "128", 0, CASM_ERR_NULL, 0},
    {LRW_SET_KEY, 0, "192 128", 0, 0, 0},                  /* any AES key size */
    /* Lengths the mode refuses, length 0, and a valid length. */
    {ECB, BOTH_WAYS, "1 15 17 31 33 63", 1, CASM_ERR_LENGTH, 0},
    {CBC, BOTH_WAYS, "1 15 17 31 33 63", 1, CASM_ERR_LENGTH, 0},
    {XTS, BOTH_WAYS, "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", 1, CASM_ERR_LENGTH, 0},
    {LRW, BOTH_WAYS, "1 15 17 31 33", 1, CASM_ERR_LENGTH, 0},
    {XTS128, 0, "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", 1, -1, 0},
    {XTS128, 0, "15", 0, -1, 0},
    {LRW128, 0, "17", 1, -1, 0},
    {ECB, BOTH_WAYS, "0", 1, 0, 0},
    {CBC, BOTH_WAYS, "0", 1, 0, 0},
    {CTR, 0, "0", 1, 0, 0},
    {LRW, BOTH_WAYS, "0", 1, 0, 0},
    {ECB, BOTH_WAYS, "16", 1, 0, 16},
    {CTR, 0, "5", 1, 0, 5},                                 /* any length */
    {XTS, 0, "16", 1, 0, 16},
    {XTS, 0, "17", 1, 0, 17},                               /* ciphertext stealing */
    {LRW, BOTH_WAYS, "32", 1, 0, 32},
    {XTS128, 0, "16", 1, 0, 16},
    {LRW128, 0, "16", 1, 0, 16},
    /* enc neither 0 nor 1. */
#define BAD_ENC(op) {op, 0, "32", 2, CASM_ERR_ENC, 0}, {op, 0, "32", -1, CASM_ERR_ENC, 0}, \
        {op, 0, "32", 0x100, CASM_ERR_ENC, 0}, {op, 0, "32", INT_MIN, CASM_ERR_ENC, 0}
    BAD_ENC(ECB), BAD_ENC(CBC), BAD_ENC(XTS), BAD_ENC(LRW),
    /* Several faults at once: the first in the header's list wins. */
    {ECB, NO_KEY, "17", 2, CASM_ERR_NULL, 0},
    {ECB, 0, "17", 2, CASM_ERR_ENC, 0},
    {ECB, OVERLAP, "17", 1, CASM_ERR_LENGTH, 0},
    {ECB, ZERO_KEY, "17", 2, CASM_ERR_STATE, 0},
    /* Data may be NULL at length 0 (XTS then refuses the length), at no
     * other length; every other pointer is needed at length 0 too. */
    {ECB, NO_DATA | NO_OUT, "0", 1, 0, 0},
    {CBC, NO_DATA | NO_OUT, "0", 0, 0, 0},
    {CTR, NO_DATA | NO_OUT, "0", 1, 0, 0},
    {LRW, NO_DATA | NO_OUT, "0", 1, 0, 0},
    {XTS, NO_DATA | NO_OUT, "0", 1, CASM_ERR_LENGTH, 0},
    {ECB, NO_DATA, "16", 1, CASM_ERR_NULL, 0},
    {CTR, NO_OUT, "1", 1, CASM_ERR_NULL, 0},
    {XTS, NO_OUT, "16", 0, CASM_ERR_NULL, 0},
    {SHA1_ONESHOT, NO_DATA, "1", 1, CASM_ERR_NULL, 0},
    {SHA1_ONESHOT, NO_OUT, "3", 1, CASM_ERR_NULL, 0},       /* NULL md */
    {ECB, BOTH_WAYS | NO_KEY, "16", 1, CASM_ERR_NULL, 0},
    {CBC, BOTH_WAYS | NO_KEY, "16", 1, CASM_ERR_NULL, 0},
    {CBC, BOTH_WAYS | NO_IV, "16", 1, CASM_ERR_NULL, 0},
    {CTR, NO_KEY, "16", 1, CASM_ERR_NULL, 0},
    {XTS, NO_KEY, "16", 1, CASM_ERR_NULL, 0},
    {LRW, NO_KEY, "16", 1, CASM_ERR_NULL, 0},
    {ECB, NO_KEY | NO_DATA | NO_OUT, "0", 1, CASM_ERR_NULL, 0},
    {CBC, NO_KEY | NO_DATA | NO_OUT, "0", 1, CASM_ERR_NULL, 0},
    {CBC, NO_IV | NO_DATA | NO_OUT, "0", 1, CASM_ERR_NULL, 0},
    {CTR, NO_KEY | NO_DATA | NO_OUT, "0", 1, CASM_ERR_NULL, 0},
    {CTR, NO_IV | NO_DATA | NO_OUT, "0", 1, CASM_ERR_NULL, 0},
    {CTR, NO_ECOUNT | NO_DATA | NO_OUT, "0", 1, CASM_ERR_NULL, 0},
    {CTR, NO_NUM | NO_DATA | NO_OUT, "0", 1, CASM_ERR_NULL, 0},
    {XTS, NO_KEY | NO_DATA | NO_OUT, "0", 1, CASM_ERR_NULL, 0},
    {XTS, NO_IV | NO_DATA | NO_OUT, "0", 1, CASM_ERR_NULL, 0},
    {LRW, NO_KEY | NO_DATA | NO_OUT, "0", 1, CASM_ERR_NULL, 0},
    {LRW, NO_IV | NO_DATA | NO_OUT, "0", 1, CASM_ERR_NULL, 0},
    {SHA1_ONESHOT, NO_DATA | NO_OUT, "0", 1, CASM_ERR_NULL, 0},
};

/* The keys the table's mode calls use, set once in main(). */
static struct keys table_keys;
static AES_KEY xts_k1, xts_k2, xts_d1;      /* xts_k1 is LRW's AES key too */
static LRW128_TWEAK lrw_tweak;

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

/* The keys every row starts from. */
static void set_table_keys(void)
{
    if (casm_aes_set_key(&table_keys.aes, key32, 128) != 0 ||
        casm_aes_xts_set_key(&table_keys.xts, key64, 128) != 0 ||
        casm_aes_lrw_set_key(&table_keys.lrw, key64, 128) != 0)
        tap_bail("setting the keys failed");
}

/* One call of the table: row r at length (or key size) value, with enc. */
static int call_row(const struct row *r, long value, int enc, unsigned char *out,
                    unsigned char iv[16], unsigned int *num)
{
    static const CASM_AES_KEY zero;
    static AES_KEY ak;
    static unsigned char ecount[16];
    unsigned f = r->flags;
    size_t len = (size_t)value;
    int bits = (int)value;
    const CASM_AES_KEY *aes = f & NO_KEY ? NULL : f & ZERO_KEY ? &zero : &table_keys.aes;
    const unsigned char *in = f & NO_DATA ? NULL : f & OVERLAP ? out : input;
    const unsigned char *key = f & NO_KEY ? NULL : key64;
    unsigned char *o = f & NO_OUT ? NULL : f & OVERLAP ? out + 1 : out;
    unsigned char *v = f & NO_IV ? NULL : iv;
    unsigned char *e = f & NO_ECOUNT ? NULL : ecount;
    unsigned int *n = f & NO_NUM ? NULL : num;
    XTS128_CONTEXT ctx = {&xts_k1, &xts_k2, aes_enc_block, aes_enc_block};
    XTS128_CONTEXT dctx = {&xts_d1, &xts_k2, aes_dec_block, aes_enc_block};

    switch (r->op) {
    case ECB: return casm_aes_ecb(aes, in, o, len, enc);
    case CBC: return casm_aes_cbc(aes, in, o, len, v, enc);
    case CTR: return casm_aes_ctr(aes, in, o, len, v, e, n);
    case XTS: return casm_aes_xts(f & NO_KEY ? NULL : &table_keys.xts, v, in, o, len, enc);
    case LRW: return casm_aes_lrw(f & NO_KEY ? NULL : &table_keys.lrw, v, in, o, len, enc);
    case SHA1_ONESHOT: return casm_sha1(f & NO_DATA ? NULL : "abc", len, o);
    case SET_KEY: return casm_aes_set_key(f & NO_OUT ? NULL : &table_keys.aes, key, bits);
    case XTS_SET_KEY: return casm_aes_xts_set_key(f & NO_OUT ? NULL : &table_keys.xts, key, bits);
    case LRW_SET_KEY: return casm_aes_lrw_set_key(f & NO_OUT ? NULL : &table_keys.lrw, key, bits);
    case AES_SET_ENC: return AES_set_encrypt_key(key, bits, f & NO_OUT ? NULL : &ak);
    case AES_SET_DEC: return AES_set_decrypt_key(key, bits, f & NO_OUT ? NULL : &ak);
    case XTS128: return CRYPTO_xts128_encrypt(enc ? &ctx : &dctx, iv, in, o, len, enc);
    case LRW128: return CRYPTO_lrw128_encrypt(&lrw_tweak, &xts_k1, aes_enc_block, iv, in, o, len);
    }
    return 0;
}

/* Row r's call at value with enc returns its code, writes its bytes and
 * nothing past them, leaves the iv or counter alone when it writes
 * nothing, and CTR's num counts the bytes; else says what it did. */
static int row_ok(const struct row *r, long value, int enc)
{
    unsigned char out[64], iv[16];
    unsigned int num = 0;
    memset(out, SENTINEL, sizeof(out));
    memset(iv, SENTINEL, sizeof(iv));
    int rc = call_row(r, value, enc, out, iv, &num);
    int ok = rc == r->want
        && (r->writes == 0 || written(out, r->writes))
        && untouched(out + r->writes, sizeof(out) - r->writes, "out past its bytes")
        && (r->writes || untouched(iv, sizeof(iv), "iv"))
        && (r->op != CTR || num == r->writes % 16);
    if (!ok)
        tap_diag("  %s returned %d, num %u", op_name[r->op], rc, num);
    return ok;
}

/* The name a row's expected code has in the call's own header. */
static const char *code_name(const struct row *r)
{
    static const char *const casm[] = {
        "0", "CASM_ERR_NULL", "CASM_ERR_BITS", "CASM_ERR_LENGTH", "CASM_ERR_STATE",
        "CASM_ERR_ENC", "CASM_ERR_OVERLAP",
    };
    static char number[16];
    if (r->op < AES_SET_ENC && r->want <= 0 && r->want >= -6)
        return casm[-r->want];
    snprintf(number, sizeof(number), "%d", r->want);
    return number;
}

/* Each row at each of its values (both ways with BOTH_WAYS), from the
 * same keys. */
static void check_rows(void)
{
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        const struct row *r = &rows[i];
        int set_key = r->op >= SET_KEY && r->op <= AES_SET_DEC;
        int with_enc = r->op == ECB || r->op == CBC || r->op == XTS || r->op == LRW || r->op == XTS128;
        char what[200];
        int w = snprintf(what, sizeof(what), "%s", op_name[r->op]);
        for (int b = 0; flag_name[b]; b++)
            if (r->flags & 1u << b)
                w += snprintf(what + w, sizeof(what) - (size_t)w, ", %s",
                              set_key && b == 0 ? "NULL key bytes"
                              : set_key && b == 2 ? "NULL key object" : flag_name[b]);
        for (const char *p = r->values; *p; ) {
            char *end;
            long value = strtol(p, &end, 10);
            p = end + strspn(end, " ");
            for (int way = 0; way < (r->flags & BOTH_WAYS ? 2 : 1); way++) {
                int enc = way ? !r->enc : r->enc;
                char dir[16] = "";
                if (with_enc)
                    snprintf(dir, sizeof(dir), enc == 1 ? ", encrypt" : enc ? ", enc %d"
                             : ", decrypt", enc);
                set_table_keys();
                int ok = row_ok(r, value, enc);
                if (set_key)
                    tap_ok(ok, "%s, bits %ld: returns %s", what, value, code_name(r));
                else if (r->writes)
                    tap_ok(ok, "%s, len %ld%s: returns %s, writes %zu bytes and no more", what,
                           value, dir, code_name(r), r->writes);
                else
                    tap_ok(ok, "%s, len %ld%s: returns %s, writes nothing, iv untouched", what,
                           value, dir, code_name(r));
            }
        }
    }
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

/* The digests of the one-shot calls, casm_sha1 of NULL data at length 0
 * included; SHA1_Init/Update/Final return 1. */
static void test_sha1(void)
{
    unsigned char md[20];
    SHA_CTX c;
    int rc[4];

    memset(md, SENTINEL, sizeof(md));
    rc[0] = casm_sha1("", 0, md);
    tap_ok(rc[0] == 0 && digest_is(md, empty_hex, "got"),
           "casm_sha1 of the empty message returns 0 and gives da39a3ee...0709 (rc %d)", rc[0]);
    memset(md, SENTINEL, sizeof(md));
    tap_ok(SHA1((const unsigned char *)"", 0, md) == md && digest_is(md, empty_hex, "got"),
           "SHA1 of the empty message returns md and gives da39a3ee...0709");
    memset(md, SENTINEL, sizeof(md));
    rc[0] = SHA1_Init(&c), rc[1] = SHA1_Update(&c, "", 0), rc[2] = SHA1_Final(md, &c);
    tap_ok(rc[0] == 1 && rc[1] == 1 && rc[2] == 1 && digest_is(md, empty_hex, "got"),
           "SHA1_Init/Update(len 0)/Final return 1 (got %d %d %d) and give the empty-message "
           "digest", rc[0], rc[1], rc[2]);
    memset(md, SENTINEL, sizeof(md));
    rc[0] = casm_sha1("abc", 3, md);
    tap_ok(rc[0] == 0 && digest_is(md, abc_hex, "got"),
           "casm_sha1(\"abc\") returns 0 and gives a9993e36...d89d (rc %d)", rc[0]);
    memset(md, SENTINEL, sizeof(md));
    rc[0] = casm_sha1(NULL, 0, md);
    tap_ok(rc[0] == 0 && digest_is(md, empty_hex, "got"),
           "casm_sha1(NULL, 0, md) returns 0 and the empty message's digest (rc %d)", rc[0]);
    const char *impl = casm_sha1_impl();
    tap_ok(impl != NULL && impl[0] != '\0', "casm_sha1_impl names the block function (%s)",
           impl ? impl : "(null)");
}

/* Good key sizes: the rounds OpenSSL's calls set, the implementation
 * casm_aes_set_key names; an all-zero key object names none. */
static void test_good_keys(void)
{
    static const CASM_AES_KEY zero;
    for (int bits = 128; bits <= 256; bits += 64) {
        AES_KEY ks;
        CASM_AES_KEY k;
        for (int dec = 0; dec < 2; dec++) {
            memset(&ks, SENTINEL, sizeof(ks));
            int rc = dec ? AES_set_decrypt_key(key32, bits, &ks)
                         : AES_set_encrypt_key(key32, bits, &ks);
            tap_ok(rc == 0 && ks.rounds == bits / 32 + 6, "AES_set_%scrypt_key with bits %d "
                   "returns 0 (got %d) and sets rounds to %d (got %d)", dec ? "de" : "en", bits,
                   rc, bits / 32 + 6, ks.rounds);
        }
        int rc = casm_aes_set_key(&k, key32, bits);
        const char *impl = rc == 0 ? casm_aes_key_impl(&k) : NULL;
        tap_ok(rc == 0 && impl != NULL && impl[0] != '\0', "casm_aes_set_key with bits %d "
               "returns 0 (got %d) and names its implementation", bits, rc);
    }
    tap_ok(casm_aes_key_impl(&zero) == NULL,
           "casm_aes_key_impl of an all-zero key object is NULL");
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

/* Over a good key, a set_key that fails wipes the whole key object, and
 * the modes it serves then return CASM_ERR_STATE without writing (with
 * NULL data at length 0 too); a later good set_key makes it usable. */
static void test_failed_set_key(void)
{
    static const struct row fail[] = {
        {SET_KEY, 0, "100", 0, CASM_ERR_BITS, 0},
        {SET_KEY, NO_KEY, "128", 0, CASM_ERR_NULL, 0},
        {XTS_SET_KEY, 0, "100", 0, CASM_ERR_BITS, 0},
        {XTS_SET_KEY, NO_KEY, "128", 0, CASM_ERR_NULL, 0},
        {XTS_SET_KEY, 0, "192", 0, CASM_ERR_BITS, 0},       /* an AES size, not an XTS one */
        {LRW_SET_KEY, 0, "100", 0, CASM_ERR_BITS, 0},
        {LRW_SET_KEY, NO_KEY, "128", 0, CASM_ERR_NULL, 0},
    };
    /* The calls refused after each: {first, last} in refused[]. */
    static const struct row refused[] = {
        {ECB, 0, "32", 1, CASM_ERR_STATE, 0}, {CBC, 0, "32", 0, CASM_ERR_STATE, 0},
        {CTR, 0, "32", 1, CASM_ERR_STATE, 0}, {ECB, NO_DATA | NO_OUT, "0", 0, CASM_ERR_STATE, 0},
        {XTS, 0, "32", 1, CASM_ERR_STATE, 0}, {LRW, 0, "32", 0, CASM_ERR_STATE, 0},
    };
    static const size_t serves[][2] = {{0, 3}, {4, 4}, {5, 5}};
    static const struct { void *obj; size_t size; } objs[] = {
        {&table_keys.aes, sizeof(table_keys.aes)},
        {&table_keys.xts, sizeof(table_keys.xts)},
        {&table_keys.lrw, sizeof(table_keys.lrw)},
    };

    for (size_t i = 0; i < sizeof(fail) / sizeof(fail[0]); i++) {
        const struct row *f = &fail[i];
        size_t k = (size_t)(f->op - SET_KEY);
        long bits = strtol(f->values, NULL, 10);
        set_table_keys();
        int ok = row_ok(f, bits, 0) && all_zero(objs[k].obj, objs[k].size)
            && (k != 0 || casm_aes_key_impl(&table_keys.aes) == NULL);
        for (size_t j = serves[k][0]; j <= serves[k][1]; j++)
            ok &= row_ok(&refused[j], strtol(refused[j].values, NULL, 10), refused[j].enc);
        tap_ok(ok, "%s%s, bits %ld over a good key returns %d and wipes the whole key%s; "
               "%s then return CASM_ERR_STATE, writing nothing", op_name[f->op],
               f->flags & NO_KEY ? ", NULL key bytes" : "", bits, f->want,
               k ? "" : " (casm_aes_key_impl gives NULL)",
               k == 0 ? "casm_aes_ecb, _cbc and _ctr" : op_name[refused[serves[k][0]].op]);
    }
    set_table_keys();
    unsigned char out[64];
    check_rc(casm_aes_set_key(&table_keys.aes, key32, 100) != CASM_ERR_BITS ||
             casm_aes_set_key(&table_keys.aes, key32, 128) ||
             casm_aes_ecb(&table_keys.aes, input, out, 16, 1), 0,
             "casm_aes_set_key after a failed one makes the key usable again");
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
        int rc = casm_aes_xts(&xk, iv, buf, buf, max + over[i], 1);
        tap_ok(rc == CASM_ERR_LENGTH && untouched(buf, max + 32, "buffer"), "casm_aes_xts of "
               "2^24 + %zu bytes returns CASM_ERR_LENGTH (got %d), buffer untouched", over[i], rc);
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

static const char *const mode_name[NMODES] = {"ECB", "CBC", "CTR", "XTS", "LRW"};
/* Lengths a multiple of 16 where the mode needs it; else with a tail. */
static const size_t mode_len[NMODES] = {80, 80, 77, 77, 80};


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

    if (AES_set_encrypt_key(key64, 128, &xts_k1) != 0 ||
        AES_set_encrypt_key(key64 + 16, 128, &xts_k2) != 0 ||
        AES_set_decrypt_key(key64, 128, &xts_d1) != 0)
        tap_bail("setting the keys failed");
    CRYPTO_lrw128_init(&lrw_tweak, key64 + 16);

    check_rows();
    test_good_keys();
    test_sha1();
    test_failed_set_key();
    test_xts_limit();
    test_buffers();
    test_sha1_stream();
    return tap_done();
}
