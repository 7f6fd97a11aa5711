/* SPDX-License-Identifier: Apache-2.0 */
#include "ossl_ccm.h"

#include <stdlib.h>
#include <string.h>

#include "ossl.h"

/* From OpenSSL's evp.h: the AEAD controls (facts of its ABI). */
#define EVP_CTRL_AEAD_SET_IVLEN 0x9
#define EVP_CTRL_AEAD_GET_TAG   0x10
#define EVP_CTRL_AEAD_SET_TAG   0x11

typedef struct evp_cipher_ctx EVP_CTX;
typedef struct evp_cipher EVP_CIPH;

/* The EVP calls CCM needs beyond ossl.c's, from the library current when
 * the context was made (each context keeps its own: two libraries may be
 * loaded at once). */
struct ccm_calls {
    int (*init)(EVP_CTX *, const EVP_CIPH *, void *, const unsigned char *,
                const unsigned char *, int);
    int (*update)(EVP_CTX *, unsigned char *, int *, const unsigned char *, int);
    int (*ctrl)(EVP_CTX *, int, int, void *);
    const EVP_CIPH *(*ccm[3])(void);
};

struct ossl_ccm {
    struct ossl_cipher *cipher;      /* owns the EVP context */
    EVP_CTX *ctx;
    int enc;
    size_t tlen;
    struct ccm_calls evp;
};

struct ossl_ccm *ossl_ccm_new(void)
{
    struct ossl_ccm *c = calloc(1, sizeof(*c));
    if (c == NULL) {
        ossl_fail("out of memory");
        return NULL;
    }
    const struct ossl_sym syms[] = {
        { &c->evp.init, "EVP_CipherInit_ex" }, { &c->evp.update, "EVP_CipherUpdate" },
        { &c->evp.ctrl, "EVP_CIPHER_CTX_ctrl" }, { &c->evp.ccm[0], "EVP_aes_128_ccm" },
        { &c->evp.ccm[1], "EVP_aes_192_ccm" }, { &c->evp.ccm[2], "EVP_aes_256_ccm" },
    };
    c->cipher = ossl_cipher_new_with(syms, sizeof(syms) / sizeof(syms[0]));
    if (c->cipher == NULL) {
        free(c);
        return NULL;
    }
    c->ctx = ossl_cipher_evp_ctx(c->cipher);
    return c;
}

void ossl_ccm_free(struct ossl_ccm *c)
{
    if (c != NULL)
        ossl_cipher_free(c->cipher);
    free(c);
}

int ossl_ccm_init(struct ossl_ccm *c, int bits, int enc, const uint8_t *key,
                  size_t nlen, size_t tlen)
{
    int s = bits == 128 ? 0 : bits == 192 ? 1 : bits == 256 ? 2 : -1;
    if (s < 0)
        return ossl_fail("AES key size not 128, 192 or 256");
    /* The nonce and tag lengths fix CCM's L and M, which OpenSSL takes
     * before the key. */
    if (!c->evp.init(c->ctx, c->evp.ccm[s](), NULL, NULL, NULL, enc) ||
        !c->evp.ctrl(c->ctx, EVP_CTRL_AEAD_SET_IVLEN, (int)nlen, NULL) ||
        !c->evp.ctrl(c->ctx, EVP_CTRL_AEAD_SET_TAG, (int)tlen, NULL) ||
        !c->evp.init(c->ctx, NULL, NULL, key, NULL, enc))
        return ossl_fail("EVP AES-CCM setup (cipher, nonce and tag lengths, key) failed");
    c->enc = enc;
    c->tlen = tlen;
    return 0;
}

int ossl_ccm_message(struct ossl_ccm *c, const uint8_t *nonce,
                     const uint8_t *aad, size_t alen, const uint8_t *in,
                     uint8_t *out, size_t len, uint8_t *tag)
{
    int outl;
    static const uint8_t none[1];
    if (!c->evp.init(c->ctx, NULL, NULL, NULL, nonce, c->enc))
        return ossl_fail("EVP_CipherInit_ex (nonce) failed");
    if (!c->enc && !c->evp.ctrl(c->ctx, EVP_CTRL_AEAD_SET_TAG, (int)c->tlen, tag))
        return ossl_fail("EVP_CTRL_AEAD_SET_TAG failed");
    /* CCM needs the payload length before the AAD. */
    if (!c->evp.update(c->ctx, NULL, &outl, NULL, (int)len))
        return ossl_fail("EVP_CipherUpdate (setting the length) failed");
    if (alen > 0 && !c->evp.update(c->ctx, NULL, &outl, aad, (int)alen))
        return ossl_fail("EVP_CipherUpdate (AAD) failed");
    int ok = c->evp.update(c->ctx, out, &outl, len ? in : none, (int)len);
    if (!c->enc)
        return ok ? 0 : 1;
    if (!ok || (size_t)outl != len)
        return ossl_fail("EVP_CipherUpdate (payload) failed");
    if (!c->evp.ctrl(c->ctx, EVP_CTRL_AEAD_GET_TAG, (int)c->tlen, tag))
        return ossl_fail("EVP_CTRL_AEAD_GET_TAG failed");
    return 0;
}
