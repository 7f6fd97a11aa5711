/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SHA-1 known-answer tests over $VECTORS/sha1 (NIST CAVP byte-oriented
 * ShortMsg, LongMsg and Monte, plus the FIPS 180 examples), for one entry
 * of the SHA-1 registry.
 *
 *   kat_sha1 --list                          NAME<TAB>FORCE_MASK per entry
 *   kat_sha1 --impl NAME [--expect-dispatch]
 *
 * Each message is hashed whole with NAME's block function, and streamed
 * through casm_sha1_update_with and through casm_sha1_init_with/update/
 * final in odd-sized chunks; messages of up to SPLIT_ALL bytes are also
 * streamed in three pieces cut at every pair of points (empty pieces
 * included).  When NAME is the implementation the dispatcher uses now, the
 * public SHA1(), SHA1_Init/Update/Final, casm_sha1() and casm_sha1_init/
 * update/final are checked as well.  One TAP test per file, and one for
 * the cut points of a longer message against the one-shot digest.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impl.h"
#include "lib/impl_cli.h"
#include "lib/tap.h"
#include "lib/vecfile.h"

static const struct casm_sha1_impl *impl;
static int is_default;          /* the public API runs impl too */

/* Odd sizes so chunk edges fall everywhere relative to 64-byte blocks;
 * the zeros are empty updates, which must change nothing. */
static const size_t chunk_sizes[] = { 1, 63, 0, 65, 3, 127, 129, 0, 7, 4093 };
#define NCHUNKS (sizeof(chunk_sizes) / sizeof(chunk_sizes[0]))

/* Messages this long or shorter are also cut at every pair of points. */
enum { SPLIT_ALL = 200 };

/*
 * msg in odd-sized chunks, through casm_sha1_update_with(impl->block) or,
 * with public_api, through SHA1_Update/SHA1_Final.
 */
static void stream(const unsigned char *msg, size_t len, unsigned char md[20],
                   int public_api)
{
    SHA_CTX c;
    SHA1_Init(&c);
    for (size_t pos = 0, i = 0; pos < len; i++) {
        size_t n = chunk_sizes[i % NCHUNKS];
        if (n > len - pos)
            n = len - pos;
        if (public_api)
            SHA1_Update(&c, msg + pos, n);
        else
            casm_sha1_update_with(&c, msg + pos, n, impl->block);
        pos += n;
    }
    if (public_api)
        SHA1_Final(md, &c);
    else
        casm_sha1_final_with(md, &c, impl->block);
}

/*
 * msg through casm_sha1_init_with(impl) (or casm_sha1_init, with
 * dispatched) and casm_sha1_update in the pieces cut[0..ncut) ends, each
 * cut at most len; a nonzero return is passed on.
 */
static int stream_casm(const unsigned char *msg, size_t len, const size_t *cut,
                       size_t ncut, unsigned char md[20], int dispatched)
{
    CASM_SHA1_CTX c;
    int rc = dispatched ? casm_sha1_init(&c) : casm_sha1_init_with(&c, impl);
    size_t pos = 0;
    for (size_t i = 0; i <= ncut && rc == 0; i++) {
        size_t end = i < ncut ? cut[i] : len;
        rc = casm_sha1_update(&c, msg + pos, end - pos);
        pos = end;
    }
    return rc != 0 ? rc : casm_sha1_final(&c, md);
}

/* msg through the streaming casm API in the odd-sized chunks. */
static int stream_casm_chunks(const unsigned char *msg, size_t len,
                              unsigned char md[20], int dispatched)
{
    size_t cut[4096], ncut = 0;
    for (size_t pos = 0, i = 0; ncut < sizeof(cut) / sizeof(cut[0]); i++) {
        size_t n = chunk_sizes[i % NCHUNKS];
        pos = n > len - pos ? len : pos + n;
        cut[ncut++] = pos;
        if (pos == len)
            break;
    }
    return stream_casm(msg, len, cut, ncut, md, dispatched);
}

/*
 * msg in three pieces cut at every i <= j; 0 if each digest is want, else
 * 1 with the first failing cut in *bad_i, *bad_j.
 */
static int every_cut(const unsigned char *msg, size_t len,
                     const unsigned char want[20], size_t *bad_i, size_t *bad_j)
{
    for (size_t i = 0; i <= len; i++) {
        for (size_t j = i; j <= len; j++) {
            const size_t cut[2] = { i, j };
            unsigned char md[20];
            if (stream_casm(msg, len, cut, 2, md, 0) != 0 ||
                memcmp(md, want, 20) != 0) {
                *bad_i = i;
                *bad_j = j;
                return 1;
            }
        }
    }
    return 0;
}

/* One message through every path this implementation is reachable by. */
static void sha1_check(struct vec_file *vf, const struct vec_record *r,
                       const unsigned char *msg, size_t len,
                       const unsigned char want[20])
{
    unsigned char md[20];

    memset(md, 0, sizeof(md));
    casm_sha1_with(impl->block, msg, len, md);
    vec_cmp(vf, r, "casm_sha1_with", want, md, 20);
    memset(md, 0, sizeof(md));
    stream(msg, len, md, 0);
    vec_cmp(vf, r, "casm_sha1_update_with in odd-sized chunks", want, md, 20);
    memset(md, 0, sizeof(md));
    int rc = stream_casm_chunks(msg, len, md, 0);
    if (rc != 0)
        vec_fail(vf, r, "casm_sha1_init_with/update/final returned %d", rc);
    else
        vec_cmp(vf, r, "casm_sha1_init_with/update/final in odd-sized chunks",
                want, md, 20);
    size_t bad_i, bad_j;
    if (len <= SPLIT_ALL && every_cut(msg, len, want, &bad_i, &bad_j))
        vec_fail(vf, r, "casm_sha1_update in pieces [0,%zu) [%zu,%zu) [%zu,%zu): "
                 "wrong digest or an error", bad_i, bad_i, bad_j, bad_j, len);
    if (!is_default)
        return;

    memset(md, 0, sizeof(md));
    if (SHA1(msg, len, md) != md)
        vec_fail(vf, r, "SHA1() did not return its md argument");
    vec_cmp(vf, r, "SHA1()", want, md, 20);
    memset(md, 0, sizeof(md));
    stream(msg, len, md, 1);
    vec_cmp(vf, r, "SHA1_Update in odd-sized chunks", want, md, 20);
    memset(md, 0, sizeof(md));
    rc = casm_sha1(msg, len, md);
    if (rc != 0)
        vec_fail(vf, r, "casm_sha1 returned %d", rc);
    else
        vec_cmp(vf, r, "casm_sha1", want, md, 20);
    memset(md, 0, sizeof(md));
    rc = stream_casm_chunks(msg, len, md, 1);
    if (rc != 0)
        vec_fail(vf, r, "casm_sha1_init/update/final returned %d", rc);
    else
        vec_cmp(vf, r, "casm_sha1_init/update/final in odd-sized chunks", want,
                md, 20);
}

/*
 * A message over two blocks long, cut at every pair of points, against
 * its one-shot digest through the same block function.
 */
static void cuts_against_one_shot(void)
{
    enum { LEN = 2 * 64 + 9 };
    unsigned char msg[LEN], want[20];
    size_t bad_i = 0, bad_j = 0;
    for (size_t i = 0; i < LEN; i++)
        msg[i] = (unsigned char)(i * 31 + 7);
    casm_sha1_with(impl->block, msg, LEN, want);
    if (!tap_ok(!every_cut(msg, LEN, want, &bad_i, &bad_j),
                "%s: casm_sha1_init_with/update/final of %d bytes cut in three "
                "at every pair of points equals the one-shot digest",
                impl->name, LEN))
        tap_diag("  first failing pieces: [0,%zu) [%zu,%zu) [%zu,%d)", bad_i,
                 bad_i, bad_j, bad_j, LEN);
}

static unsigned char *get_md(struct vec_file *vf, const struct vec_record *r)
{
    size_t n;
    unsigned char *md = vec_hex(vf, r, "MD", &n);
    if (md && n != 20) {
        vec_fail(vf, r, "MD is %zu bytes, expected 20", n);
        free(md);
        return NULL;
    }
    return md;
}

/*
 * SHAVS Monte Carlo: from Seed, MD0 = MD1 = MD2 = Seed and
 * MDi = SHA1(MDi-3 || MDi-2 || MDi-1) for i = 3..1002; MD1002 is the
 * checkpoint and the next Seed.  Each checkpoint starts from the file's
 * previous value, so one wrong step fails only its own record.
 */
static void monte(void (*hash)(const unsigned char *, size_t, unsigned char *),
                  const unsigned char seed[20], unsigned char out[20])
{
    unsigned char m[60];
    memcpy(m, seed, 20);
    memcpy(m + 20, seed, 20);
    memcpy(m + 40, seed, 20);
    for (int i = 3; i <= 1002; i++) {
        unsigned char md[20];
        hash(m, sizeof(m), md);
        memmove(m, m + 20, 40);
        memcpy(m + 40, md, 20);
    }
    memcpy(out, m + 40, 20);
}

static void hash_with(const unsigned char *p, size_t n, unsigned char *md)
{
    casm_sha1_with(impl->block, p, n, md);
}

static void hash_public(const unsigned char *p, size_t n, unsigned char *md)
{
    SHA1(p, n, md);
}

static void monte_file(const char *name, long expect)
{
    struct vec_file vf;
    unsigned char seed[20];
    long n = 0;

    if (vec_load(&vf, name) != 0) {
        vec_fail_file(&vf);
        return;
    }
    size_t seedlen;
    unsigned char *s = vec_hex(&vf, &vf.records[0], "Seed", &seedlen);
    if (s && seedlen != 20)
        vec_fail(&vf, &vf.records[0], "Seed is %zu bytes, expected 20", seedlen);
    if (s && seedlen == 20) {
        memcpy(seed, s, 20);
        for (size_t i = 1; i < vf.nrecords; i++) {
            const struct vec_record *r = &vf.records[i];
            unsigned char got[20], *md = get_md(&vf, r);
            n++;
            if (vec_int(&vf, r, "COUNT") != n - 1 || !md) {
                vec_fail(&vf, r, "expected a record with COUNT = %ld and MD",
                         n - 1);
                free(md);
                break;
            }
            monte(hash_with, seed, got);
            vec_cmp(&vf, r, "casm_sha1_with (Monte Carlo)", md, got, 20);
            if (is_default) {
                monte(hash_public, seed, got);
                vec_cmp(&vf, r, "SHA1() (Monte Carlo)", md, got, 20);
            }
            memcpy(seed, md, 20);
            free(md);
        }
    }
    free(s);
    if (n != expect)
        vec_fail(&vf, NULL, "file has %ld checkpoints, expected %ld", n, expect);
    vec_finish(&vf, "%ld vectors (Monte Carlo checkpoints of 1000 "
               "iterations)", n);
    vec_free(&vf);
}

/* MSG_HEX, or MSG_REPEAT_BYTE repeated MSG_REPEAT_COUNT times. */
static unsigned char *fips_message(struct vec_file *vf,
                                   const struct vec_record *r, size_t *len)
{
    if (vec_find(r, "MSG_HEX"))
        return vec_hex(vf, r, "MSG_HEX", len);

    size_t blen;
    unsigned char *byte = vec_hex(vf, r, "MSG_REPEAT_BYTE", &blen);
    long count = vec_int(vf, r, "MSG_REPEAT_COUNT");
    unsigned char *msg = NULL;
    if (byte && blen != 1)
        vec_fail(vf, r, "MSG_REPEAT_BYTE is %zu bytes, expected 1", blen);
    else if (byte && count >= 0 && (msg = malloc((size_t)count + 1)) != NULL) {
        memset(msg, byte[0], (size_t)count);
        *len = (size_t)count;
    }
    free(byte);
    return msg;
}

/*
 * A file of messages and their digests: CAVP ShortMsg / LongMsg (Len in
 * bits; for Len = 0, Msg = 00 is a placeholder), or the FIPS 180
 * examples (MSG_LEN bytes of fips_message).
 */
static void msg_file(const char *name, int fips, long expect)
{
    struct vec_file vf;
    long n = 0, minlen = -1, maxlen = -1;

    if (vec_load(&vf, name) != 0) {
        vec_fail_file(&vf);
        return;
    }
    for (size_t i = 0; i < vf.nrecords; i++) {
        const struct vec_record *r = &vf.records[i];
        size_t msglen = 0;
        n++;
        long declared = vec_int(&vf, r, fips ? "MSG_LEN" : "Len");
        unsigned char *msg = fips ? fips_message(&vf, r, &msglen) : vec_hex(&vf, r, "Msg", &msglen);
        unsigned char *md = get_md(&vf, r);
        size_t len = fips ? (size_t)declared : (size_t)declared / 8;
        if (declared >= 0 && msg && md) {
            if (!fips && declared % 8)
                vec_fail(&vf, r, "Len = %ld is not whole bytes", declared);
            else if (msglen != (len || fips ? len : 1))
                vec_fail(&vf, r, "%s = %ld but the message has %zu bytes", fips ? "MSG_LEN" : "Len",
                         declared, msglen);
            else
                sha1_check(&vf, r, msg, len, md);
            if (minlen < 0 || (long)len < minlen)
                minlen = (long)len;
            if ((long)len > maxlen)
                maxlen = (long)len;
        }
        free(msg);
        free(md);
    }
    if (n != expect)
        vec_fail(&vf, NULL, "file has %ld vectors, expected %ld", n, expect);
    if (fips)
        vec_finish(&vf, "%ld vectors", n);
    else
        vec_finish(&vf, "%ld vectors (messages of %ld to %ld bytes)", n, minlen, maxlen);
    vec_free(&vf);
}

int main(int argc, char **argv)
{
    impl = impl_cli_sha1(argc, argv);
    is_default = casm_sha1_best() == impl;
    if (is_default)
        tap_diag("%s is the dispatcher's choice: SHA1(), SHA1_Update, casm_sha1 and "
                 "casm_sha1_init/update/final are checked too", impl->name);

    msg_file("sha1/SHA1ShortMsg.rsp", 0, 65);
    msg_file("sha1/SHA1LongMsg.rsp", 0, 64);
    monte_file("sha1/SHA1Monte.rsp", 100);
    msg_file("sha1/fips180-examples.txt", 1, 3);
    cuts_against_one_shot();
    return tap_done();
}
