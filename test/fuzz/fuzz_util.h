/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Helpers shared by the libFuzzer targets (test/fuzz/fuzz_*.c): reading
 * parameters from the fuzz input and reporting a mismatch.
 *
 * A mismatch prints what differed to stderr and calls abort(), which
 * libFuzzer reports as a crash and saves the input that caused it.
 */
#ifndef TEST_FUZZ_UTIL_H
#define TEST_FUZZ_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/guard.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FUZZ_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(FUZZ_ASAN)
#define FUZZ_ASAN 1
#endif
#ifdef FUZZ_ASAN
#include <sanitizer/asan_interface.h>
#endif

/*
 * The input as a stream.  Reading past the end gives zeros, so every input
 * decodes to some case and the fuzzer never wastes runs on rejected ones.
 */
struct fuzz_in {
    const uint8_t *p;
    size_t left;
};

static inline uint8_t fuzz_byte(struct fuzz_in *in)
{
    if (in->left == 0)
        return 0;
    in->left--;
    return *in->p++;
}

static inline void fuzz_bytes(struct fuzz_in *in, void *out, size_t n)
{
    size_t take = n < in->left ? n : in->left;
    memcpy(out, in->p, take);
    memset((uint8_t *)out + take, 0, n - take);
    in->p += take;
    in->left -= take;
}

static inline uint16_t fuzz_u16(struct fuzz_in *in)
{
    uint16_t hi = fuzz_byte(in);
    return (uint16_t)(hi << 8 | fuzz_byte(in));
}

static inline uint32_t fuzz_u32(struct fuzz_in *in)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v = v << 8 | fuzz_byte(in);
    return v;
}

/* malloc(n) exactly, so ASan flags any access past n; never NULL. */
static inline void *fuzz_alloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL)
        abort();
    return p;
}

/*
 * A len-byte buffer in r, flush against its guard page at the end, or
 * off bytes after the one at its start (test/lib/guard.h): what the
 * targets hand to assembly, which AddressSanitizer cannot watch.  The
 * region is mapped on first use and grown when len outgrows it, so the
 * runs make no system call; a fault is ASan's SEGV report.  The rest of
 * the region is poisoned for ASan, so the C code's strays into it are
 * reported as well (whole 8-byte granules: ASan leaves a granule the
 * buffer shares addressable).
 */
static inline void *fuzz_guarded(struct guard_region *r, const char *name,
                                 enum guard_side side, size_t len, size_t off)
{
    if ((r->map == NULL && guard_region_init(r, name, len) != 0) ||
        guard_region_reserve(r, len) != 0) {
        fprintf(stderr, "cannot map a guarded region for %s\n", name);
        abort();
    }
#ifdef FUZZ_ASAN
    ASAN_UNPOISON_MEMORY_REGION(r->data, r->cap);
#endif
    unsigned char *p = guard_place(r, side, len, off);
#ifdef FUZZ_ASAN
    ASAN_POISON_MEMORY_REGION(r->data, (size_t)(p - r->data));
    ASAN_POISON_MEMORY_REGION(p + len, (size_t)(r->data + r->cap - (p + len)));
#endif
    return p;
}

static inline void fuzz_hex(const char *label, const void *p, size_t n)
{
    const uint8_t *b = p;
    fprintf(stderr, "  %s (%zu bytes):", label, n);
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, "%s%02x", i % 32 ? "" : "\n    ", b[i]);
    fputc('\n', stderr);
}

/* Prints "<target>: MISMATCH: <what>" and aborts. */
__attribute__((noreturn, format(printf, 2, 3)))
static inline void fuzz_fail(const char *target, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: MISMATCH: ", target);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

/* Compares two buffers; on a difference dumps both and aborts. */
static inline void fuzz_expect_eq(const char *target, const char *what,
                                  const void *got, const void *want, size_t n)
{
    if (n == 0 || memcmp(got, want, n) == 0)
        return;
    const uint8_t *g = got, *w = want;
    size_t at = 0;
    while (g[at] == w[at])
        at++;
    fprintf(stderr, "%s: MISMATCH: %s (first difference at byte %zu)\n",
            target, what, at);
    fuzz_hex("got", got, n);
    fuzz_hex("expected", want, n);
    abort();
}

#endif
