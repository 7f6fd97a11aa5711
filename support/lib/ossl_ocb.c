/* SPDX-License-Identifier: Apache-2.0 */
#include "ossl_ocb.h"

#include <stdlib.h>
#include <string.h>

#include "ossl.h"

/* openssl/evp.h: the AEAD controls OCB shares with GCM and CCM. */
#define CTRL_AEAD_SET_IVLEN 0x9
#define CTRL_AEAD_GET_TAG   0x10
#define CTRL_AEAD_SET_TAG   0x11

typedef struct evp_cipher_ctx EVP_CTX;
typedef struct evp_cipher EVP_CIPH;

/* The EVP calls OCB needs beyond ossl.c's, from the library current when
 * the context was made (each context keeps its own: two libraries may be
 * loaded at once). */
struct ocb_calls {
    int (*init) (EVP_CTX *, const EVP_CIPH *, void *engine,
                 const unsigned char *key, const unsigned char *iv, int enc);
    int (*ctrl) (EVP_CTX *, int type, int arg, void *ptr);
    int (*update) (EVP_CTX *, unsigned char *out, int *outl,
                   const unsigned char *in, int inl);
    int (*final) (EVP_CTX *, unsigned char *out, int *outl);
    const EVP_CIPH *(*ocb[3]) (void);           /* AES-128/192/256-OCB */
};

struct ossl_ocb {
    struct ossl_cipher *cipher;     /* owns the EVP context */
    EVP_CTX *ctx;
    int enc;
    size_t nonce_len, tag_len;
    struct ocb_calls evp;
};

struct ossl_ocb *ossl_ocb_new(void)
{
    struct ossl_ocb *c = calloc(1, sizeof(*c));
    if (c == NULL) {
        ossl_fail("out of memory");
        return NULL;
    }
    const struct ossl_sym syms[] = {
        { &c->evp.init, "EVP_CipherInit_ex" }, { &c->evp.ctrl, "EVP_CIPHER_CTX_ctrl" },
        { &c->evp.update, "EVP_CipherUpdate" }, { &c->evp.final, "EVP_CipherFinal_ex" },
        { &c->evp.ocb[0], "EVP_aes_128_ocb" }, { &c->evp.ocb[1], "EVP_aes_192_ocb" },
        { &c->evp.ocb[2], "EVP_aes_256_ocb" },
    };
    c->cipher = ossl_cipher_new_with(syms, sizeof(syms) / sizeof(syms[0]));
    if (c->cipher == NULL) {
        free(c);
        return NULL;
    }
    c->ctx = ossl_cipher_evp_ctx(c->cipher);
    return c;
}

void ossl_ocb_free(struct ossl_ocb *c)
{
    if (c != NULL)
        ossl_cipher_free(c->cipher);
    free(c);
}

int ossl_ocb_init(struct ossl_ocb *c, int bits, int enc, const uint8_t *key,
                  size_t nonce_len, size_t tag_len)
{
    int s = bits == 128 ? 0 : bits == 192 ? 1 : bits == 256 ? 2 : -1;
    if (s < 0)
        return ossl_fail("no AES-%d", bits);
    if (!c->evp.init(c->ctx, c->evp.ocb[s](), NULL, NULL, NULL, enc ? 1 : 0))
        return ossl_fail("EVP_CipherInit_ex(AES-%d-OCB) failed", bits);
    if (!c->evp.ctrl(c->ctx, CTRL_AEAD_SET_IVLEN, (int)nonce_len, NULL))
        return ossl_fail("AES-OCB: nonce length %zu refused", nonce_len);
    if (!c->evp.init(c->ctx, NULL, NULL, key, NULL, -1))
        return ossl_fail("EVP_CipherInit_ex(AES-%d-OCB key) failed", bits);
    c->enc = enc;
    c->nonce_len = nonce_len;
    c->tag_len = tag_len;
    return 0;
}

int ossl_ocb_message(struct ossl_ocb *c, const uint8_t *nonce,
                     const uint8_t *aad, size_t aad_len, const uint8_t *in,
                     uint8_t *out, size_t len, uint8_t *tag)
{
    int outl = 0, n;
    /* The tag length shapes the nonce, so it is set before any data. */
    if (!c->evp.ctrl(c->ctx, CTRL_AEAD_SET_TAG, (int)c->tag_len,
                  c->enc ? NULL : tag))
        return ossl_fail("AES-OCB: tag length %zu refused", c->tag_len);
    if (!c->evp.init(c->ctx, NULL, NULL, NULL, nonce, -1))
        return ossl_fail("EVP_CipherInit_ex (nonce) failed");
    if (aad_len > 0 && !c->evp.update(c->ctx, NULL, &n, aad, (int)aad_len))
        return ossl_fail("EVP_CipherUpdate (%zu bytes of AAD) failed", aad_len);
    if (len > 0 && !c->evp.update(c->ctx, out, &outl, in, (int)len))
        return ossl_fail("EVP_CipherUpdate (%zu bytes) failed", len);
    if (!c->evp.final(c->ctx, out + outl, &n)) {
        if (!c->enc)
            return 1;
        return ossl_fail("EVP_CipherFinal_ex failed");
    }
    if ((size_t)(outl + n) != len)
        return ossl_fail("AES-OCB gave %d bytes for %zu", outl + n, len);
    if (c->enc && !c->evp.ctrl(c->ctx, CTRL_AEAD_GET_TAG, (int)c->tag_len, tag))
        return ossl_fail("AES-OCB: no tag");
    return 0;
}
