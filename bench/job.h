/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One timed operation (a job): ours through the dispatching API, or
 * OpenSSL's through support/lib/ossl.c, over one buffer of one length.  The
 * timing harness (timing.h) calls j->op(j) in a loop; the measuring child
 * (child.c) sets jobs up and checks ours against the reference first.
 */
#ifndef BENCH_JOB_H
#define BENCH_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "cryptoasm.h"
#include "impl.h"
#include "options.h"
#include "reference.h"
#include "../support/lib/ccm_glue.h"
#include "../support/lib/ossl.h"
#include "../support/lib/ocb_mode.h"

/* CCM as a message: 12-byte nonce, no AAD, 16-byte tag. */
#define JOB_CCM_NONCE 12
#define JOB_CCM_TAG 16

struct job {
    int (*op)(struct job *j);      /* one operation; 0 on success */
    const char *what;              /* for error messages */
    const uint8_t *in;
    uint8_t *out;
    size_t len;                    /* bytes per operation */
    int enc;
    uint8_t iv[16], ecount[16];
    unsigned int num;
    CASM_AES_KEY k;
    CASM_AES_XTS_KEY xk;
    CASM_AES_LRW_KEY lk;
    struct ossl_cipher *oc;
    sha1_block_f block;
    struct ossl_sha1 *os;
    size_t update;                 /* SHA-1 bytes per update call */
    uint8_t md[20];
    struct ccm_glue ccm;           /* CCM: ours through the bulk functions */
    struct ossl_ccm *occm;
    AES_KEY ocb_ek, ocb_dk;        /* OCB: a whole message per operation */
    struct ocb_mode ocb;
    struct ossl_ocb *oo;
    uint8_t tag[16];
};

/*
 * What every job of a measuring child shares: the buffers (in: the
 * input; out and ref: ours and the reference's output; ccm: the input
 * sealed for CCM decryption, with ccm_tag), the OpenSSL libraries
 * (NULL: none) and, per library, its cipher context and its CCM and OCB
 * contexts, made on first use.
 */
struct job_env {
    uint8_t *in, *out, *ref, *ccm;
    uint8_t ccm_tag[JOB_CCM_TAG];
    const struct reference *refs;
    struct ossl_cipher *oc[OPT_MAX_OPENSSL];
    struct ossl_ccm *occm[OPT_MAX_OPENSSL];
    struct ossl_ocb *oo[OPT_MAX_OPENSSL];
};

/* Allocates env's buffers for up to max bytes, fills the input and makes
 * a cipher context in each library of refs (NULL: no OpenSSL). */
void job_env_init(struct job_env *env, size_t max, const struct reference *refs);
/* Frees what job_env_init and the jobs made. */
void job_env_free(struct job_env *env);

/* Pseudo-random bytes from seed (the same on every run). */
void job_fill(uint8_t *p, size_t n, uint64_t seed);

/* Our implementation impl in mode m, writing to out; exits on failure. */
void job_ours(struct job *j, struct job_env *env, const struct bench_mode *m,
              const struct casm_aes_impl *impl, int bits, const uint8_t *key,
              const uint8_t *iv, size_t len, uint8_t *out);
/* OpenSSL library lib of env->refs in mode m, writing to out; for CCM
 * decryption job_ours must have sealed env->ccm first. */
void job_ossl(struct job *j, struct job_env *env, size_t lib,
              const struct bench_mode *m, int bits, const uint8_t *key,
              const uint8_t *iv, size_t len, uint8_t *out);

/* SHA-1 jobs: ours over block (the C code for the reference without
 * OpenSSL) and OpenSSL's, hashing len bytes of in in updates of update. */
int job_sha1_ours(struct job *j);
int job_sha1_ossl(struct job *j);

#endif
