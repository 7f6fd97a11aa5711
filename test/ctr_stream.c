/* SPDX-License-Identifier: Apache-2.0 */
/*
 * casm_aes_ctr's edge cases, through every AES implementation in the
 * registry: whole-block calls that stay below, end exactly at and cross
 * the 2^32 wrap of the counter's low word, the 2^128 wrap of the whole
 * counter, and calls split at arbitrary bytes so that whole-block lengths
 * arrive with key stream pending (*num != 0).  These are the seams of the
 * API's whole-block fast path and of the general mode it falls back to.
 *
 * The reference is built here from the C AES block function alone (the
 * "c" entry's encrypt: key stream block i = E(counter + i), counter read
 * as a 128-bit big-endian number), so it shares no mode code with what it
 * checks.  After each sequence the output, the counter (one step per
 * block begun) and *num (bytes used of the last key-stream block) must
 * all match.  Implementations the CPU lacks are counted SKIPs.  Prints TAP.
 */
#include <stdio.h>
#include <string.h>

#include "impl.h"
#include "lib/tap.h"

enum { MAXLEN = 2048 };

struct ctr_case {
    const char *what;
    unsigned char counter[16];
    size_t pieces[16];          /* lengths of successive calls, 0 ends */
    int in_place;
};

/* Fixed upper 96 bits, the low word's bytes given (big-endian). */
#define LOW(a, b, c, d) { 0x0f, 0x1e, 0x2d, 0x3c, 0x4b, 0x5a, 0x69, 0x78, \
                          0x87, 0x96, 0xa5, 0xb4, a, b, c, d }
/* All ones but the last byte: the whole 128 bits about to wrap. */
#define ALL_FF(d) { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, \
                    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, d }

static const struct ctr_case cases[] = {
    { "16-byte calls across the 2^32 wrap", LOW(0xff, 0xff, 0xff, 0xfc),
      { 16, 16, 16, 16, 16, 16, 16, 16 }, 0 },
    { "one call ending exactly at the 2^32 wrap, then more",
      LOW(0xff, 0xff, 0xff, 0xfc), { 64, 16, 32 }, 0 },
    { "one call stopping one block short of the 2^32 wrap",
      LOW(0xff, 0xff, 0xff, 0xfb), { 64, 16, 16 }, 0 },
    { "one call crossing the 2^32 wrap", LOW(0xff, 0xff, 0xff, 0xfe),
      { 80, 16 }, 0 },
    { "long call crossing the 2^32 wrap", LOW(0xff, 0xff, 0xff, 0xf0),
      { 1024, 16 }, 0 },
    { "16-byte calls across the 2^128 wrap", ALL_FF(0xfd),
      { 16, 16, 16, 16, 16, 16 }, 0 },
    { "one call across the 2^128 wrap", ALL_FF(0xfe), { 96, 16 }, 0 },
    { "whole blocks with key stream pending", LOW(0x00, 0x00, 0x01, 0x00),
      { 5, 16, 32, 11, 16, 48, 3, 13, 16, 1, 15, 16 }, 0 },
    { "pending key stream across the 2^32 wrap", LOW(0xff, 0xff, 0xff, 0xfe),
      { 7, 16, 16, 9, 16, 32 }, 0 },
    { "byte-at-a-time then whole blocks", LOW(0x12, 0x34, 0x56, 0x78),
      { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 17 }, 0 },
    { "whole blocks in place across the 2^32 wrap",
      LOW(0xff, 0xff, 0xff, 0xfe), { 16, 16, 48, 16, 160 }, 1 },
    /*
     * aesni's eight-block loop makes a group's counters from one byte swap
     * unless the low byte carries within the group.  Groups starting at
     * low bytes 0xf1, 0xf9 (carry) and 0x01; 0xf7 and 0xff (carry); 0xf0,
     * 0xf8 (the last without a carry) and 0x00.
     */
    { "eight-block groups across a low-byte carry",
      LOW(0x00, 0x00, 0x01, 0xf1), { 384, 16 }, 0 },
    { "an eight-block group from low byte 0xff",
      LOW(0x00, 0x00, 0x02, 0xf7), { 256, 16 }, 0 },
    { "eight-block groups up to a low-byte carry",
      LOW(0x00, 0x00, 0x03, 0xf0), { 384, 16 }, 0 },
};

static unsigned char key[32], msg[MAXLEN];

static void fill(unsigned char *p, size_t n, unsigned int seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        p[i] = (unsigned char)(seed >> 16);
    }
}

static void add_128(unsigned char c[16], size_t n)
{
    for (int i = 15; i >= 0 && n != 0; i--) {
        n += c[i];
        c[i] = (unsigned char)n;
        n >>= 8;
    }
}

/* msg[0..len) in counter mode from counter, with the C AES block alone. */
static void reference(const struct casm_aes_impl *c, int bits,
                      const unsigned char counter[16], size_t len,
                      unsigned char *out)
{
    AES_KEY ks;
    unsigned char ctr[16], stream[16];
    if (c->set_encrypt_key(key, bits, &ks) != 0)
        tap_bail("C AES-%d key schedule failed", bits);
    memcpy(ctr, counter, 16);
    for (size_t off = 0; off < len; off += 16) {
        c->encrypt(ctr, stream, &ks);
        add_128(ctr, 1);
        for (size_t i = off; i < len && i < off + 16; i++)
            out[i] = msg[i] ^ stream[i - off];
    }
}

/* Runs one case through im; NULL on success, else what went wrong. */
static const char *check(const struct casm_aes_impl *im,
                         const struct casm_aes_impl *c, int bits,
                         const struct ctr_case *t, size_t *at)
{
    static unsigned char want[MAXLEN], got[MAXLEN];
    static CASM_AES_KEY k;
    unsigned char ctr[16], ecount[16], want_ctr[16];
    unsigned int num = 0;
    size_t total = 0;

    for (const size_t *p = t->pieces; p < t->pieces + 16 && *p; p++)
        total += *p;
    if (total > MAXLEN)
        tap_bail("case \"%s\" is longer than %d bytes", t->what, MAXLEN);
    reference(c, bits, t->counter, total, want);
    if (casm_aes_set_key_with(&k, im, key, bits) != 0)
        return "casm_aes_set_key_with failed";

    memcpy(ctr, t->counter, 16);
    memset(ecount, 0xa5, sizeof(ecount));      /* unused while num == 0 */
    memset(got, 0, sizeof(got));
    if (t->in_place)
        memcpy(got, msg, total);
    size_t done = 0;
    for (const size_t *p = t->pieces; p < t->pieces + 16 && *p; p++) {
        const unsigned char *src = t->in_place ? got + done : msg + done;
        if (casm_aes_ctr(&k, src, got + done, *p, ctr, ecount, &num) != 0) {
            *at = done;
            return "an error return";
        }
        done += *p;
    }
    for (size_t i = 0; i < total; i++) {
        if (got[i] != want[i]) {
            *at = i;
            return "different bytes at offset";
        }
    }
    memcpy(want_ctr, t->counter, 16);
    add_128(want_ctr, (total + 15) / 16);
    *at = total;
    if (memcmp(ctr, want_ctr, 16) != 0) {
        tap_hexdump("counter", ctr, 16);
        tap_hexdump("want", want_ctr, 16);
        return "a wrong final counter after bytes";
    }
    if (num != total % 16)
        return "a wrong final num after bytes";
    return NULL;
}

int main(void)
{
    const struct casm_aes_impl *c = casm_aes_impl_by_name("c");
    if (c == NULL)
        tap_bail("no \"c\" AES implementation in the registry");
    fill(key, sizeof(key), 7);
    fill(msg, sizeof(msg), 8);

    for (size_t i = 0; i < casm_aes_impl_count; i++) {
        const struct casm_aes_impl *im = casm_aes_impls[i];
        if (!casm_cpu_has(im->need)) {
            tap_skip(im->need_name, "%s: this CPU lacks it", im->name);
            continue;
        }
        for (size_t n = 0; n < sizeof(cases) / sizeof(cases[0]); n++) {
            for (int bits = 128; bits <= 256; bits += 128) {
                size_t at = 0;
                const char *bad = check(im, c, bits, &cases[n], &at);
                if (!tap_ok(bad == NULL, "%s AES-%d CTR: %s", im->name, bits,
                            cases[n].what))
                    tap_diag("%s %zu", bad, at);
            }
        }
    }
    return tap_done();
}
