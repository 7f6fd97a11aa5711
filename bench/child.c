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
#include "timing.h"
#include "../support/lib/ossl.h"

/* What the roles of one measuring child share. */
struct child {
    const struct bench_options *o;
    int have_ossl;
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
    if (c->have_ossl && !ossl_load(err, sizeof(err)))
        bench_fail("cannot load OpenSSL in the measuring child: %s", err);
    if (o->tsc_hz <= 0)
        bench_fail("internal: no --child-tsc-hz from the parent");
    c->min_cycles = (uint64_t)(o->seconds * o->tsc_hz / o->runs);
    job_env_init(&c->env, max);
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
 * Two calls on each side (so CBC and CTR chaining is covered) must give
 * the same bytes; the reference is OpenSSL, or the C implementation for
 * LRW and when OpenSSL is not loaded (the C itself is left to the KATs).
 */
static void verify(struct child *c, const struct bench_mode *m,
                   const struct casm_aes_impl *impl, int bits,
                   const uint8_t *key, const uint8_t *iv, size_t len,
                   struct ossl_cipher *oc)
{
    struct job ours, ref;
    struct job_env *env = &c->env;
    const struct casm_aes_impl *c_impl = casm_aes_impl_by_name("c");
    int by_ossl = c->have_ossl && m->evp;
    const char *ref_name = by_ossl ? ossl_version_short() : "the C implementation";

    if (!by_ossl && (c_impl == NULL || c_impl == impl))
        return;
    job_ours(&ours, env, m, impl, bits, key, iv, len, env->out);
    if (by_ossl)
        job_ossl(&ref, env, oc, m, bits, key, iv, len, env->ref);
    else
        job_ours(&ref, env, m, c_impl, bits, key, iv, len, env->ref);
    for (int call = 1; call <= 2; call++) {
        memset(env->out, 0, len);
        memset(env->ref, 0xff, len);
        if (ours.op(&ours) != 0)
            bench_fail("%s %s AES-%d, %zu bytes: call failed", impl->name,
                       m->title, bits, len);
        if (ref.op(&ref) != 0)
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
        if (memcmp(ours.tag, ref.tag, sizeof(ours.tag)) != 0)
            bench_fail("%s %s AES-%d, %zu bytes: tag differs from %s; not "
                       "timing wrong code", impl->name, m->title, bits, len,
                       ref_name);
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
    struct ossl_cipher *oc = NULL;
    if (c->have_ossl && (oc = ossl_cipher_new()) == NULL)
        bench_fail("%s", ossl_error());

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
                struct job ours, ref;
                struct job *jobs[TIMING_MAX_JOBS];
                double cpb[TIMING_MAX_JOBS];
                int n = 0;

                verify(c, m, impl, bits[b], key, iv, len, oc);
                if (impl_name) {
                    job_ours(&ours, &c->env, m, impl, bits[b], key, iv, len,
                             c->env.out);
                    jobs[n++] = &ours;
                }
                if (ossl_side) {
                    job_ossl(&ref, &c->env, oc, m, bits[b], key, iv, len,
                             c->env.ref);
                    jobs[n++] = &ref;
                }
                timing_measure(jobs, n, o->runs, o->fastest, c->min_cycles, cpb);
                for (int i = 0; i < n; i++)
                    figures_emit("aes", m->name, bits[b], len, len,
                                 jobs[i] == &ours ? impl_name : ossl_path_name,
                                 cpb[i]);
            }
        }
    }
    if (oc)
        ossl_cipher_free(oc);
}

/* SHA-1 entry `name` next to OpenSSL, or OpenSSL alone for "-". */
static void child_sha1(struct child *c, const char *name)
{
    const struct casm_sha1_impl *impl = NULL;
    if (strcmp(name, "-") != 0 && (impl = casm_sha1_impl_by_name(name)) == NULL)
        bench_fail("no SHA-1 implementation \"%s\"", name);
    if (impl == NULL && !c->have_ossl)
        bench_fail("internal: an OpenSSL-only child without OpenSSL");
    struct ossl_sha1 *os = NULL;
    if (c->have_ossl && (os = ossl_sha1_new()) == NULL)
        bench_fail("%s", ossl_error());
    const char *ref_name = c->have_ossl ? ossl_version_short() : "the C implementation";
    char ossl_name[80];
    snprintf(ossl_name, sizeof(ossl_name), impl ? "openssl@%s" : "openssl",
             name);
    size_t nsizes;
    const size_t *sizes = options_sizes(c->o, 1, &nsizes);

    for (size_t b = 0; b < nsizes; b++) {
        for (size_t u = 0; u <= b; u++) {
            struct job ours, ref;
            struct job *jp[TIMING_MAX_JOBS];
            double cpb[TIMING_MAX_JOBS];
            int n = 0;
            if (!plan_sha1_update_fits(sizes[b], sizes[u]))
                continue;
            memset(&ref, 0, sizeof(ref));
            ref.in = c->env.in;
            ref.len = sizes[b];
            ref.update = sizes[u];
            if (c->have_ossl) {
                ref.op = job_sha1_ossl;
                ref.what = "OpenSSL";
                ref.os = os;
            } else {
                ref.op = job_sha1_ours;
                ref.what = "C";
                ref.block = sha1_block_data_order_c;
            }
            if (ref.op(&ref) != 0)
                bench_fail("OpenSSL SHA-1 failed (%s)", ossl_error());
            if (impl) {
                ours = ref;
                ours.op = job_sha1_ours;
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
            if (c->have_ossl)
                jp[n++] = &ref;
            timing_measure(jp, n, c->o->runs, c->o->fastest, c->min_cycles, cpb);
            for (int i = 0; i < n; i++)
                figures_emit("sha1", "sha1", 0, sizes[b], sizes[u],
                             jp[i] == &ours ? impl->name : ossl_name, cpb[i]);
        }
    }
    if (os)
        ossl_sha1_free(os);
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
