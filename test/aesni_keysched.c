/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Our AES-NI key schedules against OpenSSL's, byte for byte.
 *
 * OpenSSL's aesni_set_encrypt_key / aesni_set_decrypt_key come from the
 * system's libcrypto.a with every symbol renamed to ossl_... (see
 * test/aesni/aesni.mk); ours are the archive's aesni_set_*_key.  OpenSSL
 * picks one of two schedule generators from OPENSSL_ia32cap_P[1] (the
 * aeskeygenassist one, or the aesenclast one when AVX is set and XOP is
 * not); its copy of that word is ossl_OPENSSL_ia32cap_P, defined here, so
 * both generators are run and both are reference.
 *
 * For each key size: KEYS random keys (fixed seed), both directions; the
 * whole AES_KEY (round keys, bytes past the last round key, and the rounds
 * field at offset 240) must equal OpenSSL's, both buffers filled with the
 * same pattern before the call.  Then the return codes for NULL arguments
 * and bad sizes, and what a rejected call leaves in the buffer.
 *
 * Environment: KEYSCHED_KEYS (default 4000), KEYSCHED_SEED.
 */
#include <cpuid.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "openssl/aes.h"
#include "lib/tap.h"

/* Ours (libcrypto-asm.a); without the modules, names that are never called. */
#ifdef CASM_AESNI_ASM
int aesni_set_encrypt_key(const unsigned char *key, int bits, AES_KEY *k);
int aesni_set_decrypt_key(const unsigned char *key, int bits, AES_KEY *k);
#else
#define aesni_set_encrypt_key ossl_aesni_set_encrypt_key
#define aesni_set_decrypt_key ossl_aesni_set_decrypt_key
#endif

/* OpenSSL's, renamed.  Weak: absent when the build found no libcrypto.a. */
extern int ossl_aesni_set_encrypt_key(const unsigned char *key, int bits,
                                      AES_KEY *k) __attribute__((weak));
extern int ossl_aesni_set_decrypt_key(const unsigned char *key, int bits,
                                      AES_KEY *k) __attribute__((weak));

/* What OpenSSL's object reads as OPENSSL_ia32cap_P. */
unsigned int ossl_OPENSSL_ia32cap_P[4];

#define CAP1_AVX (1u << 28)

typedef int (*setkey_fn)(const unsigned char *, int, AES_KEY *);

static uint64_t rng_state;

/* splitmix64 */
static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void rng_fill(unsigned char *p, size_t n)
{
    while (n > 0) {
        uint64_t v = rng_next();
        size_t k = n < 8 ? n : 8;
        memcpy(p, &v, k);
        p += k;
        n -= k;
    }
}

static const char *gen_name(unsigned int cap1)
{
    return cap1 & CAP1_AVX ? "aesenclast generator" : "aeskeygenassist generator";
}

/*
 * Runs ours and OpenSSL's (under ossl_OPENSSL_ia32cap_P[1] = cap1) on the
 * same key and bits, buffers pre-filled with fill; 1 if rc and all bytes
 * agree, else prints where they first differ.
 */
static int same_schedule(setkey_fn ours, setkey_fn theirs, unsigned int cap1,
                         const unsigned char *key, int bits, unsigned char fill,
                         const char *dir)
{
    AES_KEY a, b;
    memset(&a, fill, sizeof a);
    memset(&b, fill, sizeof b);
    ossl_OPENSSL_ia32cap_P[1] = cap1;
    int ra = ours(key, bits, &a);
    int rb = theirs(key, bits, &b);
    if (ra != rb) {
        tap_diag("  %s, %d bits, %s: ours returned %d, OpenSSL %d", dir, bits,
                 gen_name(cap1), ra, rb);
        return 0;
    }
    if (memcmp(&a, &b, sizeof a) == 0)
        return 1;
    const unsigned char *pa = (const unsigned char *)&a;
    const unsigned char *pb = (const unsigned char *)&b;
    size_t i = 0;
    while (pa[i] == pb[i])
        i++;
    tap_diag("  %s, %d bits, %s: byte %zu differs (%s): ours %02x, OpenSSL %02x",
             dir, bits, gen_name(cap1), i,
             i >= offsetof(AES_KEY, rounds) ? "rounds field" : "round keys",
             pa[i], pb[i]);
    if (key != NULL)
        tap_hexdump("  key", key, (size_t)bits / 8);
    tap_hexdump("  ours   ", pa, sizeof a);
    tap_hexdump("  OpenSSL", pb, sizeof b);
    return 0;
}

static const unsigned int cap1_variants[] = { 0, CAP1_AVX };

static void test_size(int bits, long keys)
{
    unsigned char key[32];
    long bad = 0;
    for (long n = 0; n < keys && bad < 3; n++) {
        rng_fill(key, sizeof key);
        unsigned char fill = (unsigned char)rng_next();
        for (size_t v = 0; v < sizeof cap1_variants / sizeof cap1_variants[0]; v++) {
            if (!same_schedule(aesni_set_encrypt_key, ossl_aesni_set_encrypt_key,
                               cap1_variants[v], key, bits, fill, "encrypt"))
                bad++;
            if (!same_schedule(aesni_set_decrypt_key, ossl_aesni_set_decrypt_key,
                               cap1_variants[v], key, bits, fill, "decrypt"))
                bad++;
        }
    }
    tap_ok(bad == 0, "AES-%d: %ld random keys, encrypt and decrypt schedules "
           "(both OpenSSL generators) byte-equal, rounds field included", bits, keys);
}

/* Return codes and buffer contents for rejected arguments. */
static void test_rejects(void)
{
    static const int bad_bits[] = { 0, 1, 64, 127, 129, 160, 191, 193, 255, 257,
                                    384, 512, -128, -1, 0x80000080, 0x7fffffff };
    unsigned char key[32];
    rng_fill(key, sizeof key);
    int bad = 0;
    for (size_t v = 0; v < 2; v++) {
        unsigned int cap1 = cap1_variants[v];
        for (size_t i = 0; i < sizeof bad_bits / sizeof bad_bits[0]; i++) {
            bad += !same_schedule(aesni_set_encrypt_key, ossl_aesni_set_encrypt_key,
                                  cap1, key, bad_bits[i], 0x5a, "encrypt");
            bad += !same_schedule(aesni_set_decrypt_key, ossl_aesni_set_decrypt_key,
                                  cap1, key, bad_bits[i], 0x5a, "decrypt");
        }
        /* NULL key with each valid size; the schedule buffer is compared too. */
        for (int bits = 128; bits <= 256; bits += 64) {
            bad += !same_schedule(aesni_set_encrypt_key, ossl_aesni_set_encrypt_key,
                                  cap1, NULL, bits, 0x5a, "encrypt, NULL key");
            bad += !same_schedule(aesni_set_decrypt_key, ossl_aesni_set_decrypt_key,
                                  cap1, NULL, bits, 0x5a, "decrypt, NULL key");
        }
    }
    tap_ok(bad == 0, "bad sizes and NULL key: same return code as OpenSSL "
           "(-2 / -1) and same buffer contents");

    /* NULL schedule: only the return codes can be compared. */
    bad = 0;
    for (size_t v = 0; v < 2; v++) {
        ossl_OPENSSL_ia32cap_P[1] = cap1_variants[v];
        for (int bits = 64; bits <= 320; bits += 64) {
            int checks[2][2] = {
                { aesni_set_encrypt_key(key, bits, NULL),
                  ossl_aesni_set_encrypt_key(key, bits, NULL) },
                { aesni_set_decrypt_key(key, bits, NULL),
                  ossl_aesni_set_decrypt_key(key, bits, NULL) },
            };
            for (int d = 0; d < 2; d++) {
                if (checks[d][0] != checks[d][1]) {
                    tap_diag("  %s, NULL schedule, %d bits: ours %d, OpenSSL %d",
                             d ? "decrypt" : "encrypt", bits, checks[d][0], checks[d][1]);
                    bad++;
                }
            }
        }
        int ours = aesni_set_encrypt_key(NULL, 128, NULL);
        int theirs = ossl_aesni_set_encrypt_key(NULL, 128, NULL);
        if (ours != theirs || ours != -1) {
            tap_diag("  NULL key and schedule: ours %d, OpenSSL %d, want -1", ours, theirs);
            bad++;
        }
    }
    tap_ok(bad == 0, "NULL schedule: same return code as OpenSSL");
}

int main(void)
{
#ifndef CASM_AESNI_ASM
    /* A NO_ASM=1 build has no AES-NI module to compare. */
    tap_skip_all("built without the assembly modules (NO_ASM=1): no aesni_set_*_key");
#endif
    unsigned int a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_AES))
        tap_skip_all("this CPU has no AES-NI");
    if (ossl_aesni_set_encrypt_key == NULL || ossl_aesni_set_decrypt_key == NULL)
        tap_skip_all("OpenSSL's AES-NI object was not linked in (no libcrypto.a "
                     "from libssl-dev, or no member defining aesni_set_encrypt_key)");
    /* OpenSSL's aesenclast generator is SSE code; AVX only selects it. */

    long keys = 4000;
    const char *env = getenv("KEYSCHED_KEYS");
    if (env != NULL && *env != '\0')
        keys = strtol(env, NULL, 0);
    uint64_t seed = 0x6165736e694b5331ULL;
    env = getenv("KEYSCHED_SEED");
    if (env != NULL && *env != '\0')
        seed = strtoull(env, NULL, 0);
    rng_state = seed;
    tap_diag("seed 0x%016llx, %ld keys per size", (unsigned long long)seed, keys);

    tap_plan(5);
    test_size(128, keys);
    test_size(192, keys);
    test_size(256, keys);
    test_rejects();
    return tap_done();
}
