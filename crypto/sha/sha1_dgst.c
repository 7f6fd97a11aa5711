/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SHA-1 message padding and buffering (FIPS 180-4 §5.1.1) over a
 * compression function.  The public SHA1_* calls use OpenSSL's
 * sha1_block_data_order; the *_with variants take any block function so
 * every implementation can be tested and measured through the same code.
 */
#include <string.h>

#include <openssl/sha.h>

#include "impl.h"

int SHA1_Init(SHA_CTX *c)
{
    memset(c, 0, sizeof(*c));
    c->h0 = 0x67452301;
    c->h1 = 0xefcdab89;
    c->h2 = 0x98badcfe;
    c->h3 = 0x10325476;
    c->h4 = 0xc3d2e1f0;
    return 1;
}

void casm_sha1_update_with(SHA_CTX *c, const void *data, size_t len,
                           sha1_block_f block)
{
    const unsigned char *p = data;
    unsigned char *buf = (unsigned char *)c->data;

    if (len == 0)
        return;
    /* The bit count is 64 bits split over Nl (low) and Nh (high). */
    uint64_t bits = ((uint64_t)c->Nh << 32 | c->Nl) + ((uint64_t)len << 3);
    c->Nl = (SHA_LONG)bits;
    c->Nh = (SHA_LONG)(bits >> 32);

    if (c->num != 0) {
        size_t take = SHA_CBLOCK - c->num;
        if (take > len)
            take = len;
        memcpy(buf + c->num, p, take);
        c->num += (unsigned int)take;
        p += take;
        len -= take;
        if (c->num < SHA_CBLOCK)
            return;
        block(c, buf, 1);
        c->num = 0;
    }
    if (len >= SHA_CBLOCK) {
        size_t n = len / SHA_CBLOCK;
        block(c, p, n);
        p += n * SHA_CBLOCK;
        len -= n * SHA_CBLOCK;
    }
    memcpy(buf, p, len);
    c->num = (unsigned int)len;
}

void casm_sha1_final_with(unsigned char md[20], SHA_CTX *c,
                          sha1_block_f block)
{
    unsigned char *buf = (unsigned char *)c->data;
    size_t n = c->num;

    buf[n++] = 0x80;
    if (n > SHA_LAST_BLOCK) {
        memset(buf + n, 0, SHA_CBLOCK - n);
        block(c, buf, 1);
        n = 0;
    }
    memset(buf + n, 0, SHA_LAST_BLOCK - n);
    for (int i = 0; i < 4; i++) {
        buf[SHA_LAST_BLOCK + i] = (unsigned char)(c->Nh >> (24 - 8 * i));
        buf[SHA_LAST_BLOCK + 4 + i] = (unsigned char)(c->Nl >> (24 - 8 * i));
    }
    block(c, buf, 1);

    const SHA_LONG h[5] = { c->h0, c->h1, c->h2, c->h3, c->h4 };
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 4; j++)
            md[4 * i + j] = (unsigned char)(h[i] >> (24 - 8 * j));
    /* Wipe the context: no message bytes or chaining state stay behind. */
    memset(c, 0, sizeof(*c));
}

int SHA1_Update(SHA_CTX *c, const void *data, size_t len)
{
    casm_sha1_update_with(c, data, len, sha1_block_data_order);
    return 1;
}

int SHA1_Final(unsigned char *md, SHA_CTX *c)
{
    casm_sha1_final_with(md, c, sha1_block_data_order);
    return 1;
}

void casm_sha1_with(sha1_block_f block, const void *data, size_t len,
                    unsigned char md[20])
{
    SHA_CTX c;
    SHA1_Init(&c);
    casm_sha1_update_with(&c, data, len, block);
    casm_sha1_final_with(md, &c, block);
}

unsigned char *SHA1(const unsigned char *d, size_t n, unsigned char *md)
{
    static unsigned char static_md[SHA_DIGEST_LENGTH];
    if (md == NULL)
        md = static_md;
    casm_sha1_with(sha1_block_data_order, d, n, md);
    return md;
}
