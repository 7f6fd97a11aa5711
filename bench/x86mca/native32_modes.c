/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The dm-crypt table's timings (bench/x86mca/dmcrypt.pl): a traced 32-bit
 * call of bench/x86mca/trace32_modes.c, rewritten for 64-bit mode by
 * Replay64.pm, replayed natively over TOTAL bytes in calls of BYTES (as
 * dm-crypt hands a request to the cipher a sector at a time), checked
 * against the 64-bit library and timed; or, for IMPL x86_64, the same
 * calls made to the 64-bit library's aesni_* functions directly.
 *
 *   native32_modes PROGRAM32 REPLAY.so IMPL MODE BITS BYTES TOTAL [--verify]
 *   native32_modes - - x86_64 MODE BITS BYTES TOTAL [--verify]
 *     IMPL   aesni (key schedules in AES-NI's layout), x86 (aes-586's,
 *            which is aes_core.c's) or x86_64
 *     MODE   ecb, ecb-dec, cbc-enc, cbc-dec, xts, xts-dec, lrw, ctr, ocb-enc, ocb-dec
 *            (trace32_modes.c's); BYTES a multiple of 16, but for XTS (stealing)
 *   prints "tsc MHZ" and "measured IMPL MODE BITS BYTES TOTAL TSC_CYCLES_PER_BYTE",
 *   the fastest of repeated passes over the buffers (warm caches), or with
 *   --verify "ok IMPL MODE BITS BYTES TOTAL" and no timing; exit 1 when the
 *   output, or the state the calls carry from sector to sector (CBC's
 *   ivec, CTR's counter, OCB's offset, checksum and block number), differs
 *   from the 64-bit library's for the same calls.
 *
 * CTR's counter block and OCB's nonce-dependent Offset_0 and L_ table are
 * made as OpenSSL's OCB makes them (support/lib/ocb_mode.c); both streams
 * continue from call to call and from pass to pass.
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
#include "variants.h"
#include "../../support/lib/ocb_mode.h"
#include "dm_modes.h"
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
    struct dm_ocb *ocb;
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
    if (strcmp(m, "ecb") == 0 || strcmp(m, "ecb-dec") == 0)
        aesni_ecb_encrypt(in, out, len, k1, m[3] == '\0');
    else if (strcmp(m, "cbc-enc") == 0 || strcmp(m, "cbc-dec") == 0)
        aesni_cbc_encrypt(in, out, len, k1, iv, m[4] == 'e');
    else if (strcmp(m, "xts") == 0)
        aesni_xts_encrypt(in, out, len, k1, k2, iv);
    else if (strcmp(m, "xts-dec") == 0)
        aesni_xts_decrypt(in, out, len, k1, k2, iv);
    else if (strcmp(m, "ctr") == 0)
        dm_ctr_call(aesni_ctr32_encrypt_blocks, in, out, len, k1, iv);
    else if (strcmp(m, "ocb-enc") == 0)
        dm_ocb_call(aesni_ocb_encrypt, in, out, len, k1, run.ocb);
    else if (strcmp(m, "ocb-dec") == 0)
        dm_ocb_call(aesni_ocb_decrypt, in, out, len, k1, run.ocb);
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
        else if (strncmp(run.mode, "ocb", 3) == 0)
            second = run.ocb;
        const uint32_t args[6] = { LOW(run.in + off), LOW(run.out + off), (uint32_t)run.bytes,
                                   LOW(k1), LOW(second), LOW(run.iv) };
        run.replay(run.stack32, 1, args);
    }
}

/* The state of a stream's start: CBC's ivec, XTS's tweak, LRW's index,
 * CTR's counter block; OCB's state. */
static unsigned char iv0[16];
static struct dm_ocb ocb0;

static void start_streams(void)
{
    memcpy(run.iv, iv0, 16);
    *run.ocb = ocb0;
}

/* OCB's state after Offset_0 for a 12-byte nonce and a 16-byte tag. */
static void ocb_start(const unsigned char *user, int bits)
{
    static const unsigned char nonce[12] = { 0xbc, 0x9a, 0x78, 0x56, 0x34, 0x12,
                                             0x0f, 0xed, 0xcb, 0xa9, 0x87, 0x65 };
    AES_KEY ek, dk;
    struct ocb_mode o;
    aes_c_set_encrypt_key(user, bits, &ek);
    aes_c_set_decrypt_key(user, bits, &dk);
    ocb_mode_init(&o, &ek, &dk, aes_c_encrypt_block128, aes_c_decrypt_block128, NULL, NULL);
    if (ocb_mode_setiv(&o, nonce, sizeof(nonce), 16) != 0)
        fail("OCB nonce refused", NULL);
    memcpy(ocb0.offset, o.offset, 16);
    memcpy(ocb0.l, o.l, sizeof(ocb0.l));
    memset(ocb0.checksum, 0, 16);
    ocb0.next = dm_ocb_first();
}

static int known_mode(const char *m)
{
    static const char *const modes[] = { "ecb", "ecb-dec", "cbc-enc", "cbc-dec", "xts", "xts-dec",
                                         "lrw", "ctr", "ocb-enc", "ocb-dec" };
    for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
        if (strcmp(m, modes[i]) == 0)
            return 1;
    return 0;
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

/* The replay once more on other buffers: in and out as given (copied
 * input first), the result and state compared with the reference. */
static int replay_on(unsigned char *in, unsigned char *out, const unsigned char *want,
                     const unsigned char *want_iv, const struct dm_ocb *want_ocb)
{
    unsigned char *in0 = run.in, *out0 = run.out;
    memcpy(in, in0, run.total);
    run.in = in;
    run.out = out;
    start_streams();
    pass(run.key1, run.key2, 0);
    int ok = memcmp(out, want, run.total) == 0 && memcmp(run.iv, want_iv, 16) == 0
             && memcmp(run.ocb, want_ocb, sizeof(*want_ocb)) == 0;
    run.in = in0;
    run.out = out0;
    return ok;
}

int main(int argc, char **argv)
{
    /* --verify-layouts: --verify (CTR with a counter that wraps), then the
     * replay in place and on buffers 3 and 7 bytes off 16-byte alignment;
     * only for code whose flow does not depend on either (dmcrypt.pl asks it of our aesni-x86's own
     * bulk functions: its wide sections must hold there too). */
    int layouts = argc == 9 && strcmp(argv[8], "--verify-layouts") == 0;
    int verify = layouts || (argc == 9 && strcmp(argv[8], "--verify") == 0);
    if (argc != 8 && !verify)
        fail("usage: native32_modes PROGRAM32|- REPLAY.so|- aesni|x86|x86_64 MODE BITS BYTES TOTAL "
             "[--verify|--verify-layouts]", NULL);
    const char *impl = argv[3];
    run.mode = argv[4];
    run.bits = atoi(argv[5]);
    run.bytes = (size_t)atol(argv[6]);
    run.total = (size_t)atol(argv[7]);
    int native = strcmp(impl, "x86_64") == 0, layout_c = strcmp(impl, "x86") == 0;
    if ((!native && !layout_c && strcmp(impl, "aesni") != 0) || (run.bits != 128 && run.bits != 192 && run.bits != 256)
        || run.bytes < 16 || (run.bytes % 16 && !dm_mode_steals(run.mode))
        || run.total % run.bytes || run.total > MAX_TOTAL
        || !known_mode(run.mode))
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
    run.ocb = (struct dm_ocb *)(keys + 8192);

    /* As trace32_modes.c recorded the call (LRW's flow depends on the index). */
    unsigned char user[32];
    for (unsigned i = 0; i < sizeof(user); i++)
        user[i] = (unsigned char)(17 * i + 5);
    for (unsigned i = 0; i < 16; i++)
        iv0[i] = (unsigned char)(0xa5 ^ i);
    /* --verify-layouts: CTR's 32-bit counter wraps 8 blocks in (the replay
     * follows the trace whatever the counter's value). */
    if (layouts && strcmp(run.mode, "ctr") == 0)
        memcpy(iv0 + 12, "\xff\xff\xff\xf8", 4);
    /* Pseudo-random bytes: a short period would make OCB's checksum of a
     * sector (the XOR of its blocks) zero whatever the code summed. */
    uint32_t lcg = 3;
    for (size_t i = 0; i < run.total; i++) {
        lcg = lcg * 1103515245u + 12345u;
        run.in[i] = (unsigned char)(lcg >> 16);
    }
    int dec = dm_mode_decrypts(run.mode);
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
    ocb_start(user, run.bits);

    /* The reference: the same calls through the 64-bit library. */
    static unsigned char want[MAX_TOTAL];
    unsigned char want_iv[16];
    struct dm_ocb want_ocb;
    start_streams();
    {
        unsigned char *o = run.out;
        run.out = want;
        pass(&ref1, &ref2, 1);
        run.out = o;
    }
    memcpy(want_iv, run.iv, 16);
    want_ocb = *run.ocb;
    start_streams();
    memset(run.out, 0, run.total);
    pass(run.key1, run.key2, native);
    if (memcmp(run.out, want, run.total) != 0)
        fail("the calls computed a wrong result", run.mode);
    if (memcmp(run.iv, want_iv, 16) != 0 || memcmp(run.ocb, &want_ocb, sizeof(want_ocb)) != 0)
        fail("the calls left a wrong state for the next sector", run.mode);
    if (layouts && !native) {
        unsigned char *odd = low_alloc(2 * MAX_TOTAL + 64);
        if (!replay_on(run.out, run.out, want, want_iv, &want_ocb))
            fail("the calls in place computed a wrong result or state", run.mode);
        if (!replay_on(odd + 3, odd + MAX_TOTAL + 32 + 7, want, want_iv, &want_ocb))
            fail("the calls on unaligned buffers computed a wrong result or state", run.mode);
    }
    if (verify) {
        printf("ok %s %s %d %zu %zu%s\n", impl, run.mode, run.bits, run.bytes, run.total,
               layouts ? " in place and unaligned too" : "");
        return 0;
    }

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
