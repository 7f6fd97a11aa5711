/* SPDX-License-Identifier: Apache-2.0 */
#include "child.h"

#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"
#include "impl.h"
#include "job.h"
#include "plan.h"
#include "reference.h"
#include "timing.h"
#include "../support/lib/ossl.h"

/* What the roles of one measuring child share. */
struct child {
    const struct bench_options *o;
    int have_ossl;
    struct reference refs;         /* the OpenSSL libraries, as the parent's */
    uint64_t min_cycles;           /* per timed batch: --seconds over the runs */
    struct job_env env;
};

static void child_setup(struct child *c, const struct bench_options *o)
{
    char err[512];
    size_t nsizes, max = 0;
    const size_t *aes = options_sizes(o, 0, &nsizes);
    for (size_t i = 0; i < nsizes; i++)
        max = aes[i] > max ? aes[i] : max;
    const size_t *sha = options_sizes(o, 1, &nsizes);
    for (size_t i = 0; i < nsizes; i++)
        max = sha[i] > max ? sha[i] : max;

    c->o = o;
    c->have_ossl = !o->no_openssl;
    if (c->have_ossl && (reference_load(o, &c->refs, err, sizeof(err)) != 0 ||
                         c->refs.n == 0))
        bench_fail("cannot load OpenSSL in the measuring child: %s", err);
    if (o->tsc_hz <= 0)
        bench_fail("internal: no --child-tsc-hz from the parent");
    c->min_cycles = (uint64_t)(o->seconds * o->tsc_hz / o->runs);
    job_env_init(&c->env, max, c->have_ossl ? &c->refs : NULL);
    /* Stay on one CPU: a migration mid-run would mix two TSCs and caches. */
    int cpu = sched_getcpu();
    if (cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        sched_setaffinity(0, sizeof(set), &set);
    }
}

/* Two calls on each side (so CBC and CTR chaining is covered) must give
 * the same bytes and tag. */
static void compare(struct child *c, const struct bench_mode *m,
                    const struct casm_aes_impl *impl, int bits, size_t len,
                    struct job *ours, struct job *ref, const char *ref_name)
{
    struct job_env *env = &c->env;
    for (int call = 1; call <= 2; call++) {
        memset(env->out, 0, len);
        memset(env->ref, 0xff, len);
        if (ours->op(ours) != 0)
            bench_fail("%s %s AES-%d, %zu bytes: call failed", impl->name,
                       m->title, bits, len);
        if (ref->op(ref) != 0)
            bench_fail("%s %s AES-%d: %s", ref_name, m->title, bits, ossl_error());
        if (memcmp(env->out, env->ref, len) != 0) {
            size_t i = 0;
            while (env->out[i] == env->ref[i])
                i++;
            bench_fail("%s %s AES-%d, %zu bytes, call %d: output differs from "
                       "%s at byte %zu (%02x, want %02x); not timing wrong code",
                       impl->name, m->title, bits, len, call, ref_name, i,
                       env->out[i], env->ref[i]);
        }
        if (memcmp(ours->tag, ref->tag, sizeof(ours->tag)) != 0)
            bench_fail("%s %s AES-%d, %zu bytes: tag differs from %s; not "
                       "timing wrong code", impl->name, m->title, bits, len,
                       ref_name);
    }
}

/*
 * Our output against each OpenSSL library's, or against the C
 * implementation's for LRW and when OpenSSL is not loaded (the C itself is
 * left to the KATs).
 */
static void verify(struct child *c, const struct bench_mode *m,
                   const struct casm_aes_impl *impl, int bits,
                   const uint8_t *key, const uint8_t *iv, size_t len)
{
    struct job ours, ref;
    struct job_env *env = &c->env;
    const struct casm_aes_impl *c_impl = casm_aes_impl_by_name("c");

    if (c->have_ossl && m->evp) {
        for (size_t l = 0; l < c->refs.n; l++) {
            job_ours(&ours, env, m, impl, bits, key, iv, len, env->out);
            job_ossl(&ref, env, l, m, bits, key, iv, len, env->ref);
            compare(c, m, impl, bits, len, &ours, &ref, c->refs.version[l]);
        }
        return;
    }
    if (c_impl == NULL || c_impl == impl)
        return;
    job_ours(&ours, env, m, impl, bits, key, iv, len, env->out);
    job_ours(&ref, env, m, c_impl, bits, key, iv, len, env->ref);
    compare(c, m, impl, bits, len, &ours, &ref, "the C implementation");
}

/* The figures of one measurement: jobs[i] as path, from library lib[i]. */
static void emit(const char *table, const char *mode, int bits, size_t bytes,
                 size_t update, int n, const char *const *path, const int *lib,
                 const struct timing_result *res)
{
    for (int i = 0; i < n; i++) {
        struct figure f = { .bits = bits, .bytes = bytes, .update = update,
                            .lib = lib[i], .cpb = res[i].cpb,
                            .worst = res[i].worst };
        snprintf(f.table, sizeof(f.table), "%s", table);
        snprintf(f.mode, sizeof(f.mode), "%s", mode);
        snprintf(f.path, sizeof(f.path), "%s", path[i]);
        figures_emit(&f);
    }
}

/*
 * Implementation impl_name and OpenSSL (path "openssl@" ossl_label) in every
 * selected mode; with impl_name NULL, OpenSSL only (checked against the C).
 */
static void child_aes(struct child *c, const char *impl_name,
                      const char *ossl_label)
{
    const struct bench_options *o = c->o;
    const char *check_name = impl_name ? impl_name : "c";
    const struct casm_aes_impl *impl = casm_aes_impl_by_name(check_name);
    if (impl == NULL)
        bench_fail("no AES implementation %s", check_name);
    if (impl_name == NULL && !c->have_ossl)
        bench_fail("internal: an OpenSSL-only child without OpenSSL");

    char ossl_path_name[80];
    snprintf(ossl_path_name, sizeof(ossl_path_name), "openssl@%s", ossl_label);
    /* Pseudo-random, so the XTS halves differ, as OpenSSL insists. */
    uint8_t key[64], iv[16];
    job_fill(key, sizeof(key), 2);
    job_fill(iv, sizeof(iv), 3);
    size_t nsizes;
    const size_t *sizes = options_sizes(o, 0, &nsizes);

    for (size_t mi = 0; mi < bench_mode_count; mi++) {
        const struct bench_mode *m = &bench_modes[mi];
        int bits[3];
        size_t nbits = plan_key_sizes(o, m, bits);
        int ossl_side = c->have_ossl && m->evp != NULL;
        if (m->op == OP_SHA1 || !options_mode_selected(o, m) ||
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
                struct job ours, ref[OPT_MAX_OPENSSL];
                struct job *jobs[TIMING_MAX_JOBS];
                const char *path[TIMING_MAX_JOBS];
                int lib[TIMING_MAX_JOBS];
                struct timing_result res[TIMING_MAX_JOBS];
                int n = 0;

                verify(c, m, impl, bits[b], key, iv, len);
                if (impl_name) {
                    job_ours(&ours, &c->env, m, impl, bits[b], key, iv, len,
                             c->env.out);
                    path[n] = impl_name;
                    lib[n] = 0;
                    jobs[n++] = &ours;
                }
                for (size_t l = 0; ossl_side && l < c->refs.n; l++) {
                    job_ossl(&ref[l], &c->env, l, m, bits[b], key, iv, len,
                             c->env.ref);
                    path[n] = ossl_path_name;
                    lib[n] = (int)l;
                    jobs[n++] = &ref[l];
                }
                timing_measure(jobs, n, o, c->min_cycles, res);
                emit("aes", m->name, bits[b], len, len, n, path, lib, res);
            }
        }
    }
}

/* SHA-1 entry `name` next to OpenSSL, or OpenSSL alone for "-". */
static void child_sha1(struct child *c, const char *name)
{
    const struct casm_sha1_impl *impl = NULL;
    if (strcmp(name, "-") != 0 && (impl = casm_sha1_impl_by_name(name)) == NULL)
        bench_fail("no SHA-1 implementation \"%s\"", name);
    if (impl == NULL && !c->have_ossl)
        bench_fail("internal: an OpenSSL-only child without OpenSSL");
    struct ossl_sha1 *os[OPT_MAX_OPENSSL] = { NULL };
    size_t nlibs = c->have_ossl ? c->refs.n : 0;
    for (size_t l = 0; l < nlibs; l++) {
        ossl_use(c->refs.lib[l]);
        if ((os[l] = ossl_sha1_new()) == NULL)
            bench_fail("%s: %s", c->refs.version[l], ossl_error());
    }
    char ossl_name[80];
    snprintf(ossl_name, sizeof(ossl_name), impl ? "openssl@%s" : "openssl",
             name);
    size_t nsizes;
    const size_t *sizes = options_sizes(c->o, 1, &nsizes);

    for (size_t b = 0; b < nsizes; b++) {
        for (size_t u = 0; u <= b; u++) {
            struct job ours, ref[OPT_MAX_OPENSSL], c_ref;
            struct job *jp[TIMING_MAX_JOBS];
            const char *path[TIMING_MAX_JOBS];
            int lib[TIMING_MAX_JOBS];
            struct timing_result res[TIMING_MAX_JOBS];
            int n = 0;
            if (!plan_sha1_update_fits(sizes[b], sizes[u]))
                continue;
            /* The digest everything is checked against: the first
             * OpenSSL's, or the C code's without OpenSSL. */
            const struct job *truth = &c_ref;
            const char *truth_name = "the C implementation";
            memset(&c_ref, 0, sizeof(c_ref));
            c_ref.in = c->env.in;
            c_ref.len = sizes[b];
            c_ref.update = sizes[u];
            c_ref.op = job_sha1_ours;
            c_ref.what = "C";
            c_ref.block = sha1_block_data_order_c;
            for (size_t l = 0; l < nlibs; l++) {
                ref[l] = c_ref;
                ref[l].op = job_sha1_ossl;
                ref[l].what = c->refs.version[l];
                ref[l].os = os[l];
                if (ref[l].op(&ref[l]) != 0)
                    bench_fail("%s SHA-1 failed (%s)", c->refs.version[l],
                               ossl_error());
                if (l > 0 && memcmp(ref[l].md, ref[0].md, 20) != 0)
                    bench_fail("SHA-1 of %zu bytes: %s and %s differ", sizes[b],
                               c->refs.version[0], c->refs.version[l]);
            }
            if (nlibs > 0) {
                truth = &ref[0];
                truth_name = c->refs.version[0];
            } else
                c_ref.op(&c_ref);
            if (impl) {
                ours = c_ref;
                ours.op = job_sha1_ours;
                ours.what = impl->name;
                ours.block = impl->block;
                ours.op(&ours);
                if (memcmp(ours.md, truth->md, 20) != 0)
                    bench_fail("SHA-1 %s of %zu bytes in %zu-byte updates "
                               "differs from %s; not timing wrong code",
                               impl->name, sizes[b], sizes[u], truth_name);
                path[n] = impl->name;
                lib[n] = 0;
                jp[n++] = &ours;
            }
            for (size_t l = 0; l < nlibs; l++) {
                path[n] = ossl_name;
                lib[n] = (int)l;
                jp[n++] = &ref[l];
            }
            timing_measure(jp, n, c->o, c->min_cycles, res);
            emit("sha1", "sha1", 0, sizes[b], sizes[u], n, path, lib, res);
        }
    }
    for (size_t l = 0; l < nlibs; l++)
        ossl_sha1_free(os[l]);
}

int child_main(const struct bench_options *o)
{
    struct child c;
    child_setup(&c, o);
    if (strcmp(o->child_role, "aes") == 0)
        child_aes(&c, o->child_name, o->child_name);
    else if (strcmp(o->child_role, "ossl") == 0)
        child_aes(&c, NULL, o->child_name);
    else if (strcmp(o->child_role, "sha1") == 0)
        child_sha1(&c, o->child_name);
    else
        bench_fail("internal: unknown child role '%s'", o->child_role);
    job_env_free(&c.env);
    return 0;
}
