/* SPDX-License-Identifier: Apache-2.0 */
/*
 * OpenSSL's own x86_64 functions through the Win64 single-step unwind
 * checker (abi_check.h): at every instruction of each call, and of what it
 * calls, one frame is unwound and compared with the state at entry.
 *
 * The program is linked with OpenSSL's modules (translated by whichever
 * translator is under test) and --export-all-symbols, so a function is
 * found by name.  argv[1] is a call table, test/win64/openssl-calls.txt:
 *   module NAME [CAPS,...]
 *                        starts a group: its calls run in order on fresh
 *                        buffers, once per capability set (below), or
 *                        only under those named
 *   FUNCTION ARG...      a call; ARG is bN (buffer N, 64 KiB, 64-byte
 *                        aligned, deterministic bytes), bN+OFFSET, or a
 *                        number
 *   set bN+OFFSET VALUE  stores a 32-bit VALUE there (a field a C caller
 *                        would have set, such as a round count); with
 *                        VALUE bM[+OFFSET], that buffer's address (64
 *                        bits: a pointer in a descriptor array)
 *   todo FUNCTION REASON its results are TAP TODO with REASON: a known
 *                        failure, reported but not failing the run
 *   # ...                a comment
 * A group one of whose functions is not linked is one SKIP naming it.
 * OPENSSL_ia32cap_P is filled by OPENSSL_ia32_cpuid (itself checked) and
 * each group runs under several masks of it, so that a function's code
 * paths for narrower CPUs are stepped too.  Frames are unwound up to the
 * called function's caller (unwind_set_chain): OpenSSL's internal helpers
 * keep a private convention, clobbering registers their caller saved.
 * argv[2] is the number of 32-bit words of OPENSSL_ia32cap_P (4 in
 * OpenSSL 3.0, 10 in 3.5); argv[3], if given, prefixes every test name.
 * Prints TAP.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "../../support/abi/abi_check.h"
#include "../lib/tap.h"

enum { NBUF = 8, BUFSZ = 64 * 1024, MAX_CALLS = 64, CAP_WORDS = 10 };

struct call {
    char name[64];
    void *fn;
    int nargs;
    struct { int buf; long long value; } arg[ABI_MAX_ARGS];   /* buf < 0: value */
    int is_set;               /* a `set` line: arg[0] where, arg[1] what */
};

/* The capability masks: which of OpenSSL's feature words each keeps. */
struct caps {
    const char *name;
    uint32_t keep[CAP_WORDS];
};
static const struct caps CAPS[] = {
    { "detected", { ~0u, ~0u, ~0u, ~0u, ~0u, ~0u, ~0u, ~0u, ~0u, ~0u } },
    /* word 2: leaf 7 ebx, less AVX-512 F DQ IFMA PF ER CD BW VL; word 3
       and later (VAES, VPCLMULQDQ, AVX-512 extensions, ...) cleared */
    { "no-avx512", { ~0u, ~0u, ~0xfc230000u, 0, 0, 0, 0, 0, 0, 0 } },
    { "no-avx2", { ~0u, ~0u, 0, 0, 0, 0, 0, 0, 0, 0 } },
    /* word 1: leaf 1 ecx, less AVX, FMA, XOP */
    { "no-avx", { ~0u, ~((1u << 28) | (1u << 12) | (1u << 11)), 0, 0, 0, 0, 0, 0, 0, 0 } },
    { "none", { 0 } },
};

static unsigned char *bufs[NBUF];
static uint32_t *ia32cap;
static uint32_t detected[CAP_WORDS];
static int cap_words;
static unsigned long total_calls, total_steps, total_handled;
static const char *prefix = "";

enum { MAX_TODO = 64 };
static struct { char name[64]; char why[200]; } todo[MAX_TODO];
static int ntodo;

static const char *todo_reason(const char *name)
{
    for (int i = 0; i < ntodo; i++)
        if (strcmp(todo[i].name, name) == 0)
            return todo[i].why;
    return NULL;
}

static void fill(unsigned char *p, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        p[i] = (unsigned char)(seed >> 24);
    }
}

/* x86_64cpuid's start-up entry calls this; main fills the words itself. */
void OPENSSL_cpuid_setup(void);
void OPENSSL_cpuid_setup(void)
{
}

/* OpenSSL's detection (x86_64cpuid, linked with the modules): the first
 * two words as it returns them; it fills the rest itself. */
uint64_t OPENSSL_ia32_cpuid(uint32_t *words);

static void *lookup(const char *name)
{
    return (void *)GetProcAddress(GetModuleHandleA(NULL), name);
}

/* One call under the unwind checker; a failure names the instruction. */
static void run_call(const struct call *c, const char *caps)
{
    uint64_t args[ABI_MAX_ARGS];
    struct unwind_stats st = { 0, 0, 0 };
    char err[768];

    for (int i = 0; i < c->nargs; i++)
        args[i] = c->arg[i].buf >= 0
                      ? (uint64_t)(uintptr_t)(bufs[c->arg[i].buf] + c->arg[i].value)
                      : (uint64_t)c->arg[i].value;
    int rc = unwind_check(c->fn, args, c->nargs, &st, err, sizeof(err));
    total_calls++;
    total_steps += st.steps;
    total_handled += st.handled;
    const char *why = todo_reason(c->name);
    int ok = rc == 0 && st.steps > 0;
    const char *f = "%s%s [%s]: unwinds right at each of %lu instructions (%lu through "
                    "its handler)";
    if (why != NULL)
        tap_todo_ok(why, ok, f, prefix, c->name, caps, st.steps, st.handled);
    else
        tap_ok(ok, f, prefix, c->name, caps, st.steps, st.handled);
    if (!ok)
        tap_diag("%s", rc ? err : "no instruction was stepped");
}

/* Runs a group under every capability mask, on fresh buffers each time. */
static void run_group(const char *module, const char *only, struct call *calls, int n,
                      const char *missing)
{
    if (n == 0)
        return;
    if (missing != NULL) {
        tap_skip("not linked", "%s%s: %s is not in this program", prefix, module, missing);
        return;
    }
    for (size_t k = 0; k < sizeof(CAPS) / sizeof(CAPS[0]); k++) {
        char want[80];
        snprintf(want, sizeof(want), ",%s,", CAPS[k].name);
        if (only[0] != '\0' && strstr(only, want) == NULL)
            continue;
        for (int w = 0; w < cap_words; w++)
            ia32cap[w] = detected[w] & CAPS[k].keep[w];
        for (int b = 0; b < NBUF; b++)
            fill(bufs[b], BUFSZ, 17u * (uint32_t)b + 1u);
        for (int i = 0; i < n; i++) {
            if (calls[i].is_set) {
                unsigned char *at = bufs[calls[i].arg[0].buf] + calls[i].arg[0].value;
                if (calls[i].arg[1].buf >= 0) {
                    uint64_t p = (uint64_t)(uintptr_t)(bufs[calls[i].arg[1].buf]
                                                       + calls[i].arg[1].value);
                    memcpy(at, &p, sizeof(p));
                } else {
                    uint32_t v = (uint32_t)calls[i].arg[1].value;
                    memcpy(at, &v, sizeof(v));
                }
            } else {
                run_call(&calls[i], CAPS[k].name);
            }
        }
    }
}

static int parse_arg(struct call *c, const char *tok, const char *file, int line)
{
    char *end;
    int i = c->nargs;

    if (i == ABI_MAX_ARGS)
        tap_bail("%s:%d: more than %d arguments", file, line, ABI_MAX_ARGS);
    if (tok[0] == 'b') {
        long b = strtol(tok + 1, &end, 10);
        if (end == tok + 1 || b < 0 || b >= NBUF)
            tap_bail("%s:%d: bad buffer \"%s\" (b0..b%d)", file, line, tok, NBUF - 1);
        c->arg[i].buf = (int)b;
        c->arg[i].value = 0;
        if (*end == '+') {
            const char *off = end + 1;
            c->arg[i].value = strtoll(off, &end, 0);
            if (end == off || c->arg[i].value < 0 || c->arg[i].value >= BUFSZ / 2)
                tap_bail("%s:%d: bad offset in \"%s\"", file, line, tok);
        }
    } else {
        c->arg[i].buf = -1;
        c->arg[i].value = strtoll(tok, &end, 0);
    }
    if (*end != '\0')
        tap_bail("%s:%d: bad argument \"%s\"", file, line, tok);
    c->nargs++;
    return 0;
}

int main(int argc, char **argv)
{
    static struct call calls[MAX_CALLS];
    char line[512], module[64] = "", only[128] = "";
    const char *missing = NULL;
    int n = 0, lineno = 0;

    if (argc < 3)
        tap_bail("usage: openssl_unwind.exe CALL-TABLE CAP-WORDS [NAME-PREFIX]");
    cap_words = atoi(argv[2]);
    if (cap_words < 4 || cap_words > CAP_WORDS)
        tap_bail("CAP-WORDS %s: want 4..%d", argv[2], CAP_WORDS);
    if (argc > 3)
        prefix = argv[3];
    FILE *f = fopen(argv[1], "r");
    if (f == NULL)
        tap_bail("cannot open %s", argv[1]);
    for (int b = 0; b < NBUF; b++) {
        bufs[b] = _aligned_malloc(BUFSZ, 64);
        if (bufs[b] == NULL)
            tap_bail("out of memory");
    }

    /* The capability words, as OpenSSL's start-up code fills them. */
    ia32cap = lookup("OPENSSL_ia32cap_P");
    struct call cpuid;
    memset(&cpuid, 0, sizeof(cpuid));
    snprintf(cpuid.name, sizeof(cpuid.name), "OPENSSL_ia32_cpuid");
    cpuid.fn = lookup("OPENSSL_ia32_cpuid");
    cpuid.nargs = 1;        /* into b0: the real words are filled below */
    if (ia32cap == NULL || cpuid.fn == NULL)
        tap_bail("OPENSSL_ia32cap_P or OPENSSL_ia32_cpuid is not linked (x86_64cpuid)");
    unwind_set_chain(1);
    run_call(&cpuid, "detected");
    uint64_t vec = OPENSSL_ia32_cpuid(ia32cap);
    ia32cap[0] = (uint32_t)vec;
    ia32cap[1] = (uint32_t)(vec >> 32);
    memcpy(detected, ia32cap, sizeof(uint32_t) * (size_t)cap_words);

    while (fgets(line, sizeof(line), f) != NULL) {
        char *tok, *save = NULL;
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        tok = strtok_r(line, " \t", &save);
        if (tok == NULL || tok[0] == '#')
            continue;
        if (strcmp(tok, "todo") == 0) {
            char *name = strtok_r(NULL, " \t", &save);
            char *why = strtok_r(NULL, "", &save);
            if (name == NULL || why == NULL || ntodo == MAX_TODO)
                tap_bail("%s:%d: want todo FUNCTION REASON (at most %d)", argv[1], lineno, MAX_TODO);
            snprintf(todo[ntodo].name, sizeof(todo[ntodo].name), "%s", name);
            snprintf(todo[ntodo].why, sizeof(todo[ntodo].why), "%s", why);
            ntodo++;
            continue;
        }
        if (strcmp(tok, "module") == 0) {
            run_group(module, only, calls, n, missing);
            n = 0;
            missing = NULL;
            tok = strtok_r(NULL, " \t", &save);
            snprintf(module, sizeof(module), "%s", tok ? tok : "?");
            tok = strtok_r(NULL, " \t", &save);
            snprintf(only, sizeof(only), tok ? ",%s," : "", tok);
            continue;
        }
        if (n == MAX_CALLS)
            tap_bail("%s:%d: more than %d calls in module %s", argv[1], lineno, MAX_CALLS, module);
        struct call *c = &calls[n++];
        memset(c, 0, sizeof(*c));
        snprintf(c->name, sizeof(c->name), "%s", tok);
        c->is_set = strcmp(tok, "set") == 0;
        c->fn = c->is_set ? NULL : lookup(tok);
        if (!c->is_set && c->fn == NULL && missing == NULL) {
            static char names[64 * 4];
            snprintf(names, sizeof(names), "%s", tok);
            missing = names;
        }
        while ((tok = strtok_r(NULL, " \t", &save)) != NULL)
            parse_arg(c, tok, argv[1], lineno);
        if (c->is_set && (c->nargs != 2 || c->arg[0].buf < 0))
            tap_bail("%s:%d: want set bN+OFFSET VALUE|bM[+OFFSET]", argv[1], lineno);
    }
    run_group(module, only, calls, n, missing);
    fclose(f);
    tap_diag("%s%lu calls checked, %lu instructions, %lu unwinds through a handler",
             prefix, total_calls, total_steps, total_handled);
    return tap_done();
}
