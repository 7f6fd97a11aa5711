/* SPDX-License-Identifier: Apache-2.0 */
/*
 * OpenSSL's AES-CCM and AES-OCB through EVP (ossl_ccm.h, ossl_ocb.h): one
 * context, set up alike; the modes differ only in when OpenSSL wants the
 * tag length and the message length, which the message functions follow.
 */
#include "ossl_ccm.h"
#include "ossl_ocb.h"

#include <stdlib.h>

#include "ossl.h"

/* From OpenSSL's evp.h: the AEAD controls (facts of its ABI). */
#define EVP_CTRL_AEAD_SET_IVLEN 0x9
#define EVP_CTRL_AEAD_GET_TAG   0x10
#define EVP_CTRL_AEAD_SET_TAG   0x11

typedef struct evp_cipher_ctx EVP_CTX;
typedef struct evp_cipher EVP_CIPH;

enum aead_mode { CCM, OCB };

/* The EVP calls beyond ossl.c's, from the library current when the
 * context was made (each context keeps its own: two libraries may be
 * loaded at once). */
struct aead_calls {
    int (*init)(EVP_CTX *, const EVP_CIPH *, void *engine,
                const unsigned char *key, const unsigned char *iv, int enc);
    int (*update)(EVP_CTX *, unsigned char *out, int *outl,
                  const unsigned char *in, int inl);
    int (*final)(EVP_CTX *, unsigned char *out, int *outl);
    int (*ctrl)(EVP_CTX *, int type, int arg, void *ptr);
    const EVP_CIPH *(*cipher[2][3])(void);     /* [CCM, OCB][AES-128/192/256] */
};

/* Each public type is this context. */
struct aead {
    struct ossl_cipher *cipher;     /* owns the EVP context */
    EVP_CTX *ctx;
    int enc;
    size_t tlen;
    struct aead_calls evp;
};
struct ossl_ccm { struct aead a; };
struct ossl_ocb { struct aead a; };

static void *aead_new(size_t size)
{
    struct aead *a = calloc(1, size);
    if (a == NULL) {
        ossl_fail("out of memory");
        return NULL;
    }
    struct aead_calls *e = &a->evp;
    const struct ossl_sym syms[] = {
        { &e->init, "EVP_CipherInit_ex" }, { &e->update, "EVP_CipherUpdate" },
        { &e->final, "EVP_CipherFinal_ex" }, { &e->ctrl, "EVP_CIPHER_CTX_ctrl" },
        { &e->cipher[CCM][0], "EVP_aes_128_ccm" }, { &e->cipher[CCM][1], "EVP_aes_192_ccm" },
        { &e->cipher[CCM][2], "EVP_aes_256_ccm" }, { &e->cipher[OCB][0], "EVP_aes_128_ocb" },
        { &e->cipher[OCB][1], "EVP_aes_192_ocb" }, { &e->cipher[OCB][2], "EVP_aes_256_ocb" },
    };
    a->cipher = ossl_cipher_new_with(syms, sizeof(syms) / sizeof(syms[0]));
    if (a->cipher == NULL) {
        free(a);
        return NULL;
    }
    a->ctx = ossl_cipher_evp_ctx(a->cipher);
    return a;
}

static void aead_free(struct aead *a)
{
    if (a != NULL)
        ossl_cipher_free(a->cipher);
    free(a);
}

/* Cipher, nonce length and key; CCM also fixes the tag length (its M)
 * here, before the key, as OpenSSL requires. */
static int aead_init(struct aead *a, enum aead_mode mode, int bits, int enc,
                     const uint8_t *key, size_t nlen, size_t tlen)
{
    static const char *const name[2] = { "CCM", "OCB" };
    int s = bits == 128 ? 0 : bits == 192 ? 1 : bits == 256 ? 2 : -1;
    if (s < 0)
        return ossl_fail("AES key size %d not 128, 192 or 256", bits);
    if (!a->evp.init(a->ctx, a->evp.cipher[mode][s](), NULL, NULL, NULL, enc) ||
        !a->evp.ctrl(a->ctx, EVP_CTRL_AEAD_SET_IVLEN, (int)nlen, NULL) ||
        (mode == CCM && !a->evp.ctrl(a->ctx, EVP_CTRL_AEAD_SET_TAG, (int)tlen, NULL)) ||
        !a->evp.init(a->ctx, NULL, NULL, key, NULL, enc))
        return ossl_fail("EVP AES-%d-%s setup (cipher, nonce length %zu, tag length %zu, key) failed",
                         bits, name[mode], nlen, tlen);
    a->enc = enc;
    a->tlen = tlen;
    return 0;
}

struct ossl_ccm *ossl_ccm_new(void) { return aead_new(sizeof(struct ossl_ccm)); }
struct ossl_ocb *ossl_ocb_new(void) { return aead_new(sizeof(struct ossl_ocb)); }
void ossl_ccm_free(struct ossl_ccm *c) { aead_free(c ? &c->a : NULL); }
void ossl_ocb_free(struct ossl_ocb *c) { aead_free(c ? &c->a : NULL); }

int ossl_ccm_init(struct ossl_ccm *c, int bits, int enc, const uint8_t *key,
                  size_t nlen, size_t tlen)
{
    return aead_init(&c->a, CCM, bits, enc, key, nlen, tlen);
}

int ossl_ocb_init(struct ossl_ocb *c, int bits, int enc, const uint8_t *key,
                  size_t nonce_len, size_t tag_len)
{
    return aead_init(&c->a, OCB, bits, enc, key, nonce_len, tag_len);
}

int ossl_ccm_message(struct ossl_ccm *c, const uint8_t *nonce,
                     const uint8_t *aad, size_t alen, const uint8_t *in,
                     uint8_t *out, size_t len, uint8_t *tag)
{
    struct aead *a = &c->a;
    int outl;
    static const uint8_t none[1];
    if (!a->evp.init(a->ctx, NULL, NULL, NULL, nonce, a->enc))
        return ossl_fail("EVP_CipherInit_ex (nonce) failed");
    if (!a->enc && !a->evp.ctrl(a->ctx, EVP_CTRL_AEAD_SET_TAG, (int)a->tlen, tag))
        return ossl_fail("EVP_CTRL_AEAD_SET_TAG failed");
    /* CCM needs the payload length before the AAD. */
    if (!a->evp.update(a->ctx, NULL, &outl, NULL, (int)len))
        return ossl_fail("EVP_CipherUpdate (setting the length) failed");
    if (alen > 0 && !a->evp.update(a->ctx, NULL, &outl, aad, (int)alen))
        return ossl_fail("EVP_CipherUpdate (AAD) failed");
    int ok = a->evp.update(a->ctx, out, &outl, len ? in : none, (int)len);
    if (!a->enc)
        return ok ? 0 : 1;
    if (!ok || (size_t)outl != len)
        return ossl_fail("EVP_CipherUpdate (payload) failed");
    if (!a->evp.ctrl(a->ctx, EVP_CTRL_AEAD_GET_TAG, (int)a->tlen, tag))
        return ossl_fail("EVP_CTRL_AEAD_GET_TAG failed");
    return 0;
}

int ossl_ocb_message(struct ossl_ocb *c, const uint8_t *nonce,
                     const uint8_t *aad, size_t aad_len, const uint8_t *in,
                     uint8_t *out, size_t len, uint8_t *tag)
{
    struct aead *a = &c->a;
    int outl = 0, n;
    /* The tag length shapes the nonce, so it is set before any data. */
    if (!a->evp.ctrl(a->ctx, EVP_CTRL_AEAD_SET_TAG, (int)a->tlen, a->enc ? NULL : tag))
        return ossl_fail("AES-OCB: tag length %zu refused", a->tlen);
    if (!a->evp.init(a->ctx, NULL, NULL, NULL, nonce, -1))
        return ossl_fail("EVP_CipherInit_ex (nonce) failed");
    if (aad_len > 0 && !a->evp.update(a->ctx, NULL, &n, aad, (int)aad_len))
        return ossl_fail("EVP_CipherUpdate (%zu bytes of AAD) failed", aad_len);
    if (len > 0 && !a->evp.update(a->ctx, out, &outl, in, (int)len))
        return ossl_fail("EVP_CipherUpdate (%zu bytes) failed", len);
    if (!a->evp.final(a->ctx, out + outl, &n))
        return a->enc ? ossl_fail("EVP_CipherFinal_ex failed") : 1;
    if ((size_t)(outl + n) != len)
        return ossl_fail("AES-OCB gave %d bytes for %zu", outl + n, len);
    if (a->enc && !a->evp.ctrl(a->ctx, EVP_CTRL_AEAD_GET_TAG, (int)a->tlen, tag))
        return ossl_fail("AES-OCB: no tag");
    return 0;
}
