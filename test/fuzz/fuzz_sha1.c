/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target: every SHA-1 implementation in the registry, and the
 * public SHA1_* calls, fed the message in pieces cut at fuzzed points,
 * against casm_sha1_with(sha1_block_data_order_c, ...) over the whole
 * message at once.  The pieces exercise the buffering (partial blocks
 * carried between updates, multi-block bulk calls) and the bit count.
 *
 * Input: byte 0 gives the buffer misalignment (bits 0-3), the number
 * of split points (bits 4-6) and where the message and the SHA_CTX meet
 * their guard page (bit 7: 0 at the end, 1 at the start plus the
 * misalignment; test/lib/guard.h); then 2 bytes per split point; the rest
 * is the message.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cryptoasm.h>
#include "impl.h"

#include "fuzz_util.h"

#define NAME "fuzz_sha1"
#define MAX_SPLITS 7

struct cut {
    size_t n, at[MAX_SPLITS];
};

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

static void describe(const char *impl, size_t len, const struct cut *cut)
{
    fprintf(stderr, "%s, %zu-byte message, updates split at", impl, len);
    for (size_t i = 0; i < cut->n; i++)
        fprintf(stderr, " %zu", cut->at[i]);
    fprintf(stderr, cut->n ? "\n" : " nothing\n");
}

/* The guarded regions, mapped once. */
static struct guard_region g_msg, g_ctx;
static enum guard_side side;

/* impl NULL: the public SHA1_Update/SHA1_Final (dispatching). */
static void hash_in_pieces(const struct casm_sha1_impl *impl,
                           const unsigned char *msg, size_t len,
                           const struct cut *cut, unsigned char md[20])
{
    const char *name = impl ? impl->name : "SHA1_Update";
    SHA_CTX *c = fuzz_guarded(&g_ctx, "SHA_CTX", side, sizeof(SHA_CTX), 0);
    SHA1_Init(c);
    for (size_t s = 0, from = 0; s <= cut->n; s++) {
        size_t to = s < cut->n ? cut->at[s] : len;
        if (impl)
            casm_sha1_update_with(c, msg + from, to - from, impl->block);
        else
            SHA1_Update(c, msg + from, to - from);
        from = to;
    }
    /* The bit count is the message length times 8, over Nh:Nl. */
    uint64_t bits = (uint64_t)c->Nh << 32 | c->Nl;
    if (bits != (uint64_t)len * 8 || c->num != len % 64) {
        describe(name, len, cut);
        fuzz_fail(NAME, "after the updates Nh:Nl = %llu bits, num = %u; "
                  "expected %llu bits, num = %zu", (unsigned long long)bits,
                  c->num, (unsigned long long)len * 8, len % 64);
    }
    if (impl)
        casm_sha1_final_with(md, c, impl->block);
    else
        SHA1_Final(md, c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_in in = { data, size };
    struct cut cut;
    uint16_t raw[MAX_SPLITS];

    uint8_t sel = fuzz_byte(&in);
    size_t offset = sel & 15;
    cut.n = (sel >> 4) & 7;
    side = sel & 0x80 ? GUARD_START : GUARD_END;
    for (size_t i = 0; i < cut.n; i++)
        raw[i] = fuzz_u16(&in);

    /* The message against a guard page: what the assembly reads past it
     * faults (ASan sees only the C). */
    size_t len = in.left;
    unsigned char *msg = fuzz_guarded(&g_msg, "message", side, len, offset);
    memcpy(msg, in.p, len);
    for (size_t i = 0; i < cut.n; i++)
        cut.at[i] = raw[i] % (len + 1);
    qsort(cut.at, cut.n, sizeof(cut.at[0]), cmp_size);

    unsigned char want[20], got[20];
    casm_sha1_with(sha1_block_data_order_c, msg, len, want);

    for (size_t i = 0; i < casm_sha1_impl_count; i++) {
        const struct casm_sha1_impl *impl = casm_sha1_impls[i];
        if (!casm_cpu_has(impl->need))
            continue;               /* this CPU cannot run it */
        hash_in_pieces(impl, msg, len, &cut, got);
        if (memcmp(got, want, 20) != 0)
            describe(impl->name, len, &cut);
        fuzz_expect_eq(NAME, "SHA-1 in pieces (got) vs whole (expected)",
                       got, want, 20);
    }

    hash_in_pieces(NULL, msg, len, &cut, got);
    if (memcmp(got, want, 20) != 0)
        describe("SHA1_Update", len, &cut);
    fuzz_expect_eq(NAME, "SHA1_Update in pieces (got) vs whole (expected)",
                   got, want, 20);
    if (casm_sha1(msg, len, got) != 0)
        fuzz_fail(NAME, "casm_sha1 of %zu bytes failed", len);
    fuzz_expect_eq(NAME, "casm_sha1 (got) vs reference (expected)", got, want,
                   20);
    fuzz_expect_eq(NAME, "SHA1 (got) vs reference (expected)",
                   SHA1(msg, len, got), want, 20);

    return 0;
}
