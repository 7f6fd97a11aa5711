/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A random workload through OpenSSL's aesni_* functions, and a SHA-1 digest
 * of every output.  Built twice: -m32 with crypto/aes/asm/aesni-x86.pl
 * (run under qemu-i386) and natively with aesni-x86_64.pl; the two
 * digests must be equal (test/t/84-aesni-x86.t compares them), so every
 * mode of the 32-bit module computes what the 64-bit one does.  In the
 * program itself each case is also decrypted back (ECB, CBC, CTR32, XTS,
 * CCM64 and OCB round trips, with the CCM and OCB state equal both ways)
 * and CBC is checked against the C AES.  The dispatching API's LRW
 * (casm_aes_lrw over the chosen implementation's block function) goes
 * into the digest too.
 *
 *   aesni86_diff [CASES [SEED]]      prints TAP and a "# digest HEX" line
 *
 * Each case: a random key size and key, lengths 0..4096 bytes (XTS 16 up,
 * partial blocks included), source and destination at random offsets or
 * in place, counters near their wraps.  The data key schedules sit at a
 * 16-byte aligned address in even cases and 4 bytes past one in odd cases
 * (nothing may assume an aligned AES_KEY); the first cases take block
 * counts around groups of six and eight (5..9, 14..17, 24), each in both
 * placements, whole and with 5 more bytes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cryptoasm.h>
#include <openssl/aes.h>
#include <openssl/sha.h>

#include "aes/aes_c.h"
#include "lib/tap.h"
#include "lib/workload.h"

/* The prototypes both modules export (include/crypto/aes_platform.h). */
#include "variants.h"

enum { MAXLEN = 4096, SLACK = 64 };

static SHA_CTX sha;
static void digest(const void *p, size_t n) { SHA1_Update(&sha, p, n); }

/* Where a case's output goes: a random offset of b, or in place over a
 * copy of src there. */
static unsigned char *place(unsigned char *b, const unsigned char *src, size_t n,
                            size_t off, int in_place)
{
    memset(b, 0xa5, MAXLEN + SLACK);
    if (in_place)
        memcpy(b + off, src, n);
    return b + off;
}

int main(int argc, char **argv)
{
    long cases = argc > 1 ? atol(argv[1]) : 500;
    rng_state = argc > 2 ? strtoull(argv[2], NULL, 0) : 0x86aee5ull;
    static unsigned char src_buf[MAXLEN + SLACK], a[MAXLEN + SLACK], b[MAXLEN + SLACK],
        c[MAXLEN + SLACK], L_[33][16];
    unsigned char key[64], iv[16], iv2[16], s1[16], s2[16], t1[16], t2[16];
    /* where ek and dk go: 0 or 4 bytes past a 16-byte boundary */
    static unsigned char ek_buf[sizeof(AES_KEY) + 32] __attribute__((aligned(16))),
        dk_buf[sizeof(AES_KEY) + 32] __attribute__((aligned(16)));
    /* block counts around groups of six (aesni-x86) and eight (aesni-x86_64) */
    static const size_t edges[] = { 5, 6, 7, 8, 9, 14, 15, 16, 17, 24 };
    enum { NEDGES = sizeof(edges) / sizeof(edges[0]) };
    AES_KEY ek2, dk2, cek;
    struct check sched = { "aesni_set_*_key: 0 and 9/11/13 rounds, or -1 (NULL) and -2 (bad bits)", 0, 0 },
                 rt = { "ECB, CBC, CTR32, XTS, CCM64 and OCB decrypt what they encrypt", 0, 0 },
                 cbc = { "aesni_cbc_encrypt equals the C CBC (ivec included)", 0, 0 },
                 state = { "CCM64's cmac and OCB's offset and checksum agree both ways", 0, 0 };

    SHA1_Init(&sha);
    for (long n = 0; n < cases; n++) {
        int bits = 128 + 64 * (int)(rnd() % 3);
        size_t len = rnd() % (MAXLEN + 1), whole = len & ~(size_t)15, blocks = len / 16;
        size_t off_in = rnd() % 16, off_out = rnd() % 16;
        int in_place = rnd() & 1;
        unsigned char *src = src_buf + off_in, *x, *y;
        AES_KEY *ek = (AES_KEY *)(ek_buf + 16 + 4 * (n & 1)),
                *dk = (AES_KEY *)(dk_buf + 16 + 4 * (n & 1));
        if (n < 4 * NEDGES) {              /* each edge, both placements, + 0 and + 5 bytes */
            len = 16 * edges[n / 2 % NEDGES] + (n >= 2 * NEDGES ? 5 : 0);
            whole = len & ~(size_t)15;
            blocks = len / 16;
        }

        fill(key, sizeof(key));
        fill(iv, sizeof(iv));
        fill(src, len + 16);
        int rc = aesni_set_encrypt_key(key, bits, ek) | aesni_set_decrypt_key(key, bits, dk)
                 | aesni_set_encrypt_key(key + 32, 128, &ek2) | aesni_set_decrypt_key(key + 32, 128, &dk2);
        note(&sched, rc == 0 && ek->rounds == bits / 32 + 5 && dk->rounds == ek->rounds
             && aesni_set_encrypt_key(NULL, bits, &ek2) == -1
             && aesni_set_decrypt_key(key, bits, NULL) == -1
             && aesni_set_encrypt_key(key, bits + 1, &ek2) == -2
             && aesni_set_encrypt_key(key + 32, 128, &ek2) == 0, n);
        digest(ek->rd_key, 16 * (size_t)(ek->rounds + 2));
        digest(dk->rd_key, 16 * (size_t)(dk->rounds + 2));
        aes_c_set_encrypt_key(key, bits, &cek);
        int ok = 1;

        /* ECB */
        x = place(a, src, len, off_out, in_place);
        aesni_ecb_encrypt(in_place ? x : src, x, len, ek, 1);
        digest(x, whole);
        y = place(b, x, whole, off_in, in_place);
        aesni_ecb_encrypt(in_place ? y : x, y, whole, dk, 0);
        ok &= memcmp(y, src, whole) == 0;

        /* CBC, against the C CBC too */
        memcpy(iv2, iv, 16);
        x = place(a, src, len, off_out, in_place);
        aesni_cbc_encrypt(in_place ? x : src, x, len, ek, iv2, 1);
        {
            unsigned char civ[16];
            memcpy(civ, iv, 16);
            aes_c_cbc_encrypt(src, c, len, &cek, civ, 1);
            note(&cbc, memcmp(c, x, (len + 15) & ~(size_t)15) == 0 && memcmp(civ, iv2, 16) == 0, n);
        }
        digest(x, (len + 15) & ~(size_t)15);
        digest(iv2, 16);
        memcpy(iv2, iv, 16);
        y = place(b, x, whole, off_in, in_place);
        aesni_cbc_encrypt(in_place ? y : x, y, whole, dk, iv2, 0);
        ok &= memcmp(y, src, whole) == 0;

        /* CTR32, the counter word near its wrap */
        iv[12] = iv[13] = 0xff;
        x = place(a, src, len, off_out, in_place);
        aesni_ctr32_encrypt_blocks(in_place ? x : src, x, blocks, ek, iv);
        digest(x, whole);
        y = place(b, x, whole, off_in, in_place);
        aesni_ctr32_encrypt_blocks(in_place ? y : x, y, blocks, ek, iv);
        ok &= memcmp(y, src, whole) == 0;

        /* XTS (16 bytes up), key2 the tweak key */
        size_t xlen = len < 16 ? 16 + len : len;
        x = place(a, src, xlen, off_out, in_place);
        aesni_xts_encrypt(in_place ? x : src, x, xlen, ek, &ek2, iv);
        digest(x, xlen);
        y = place(b, x, xlen, off_in, in_place);
        aesni_xts_decrypt(in_place ? y : x, y, xlen, dk, &ek2, iv);
        ok &= memcmp(y, src, xlen) == 0;

        /* CCM64: the counter's low bytes near the 64-bit wrap */
        iv[8] = iv[9] = iv[10] = iv[11] = iv[12] = iv[13] = 0xff;
        fill(s1, 16);
        memcpy(s2, s1, 16);
        x = place(a, src, len, off_out, in_place);
        aesni_ccm64_encrypt_blocks(in_place ? x : src, x, blocks, ek, iv, s1);
        digest(x, whole);
        digest(s1, 16);
        y = place(b, x, whole, off_in, in_place);
        aesni_ccm64_decrypt_blocks(in_place ? y : x, y, blocks, ek, iv, s2);
        ok &= memcmp(y, src, whole) == 0;
        int st = memcmp(s1, s2, 16) == 0;

        /* OCB from a random block number (ntz up to 32 needs 33 entries) */
        size_t start = 1 + rnd() % 100000;
        fill(L_[0], sizeof(L_));
        fill(t1, 16);
        memcpy(t2, t1, 16);
        fill(s1, 16);
        memcpy(s2, s1, 16);
        x = place(a, src, len, off_out, in_place);
        aesni_ocb_encrypt(in_place ? x : src, x, blocks, ek, start, t1,
                          (const unsigned char (*)[16])L_, s1);
        digest(x, whole);
        digest(t1, 16);
        digest(s1, 16);
        y = place(b, x, whole, off_in, in_place);
        aesni_ocb_decrypt(in_place ? y : x, y, blocks, dk, start, t2,
                          (const unsigned char (*)[16])L_, s2);
        ok &= memcmp(y, src, whole) == 0;
        st &= memcmp(t1, t2, 16) == 0 && memcmp(s1, s2, 16) == 0;
        note(&rt, ok, n);
        note(&state, st, n);

        /* LRW through the dispatching API (16 bytes up, whole blocks) */
        if (whole >= 16) {
            CASM_AES_LRW_KEY lk;
            unsigned char index[16];
            fill(index, 16);
            if (casm_aes_lrw_set_key(&lk, key, bits) == 0
                && casm_aes_lrw(&lk, index, src, a, whole, 1) == 0)
                digest(a, whole);
            else
                note(&rt, 0, n);
        }
    }
    unsigned char md[20];
    SHA1_Final(md, &sha);

    struct check *all[] = { &sched, &rt, &cbc, &state };
    workload_report(all, sizeof(all) / sizeof(all[0]), cases, md);
    return tap_done();
}
