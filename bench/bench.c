/*
 * crypto-asm benchmark: cycles per byte, ours next to OpenSSL's.
 *
 *   bench [--quick] [--csv FILE] [--mode NAME]...
 *
 *   --quick      5 runs of >= 20k cycles instead of 15 of >= 1M (smoke test)
 *   --csv FILE   also write every measurement as CSV
 *                (table,mode,bits,bytes,update,path,cycles_per_byte)
 *   --mode NAME  only this mode; repeatable; "cbc" means cbc-enc and cbc-dec.
 *                Modes: ecb-enc cbc-enc cbc-dec ctr xts-enc lrw-enc
 *                ccm-enc ccm-dec ocb-enc sha1
 *
 * Cycles are TSC cycles read with rdtsc (a fixed-rate clock, not the core
 * clock); each figure is the median of repeated runs after a warm-up, on
 * buffers that stay in cache.
 *
 * Every AES implementation is measured in its own child process (a re-exec
 * of /proc/self/exe) with OPENSSL_ia32cap set to the implementation's force
 * mask, or unset when it has none, so the OpenSSL loaded in that child runs
 * its equivalent path; results come back through a pipe.  OpenSSL is the
 * system libcrypto.so.3 through test/lib/ossl.c, so its columns are its own
 * code.  Before any timing, our output is checked against OpenSSL's.
 */
#include <ctype.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

#include "cryptoasm.h"
#include "impl.h"
#include "../test/lib/ossl.h"
#include "../test/lib/ccm_glue.h"
#include "../test/lib/ossl_ccm.h"
#include "../test/lib/ocb_mode.h"
#include "../test/lib/ossl_ocb.h"

/* OpenSSL's table-based AES: AES-NI, SSSE3 (vpaes) and PCLMULQDQ off. */
#define TABLE_MASK "~0x200020200000000:~0"
#define MAX_RUNS 15
#define MAX_BUF 16384

static const size_t aes_sizes[] = { 16, 64, 256, 1024, 8192, 16384 };
static const size_t sha_sizes[] = { 16, 64, 256, 1024, 2048, 4096, 8192, 16384 };
#define N_AES_SIZES (sizeof(aes_sizes) / sizeof(aes_sizes[0]))
#define N_SHA_SIZES (sizeof(sha_sizes) / sizeof(sha_sizes[0]))

static int runs = MAX_RUNS;
static uint64_t min_cycles = 1000000;
static int quick;

static void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void die(const char *fmt, ...)
{
    va_list ap;
    fputs("bench: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(3);
}

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

/* --- timing -------------------------------------------------------------------- */

/* lfence keeps the timed instructions between the two TSC reads. */
static inline uint64_t tsc_start(void)
{
    _mm_lfence();
    uint64_t t = __rdtsc();
    _mm_lfence();
    return t;
}

static inline uint64_t tsc_stop(void)
{
    unsigned int aux;
    uint64_t t = __rdtscp(&aux);
    _mm_lfence();
    return t;
}

static uint64_t batch(struct job *j, uint64_t n)
{
    int bad = 0;
    uint64_t t0 = tsc_start();
    for (uint64_t i = 0; i < n; i++)
        bad |= j->op(j);
    uint64_t t = tsc_stop() - t0;
    if (bad)
        die("%s failed while timing (%s)", j->what, ossl_error());
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
    uint64_t n[8];
    double samples[8][MAX_RUNS];
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

/* --- modes and the command line ----------------------------------------------- */

struct bmode {
    const char *name, *title;
    const char *evp;               /* OpenSSL mode, NULL: none */
    int enc;
    int (*ours)(struct job *j);
};

static const struct bmode bmodes[] = {
    { "ecb-enc", "ECB encrypt", "ecb", 1, op_ecb },
    { "cbc-enc", "CBC encrypt", "cbc", 1, op_cbc },
    { "cbc-dec", "CBC decrypt", "cbc", 0, op_cbc },
    { "ctr", "CTR", "ctr", 1, op_ctr },
    { "xts-enc", "XTS encrypt", "xts", 1, op_xts },
    { "lrw-enc", "LRW encrypt", NULL, 1, op_lrw },
    { "ccm-enc", "CCM encrypt (12-byte nonce, no AAD, 16-byte tag)", "ccm", 1, op_ccm },
    { "ccm-dec", "CCM decrypt (12-byte nonce, no AAD, 16-byte tag)", "ccm", 0, op_ccm },
    /* Only for entries with OCB bulk functions (aesni_ocb_encrypt). */
    { "ocb-enc", "OCB encrypt (12-byte nonce, 16-byte tag, whole message)", "ocb", 1, op_ocb },
};
#define N_BMODES (sizeof(bmodes) / sizeof(bmodes[0]))

static const char *mode_filter[16];
static int n_filters;

/* "cbc" selects cbc-enc and cbc-dec; "sha1" the SHA-1 table. */
static int filter_matches(const char *filter, const char *name)
{
    size_t n = strlen(filter);
    return strncmp(filter, name, n) == 0 && (name[n] == '\0' || name[n] == '-');
}

static int selected(const char *name)
{
    if (n_filters == 0)
        return 1;
    for (int i = 0; i < n_filters; i++)
        if (filter_matches(mode_filter[i], name))
            return 1;
    return 0;
}

static const int *key_sizes(const struct bmode *m, int *count)
{
    static const int all[] = { 128, 192, 256 }, xts[] = { 128, 256 };
    int is_xts = strcmp(m->name, "xts-enc") == 0;
    *count = is_xts ? 2 : 3;
    return is_xts ? xts : all;
}

/* --- the child side --------------------------------------------------------------- */

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
    if (!ossl_load(err, sizeof(err)))
        die("cannot load OpenSSL: %s (install libssl3)", err);
    buf_in = aligned_alloc(64, MAX_BUF + 64);
    buf_out = aligned_alloc(64, MAX_BUF + 64);
    buf_ref = aligned_alloc(64, MAX_BUF + 64);
    buf_ccm = aligned_alloc(64, MAX_BUF + 64);
    if (!buf_in || !buf_out || !buf_ref || !buf_ccm)
        die("out of memory");
    fill(buf_in, MAX_BUF, 1);
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
        die("%s: CCM sealing the decryption input failed", impl->name);
    j->in = buf_ccm;
    memcpy(j->tag, ccm_tag, CCM_TAG);
}

static void ours_setup(struct job *j, const struct bmode *m,
                       const struct casm_aes_impl *impl, int bits,
                       const uint8_t *key, const uint8_t *iv, size_t len,
                       uint8_t *out)
{
    int rc;
    memset(j, 0, sizeof(*j));
    j->op = m->ours;
    j->what = impl->name;
    j->in = buf_in;
    j->out = out;
    j->len = len;
    j->enc = m->enc;
    memcpy(j->iv, iv, 16);
    if (m->ours == op_xts)
        rc = casm_aes_xts_set_key_with(&j->xk, impl, key, bits);
    else if (m->ours == op_lrw)
        rc = casm_aes_lrw_set_key_with(&j->lk, impl, key, bits);
    else if (m->ours == op_ocb) {
        rc = impl->set_encrypt_key(key, bits, &j->ocb_ek) |
             impl->set_decrypt_key(key, bits, &j->ocb_dk);
        ocb_mode_init(&j->ocb, &j->ocb_ek, &j->ocb_dk, impl->encrypt,
                      impl->decrypt, impl->ocb_enc, impl->ocb_dec);
    }
    else
        rc = casm_aes_set_key_with(&j->k, impl, key, bits);
    if (rc != 0)
        die("%s: AES-%d key setup failed (%d)", impl->name, bits, rc);
    if (m->ours == op_ccm)
        ccm_setup(j, impl);
}

static void ossl_setup(struct job *j, struct ossl_cipher *oc,
                       const struct bmode *m, int bits, const uint8_t *key,
                       const uint8_t *iv, size_t len, uint8_t *out)
{
    memset(j, 0, sizeof(*j));
    j->op = op_ossl_cipher;
    j->what = "OpenSSL";
    j->in = buf_in;
    j->out = out;
    j->len = len;
    j->oc = oc;
    if (m->ours == op_ccm) {
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
            die("OpenSSL CCM: %s", ossl_error());
        return;
    }
    memcpy(j->iv, iv, 16);
    if (m->ours == op_ocb) {
        static struct ossl_ocb *oo;
        if (oo == NULL && (oo = ossl_ocb_new()) == NULL)
            die("%s", ossl_error());
        j->op = op_ossl_ocb;
        j->oo = oo;
        if (ossl_ocb_init(oo, bits, m->enc, key, 12, 16) != 0)
            die("%s", ossl_error());
        return;
    }
    if (ossl_cipher_init(oc, m->evp, bits, m->enc, key, iv) != 0)
        die("%s", ossl_error());
}

/*
 * Two calls on each side (so CBC and CTR chaining is covered) must give
 * the same bytes; the reference is OpenSSL, or for LRW the C implementation.
 */
static void verify(const struct bmode *m, const struct casm_aes_impl *impl,
                   int bits, const uint8_t *key, const uint8_t *iv,
                   size_t len, struct ossl_cipher *oc)
{
    static struct job ours, ref;
    const struct casm_aes_impl *c = casm_aes_impl_by_name("c");
    const char *ref_name = m->evp ? ossl_version_short() : "the C implementation";

    if (m->evp == NULL && (c == NULL || c == impl))
        return;        /* LRW of the C code itself: the KATs vouch for it */
    ours_setup(&ours, m, impl, bits, key, iv, len, buf_out);
    if (m->evp)
        ossl_setup(&ref, oc, m, bits, key, iv, len, buf_ref);
    else
        ours_setup(&ref, m, c, bits, key, iv, len, buf_ref);
    for (int call = 1; call <= 2; call++) {
        memset(buf_out, 0, len);
        memset(buf_ref, 0xff, len);
        if (ours.op(&ours) != 0)
            die("%s %s AES-%d, %zu bytes: call failed", impl->name, m->title,
                bits, len);
        if (ref.op(&ref) != 0)
            die("%s %s AES-%d: %s", ref_name, m->title, bits, ossl_error());
        if (memcmp(buf_out, buf_ref, len) != 0) {
            size_t i = 0;
            while (buf_out[i] == buf_ref[i])
                i++;
            die("%s %s AES-%d, %zu bytes, call %d: output differs from %s "
                "at byte %zu (%02x, want %02x); not timing wrong code",
                impl->name, m->title, bits, len, call, ref_name, i,
                buf_out[i], buf_ref[i]);
        }
        if (memcmp(ours.tag, ref.tag, sizeof(ours.tag)) != 0)
            die("%s %s AES-%d, %zu bytes: tag differs from %s; not timing "
                "wrong code", impl->name, m->title, bits, len, ref_name);
    }
}

static void emit(const char *table, const char *mode, int bits, size_t bytes,
                 size_t update, const char *path, double cpb)
{
    printf("R %s %s %d %zu %zu %s %.4f\n", table, mode, bits, bytes, update,
           path, cpb);
    fflush(stdout);
}

/*
 * Measures implementation impl_name and OpenSSL (path label "openssl@" plus
 * ossl_label) in every selected mode; with impl_name NULL, OpenSSL only
 * (checked against the C implementation).
 */
static void child_aes(const char *impl_name, const char *ossl_label)
{
    const char *check_name = impl_name ? impl_name : "c";
    const struct casm_aes_impl *impl = casm_aes_impl_by_name(check_name);
    if (impl == NULL)
        die("no AES implementation %s", check_name);
    child_setup();
    struct ossl_cipher *oc = ossl_cipher_new();
    if (oc == NULL)
        die("%s", ossl_error());
    if ((occm = ossl_ccm_new()) == NULL)
        die("OpenSSL CCM: %s", ossl_error());

    char ossl_path_name[64];
    snprintf(ossl_path_name, sizeof(ossl_path_name), "openssl@%s", ossl_label);
    /* Pseudo-random, so the XTS halves differ, as OpenSSL insists. */
    uint8_t key[64], iv[16];
    fill(key, sizeof(key), 2);
    fill(iv, sizeof(iv), 3);

    for (size_t mi = 0; mi < N_BMODES; mi++) {
        const struct bmode *m = &bmodes[mi];
        int nbits;
        const int *bits = key_sizes(m, &nbits);
        if (!selected(m->name) || (impl_name == NULL && m->evp == NULL))
            continue;
        if (m->ours == op_ocb && (impl_name == NULL || impl->ocb_enc == NULL))
            continue;
        for (int b = 0; b < nbits; b++) {
            for (size_t s = 0; s < N_AES_SIZES; s++) {
                size_t len = aes_sizes[s];
                static struct job ours, ref;
                struct job *jobs[2];
                double cpb[2];
                int n = 0;

                verify(m, impl, bits[b], key, iv, len, oc);
                if (impl_name) {
                    ours_setup(&ours, m, impl, bits[b], key, iv, len, buf_out);
                    jobs[n++] = &ours;
                }
                if (m->evp) {
                    ossl_setup(&ref, oc, m, bits[b], key, iv, len, buf_ref);
                    jobs[n++] = &ref;
                }
                measure(jobs, n, cpb);
                for (int i = 0; i < n; i++)
                    emit("aes", m->name, bits[b], len, len,
                         jobs[i] == &ours ? impl_name : ossl_path_name,
                         cpb[i]);
            }
        }
    }
    ossl_cipher_free(oc);
    ossl_ccm_free(occm);
}

/*
 * SHA-1 in one child: implementation `name` next to OpenSSL under the same
 * OPENSSL_ia32cap (set by the parent), or OpenSSL alone for name "-".
 */
static void child_sha1(const char *name)
{
    child_setup();
    const struct casm_sha1_impl *impl = NULL;
    if (strcmp(name, "-") != 0 && (impl = casm_sha1_impl_by_name(name)) == NULL)
        die("no SHA-1 implementation \"%s\"", name);
    struct ossl_sha1 *os = ossl_sha1_new();
    if (os == NULL)
        die("%s", ossl_error());
    char ossl_name[64];
    snprintf(ossl_name, sizeof(ossl_name), impl ? "openssl@%s" : "openssl",
             name);

    for (size_t b = 0; b < N_SHA_SIZES; b++) {
        for (size_t u = 0; u <= b; u++) {
            static struct job ours, ref;
            struct job *jp[2];
            double cpb[2];
            int n = 0;
            memset(&ref, 0, sizeof(ref));
            ref.in = buf_in;
            ref.len = sha_sizes[b];
            ref.update = sha_sizes[u];
            ref.op = op_sha1_ossl;
            ref.what = "OpenSSL";
            ref.os = os;
            if (ref.op(&ref) != 0)
                die("OpenSSL SHA-1 failed (%s)", ossl_error());
            if (impl) {
                ours = ref;
                ours.op = op_sha1_ours;
                ours.what = impl->name;
                ours.block = impl->block;
                ours.os = NULL;
                ours.op(&ours);
                if (memcmp(ours.md, ref.md, 20) != 0)
                    die("SHA-1 %s of %zu bytes in %zu-byte updates differs "
                        "from %s; not timing wrong code", impl->name,
                        sha_sizes[b], sha_sizes[u], ossl_version_short());
                jp[n++] = &ours;
            }
            jp[n++] = &ref;
            measure(jp, n, cpb);
            for (int i = 0; i < n; i++)
                emit("sha1", "sha1", 0, sha_sizes[b], sha_sizes[u],
                     jp[i] == &ours ? impl->name : ossl_name, cpb[i]);
        }
    }
    ossl_sha1_free(os);
}

/* --- the parent side: children, results, tables ------------------------------------- */

struct row {
    char table[8], mode[16], path[64];
    int bits;
    size_t bytes, update;
    double cpb;
};

static struct row *rows;
static size_t nrows, cap_rows;

static double lookup(const char *table, const char *mode, int bits,
                     size_t bytes, size_t update, const char *path)
{
    for (size_t i = 0; i < nrows; i++) {
        const struct row *r = &rows[i];
        if (r->bits == bits && r->bytes == bytes && r->update == update &&
            strcmp(r->table, table) == 0 && strcmp(r->mode, mode) == 0 &&
            strcmp(r->path, path) == 0)
            return r->cpb;
    }
    return NAN;
}

enum env_action { ENV_INHERIT, ENV_SET, ENV_UNSET };

/* Runs this program with args, OPENSSL_ia32cap as told; collects rows. */
static void run_child(const char *const *args, enum env_action act,
                      const char *mask)
{
    const char *argv[40];
    int argc = 0;
    argv[argc++] = "bench";
    while (*args)
        argv[argc++] = *args++;
    if (quick)
        argv[argc++] = "--quick";
    for (int i = 0; i < n_filters; i++) {
        argv[argc++] = "--mode";
        argv[argc++] = mode_filter[i];
    }
    argv[argc] = NULL;

    int fd[2];
    if (pipe(fd) != 0)
        die("pipe failed");
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        die("fork failed");
    if (pid == 0) {
        dup2(fd[1], STDOUT_FILENO);
        close(fd[0]);
        close(fd[1]);
        if (act == ENV_SET)
            setenv("OPENSSL_ia32cap", mask, 1);
        else if (act == ENV_UNSET)
            unsetenv("OPENSSL_ia32cap");
        execv("/proc/self/exe", (char *const *)argv);
        perror("bench: exec /proc/self/exe");
        _exit(127);
    }
    close(fd[1]);
    FILE *f = fdopen(fd[0], "r");
    char line[256];
    while (f && fgets(line, sizeof(line), f)) {
        struct row r;
        if (nrows == cap_rows) {
            cap_rows = cap_rows ? 2 * cap_rows : 256;
            rows = realloc(rows, cap_rows * sizeof(*rows));
            if (rows == NULL)
                die("out of memory");
        }
        if (sscanf(line, "R %7s %15s %d %zu %zu %63s %lf", r.table, r.mode,
                   &r.bits, &r.bytes, &r.update, r.path, &r.cpb) == 7)
            rows[nrows++] = r;
    }
    if (f)
        fclose(f);
    int status;
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0)
        die("the measurement child (%s %s) failed; see above", argv[1],
            argv[2]);
}

static double tsc_mhz(void)
{
    struct timespec a, b, pause = { 0, 100 * 1000 * 1000 };
    clock_gettime(CLOCK_MONOTONIC, &a);
    uint64_t t0 = tsc_start();
    nanosleep(&pause, NULL);
    clock_gettime(CLOCK_MONOTONIC, &b);
    uint64_t t1 = tsc_stop();
    double us = (b.tv_sec - a.tv_sec) * 1e6 + (b.tv_nsec - a.tv_nsec) / 1e3;
    return (double)(t1 - t0) / us;
}

static void cpu_model(char *out, size_t len)
{
    snprintf(out, len, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[256];
    while (f && fgets(line, sizeof(line), f)) {
        if (strncmp(line, "model name", 10) == 0) {
            char *p = strchr(line, ':');
            if (p) {
                p += 1 + strspn(p + 1, " \t");
                p[strcspn(p, "\n")] = '\0';
                snprintf(out, len, "%s", p);
            }
            break;
        }
    }
    if (f)
        fclose(f);
}

/* cycles/byte, 7 wide; "-" when not measured. */
static void cell(double v, int width)
{
    if (isnan(v))
        printf(" %*s", width, "-");
    else
        printf(" %*.*f", width, v < 1 ? 3 : v < 10 ? 2 : 1, v);
}

struct group {
    const struct casm_aes_impl *impl;
    char ossl_path[64];
    int table_column;             /* also OpenSSL's table path (impl c) */
};

static const char *mask_text(const char *mask)
{
    static char buf[4][96];
    static int k;
    k = (k + 1) % 4;
    if (mask)
        snprintf(buf[k], sizeof(buf[k]), "OPENSSL_ia32cap=%s", mask);
    else
        snprintf(buf[k], sizeof(buf[k]), "OPENSSL_ia32cap unset");
    return buf[k];
}

static void print_aes_table(const struct bmode *m, const struct group *g,
                            int ng)
{
    int nbits;
    const int *bits = key_sizes(m, &nbits);

    printf("\n%s: cycles/byte (TSC)%s\n", m->title,
           m->evp ? "; ratio = OpenSSL / ours, > 1 means ours is faster"
                  : "; OpenSSL has no LRW");
    printf("            ");
    for (int i = 0; i < ng; i++) {
        int width = g[i].table_column ? 43 : 25;
        char title[64];
        snprintf(title, sizeof(title), "-- %s --", g[i].impl->name);
        printf(" |%*s%*s", (width + (int)strlen(title)) / 2, title,
               width - (width + (int)strlen(title)) / 2, "");
    }
    printf("\n bits bytes ");
    for (int i = 0; i < ng; i++) {
        printf(" |    ours OpenSSL   ratio");
        if (g[i].table_column)
            printf(" OSSL-tbl   ratio");
    }
    putchar('\n');
    for (int b = 0; b < nbits; b++) {
        for (size_t s = 0; s < N_AES_SIZES; s++) {
            size_t n = aes_sizes[s];
            printf(" %4d %5zu ", bits[b], n);
            for (int i = 0; i < ng; i++) {
                double ours = lookup("aes", m->name, bits[b], n, n,
                                     g[i].impl->name);
                double ossl = lookup("aes", m->name, bits[b], n, n,
                                     g[i].ossl_path);
                printf(" |");
                cell(ours, 7);
                cell(ossl, 7);
                cell(ossl / ours, 7);
                if (g[i].table_column) {
                    double tbl = lookup("aes", m->name, bits[b], n, n,
                                        "openssl@table");
                    cell(tbl, 8);
                    cell(tbl / ours, 7);
                }
            }
            putchar('\n');
        }
    }
}

/*
 * Columns: per implementation ours, OpenSSL under that implementation's
 * mask and their ratio; then OpenSSL with the variable unset (its fastest
 * path) and the speed-up of our best over C, as tcrypt's "change".
 */
static void print_sha1_table(void)
{
    const struct casm_sha1_impl *impls[8];
    int n = 0;
    for (size_t i = 0; i < casm_sha1_impl_count && n < 8; i++)
        if (casm_cpu_has(casm_sha1_impls[i]->need))
            impls[n++] = casm_sha1_impls[i];

    printf("\nSHA-1 (tcrypt style: init, updates of the given size, final): "
           "cycles/byte (TSC)\n"
           "  per path: ours, OpenSSL under that path's mask, ratio = "
           "OpenSSL / ours;\n"
           "  OpenSSL best = variable unset; change = our best over C\n");
    printf("              |");
    for (int i = 0; i < n; i++)
        printf(" %-23.23s |", impls[i]->name);
    printf("   OpenSSL |\n block update |");
    for (int i = 0; i < n; i++)
        printf("    ours OpenSSL   ratio |");
    printf("      best |  change\n");
    for (size_t b = 0; b < N_SHA_SIZES; b++) {
        for (size_t u = 0; u <= b; u++) {
            size_t bytes = sha_sizes[b], upd = sha_sizes[u];
            double best = NAN, c = NAN;
            printf(" %5zu %6zu |", bytes, upd);
            for (int i = 0; i < n; i++) {
                char ossl_name[64];
                snprintf(ossl_name, sizeof(ossl_name), "openssl@%s",
                         impls[i]->name);
                double v = lookup("sha1", "sha1", 0, bytes, upd,
                                  impls[i]->name);
                double o = lookup("sha1", "sha1", 0, bytes, upd, ossl_name);
                cell(v, 7);
                cell(o, 7);
                cell(o / v, 7);
                printf(" |");
                if (!isnan(v) && (isnan(best) || v < best))
                    best = v;
                if (strcmp(impls[i]->name, "c") == 0)
                    c = v;
            }
            cell(lookup("sha1", "sha1", 0, bytes, upd, "openssl"), 9);
            printf(" |");
            if (isnan(c) || isnan(best))
                printf(" %7s", "-");
            else
                printf(" %+6.0f%%", (c / best - 1) * 100);
            putchar('\n');
        }
    }
}

static void write_csv(const char *path)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        die("cannot write %s", path);
    fprintf(f, "table,mode,bits,bytes,update,path,cycles_per_byte\n");
    for (size_t i = 0; i < nrows; i++) {
        const struct row *r = &rows[i];
        fprintf(f, "%s,%s,%d,%zu,%zu,%s,%.4f\n", r->table, r->mode, r->bits,
                r->bytes, r->update, r->path, r->cpb);
    }
    if (fclose(f) != 0)
        die("error writing %s", path);
}

static void usage(void) __attribute__((noreturn));
static void usage(void)
{
    fprintf(stderr,
            "usage: bench [--quick] [--csv FILE] [--mode NAME]...\n"
            "modes: ecb-enc cbc-enc cbc-dec ctr xts-enc lrw-enc ccm-enc ccm-dec "
            "ocb-enc sha1 "
            "(a prefix before '-' selects all, e.g. cbc)\n");
    exit(2);
}

int main(int argc, char **argv)
{
    const char *csv = NULL, *child = NULL, *child_arg = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            quick = 1;
        } else if (strcmp(argv[i], "--csv") == 0 && i + 1 < argc) {
            csv = argv[++i];
        } else if (strcmp(argv[i], "--mode") == 0 && i + 1 < argc &&
                   n_filters < 16) {
            mode_filter[n_filters++] = argv[++i];
        } else if (strncmp(argv[i], "--child-", 8) == 0 && i + 1 < argc) {
            child = argv[i] + 8;        /* internal: see run_child */
            child_arg = argv[++i];
        } else {
            usage();
        }
    }
    if (quick) {
        runs = 5;
        min_cycles = 20000;
    }
    for (int i = 0; i < n_filters; i++) {
        int known = filter_matches(mode_filter[i], "sha1");
        for (size_t m = 0; m < N_BMODES; m++)
            known |= filter_matches(mode_filter[i], bmodes[m].name);
        if (!known)
            usage();
    }

    if (child) {
        if (strcmp(child, "aes") == 0)
            child_aes(child_arg, child_arg);
        else if (strcmp(child, "ossl") == 0)
            child_aes(NULL, child_arg);
        else if (strcmp(child, "sha1") == 0)
            child_sha1(child_arg);
        else
            usage();
        return 0;
    }

    char err[512], model[128];
    if (!ossl_load(err, sizeof(err)))
        die("cannot load OpenSSL: %s (install libssl3)", err);
    cpu_model(model, sizeof(model));
    printf("crypto-asm bench: cycles per byte counted with rdtsc, i.e. TSC "
           "cycles (%.0f MHz), not core cycles\n", tsc_mhz());
    printf("  median of %d runs of >= %llu TSC cycles each after a warm-up; "
           "data in cache\n", runs, (unsigned long long)min_cycles);
    printf("  CPU: %s; reference: %s (%s)\n", model, ossl_version(),
           ossl_path());
    /* Another busy thread on a sibling core skews every column. */
    double load;
    if (getloadavg(&load, 1) == 1 && load > 0.5)
        printf("  note: load average %.2f, other work shares the CPU; "
               "expect noise\n", load);

    /* AES: one child per implementation this CPU has. */
    struct group groups[16];
    int ng = 0, any_aes = 0;
    for (size_t m = 0; m < N_BMODES; m++)
        any_aes |= selected(bmodes[m].name);
    for (size_t i = 0; any_aes && i < casm_aes_impl_count && ng < 16; i++) {
        const struct casm_aes_impl *impl = casm_aes_impls[i];
        if (!casm_cpu_has(impl->need)) {
            printf("  AES %s: skipped, this CPU lacks %s\n", impl->name,
                   impl->need_name);
            continue;
        }
        struct group *g = &groups[ng++];
        g->impl = impl;
        snprintf(g->ossl_path, sizeof(g->ossl_path), "openssl@%s", impl->name);
        const char *mask = impl->force_mask;
        /* Paths that need no CPU feature (C, table assembly) are also
         * compared with OpenSSL's table path. */
        int needs_nothing = !(impl->need[0] | impl->need[1] | impl->need[2] | impl->need[3]);
        g->table_column = needs_nothing &&
                          (mask == NULL || strcmp(mask, TABLE_MASK) != 0);
        printf("  AES %s: ours and OpenSSL measured with %s%s\n", impl->name,
               mask_text(mask),
               mask && strcmp(mask, TABLE_MASK) == 0
                   ? " (OpenSSL's table path)" : "");
        fprintf(stderr, "bench: measuring AES %s...\n", impl->name);
        const char *args[] = { "--child-aes", impl->name, NULL };
        run_child(args, mask ? ENV_SET : ENV_UNSET, mask);
        if (g->table_column) {
            printf("  AES %s: OSSL-tbl = OpenSSL with %s, its table path\n",
                   impl->name, mask_text(TABLE_MASK));
            const char *targs[] = { "--child-ossl", "table", NULL };
            run_child(targs, ENV_SET, TABLE_MASK);
        }
    }
    if (selected("sha1")) {
        for (size_t i = 0; i < casm_sha1_impl_count; i++) {
            const struct casm_sha1_impl *impl = casm_sha1_impls[i];
            const char *mask = impl->force_mask;
            if (!casm_cpu_has(impl->need)) {
                printf("  SHA-1 %s: skipped, this CPU lacks %s\n", impl->name,
                       impl->need_name);
                continue;
            }
            printf("  SHA-1 %s: ours and OpenSSL measured with %s\n",
                   impl->name, mask_text(mask));
            fprintf(stderr, "bench: measuring SHA-1 %s...\n", impl->name);
            const char *args[] = { "--child-sha1", impl->name, NULL };
            run_child(args, mask ? ENV_SET : ENV_UNSET, mask);
        }
        fprintf(stderr, "bench: measuring SHA-1 OpenSSL best...\n");
        const char *args[] = { "--child-sha1", "-", NULL };
        run_child(args, ENV_UNSET, NULL);
    }

    for (size_t m = 0; m < N_BMODES; m++)
        if (selected(bmodes[m].name))
            print_aes_table(&bmodes[m], groups, ng);
    if (selected("sha1"))
        print_sha1_table();
    if (csv) {
        write_csv(csv);
        printf("\n%zu measurements written to %s\n", nrows, csv);
    }
    return 0;
}
