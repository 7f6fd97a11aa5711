/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One SHA-1 registry entry against the C compression function, for the
 * 32-bit build (crypto/sha/asm/sha1-586.pl's paths; any entry works):
 *
 *   sha1_586_diff --impl NAME [--expect-dispatch]
 *
 *  1. every message length 0..4096, at a source offset 0..15 that moves
 *     with the length (so the block function sees every alignment), hashed
 *     whole through NAME and through the C;
 *  2. the same lengths streamed through casm_sha1_update_with in updates
 *     of random sizes 1..300 (many calls, most not block-aligned);
 *  3. direct calls of NAME's block function with 1..64 blocks at every
 *     offset 0..15, from a random state, compared word by word with the
 *     C's, and the bytes around the state checked untouched.
 * Messages are random (xorshift64*, a fixed seed), so failures repeat.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "impl.h"
#include "lib/impl_cli.h"
#include "lib/tap.h"

#define MAX_LEN 4096
#define MAX_OFF 16

static uint64_t rng = 0x5ee1da7a5eedULL;

static uint32_t next32(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (uint32_t)((rng * 0x2545F4914F6CDD1DULL) >> 32);
}

static void fill(unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)next32();
}

static unsigned char buf[MAX_LEN + MAX_OFF + 64];

static void streamed(const struct casm_sha1_impl *impl, const unsigned char *msg, size_t len,
                     unsigned char md[20])
{
    SHA_CTX c;
    SHA1_Init(&c);
    for (size_t pos = 0; pos < len;) {
        size_t n = 1 + next32() % 300;
        if (n > len - pos)
            n = len - pos;
        casm_sha1_update_with(&c, msg + pos, n, impl->block);
        pos += n;
    }
    casm_sha1_final_with(md, &c, impl->block);
}

/* 1 and 2: whole and streamed, every length. */
static void every_length(const struct casm_sha1_impl *impl)
{
    unsigned long bad_whole = 0, bad_stream = 0;
    for (size_t len = 0; len <= MAX_LEN; len++) {
        const unsigned char *msg = buf + len % MAX_OFF;
        unsigned char want[20], got[20];
        fill(buf, sizeof(buf));
        casm_sha1_with(sha1_block_data_order_c, msg, len, want);
        casm_sha1_with(impl->block, msg, len, got);
        if (memcmp(want, got, 20) != 0 && bad_whole++ == 0)
            tap_diag("first whole-message mismatch at length %zu", len);
        streamed(impl, msg, len, got);
        if (memcmp(want, got, 20) != 0 && bad_stream++ == 0)
            tap_diag("first streamed mismatch at length %zu", len);
    }
    tap_ok(bad_whole == 0, "%s: lengths 0..%d, offsets 0..%d, whole message equals the C (%lu wrong)",
           impl->name, MAX_LEN, MAX_OFF - 1, bad_whole);
    tap_ok(bad_stream == 0, "%s: lengths 0..%d in updates of 1..300 bytes equal the C (%lu wrong)",
           impl->name, MAX_LEN, bad_stream);
}

/* 3: the block function itself, from random states. */
static void direct_calls(const struct casm_sha1_impl *impl)
{
    unsigned long bad = 0, calls = 0;
    for (size_t off = 0; off < MAX_OFF; off++) {
        for (size_t n = 1; n <= MAX_LEN / 64; n++, calls++) {
            struct { uint32_t guard_lo; SHA_CTX c; uint32_t guard_hi; } a, b;
            fill(buf, sizeof(buf));
            fill((unsigned char *)&a, sizeof(a));
            b = a;
            sha1_block_data_order_c(&a.c, buf + off, n);
            impl->block(&b.c, buf + off, n);
            if (memcmp(&a, &b, sizeof(a)) != 0 && bad++ == 0)
                tap_diag("first mismatch: %zu blocks at offset %zu", n, off);
        }
    }
    tap_ok(bad == 0, "%s: %lu direct calls (1..%d blocks, offsets 0..%d) equal the C, nothing else written",
           impl->name, calls, MAX_LEN / 64, MAX_OFF - 1);
}

int main(int argc, char **argv)
{
    const struct casm_sha1_impl *impl = impl_cli_sha1(argc, argv);
    every_length(impl);
    direct_calls(impl);
    return tap_done();
}
