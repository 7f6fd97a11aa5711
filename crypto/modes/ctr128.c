/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Counter mode with OpenSSL's streaming semantics: ecount_buf keeps the
 * current key-stream block and *num how many of its bytes are used, so a
 * message may be split across calls at any byte.
 */
#include <openssl/modes.h>

#include "modes/block_util.h"

/* Use up what is left of the current key-stream block. */
static size_t ctr_drain(const unsigned char **in, unsigned char **out,
                        size_t len, const unsigned char ecount_buf[16],
                        unsigned int *num)
{
    size_t done = 0;
    unsigned int n = *num;

    while (n != 0 && done < len) {
        (*out)[done] = (*in)[done] ^ ecount_buf[n];
        done++;
        n = (n + 1) % 16;
    }
    *num = n;
    *in += done;
    *out += done;
    return done;
}

/* Start a partial final block: the remaining key stream stays in ecount_buf. */
static void ctr_tail(const unsigned char *in, unsigned char *out, size_t len,
                     const unsigned char ecount_buf[16], unsigned int *num)
{
    xor_bytes(out, in, ecount_buf, len);
    *num = (unsigned int)len;
}

void CRYPTO_ctr128_encrypt(const unsigned char *in, unsigned char *out,
                           size_t len, const void *key,
                           unsigned char ivec[16],
                           unsigned char ecount_buf[16], unsigned int *num,
                           block128_f block)
{
    len -= ctr_drain(&in, &out, len, ecount_buf, num);

    while (len > 0) {
        block(ivec, ecount_buf, key);
        be_increment(ivec, 16);
        if (len < 16) {
            ctr_tail(in, out, len, ecount_buf, num);
            return;
        }
        xor_bytes(out, in, ecount_buf, 16);
        len -= 16;
        in += 16;
        out += 16;
    }
}

void CRYPTO_ctr128_encrypt_ctr32(const unsigned char *in, unsigned char *out,
                                 size_t len, const void *key,
                                 unsigned char ivec[16],
                                 unsigned char ecount_buf[16],
                                 unsigned int *num, ctr128_f ctr)
{
    len -= ctr_drain(&in, &out, len, ecount_buf, num);

    while (len >= 16) {
        /*
         * ctr only steps the low 32 bits, so stop each call where they
         * wrap and carry into the upper 96 bits here.
         */
        uint32_t ctr32 = load_be32(ivec + 12);
        uint64_t until_wrap = (uint64_t)UINT32_MAX - ctr32 + 1;
        size_t blocks = len / 16;
        if (blocks > until_wrap)
            blocks = (size_t)until_wrap;

        ctr(in, out, blocks, key, ivec);
        ctr32 += (uint32_t)blocks;
        store_be32(ivec + 12, ctr32);
        if (ctr32 == 0)
            be_increment(ivec, 12);
        len -= blocks * 16;
        in += blocks * 16;
        out += blocks * 16;
    }
    if (len > 0) {
        memset(ecount_buf, 0, 16);
        ctr(ecount_buf, ecount_buf, 1, key, ivec);
        be_increment(ivec, 16);
        ctr_tail(in, out, len, ecount_buf, num);
    }
}
