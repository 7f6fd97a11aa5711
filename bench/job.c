/* SPDX-License-Identifier: Apache-2.0 */
#include "job.h"

#include <stdlib.h>
#include <string.h>

#include "../support/lib/ossl_ccm.h"
#include "../support/lib/ossl_ocb.h"

/* --- the operations ------------------------------------------------------ */

static int op_ecb(struct job *j)
{
    return casm_aes_ecb(&j->k, j->in, j->out, j->len, j->enc);
}

static int op_cbc(struct job *j)
{
    return casm_aes_cbc(&j->k, j->in, j->out, j->len, j->iv, j->enc);
}

static int op_ctr(struct job *j)
{
    return casm_aes_ctr(&j->k, j->in, j->out, j->len, j->iv, j->ecount,
                        &j->num);
}

static int op_xts(struct job *j)
{
    return casm_aes_xts(&j->xk, j->iv, j->in, j->out, j->len, j->enc);
}

static int op_lrw(struct job *j)
{
    return casm_aes_lrw(&j->lk, j->iv, j->in, j->out, j->len, j->enc);
}

/* CCM as a message (j->iv the nonce), so each call also pays for B0 and
 * the tag block.  Decryption checks j->tag. */
static int op_ccm(struct job *j)
{
    return j->enc ? ccm_seal(&j->ccm, j->iv, JOB_CCM_NONCE, NULL, 0, j->in,
                             j->out, j->len, j->tag, JOB_CCM_TAG)
                  : ccm_open(&j->ccm, j->iv, JOB_CCM_NONCE, NULL, 0, j->in,
                             j->out, j->len, j->tag, JOB_CCM_TAG);
}

static int op_ossl_ccm(struct job *j)
{
    return ossl_ccm_message(j->occm, j->iv, NULL, 0, j->in, j->out, j->len,
                            j->tag);
}

static int op_ossl_cipher(struct job *j)
{
    return ossl_cipher_update(j->oc, j->in, j->out, j->len);
}

/* OCB as an application sees it: nonce, the data, the tag; no AAD. */
static int op_ocb(struct job *j)
{
    ocb_mode_setiv(&j->ocb, j->iv, 12, 16);
    ocb_mode_crypt(&j->ocb, j->in, j->out, j->len, 1);
    ocb_mode_tag(&j->ocb, j->tag, 16);
    return 0;
}

static int op_ossl_ocb(struct job *j)
{
    return ossl_ocb_message(j->oo, j->iv, NULL, 0, j->in, j->out, j->len, j->tag);
}

/* SHA-1 as tcrypt times it: init, len/update updates, final. */
int job_sha1_ours(struct job *j)
{
    SHA_CTX c;
    SHA1_Init(&c);
    for (size_t off = 0; off < j->len; off += j->update)
        casm_sha1_update_with(&c, j->in + off, j->update, j->block);
    casm_sha1_final_with(j->md, &c, j->block);
    return 0;
}

int job_sha1_ossl(struct job *j)
{
    int bad = ossl_sha1_init(j->os);
    for (size_t off = 0; off < j->len; off += j->update)
        bad |= ossl_sha1_update(j->os, j->in + off, j->update);
    return bad | ossl_sha1_final(j->os, j->md);
}

static int (*const ours_ops[])(struct job *) = {
    [OP_ECB] = op_ecb, [OP_CBC] = op_cbc, [OP_CTR] = op_ctr,
    [OP_XTS] = op_xts, [OP_LRW] = op_lrw, [OP_CCM] = op_ccm,
    [OP_OCB] = op_ocb, [OP_SHA1] = job_sha1_ours,
};

/* --- setup ---------------------------------------------------------------- */

void job_fill(uint8_t *p, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        p[i] = (uint8_t)(seed >> 56);
    }
}

void job_env_init(struct job_env *env, size_t max, const struct reference *refs)
{
    memset(env, 0, sizeof(*env));
    env->refs = refs;
    for (size_t l = 0; refs && l < refs->n; l++) {
        ossl_use(refs->lib[l]);
        if ((env->oc[l] = ossl_cipher_new()) == NULL)
            bench_fail("%s: %s", refs->version[l], ossl_error());
    }
    env->in = aligned_alloc(64, max + 64);
    env->out = aligned_alloc(64, max + 64);
    env->ref = aligned_alloc(64, max + 64);
    env->ccm = aligned_alloc(64, max + 64);
    if (!env->in || !env->out || !env->ref || !env->ccm)
        bench_fail("out of memory");
    job_fill(env->in, max, 1);
}

void job_env_free(struct job_env *env)
{
    for (size_t l = 0; l < OPT_MAX_OPENSSL; l++) {
        ossl_cipher_free(env->oc[l]);
        ossl_ccm_free(env->occm[l]);
        ossl_ocb_free(env->oo[l]);
    }
    free(env->in);
    free(env->out);
    free(env->ref);
    free(env->ccm);
    memset(env, 0, sizeof(*env));
}

/*
 * Our CCM job: the glue over impl's block and bulk functions; decryption
 * reads env->in sealed with this key and nonce (into env->ccm, ccm_tag).
 */
static void ccm_setup(struct job *j, struct job_env *env,
                      const struct casm_aes_impl *impl)
{
    struct ccm_glue g = { &j->k.enc, impl->encrypt, impl->ccm64_enc, impl->ccm64_dec };
    j->ccm = g;
    if (j->enc)
        return;
    if (ccm_seal(&j->ccm, j->iv, JOB_CCM_NONCE, NULL, 0, env->in, env->ccm,
                 j->len, env->ccm_tag, JOB_CCM_TAG) != 0)
        bench_fail("%s: CCM sealing the decryption input failed", impl->name);
    j->in = env->ccm;
    memcpy(j->tag, env->ccm_tag, JOB_CCM_TAG);
}

void job_ours(struct job *j, struct job_env *env, const struct bench_mode *m,
              const struct casm_aes_impl *impl, int bits, const uint8_t *key,
              const uint8_t *iv, size_t len, uint8_t *out)
{
    int rc;
    memset(j, 0, sizeof(*j));
    j->op = ours_ops[m->op];
    j->what = impl->name;
    j->in = env->in;
    j->out = out;
    j->len = len;
    j->enc = m->enc;
    memcpy(j->iv, iv, 16);
    if (m->op == OP_XTS)
        rc = casm_aes_xts_set_key_with(&j->xk, impl, key, bits);
    else if (m->op == OP_LRW)
        rc = casm_aes_lrw_set_key_with(&j->lk, impl, key, bits);
    else if (m->op == OP_OCB) {
        rc = impl->set_encrypt_key(key, bits, &j->ocb_ek) |
             impl->set_decrypt_key(key, bits, &j->ocb_dk);
        ocb_mode_init(&j->ocb, &j->ocb_ek, &j->ocb_dk, impl->encrypt,
                      impl->decrypt, impl->ocb_enc, impl->ocb_dec);
    }
    else
        rc = casm_aes_set_key_with(&j->k, impl, key, bits);
    if (rc != 0)
        bench_fail("%s: AES-%d key setup failed (%d)", impl->name, bits, rc);
    if (m->op == OP_CCM)
        ccm_setup(j, env, impl);
}

void job_ossl(struct job *j, struct job_env *env, size_t lib,
              const struct bench_mode *m, int bits, const uint8_t *key,
              const uint8_t *iv, size_t len, uint8_t *out)
{
    const char *version = env->refs->version[lib];
    memset(j, 0, sizeof(*j));
    j->op = op_ossl_cipher;
    j->what = version;
    j->in = env->in;
    j->out = out;
    j->len = len;
    j->oc = env->oc[lib];
    memcpy(j->iv, iv, 16);
    /* The CCM and OCB contexts made here belong to this library. */
    ossl_use(env->refs->lib[lib]);
    if (m->op == OP_CCM) {
        if (env->occm[lib] == NULL && (env->occm[lib] = ossl_ccm_new()) == NULL)
            bench_fail("%s CCM: %s", version, ossl_error());
        j->op = op_ossl_ccm;
        j->enc = m->enc;
        j->occm = env->occm[lib];
        if (!m->enc) {
            j->in = env->ccm;
            memcpy(j->tag, env->ccm_tag, JOB_CCM_TAG);
        }
        if (ossl_ccm_init(j->occm, bits, m->enc, key, JOB_CCM_NONCE,
                          JOB_CCM_TAG) != 0)
            bench_fail("%s CCM: %s", version, ossl_error());
        return;
    }
    if (m->op == OP_OCB) {
        if (env->oo[lib] == NULL && (env->oo[lib] = ossl_ocb_new()) == NULL)
            bench_fail("%s OCB: %s", version, ossl_error());
        j->op = op_ossl_ocb;
        j->oo = env->oo[lib];
        if (ossl_ocb_init(j->oo, bits, m->enc, key, 12, 16) != 0)
            bench_fail("%s OCB: %s", version, ossl_error());
        return;
    }
    if (ossl_cipher_init(j->oc, m->evp, bits, m->enc, key, iv) != 0)
        bench_fail("%s: %s", version, ossl_error());
}
