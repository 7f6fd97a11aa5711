/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every length from 0 to 1024 bytes through every AES implementation in the
 * registry, against the C AES (the "c" entry): ECB and CBC (whole blocks),
 * CTR (any length, counter starting just below the 2^32 wrap) and XTS (16
 * bytes up, with stealing), both directions, out of place with unaligned
 * buffers and in place.  Wide code has a main loop, a group tail and a
 * block tail; stepping the length by one byte reaches every seam.
 * Implementations the CPU lacks are counted SKIPs.  Prints TAP.
 */
#include <stdio.h>
#include <string.h>

#include "impl.h"
#include "lib/tap.h"

enum { MAXLEN = 1024 };

static unsigned char key[64], iv0[16], in[MAXLEN + 1];

static void fill(unsigned char *p, size_t n, unsigned int seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        p[i] = (unsigned char)(seed >> 16);
    }
}

/* One mode at one length through implementation im; 0 on success. */
static int run(const struct casm_aes_impl *im, char mode, int bits,
               size_t len, int enc, int in_place, unsigned char *out)
{
    static CASM_AES_KEY k;
    static CASM_AES_XTS_KEY xk;
    unsigned char iv[16], ecount[16];
    unsigned int num = 0;
    const unsigned char *src = in + 1;

    memcpy(iv, iv0, 16);
    if (in_place) {
        memcpy(out, in + 1, len);
        src = out;
    }
    switch (mode) {
    case 'e':
        return casm_aes_set_key_with(&k, im, key, bits) ||
               casm_aes_ecb(&k, src, out, len, enc);
    case 'c':
        return casm_aes_set_key_with(&k, im, key, bits) ||
               casm_aes_cbc(&k, src, out, len, iv, enc);
    case 't':
        return casm_aes_set_key_with(&k, im, key, bits) ||
               casm_aes_ctr(&k, src, out, len, iv, ecount, &num);
    default:
        return casm_aes_xts_set_key_with(&xk, im, key, bits) ||
               casm_aes_xts(&xk, iv, src, out, len, enc);
    }
}

static void check_impl(const struct casm_aes_impl *im, const struct casm_aes_impl *ref)
{
    static const struct { char mode; const char *name; } modes[] = {
        { 'e', "ECB" }, { 'c', "CBC" }, { 't', "CTR" }, { 'x', "XTS" },
    };
    static unsigned char want[MAXLEN + 16], got[MAXLEN + 16];

    for (size_t m = 0; m < 4; m++) {
        for (int bits = 128; bits <= 256; bits += 128) {
            long cases = 0;
            const char *bad = NULL;
            size_t bad_len = 0;
            for (size_t len = 0; len <= MAXLEN && !bad; len++) {
                char mode = modes[m].mode;
                if ((mode == 'e' || mode == 'c') && len % 16)
                    continue;
                if (mode == 'x' && len < 16)
                    continue;
                for (int enc = 1; enc >= 0 && !bad; enc--) {
                    if (mode == 't' && !enc)
                        continue;       /* CTR is one operation */
                    for (int in_place = 0; in_place < 2 && !bad; in_place++) {
                        if (run(ref, mode, bits, len, enc, 0, want) ||
                            run(im, mode, bits, len, enc, in_place, got))
                            bad = "an error return";
                        else if (memcmp(want, got, len) != 0)
                            bad = in_place ? "different bytes in place"
                                           : "different bytes";
                        bad_len = len;
                        cases++;
                    }
                }
            }
            if (!tap_ok(bad == NULL, "%s AES-%d %s: lengths 0..%d, %ld cases equal the C AES",
                        im->name, bits, modes[m].name, MAXLEN, cases))
                tap_diag("%s at length %zu", bad, bad_len);
        }
    }
}

int main(void)
{
    const struct casm_aes_impl *ref = casm_aes_impl_by_name("c");
    if (ref == NULL)
        tap_bail("no \"c\" AES implementation in the registry");
    fill(key, sizeof(key), 1);
    fill(in, sizeof(in), 2);
    fill(iv0, 16, 3);
    iv0[12] = iv0[13] = iv0[14] = 0xff;   /* CTR: the low 32 bits wrap early */
    iv0[15] = 0xf0;

    for (size_t i = 0; i < casm_aes_impl_count; i++) {
        const struct casm_aes_impl *im = casm_aes_impls[i];
        if (im == ref)
            continue;
        if (!casm_cpu_has(im->need)) {
            tap_skip(im->need_name, "%s: this CPU lacks it", im->name);
            continue;
        }
        check_impl(im, ref);
    }
    return tap_done();
}
