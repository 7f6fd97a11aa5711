/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Random workload through OpenSSL's AES_* names against the C AES
 * (aes_c_*), and a SHA-1 digest of every output.  Built twice: -m32 with
 * crypto/aes/asm/aes-586.pl behind AES_* (run under qemu-i386), and
 * natively with the 64-bit archive; the two digests must be equal
 * (test/t/81-aes586.t compares them).
 *
 *   aes586_diff [CASES [SEED]]      prints TAP and a "# digest HEX" line
 *
 * Each case: a random key size, key, IV and length 0..4096 (partial last
 * blocks included), source and destination at random offsets or in
 * place; key schedules compared word for word, CBC both directions
 * (ivec included), one block each way.  With AES586 defined the hidden
 * per-path entries of aes-586 (full tables, compact CBC) are compared too.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/aes.h>
#include <openssl/sha.h>

#include "aes/aes_c.h"
#include "lib/tap.h"
#include "lib/workload.h"

#ifdef AES586
#include "aes/aes586.h"
#endif

enum { MAXLEN = 4096, SLACK = 64 };

typedef void (*cbc_fn)(const unsigned char *, unsigned char *, size_t,
                       const AES_KEY *, unsigned char *, const int);
typedef void (*block_fn)(const unsigned char *, unsigned char *, const AES_KEY *);

static int same_schedule(const AES_KEY *a, const AES_KEY *b)
{
    return a->rounds == b->rounds &&
           memcmp(a->rd_key, b->rd_key, 16 * (size_t)(a->rounds + 1)) == 0;
}

/* CBC through f and through the C AES from the same state; 1 if equal. */
static int cbc_same(cbc_fn f, const unsigned char *src, size_t len,
                    const AES_KEY *k, const AES_KEY *ck, const unsigned char *iv0,
                    int enc, size_t off, int in_place, unsigned char *got_out)
{
    static unsigned char a[MAXLEN + SLACK], b[MAXLEN + SLACK];
    unsigned char iva[16], ivb[16];
    size_t whole = (len + 15) & ~(size_t)15;
    unsigned char *dst = a + off;

    memset(a, 0xa5, sizeof(a));
    memset(b, 0xa5, sizeof(b));
    memcpy(iva, iv0, 16);
    memcpy(ivb, iv0, 16);
    if (in_place) {
        memcpy(dst, src, enc ? len : whole);
        f(dst, dst, len, k, iva, enc);
    } else {
        f(src, dst, len, k, iva, enc);
    }
    aes_c_cbc_encrypt(src, b + off, len, ck, ivb, enc);
    if (got_out)
        memcpy(got_out, dst, whole);
    /* in place, an encryption's padding bytes came from dst: compare whole
     * blocks written; decryption writes exactly len bytes */
    size_t cmp = enc ? whole : len;
    return memcmp(dst, b + off, cmp) == 0 && memcmp(iva, ivb, 16) == 0 &&
           (in_place || memcmp(a + off + cmp, b + off + cmp, 16) == 0);
}

int main(int argc, char **argv)
{
    long cases = argc > 1 ? atol(argv[1]) : 1000;
    rng_state = argc > 2 ? strtoull(argv[2], NULL, 0) : 0x586586586ull;
    static unsigned char src_buf[MAXLEN + SLACK], ct[MAXLEN + 16];
    unsigned char key[32], iv[16], blk[16], blk_c[16], md[20];
    AES_KEY ek, dk, cek, cdk;
    SHA_CTX sha;
    struct check sched = { "key schedules equal aes_core.c's", 0, 0 },
                 cbc = { "AES_cbc_encrypt both ways equals the C CBC", 0, 0 },
                 block = { "AES_encrypt/AES_decrypt equal aes_c_encrypt/decrypt", 0, 0 };
#ifdef AES586
    struct check paths = { "aes586 full and compact entries equal the C AES", 0, 0 };
#endif

    tap_ok(AES_set_encrypt_key(NULL, 128, &ek) == -1 && AES_set_encrypt_key(key, 128, NULL) == -1 &&
           AES_set_decrypt_key(NULL, 128, &dk) == -1 && AES_set_encrypt_key(key, 129, &ek) == -2 &&
           AES_set_decrypt_key(key, 0, &dk) == -2 && AES_set_encrypt_key(key, 192, &ek) == 0 &&
           ek.rounds == 12, "AES_set_*_key return -1 (NULL), -2 (bad bits), 0 (rounds 12 for 192)");

    SHA1_Init(&sha);
    for (long n = 0; n < cases; n++) {
        int bits = 128 + 64 * (int)(rnd() % 3);
        size_t len = rnd() % (MAXLEN + 1);
        size_t off_in = rnd() % 16, off_out = rnd() % 16;
        int in_place = rnd() & 1;
        size_t whole = (len + 15) & ~(size_t)15;
        unsigned char *src = src_buf + off_in;

        fill(key, sizeof(key));
        fill(iv, sizeof(iv));
        fill(src, whole);
        int rc = AES_set_encrypt_key(key, bits, &ek) | AES_set_decrypt_key(key, bits, &dk);
        aes_c_set_encrypt_key(key, bits, &cek);
        aes_c_set_decrypt_key(key, bits, &cdk);
        note(&sched, rc == 0 && same_schedule(&ek, &cek) && same_schedule(&dk, &cdk), n);

        note(&cbc, cbc_same(AES_cbc_encrypt, src, len, &ek, &cek, iv, 1, off_out, in_place, ct), n);
        SHA1_Update(&sha, ct, whole);
        note(&cbc, cbc_same(AES_cbc_encrypt, ct, len, &dk, &cdk, iv, 0, off_out, in_place, NULL), n);

        AES_encrypt(src, blk, &ek);
        aes_c_encrypt(src, blk_c, &cek);
        int ok = memcmp(blk, blk_c, 16) == 0;
        SHA1_Update(&sha, blk, 16);
        memcpy(blk, src, 16);
        AES_decrypt(blk, blk, &dk);           /* in place */
        aes_c_decrypt(src, blk_c, &cdk);
        note(&block, ok && memcmp(blk, blk_c, 16) == 0, n);
        SHA1_Update(&sha, blk, 16);

#ifdef AES586
        static const struct { cbc_fn f; } cbcs[] = { { aes586_cbc_encrypt_full },
                                                     { aes586_cbc_encrypt_compact } };
        ok = 1;
        for (size_t i = 0; i < 2; i++)
            for (int enc = 0; enc <= 1; enc++)
                ok &= cbc_same(cbcs[i].f, enc ? src : ct, len, enc ? &ek : &dk,
                               enc ? &cek : &cdk, iv, enc, off_out, in_place, NULL);
        aes586_encrypt_full(src, blk, &ek);
        aes_c_encrypt(src, blk_c, &cek);
        ok &= memcmp(blk, blk_c, 16) == 0;
        aes586_decrypt_full(src, blk, &dk);
        aes_c_decrypt(src, blk_c, &cdk);
        ok &= memcmp(blk, blk_c, 16) == 0;
        note(&paths, ok, n);
#endif
    }
    SHA1_Final(md, &sha);

    struct check *all[] = { &sched, &cbc, &block,
#ifdef AES586
                            &paths,
#endif
    };
    workload_report(all, sizeof(all) / sizeof(all[0]), cases, md);
    return tap_done();
}
