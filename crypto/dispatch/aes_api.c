/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The dispatching AES API (cryptoasm.h).  A key remembers the
 * implementation that scheduled it, because schedules differ between
 * families; every mode then runs with that implementation's functions,
 * using its bulk hooks where it has them and the generic modes otherwise.
 */
#include <stdint.h>
#include <string.h>

#include "impl.h"
#include "modes/block_util.h"

/*
 * The argument checks the header promises, shared by the modes: a data
 * buffer may be NULL only at length 0; enc is 0 or 1; in and out are the
 * same buffer or do not overlap at all.
 */
static inline int missing_data(const unsigned char *in,
                               const unsigned char *out, size_t len)
{
    return len != 0 && (in == NULL || out == NULL);
}

static inline int bad_enc(int enc)
{
    return enc != 0 && enc != 1;
}

static inline int partial_overlap(const unsigned char *in,
                                  const unsigned char *out, size_t len)
{
    uintptr_t a = (uintptr_t)in, b = (uintptr_t)out;
    return a != b && (a < b ? b - a : a - b) < len;
}

/*
 * The checks of a call on data, in the order the header gives the errors:
 * the buffers, the key's implementation (NULL: no key set), enc, the
 * length (length_ok: the mode's rule), the overlap.  0: the call may run.
 */
static inline int data_call_error(const void *impl, const unsigned char *in,
                                  const unsigned char *out, size_t len, int enc,
                                  int length_ok)
{
    if (missing_data(in, out, len))
        return CASM_ERR_NULL;
    if (impl == NULL)
        return CASM_ERR_STATE;
    if (bad_enc(enc))
        return CASM_ERR_ENC;
    if (!length_ok)
        return CASM_ERR_LENGTH;
    if (partial_overlap(in, out, len))
        return CASM_ERR_OVERLAP;
    return 0;
}

/* A key no mode accepts: the old schedule wiped, no implementation. */
static void unusable(CASM_AES_KEY *k)
{
    memset(k, 0, sizeof(*k));
    k->impl = NULL;
}

int casm_aes_set_key_with(CASM_AES_KEY *k, const struct casm_aes_impl *impl,
                          const unsigned char *key, int bits)
{
    int ret = 0;

    if (k == NULL)
        return CASM_ERR_NULL;
    if (key == NULL || impl == NULL)
        ret = CASM_ERR_NULL;
    else if (bits != 128 && bits != 192 && bits != 256)
        ret = CASM_ERR_BITS;
    else if (impl->set_encrypt_key(key, bits, &k->enc) != 0 ||
             impl->set_decrypt_key(key, bits, &k->dec) != 0)
        ret = CASM_ERR_BITS;
    if (ret != 0) {
        unusable(k);
        return ret;
    }
    k->impl = impl;
    return 0;
}

int casm_aes_set_key(CASM_AES_KEY *k, const unsigned char *key, int bits)
{
    return casm_aes_set_key_with(k, casm_aes_best(), key, bits);
}

const char *casm_aes_key_impl(const CASM_AES_KEY *k)
{
    return k != NULL && k->impl != NULL ? k->impl->name : NULL;
}

/*
 * The fallbacks of the modes live in functions of their own, reached by a
 * tail call, so the paths through an implementation's bulk routine (every
 * short message on an AES-NI machine) need no saved registers: a 16-byte
 * call is a few dozen instructions, and the wrapper's part of them matters.
 */
__attribute__((noinline))
static int ecb_by_blocks(block128_f block, const AES_KEY *ks,
                         const unsigned char *in, unsigned char *out,
                         size_t len)
{
    for (size_t i = 0; i < len; i += 16)
        block(in + i, out + i, ks);
    return 0;
}

int casm_aes_ecb(const CASM_AES_KEY *k, const unsigned char *in,
                 unsigned char *out, size_t len, int enc)
{
    if (k == NULL)
        return CASM_ERR_NULL;
    int err = data_call_error(k->impl, in, out, len, enc, len % 16 == 0);
    if (err != 0)
        return err;

    const struct casm_aes_impl *impl = k->impl;
    const AES_KEY *ks = enc ? &k->enc : &k->dec;
    if (impl->ecb != NULL) {
        impl->ecb(in, out, len, ks, enc);
        return 0;
    }
    return ecb_by_blocks(enc ? impl->encrypt : impl->decrypt, ks, in, out,
                         len);
}

int casm_aes_cbc(const CASM_AES_KEY *k, const unsigned char *in,
                 unsigned char *out, size_t len, unsigned char iv[16],
                 int enc)
{
    if (k == NULL || iv == NULL)
        return CASM_ERR_NULL;
    int err = data_call_error(k->impl, in, out, len, enc, len % 16 == 0);
    if (err != 0 || len == 0)
        return err;

    const struct casm_aes_impl *impl = k->impl;
    const AES_KEY *ks = enc ? &k->enc : &k->dec;
    if (impl->cbc != NULL)
        impl->cbc(in, out, len, ks, iv, enc);
    else if (enc)
        CRYPTO_cbc128_encrypt(in, out, len, ks, iv, impl->encrypt);
    else
        CRYPTO_cbc128_decrypt(in, out, len, ks, iv, impl->decrypt);
    return 0;
}

/* CTR through the generic modes: partial blocks, pending key stream. */
__attribute__((noinline))
static int ctr_general(const CASM_AES_KEY *k, const unsigned char *in,
                       unsigned char *out, size_t len,
                       unsigned char counter[16], unsigned char ecount[16],
                       unsigned int *num)
{
    const struct casm_aes_impl *impl = k->impl;
    if (impl->ctr32 != NULL)
        CRYPTO_ctr128_encrypt_ctr32(in, out, len, &k->enc, counter, ecount,
                                    num, impl->ctr32);
    else
        CRYPTO_ctr128_encrypt(in, out, len, &k->enc, counter, ecount, num,
                              impl->encrypt);
    return 0;
}

int casm_aes_ctr(const CASM_AES_KEY *k, const unsigned char *in,
                 unsigned char *out, size_t len, unsigned char counter[16],
                 unsigned char ecount[16], unsigned int *num)
{
    if (k == NULL || counter == NULL || ecount == NULL || num == NULL ||
        missing_data(in, out, len))
        return CASM_ERR_NULL;
    if (k->impl == NULL)
        return CASM_ERR_STATE;
    if (*num >= 16)
        return CASM_ERR_LENGTH;
    if (partial_overlap(in, out, len))
        return CASM_ERR_OVERLAP;

    /*
     * Whole blocks from a block boundary that do not carry out of the low
     * 32 bits of the counter: one ctr32 call, and the counter word stored
     * alone (the ctr32 code loads the rest of the block separately, so
     * the next call's loads are forwarded from this store).  Partial
     * blocks, key stream left in ecount and the carry into the upper 96
     * bits take the general path.
     */
    ctr128_f ctr32 = k->impl->ctr32;
    if (*num == 0 && len % 16 == 0 && ctr32 != NULL) {
        uint32_t low = load_be32(counter + 12);
        size_t blocks = len / 16;
        if (blocks <= UINT32_MAX - low) {
            ctr32(in, out, blocks, &k->enc, counter);
            store_be32(counter + 12, low + (uint32_t)blocks);
            return 0;
        }
    }
    return ctr_general(k, in, out, len, counter, ecount, num);
}

int casm_aes_xts_set_key_with(CASM_AES_XTS_KEY *k,
                              const struct casm_aes_impl *impl,
                              const unsigned char *key, int bits)
{
    if (k == NULL)
        return CASM_ERR_NULL;
    int ret = key == NULL                   ? CASM_ERR_NULL
              : bits != 128 && bits != 256 ? CASM_ERR_BITS
              : casm_aes_set_key_with(&k->data, impl, key, bits);
    if (ret == 0)
        ret = casm_aes_set_key_with(&k->tweak, impl, key + bits / 8, bits);
    if (ret != 0) {
        unusable(&k->data);
        unusable(&k->tweak);
    }
    return ret;
}

int casm_aes_xts_set_key(CASM_AES_XTS_KEY *k, const unsigned char *key,
                         int bits)
{
    return casm_aes_xts_set_key_with(k, casm_aes_best(), key, bits);
}

__attribute__((noinline))
static int xts_by_blocks(const CASM_AES_XTS_KEY *k, const unsigned char iv[16],
                         const unsigned char *in, unsigned char *out,
                         size_t len, int enc)
{
    const struct casm_aes_impl *impl = k->data.impl;
    const XTS128_CONTEXT ctx = {
        .key1 = (void *)(enc ? &k->data.enc : &k->data.dec),
        .key2 = (void *)&k->tweak.enc,
        .block1 = enc ? impl->encrypt : impl->decrypt,
        .block2 = impl->encrypt,
    };
    CRYPTO_xts128_encrypt(&ctx, iv, in, out, len, enc);
    return 0;
}

int casm_aes_xts(const CASM_AES_XTS_KEY *k, const unsigned char iv[16],
                 const unsigned char *in, unsigned char *out, size_t len,
                 int enc)
{
    if (k == NULL || iv == NULL)
        return CASM_ERR_NULL;
    int err = data_call_error(k->tweak.impl == NULL ? NULL : k->data.impl, in, out,
                              len, enc, len >= 16 && len <= CASM_AES_XTS_MAX_LEN);
    if (err != 0)
        return err;

    const struct casm_aes_impl *impl = k->data.impl;
    xts128_f bulk = enc ? impl->xts_enc : impl->xts_dec;
    if (bulk != NULL) {
        bulk(in, out, len, enc ? &k->data.enc : &k->data.dec, &k->tweak.enc, iv);
        return 0;
    }
    return xts_by_blocks(k, iv, in, out, len, enc);
}

int casm_aes_lrw_set_key_with(CASM_AES_LRW_KEY *k,
                              const struct casm_aes_impl *impl,
                              const unsigned char *key, int bits)
{
    if (k == NULL)
        return CASM_ERR_NULL;
    int ret = casm_aes_set_key_with(&k->aes, impl, key, bits);
    if (ret == 0)
        CRYPTO_lrw128_init(&k->tweak, key + bits / 8);
    else
        memset(&k->tweak, 0, sizeof(k->tweak));
    return ret;
}

int casm_aes_lrw_set_key(CASM_AES_LRW_KEY *k, const unsigned char *key,
                         int bits)
{
    return casm_aes_lrw_set_key_with(k, casm_aes_best(), key, bits);
}

/*
 * The LRW mode takes OpenSSL's ecb128_f (a const void * key); it gets the
 * implementation's ECB and the schedule together, one call per chunk of
 * blocks.
 */
struct ecb_call {
    casm_aes_ecb_f ecb;
    const AES_KEY *ks;
};

static void ecb_through(const unsigned char *in, unsigned char *out,
                        size_t len, const void *call, int enc)
{
    const struct ecb_call *c = call;
    c->ecb(in, out, len, c->ks, enc);
}

int casm_aes_lrw(const CASM_AES_LRW_KEY *k, const unsigned char index[16],
                 const unsigned char *in, unsigned char *out, size_t len,
                 int enc)
{
    if (k == NULL || index == NULL)
        return CASM_ERR_NULL;
    int err = data_call_error(k->aes.impl, in, out, len, enc, len % 16 == 0);
    if (err != 0)
        return err;

    const struct casm_aes_impl *impl = k->aes.impl;
    if (impl->ecb != NULL) {
        const struct ecb_call call = { impl->ecb, enc ? &k->aes.enc : &k->aes.dec };
        CRYPTO_lrw128_encrypt_ecb(&k->tweak, &call, ecb_through, enc, index,
                                  in, out, len);
        return 0;
    }
    CRYPTO_lrw128_encrypt(&k->tweak, enc ? &k->aes.enc : &k->aes.dec,
                          enc ? impl->encrypt : impl->decrypt, index, in, out,
                          len);
    return 0;
}
