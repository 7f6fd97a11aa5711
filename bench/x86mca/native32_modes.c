/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The dm-crypt table's timings (bench/x86mca/dmcrypt.pl): a traced 32-bit
 * call of bench/x86mca/trace32_modes.c, rewritten for 64-bit mode by
 * Replay64.pm, replayed natively over TOTAL bytes in calls of BYTES (as
 * dm-crypt hands a request to the cipher a sector at a time), checked
 * against the 64-bit library and timed; or, for IMPL x86_64, the same
 * calls made to the 64-bit library's aesni_* functions directly.
 *
 *   native32_modes PROGRAM32 REPLAY.so IMPL MODE BITS BYTES TOTAL
 *   native32_modes - - x86_64 MODE BITS BYTES TOTAL
 *     IMPL   aesni (key schedules in AES-NI's layout), x86 (aes-586's,
 *            which is aes_core.c's) or x86_64
 *     MODE   ecb, cbc-enc, cbc-dec, xts, lrw (trace32_modes.c's)
 *   prints "tsc MHZ" and "measured IMPL MODE BITS BYTES TOTAL TSC_CYCLES_PER_BYTE",
 *   the fastest of repeated passes over the buffers (warm caches); exit 1
 *   when the output differs from the 64-bit library's for the same calls.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#include <openssl/aes.h>
#include <openssl/modes.h>

#include "aes/aes_c.h"
#include "aes/aesni_x86_64.h"
#include "map32.h"

typedef void replay_fn(uint32_t *stack32, uint64_t reps, const uint32_t *args);

#define MAX_TOTAL (1u << 20)
#define LOW(p) ((uint32_t)(uintptr_t)(p))

static struct {
    const char *mode;
    int bits;
    size_t bytes, total;
    unsigned char *in, *out, *iv;
    AES_KEY *key1, *key2;
    LRW128_TWEAK *tweak;
    replay_fn *replay;
    uint32_t *stack32;
} run;

static void ecb64(const unsigned char *in, unsigned char *out, size_t len, const void *key, int enc)
{
    aesni_ecb_encrypt(in, out, len, key, enc);
}

/* One call of the mode through the 64-bit library, on the keys given. */
static void call64(const unsigned char *in, unsigned char *out, size_t len,
                   const AES_KEY *k1, const AES_KEY *k2, unsigned char *iv)
{
    const char *m = run.mode;
    if (strcmp(m, "ecb") == 0)
        aesni_ecb_encrypt(in, out, len, k1, 1);
    else if (strcmp(m, "cbc-enc") == 0 || strcmp(m, "cbc-dec") == 0)
        aesni_cbc_encrypt(in, out, len, k1, iv, m[4] == 'e');
    else if (strcmp(m, "xts") == 0)
        aesni_xts_encrypt(in, out, len, k1, k2, iv);
    else
        CRYPTO_lrw128_encrypt_ecb(run.tweak, k1, ecb64, 1, iv, in, out, len);
}

/* One pass over run.total bytes, through the replay or the 64-bit calls. */
static void pass(const AES_KEY *k1, const AES_KEY *k2, int native)
{
    for (size_t off = 0; off < run.total; off += run.bytes) {
        if (native) {
            call64(run.in + off, run.out + off, run.bytes, k1, k2, run.iv);
            continue;
        }
        const void *second = k2;
        if (strcmp(run.mode, "lrw") == 0)
            second = run.tweak;
        const uint32_t args[6] = { LOW(run.in + off), LOW(run.out + off), (uint32_t)run.bytes,
                                   LOW(k1), LOW(second), LOW(run.iv) };
        run.replay(run.stack32, 1, args);
    }
}

static double tsc_mhz(void)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    uint64_t t = __rdtsc();
    do
        clock_gettime(CLOCK_MONOTONIC, &b);
    while ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec) < 5e7);
    uint64_t c = __rdtsc() - t;
    return (double)c / ((b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e3);
}

int main(int argc, char **argv)
{
    if (argc != 8)
        fail("usage: native32_modes PROGRAM32|- REPLAY.so|- aesni|x86|x86_64 MODE BITS BYTES TOTAL", NULL);
    const char *impl = argv[3];
    run.mode = argv[4];
    run.bits = atoi(argv[5]);
    run.bytes = (size_t)atol(argv[6]);
    run.total = (size_t)atol(argv[7]);
    int native = strcmp(impl, "x86_64") == 0, layout_c = strcmp(impl, "x86") == 0;
    if ((!native && !layout_c && strcmp(impl, "aesni") != 0) || (run.bits != 128 && run.bits != 192 && run.bits != 256)
        || run.bytes < 16 || run.bytes % 16 || run.total % run.bytes || run.total > MAX_TOTAL
        || (strcmp(run.mode, "ecb") && strcmp(run.mode, "cbc-enc") && strcmp(run.mode, "cbc-dec")
            && strcmp(run.mode, "xts") && strcmp(run.mode, "lrw")))
        fail("bad IMPL, MODE, BITS, BYTES or TOTAL", NULL);
    if (!native) {
        map_program(argv[1]);
        void *so = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
        if (!so)
            fail("cannot load the replay", dlerror());
        /* dlsym gives an object pointer: its bits copied into the typed
         * function pointer, no cast between the two kinds. */
        void *sym = dlsym(so, "replay");
        _Static_assert(sizeof(run.replay) == sizeof(sym), "function and object pointers differ");
        memcpy(&run.replay, &sym, sizeof(run.replay));
        if (!sym)
            fail("no replay() in", argv[2]);
        unsigned char *stack = low_alloc(1 << 20);
        run.stack32 = (uint32_t *)(stack + (1 << 20) - 256 - 4);
    }
    run.in = low_alloc(MAX_TOTAL);
    run.out = low_alloc(MAX_TOTAL);
    unsigned char *keys = low_alloc(1 << 16);
    run.iv = keys;
    run.key1 = (AES_KEY *)(keys + 64);
    run.key2 = (AES_KEY *)(keys + 1024);
    run.tweak = (LRW128_TWEAK *)(keys + 4096);

    /* As trace32_modes.c recorded the call (LRW's flow depends on the index). */
    unsigned char user[32], iv0[16];
    for (unsigned i = 0; i < sizeof(user); i++)
        user[i] = (unsigned char)(17 * i + 5);
    for (unsigned i = 0; i < 16; i++)
        iv0[i] = (unsigned char)(0xa5 ^ i);
    for (size_t i = 0; i < run.total; i++)
        run.in[i] = (unsigned char)(i * 29 + 3);
    int dec = strcmp(run.mode, "cbc-dec") == 0;
    AES_KEY ref1, ref2;
    if ((dec ? aesni_set_decrypt_key : aesni_set_encrypt_key)(user, run.bits, &ref1) != 0
        || aesni_set_encrypt_key(user, run.bits, &ref2) != 0)
        fail("key schedule failed", NULL);
    if (layout_c) {
        (dec ? aes_c_set_decrypt_key : aes_c_set_encrypt_key)(user, run.bits, run.key1);
        aes_c_set_encrypt_key(user, run.bits, run.key2);
    } else {
        *run.key1 = ref1;
        *run.key2 = ref2;
    }
    CRYPTO_lrw128_init(run.tweak, user);

    /* The reference: the same calls through the 64-bit library. */
    static unsigned char want[MAX_TOTAL];
    memcpy(run.iv, iv0, 16);
    {
        unsigned char *o = run.out;
        run.out = want;
        pass(&ref1, &ref2, 1);
        run.out = o;
    }
    memcpy(run.iv, iv0, 16);
    memset(run.out, 0, run.total);
    pass(run.key1, run.key2, native);
    if (memcmp(run.out, want, run.total) != 0)
        fail("the calls computed a wrong result", run.mode);

    /* Timing: batches of passes of at least 2e5 TSC cycles, the fastest
     * of about 0.3e9 cycles of them. */
    uint64_t reps = 1, best = UINT64_MAX;
    for (;;) {
        uint64_t t = __rdtsc();
        for (uint64_t r = 0; r < reps; r++)
            pass(run.key1, run.key2, native);
        t = __rdtsc() - t;
        if (t > 200000)
            break;
        reps *= 2;
    }
    for (uint64_t spent = 0, b = 0; spent < 300000000u && b < 2000; b++) {
        uint64_t t = __rdtsc();
        for (uint64_t r = 0; r < reps; r++)
            pass(run.key1, run.key2, native);
        t = __rdtsc() - t;
        spent += t;
        if (t < best)
            best = t;
    }
    printf("tsc %.1f\n", tsc_mhz());
    printf("measured %s %s %d %zu %zu %.4f\n", impl, run.mode, run.bits, run.bytes, run.total,
           (double)best / (double)(reps * run.total));
    return 0;
}
