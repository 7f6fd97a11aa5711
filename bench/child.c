/* SPDX-License-Identifier: Apache-2.0 */
#include "child.h"

#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cryptoasm.h"
#include "impl.h"
#include "plan.h"
#include "report.h"
#include "tsc.h"
#include "../test/lib/ossl.h"
#include "../test/lib/ccm_glue.h"
#include "../test/lib/ossl_ccm.h"
#include "../test/lib/ocb_mode.h"
#include "../test/lib/ossl_ocb.h"

static const struct bench_options *opt;
static int have_ossl;
static uint64_t min_cycles;       /* per timed batch: --seconds over the runs */

/* --- one timed operation ------------------------------------------------------ */

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

/*
 * CCM as a message: 12-byte nonce (j->iv), no AAD, 16-byte tag, so each
 * call also pays for B0 and the tag block.  Decryption checks j->tag.
 */
#define CCM_NONCE 12
#define CCM_TAG 16

static int op_ccm(struct job *j)
{
    return j->enc ? ccm_seal(&j->ccm, j->iv, CCM_NONCE, NULL, 0, j->in, j->out,
                             j->len, j->tag, CCM_TAG)
                  : ccm_open(&j->ccm, j->iv, CCM_NONCE, NULL, 0, j->in, j->out,
                             j->len, j->tag, CCM_TAG);
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
static int op_sha1_ours(struct job *j)
{
    SHA_CTX c;
    SHA1_Init(&c);
    for (size_t off = 0; off < j->len; off += j->update)
        casm_sha1_update_with(&c, j->in + off, j->update, j->block);
    casm_sha1_final_with(j->md, &c, j->block);
    return 0;
}

static int op_sha1_ossl(struct job *j)
{
    int bad = ossl_sha1_init(j->os);
    for (size_t off = 0; off < j->len; off += j->update)
        bad |= ossl_sha1_update(j->os, j->in + off, j->update);
    return bad | ossl_sha1_final(j->os, j->md);
}

static int (*const ours_ops[])(struct job *) = {
    [OP_ECB] = op_ecb, [OP_CBC] = op_cbc, [OP_CTR] = op_ctr,
    [OP_XTS] = op_xts, [OP_LRW] = op_lrw, [OP_CCM] = op_ccm,
    [OP_OCB] = op_ocb, [OP_SHA1] = op_sha1_ours,
};

/* --- timing -------------------------------------------------------------------- */

static uint64_t batch(struct job *j, uint64_t n)
{
    int bad = 0;
    uint64_t t0 = tsc_start();
    for (uint64_t i = 0; i < n; i++)
        bad |= j->op(j);
    uint64_t t = tsc_stop() - t0;
    if (bad)
        bench_fail("%s failed while timing (%s)", j->what, ossl_error());
    return t;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/*
 * Median cycles/byte of each job.  Runs of the jobs alternate, so a clock
 * or load change during the measurement hits all of them alike.
 */
static void measure(struct job **jobs, int njobs, double *cpb)
{
    uint64_t n[2];
    double samples[2][OPT_RUNS];
    int runs = opt->runs;
    for (int i = 0; i < njobs; i++) {
        /* Doubling the batch until it is long enough also warms up. */
        for (n[i] = 1; batch(jobs[i], n[i]) < min_cycles; n[i] *= 2)
            ;
        batch(jobs[i], n[i]);
    }
    for (int r = 0; r < runs; r++)
        for (int i = 0; i < njobs; i++)
            samples[i][r] = (double)batch(jobs[i], n[i]) /
                            ((double)n[i] * (double)jobs[i]->len);
    for (int i = 0; i < njobs; i++) {
        qsort(samples[i], (size_t)runs, sizeof(double), cmp_double);
        cpb[i] = samples[i][runs / 2];
    }
}

/* --- setup ----------------------------------------------------------------------- */

static uint8_t *buf_in, *buf_out, *buf_ref;
/* CCM decryption's input: buf_in sealed under the job's key and nonce. */
static uint8_t *buf_ccm, ccm_tag[16];
static struct ossl_ccm *occm;

static void fill(uint8_t *p, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        p[i] = (uint8_t)(seed >> 56);
    }
}

static void child_setup(void)
{
    char err[512];
    size_t nsizes, max = 0;
    const size_t *aes = options_sizes(opt, 0, &nsizes);
    for (size_t i = 0; i < nsizes; i++)
        max = aes[i] > max ? aes[i] : max;
    const size_t *sha = options_sizes(opt, 1, &nsizes);
    for (size_t i = 0; i < nsizes; i++)
        max = sha[i] > max ? sha[i] : max;

    have_ossl = !opt->no_openssl;
    if (have_ossl && !ossl_load(err, sizeof(err)))
        bench_fail("cannot load OpenSSL in the measuring child: %s", err);
    if (opt->tsc_hz <= 0)
        bench_fail("internal: no --child-tsc-hz from the parent");
    min_cycles = (uint64_t)(opt->seconds * opt->tsc_hz / opt->runs);
    buf_in = aligned_alloc(64, max + 64);
    buf_out = aligned_alloc(64, max + 64);
    buf_ref = aligned_alloc(64, max + 64);
    buf_ccm = aligned_alloc(64, max + 64);
    if (!buf_in || !buf_out || !buf_ref || !buf_ccm)
        bench_fail("out of memory");
    fill(buf_in, max, 1);
    /* Stay on one CPU: a migration mid-run would mix two TSCs and caches. */
    int cpu = sched_getcpu();
    if (cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        sched_setaffinity(0, sizeof(set), &set);
    }
}

/*
 * Our CCM job: the glue over impl's block and bulk functions; decryption
 * reads buf_in sealed with this key and nonce (into buf_ccm, ccm_tag).
 */
static void ccm_setup(struct job *j, const struct casm_aes_impl *impl)
{
    struct ccm_glue g = { &j->k.enc, impl->encrypt, impl->ccm64_enc, impl->ccm64_dec };
    j->ccm = g;
    if (j->enc)
        return;
    if (ccm_seal(&j->ccm, j->iv, CCM_NONCE, NULL, 0, buf_in, buf_ccm, j->len,
                 ccm_tag, CCM_TAG) != 0)
        bench_fail("%s: CCM sealing the decryption input failed", impl->name);
    j->in = buf_ccm;
    memcpy(j->tag, ccm_tag, CCM_TAG);
}

static void ours_setup(struct job *j, const struct bench_mode *m,
                       const struct casm_aes_impl *impl, int bits,
                       const uint8_t *key, const uint8_t *iv, size_t len,
                       uint8_t *out)
{
    int rc;
    memset(j, 0, sizeof(*j));
    j->op = ours_ops[m->op];
    j->what = impl->name;
    j->in = buf_in;
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
        ccm_setup(j, impl);
}

static void ossl_setup(struct job *j, struct ossl_cipher *oc,
                       const struct bench_mode *m, int bits, const uint8_t *key,
                       const uint8_t *iv, size_t len, uint8_t *out)
{
    memset(j, 0, sizeof(*j));
    j->op = op_ossl_cipher;
    j->what = "OpenSSL";
    j->in = buf_in;
    j->out = out;
    j->len = len;
    j->oc = oc;
    if (m->op == OP_CCM) {
        /* verify() ran ours_setup first: buf_ccm holds the input. */
        j->op = op_ossl_ccm;
        j->enc = m->enc;
        j->occm = occm;
        memcpy(j->iv, iv, 16);
        if (!m->enc) {
            j->in = buf_ccm;
            memcpy(j->tag, ccm_tag, CCM_TAG);
        }
        if (ossl_ccm_init(occm, bits, m->enc, key, CCM_NONCE, CCM_TAG) != 0)
            bench_fail("OpenSSL CCM: %s", ossl_error());
        return;
    }
    memcpy(j->iv, iv, 16);
    if (m->op == OP_OCB) {
        static struct ossl_ocb *oo;
        if (oo == NULL && (oo = ossl_ocb_new()) == NULL)
            bench_fail("%s", ossl_error());
        j->op = op_ossl_ocb;
        j->oo = oo;
        if (ossl_ocb_init(oo, bits, m->enc, key, 12, 16) != 0)
            bench_fail("%s", ossl_error());
        return;
    }
    if (ossl_cipher_init(oc, m->evp, bits, m->enc, key, iv) != 0)
        bench_fail("%s", ossl_error());
}

/*
 * Two calls on each side (so CBC and CTR chaining is covered) must give
 * the same bytes; the reference is OpenSSL, or the C implementation for
 * LRW and when OpenSSL is not loaded (the C itself is left to the KATs).
 */
static void verify(const struct bench_mode *m, const struct casm_aes_impl *impl,
                   int bits, const uint8_t *key, const uint8_t *iv,
                   size_t len, struct ossl_cipher *oc)
{
    static struct job ours, ref;
    const struct casm_aes_impl *c = casm_aes_impl_by_name("c");
    int by_ossl = have_ossl && m->evp;
    const char *ref_name = by_ossl ? ossl_version_short() : "the C implementation";

    if (!by_ossl && (c == NULL || c == impl))
        return;
    ours_setup(&ours, m, impl, bits, key, iv, len, buf_out);
    if (by_ossl)
        ossl_setup(&ref, oc, m, bits, key, iv, len, buf_ref);
    else
        ours_setup(&ref, m, c, bits, key, iv, len, buf_ref);
    for (int call = 1; call <= 2; call++) {
        memset(buf_out, 0, len);
        memset(buf_ref, 0xff, len);
        if (ours.op(&ours) != 0)
            bench_fail("%s %s AES-%d, %zu bytes: call failed", impl->name,
                       m->title, bits, len);
        if (ref.op(&ref) != 0)
            bench_fail("%s %s AES-%d: %s", ref_name, m->title, bits, ossl_error());
        if (memcmp(buf_out, buf_ref, len) != 0) {
            size_t i = 0;
            while (buf_out[i] == buf_ref[i])
                i++;
            bench_fail("%s %s AES-%d, %zu bytes, call %d: output differs from "
                       "%s at byte %zu (%02x, want %02x); not timing wrong code",
                       impl->name, m->title, bits, len, call, ref_name, i,
                       buf_out[i], buf_ref[i]);
        }
        if (memcmp(ours.tag, ref.tag, sizeof(ours.tag)) != 0)
            bench_fail("%s %s AES-%d, %zu bytes: tag differs from %s; not "
                       "timing wrong code", impl->name, m->title, bits, len,
                       ref_name);
    }
}

/* --- the roles -------------------------------------------------------------------- */

/*
 * Implementation impl_name and OpenSSL (path "openssl@" ossl_label) in every
 * selected mode; with impl_name NULL, OpenSSL only (checked against the C).
 */
static void child_aes(const char *impl_name, const char *ossl_label)
{
    const char *check_name = impl_name ? impl_name : "c";
    const struct casm_aes_impl *impl = casm_aes_impl_by_name(check_name);
    if (impl == NULL)
        bench_fail("no AES implementation %s", check_name);
    if (impl_name == NULL && !have_ossl)
        bench_fail("internal: an OpenSSL-only child without OpenSSL");
    struct ossl_cipher *oc = NULL;
    if (have_ossl) {
        if ((oc = ossl_cipher_new()) == NULL)
            bench_fail("%s", ossl_error());
        if ((occm = ossl_ccm_new()) == NULL)
            bench_fail("OpenSSL CCM: %s", ossl_error());
    }

    char ossl_path_name[80];
    snprintf(ossl_path_name, sizeof(ossl_path_name), "openssl@%s", ossl_label);
    /* Pseudo-random, so the XTS halves differ, as OpenSSL insists. */
    uint8_t key[64], iv[16];
    fill(key, sizeof(key), 2);
    fill(iv, sizeof(iv), 3);
    size_t nsizes;
    const size_t *sizes = options_sizes(opt, 0, &nsizes);

    for (size_t mi = 0; mi < bench_mode_count; mi++) {
        const struct bench_mode *m = &bench_modes[mi];
        int bits[3];
        size_t nbits = plan_key_sizes(opt, m, bits);
        int ossl_side = have_ossl && m->evp != NULL;
        if (m->op == OP_SHA1 || !options_mode_selected(opt, m) ||
            (impl_name == NULL && !ossl_side))
            continue;
        if (impl_name != NULL && !plan_aes_impl_has_mode(impl, m))
            continue;
        /* OpenSSL alone serves the table column, which OCB never has. */
        if (impl_name == NULL && m->op == OP_OCB)
            continue;
        for (size_t b = 0; b < nbits; b++) {
            for (size_t s = 0; s < nsizes; s++) {
                size_t len = sizes[s];
                static struct job ours, ref;
                struct job *jobs[2];
                double cpb[2];
                int n = 0;

                verify(m, impl, bits[b], key, iv, len, oc);
                if (impl_name) {
                    ours_setup(&ours, m, impl, bits[b], key, iv, len, buf_out);
                    jobs[n++] = &ours;
                }
                if (ossl_side) {
                    ossl_setup(&ref, oc, m, bits[b], key, iv, len, buf_ref);
                    jobs[n++] = &ref;
                }
                measure(jobs, n, cpb);
                for (int i = 0; i < n; i++)
                    report_emit("aes", m->name, bits[b], len, len,
                                jobs[i] == &ours ? impl_name : ossl_path_name,
                                cpb[i]);
            }
        }
    }
    if (oc)
        ossl_cipher_free(oc);
    if (occm)
        ossl_ccm_free(occm);
}

/* SHA-1 entry `name` next to OpenSSL, or OpenSSL alone for "-". */
static void child_sha1(const char *name)
{
    const struct casm_sha1_impl *impl = NULL;
    if (strcmp(name, "-") != 0 && (impl = casm_sha1_impl_by_name(name)) == NULL)
        bench_fail("no SHA-1 implementation \"%s\"", name);
    if (impl == NULL && !have_ossl)
        bench_fail("internal: an OpenSSL-only child without OpenSSL");
    struct ossl_sha1 *os = NULL;
    if (have_ossl && (os = ossl_sha1_new()) == NULL)
        bench_fail("%s", ossl_error());
    const char *ref_name = have_ossl ? ossl_version_short() : "the C implementation";
    char ossl_name[80];
    snprintf(ossl_name, sizeof(ossl_name), impl ? "openssl@%s" : "openssl",
             name);
    size_t nsizes;
    const size_t *sizes = options_sizes(opt, 1, &nsizes);

    for (size_t b = 0; b < nsizes; b++) {
        for (size_t u = 0; u <= b; u++) {
            static struct job ours, ref;
            struct job *jp[2];
            double cpb[2];
            int n = 0;
            if (!plan_sha1_update_fits(sizes[b], sizes[u]))
                continue;
            memset(&ref, 0, sizeof(ref));
            ref.in = buf_in;
            ref.len = sizes[b];
            ref.update = sizes[u];
            if (have_ossl) {
                ref.op = op_sha1_ossl;
                ref.what = "OpenSSL";
                ref.os = os;
            } else {
                ref.op = op_sha1_ours;
                ref.what = "C";
                ref.block = sha1_block_data_order_c;
            }
            if (ref.op(&ref) != 0)
                bench_fail("OpenSSL SHA-1 failed (%s)", ossl_error());
            if (impl) {
                ours = ref;
                ours.op = op_sha1_ours;
                ours.what = impl->name;
                ours.block = impl->block;
                ours.os = NULL;
                ours.op(&ours);
                if (memcmp(ours.md, ref.md, 20) != 0)
                    bench_fail("SHA-1 %s of %zu bytes in %zu-byte updates "
                               "differs from %s; not timing wrong code",
                               impl->name, sizes[b], sizes[u], ref_name);
                jp[n++] = &ours;
            }
            if (have_ossl)
                jp[n++] = &ref;
            measure(jp, n, cpb);
            for (int i = 0; i < n; i++)
                report_emit("sha1", "sha1", 0, sizes[b], sizes[u],
                            jp[i] == &ours ? impl->name : ossl_name, cpb[i]);
        }
    }
    if (os)
        ossl_sha1_free(os);
}

int child_main(const struct bench_options *o)
{
    opt = o;
    child_setup();
    if (strcmp(o->child_role, "aes") == 0)
        child_aes(o->child_name, o->child_name);
    else if (strcmp(o->child_role, "ossl") == 0)
        child_aes(NULL, o->child_name);
    else if (strcmp(o->child_role, "sha1") == 0)
        child_sha1(o->child_name);
    else
        bench_fail("internal: unknown child role '%s'", o->child_role);
    return 0;
}
