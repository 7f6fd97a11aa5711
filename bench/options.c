/* SPDX-License-Identifier: Apache-2.0 */
#include "options.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impl.h"

const struct bench_mode bench_modes[] = {
    { "ecb-enc", "ECB encrypt", "ecb", 1, OP_ECB },
    { "cbc-enc", "CBC encrypt", "cbc", 1, OP_CBC },
    { "cbc-dec", "CBC decrypt", "cbc", 0, OP_CBC },
    { "ctr", "CTR", "ctr", 1, OP_CTR },
    { "xts-enc", "XTS encrypt", "xts", 1, OP_XTS },
    { "lrw-enc", "LRW encrypt", NULL, 1, OP_LRW },
    { "ccm-enc", "CCM encrypt (12-byte nonce, no AAD, 16-byte tag)", "ccm", 1, OP_CCM },
    { "ccm-dec", "CCM decrypt (12-byte nonce, no AAD, 16-byte tag)", "ccm", 0, OP_CCM },
    /* Only for entries with OCB bulk functions (aesni_ocb_encrypt). */
    { "ocb-enc", "OCB encrypt (12-byte nonce, 16-byte tag, whole message)", "ocb", 1, OP_OCB },
    { "sha1", "SHA-1 (tcrypt style: init, updates of the given size, final)", "sha1", 1, OP_SHA1 },
};
const size_t bench_mode_count = sizeof(bench_modes) / sizeof(bench_modes[0]);

static const size_t aes_sizes[] = { 16, 64, 256, 1024, 8192, 16384 };
static const size_t sha_sizes[] = { 16, 64, 256, 1024, 2048, 4096, 8192, 16384 };

#define DEFAULT_SECONDS 0.005
#define QUICK_SECONDS 0.00005
#define MAX_SECONDS 60.0

static void usage(void)
{
    printf(
        "usage: bench [OPTION]...\n"
        "Cycles per byte and MB/s of every implementation in this build, each next\n"
        "to OpenSSL's libcrypto.so.3 measured in the same run on its equivalent path.\n"
        "\n"
        "  --list            the implementations and modes (with the selection\n"
        "                    options: those selected), and whether this CPU runs them\n"
        "  --impl NAME       only this implementation (repeatable, or a comma list);\n"
        "                    OpenSSL is still measured beside each\n"
        "  --mode NAME       only this mode (repeatable, or a comma list); a prefix\n"
        "                    before '-' selects all its modes, e.g. cbc\n"
        "  --size BYTES      buffer sizes instead of the default rows (repeatable, or\n"
        "                    a comma list); multiples of %d from %d to %d\n"
        "  --keybits BITS    AES key sizes: 128, 192, 256 (repeatable, or a comma list)\n"
        "  --seconds S       timing per figure and placement, all its runs together\n"
        "                    (default %.3f)\n"
        "  --quick           smoke test: %d runs per figure instead of %d, --seconds %.5f\n"
        "  --fastest         each figure the fastest of its runs, not the median: on a\n"
        "                    machine shared with other work, which only slows runs down\n"
        "  --openssl PATH    the libcrypto.so.3 to compare with (default the system's;\n"
        "                    a name without '/' is searched for as the dynamic linker\n"
        "                    does); given twice, both, each with its own columns\n"
        "  --placements N    measure each figure with the stack at N offsets within a\n"
        "                    4 KiB page (k x 4096 / N bytes, 1 to %d; default 1) and\n"
        "                    give the median and the worst of them\n"
        "  --csv FILE        also write every figure to FILE as CSV (repeatable)\n"
        "  --bound-only      only the bound loops: TSC cycles per AES round and\n"
        "                    SHA1RNDS4 instruction on this CPU, then exit\n"
        "  --help            this text\n"
        "\n"
        "Modes:",
        OPT_MIN_SIZE, OPT_MIN_SIZE, OPT_MAX_SIZE, DEFAULT_SECONDS, OPT_QUICK_RUNS,
        OPT_RUNS, QUICK_SECONDS, OPT_MAX_PLACEMENTS);
    for (size_t i = 0; i < bench_mode_count; i++)
        printf(" %s", bench_modes[i].name);
    printf("\nExit status: 0 measured (or listed), 2 bad command line, 3 a failure.\n");
}

static void complain(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
static void complain(const char *fmt, va_list ap)
{
    fputs("bench: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

static void bad_input(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void bad_input(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    complain(fmt, ap);
    va_end(ap);
    exit(2);
}

void bench_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    complain(fmt, ap);
    va_end(ap);
    exit(3);
}

/* "cbc" selects cbc-enc and cbc-dec; a whole name selects itself. */
static int mode_matches(const char *filter, const char *name)
{
    size_t n = strlen(filter);
    return n > 0 && strncmp(filter, name, n) == 0 &&
           (name[n] == '\0' || name[n] == '-');
}

static int known_impl(const char *name)
{
    return casm_aes_impl_by_name(name) != NULL ||
           casm_sha1_impl_by_name(name) != NULL;
}

/* Whole decimal number, no sign, no suffix; -1 if not one. */
static long long decimal(const char *s)
{
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end != '\0' || errno != 0 || v > (unsigned long long)LLONG_MAX)
        return -1;
    return (long long)v;
}

/* Each option's action; option is its name, for messages. */
typedef void option_f(struct bench_options *o, const char *option,
                      const char *value);

static void add_size(struct bench_options *o, const char *option,
                     const char *word)
{
    long long v = decimal(word);
    if (v < OPT_MIN_SIZE || v > OPT_MAX_SIZE || v % 16 != 0)
        bad_input("bad %s '%s': want a multiple of %d from %d to %d", option,
                  word, OPT_MIN_SIZE, OPT_MIN_SIZE, OPT_MAX_SIZE);
    /* Kept sorted and unique: the table rows follow this order. */
    size_t i = 0;
    while (i < o->n_sizes && o->sizes[i] < (size_t)v)
        i++;
    if (i < o->n_sizes && o->sizes[i] == (size_t)v)
        return;
    if (o->n_sizes == OPT_MAX)
        bad_input("too many %s values (at most %d)", option, OPT_MAX);
    memmove(&o->sizes[i + 1], &o->sizes[i], (o->n_sizes - i) * sizeof(o->sizes[0]));
    o->sizes[i] = (size_t)v;
    o->n_sizes++;
}

static void add_keybits(struct bench_options *o, const char *option,
                        const char *word)
{
    long long v = decimal(word);
    if (v != 128 && v != 192 && v != 256)
        bad_input("bad %s '%s': want 128, 192 or 256", option, word);
    for (size_t i = 0; i < o->n_keybits; i++)
        if (o->keybits[i] == (int)v)
            return;
    o->keybits[o->n_keybits++] = (int)v;
}

static void add_word(const char **list, size_t *n, const char *option,
                     const char *word)
{
    if (*n == OPT_MAX)
        bad_input("too many %s values (at most %d)", option, OPT_MAX);
    list[(*n)++] = word;
}

static void add_mode(struct bench_options *o, const char *option,
                     const char *word)
{
    int known = 0;
    for (size_t m = 0; m < bench_mode_count; m++)
        known |= mode_matches(word, bench_modes[m].name);
    if (!known)
        bad_input("unknown mode '%s' (see --list)", word);
    add_word(o->modes, &o->n_modes, option, word);
}

static void add_impl(struct bench_options *o, const char *option,
                     const char *word)
{
    if (!known_impl(word))
        bad_input("unknown implementation '%s' (see --list)", word);
    add_word(o->impls, &o->n_impls, option, word);
}

static void add_csv(struct bench_options *o, const char *option,
                    const char *path)
{
    add_word(o->csv, &o->n_csv, option, path);
}

static void set_seconds(struct bench_options *o, const char *option,
                        const char *word)
{
    char *end;
    errno = 0;
    double v = strtod(word, &end);
    if (end == word || *end != '\0' || errno != 0 || !isfinite(v) || v <= 0 ||
        v > MAX_SECONDS)
        bad_input("bad %s '%s': want a number above 0, at most %g", option,
                  word, MAX_SECONDS);
    o->seconds = v;
}

static void add_openssl(struct bench_options *o, const char *option,
                        const char *path)
{
    if (o->n_openssl == OPT_MAX_OPENSSL)
        bad_input("too many %s libraries (at most %d)", option, OPT_MAX_OPENSSL);
    o->openssl[o->n_openssl++] = path;
}

static void set_placements(struct bench_options *o, const char *option,
                           const char *word)
{
    long long v = decimal(word);
    if (v < 1 || v > OPT_MAX_PLACEMENTS)
        bad_input("bad %s '%s': want a whole number from 1 to %d", option,
                  word, OPT_MAX_PLACEMENTS);
    o->placements = (int)v;
}

static void show_help(struct bench_options *o, const char *option,
                      const char *value)
{
    (void)o, (void)option, (void)value;
    usage();
    exit(0);
}


/* --child-ROLE NAME, --child-tsc-hz HZ, --child-no-openssl (bench.c). */
static void set_child_role(struct bench_options *o, const char *option,
                           const char *name)
{
    o->child_role = option + strlen("--child-");
    o->child_name = name;
}

static void set_child_tsc_hz(struct bench_options *o, const char *option,
                             const char *hz)
{
    (void)option;
    o->tsc_hz = strtod(hz, NULL);
}

enum takes { FLAG, VALUE, LIST };     /* LIST: a value of comma-separated words */

static const struct option_spec {
    const char *name;
    enum takes takes;
    option_f *apply;            /* NULL: a FLAG that sets the int at flag */
    size_t flag;
} options[] = {
    { "--help", FLAG, show_help, 0 },
    { "--list", FLAG, NULL, offsetof(struct bench_options, list) },
    { "--quick", FLAG, NULL, offsetof(struct bench_options, quick) },
    { "--fastest", FLAG, NULL, offsetof(struct bench_options, fastest) },
    { "--bound-only", FLAG, NULL, offsetof(struct bench_options, bound_only) },
    { "--impl", LIST, add_impl, 0 },
    { "--mode", LIST, add_mode, 0 },
    { "--size", LIST, add_size, 0 },
    { "--keybits", LIST, add_keybits, 0 },
    { "--seconds", VALUE, set_seconds, 0 },
    { "--csv", VALUE, add_csv, 0 },
    { "--openssl", VALUE, add_openssl, 0 },
    { "--placements", VALUE, set_placements, 0 },
    { "--child-aes", VALUE, set_child_role, 0 },
    { "--child-ossl", VALUE, set_child_role, 0 },
    { "--child-sha1", VALUE, set_child_role, 0 },
    { "--child-tsc-hz", VALUE, set_child_tsc_hz, 0 },
    { "--child-no-openssl", FLAG, NULL, offsetof(struct bench_options, no_openssl) },
};

/* Each comma-separated word of value, from a copy: argv stays intact. */
static void each_word(struct bench_options *o, const struct option_spec *spec,
                      const char *value)
{
    char *copy = strdup(value);
    if (copy == NULL)
        bad_input("out of memory");
    for (char *p = copy, *comma; p; p = comma ? comma + 1 : NULL) {
        comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        spec->apply(o, spec->name, p);
    }
    /* copy is not freed: the option lists point into it. */
}

void options_parse(struct bench_options *o, int argc, char **argv)
{
    memset(o, 0, sizeof(*o));
    for (int i = 1; i < argc; i++) {
        const struct option_spec *spec = NULL;
        for (size_t k = 0; k < sizeof(options) / sizeof(options[0]); k++)
            if (strcmp(argv[i], options[k].name) == 0)
                spec = &options[k];
        if (spec == NULL)
            bad_input(argv[i][0] == '-' ? "unknown option '%s' (see --help)"
                                        : "unexpected argument '%s' (see --help)",
                      argv[i]);
        if (spec->takes == FLAG) {
            if (spec->apply)
                spec->apply(o, spec->name, NULL);
            else
                *(int *)((char *)o + spec->flag) = 1;
            continue;
        }
        if (i + 1 >= argc || argv[i + 1][0] == '\0')
            bad_input("%s needs a value (see --help)", spec->name);
        const char *value = argv[++i];
        if (spec->takes == LIST)
            each_word(o, spec, value);
        else
            spec->apply(o, spec->name, value);
    }
    o->runs = o->quick ? OPT_QUICK_RUNS : OPT_RUNS;
    if (o->placements == 0)
        o->placements = 1;
    if (o->seconds == 0)            /* not given: --seconds rejects 0 */
        o->seconds = o->quick ? QUICK_SECONDS : DEFAULT_SECONDS;
}

int options_mode_selected(const struct bench_options *o,
                          const struct bench_mode *m)
{
    if (o->n_modes == 0)
        return 1;
    for (size_t i = 0; i < o->n_modes; i++)
        if (mode_matches(o->modes[i], m->name))
            return 1;
    return 0;
}

int options_impl_selected(const struct bench_options *o, const char *name)
{
    if (o->n_impls == 0)
        return 1;
    for (size_t i = 0; i < o->n_impls; i++)
        if (strcmp(o->impls[i], name) == 0)
            return 1;
    return 0;
}

int options_bits_selected(const struct bench_options *o, int bits)
{
    if (o->n_keybits == 0)
        return 1;
    for (size_t i = 0; i < o->n_keybits; i++)
        if (o->keybits[i] == bits)
            return 1;
    return 0;
}

const size_t *options_sizes(const struct bench_options *o, int sha1,
                            size_t *count)
{
    if (o->n_sizes > 0) {
        *count = o->n_sizes;
        return o->sizes;
    }
    *count = sha1 ? sizeof(sha_sizes) / sizeof(sha_sizes[0])
                  : sizeof(aes_sizes) / sizeof(aes_sizes[0]);
    return sha1 ? sha_sizes : aes_sizes;
}
