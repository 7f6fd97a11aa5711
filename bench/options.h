/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The benchmark's command line: the modes it knows and what the user asked
 * for.  options_parse() validates everything before anything is measured;
 * bad input is one line on stderr and exit status 2.
 */
#ifndef BENCH_OPTIONS_H
#define BENCH_OPTIONS_H

#include <stddef.h>

enum bench_op { OP_ECB, OP_CBC, OP_CTR, OP_XTS, OP_LRW, OP_CCM, OP_OCB, OP_SHA1 };

struct bench_mode {
    const char *name, *title;
    const char *evp;               /* OpenSSL's mode, NULL: OpenSSL has none */
    int enc;
    enum bench_op op;
};

extern const struct bench_mode bench_modes[];
extern const size_t bench_mode_count;

#define OPT_MAX 32                 /* entries per list option */
#define OPT_MIN_SIZE 16
#define OPT_MAX_SIZE (1024 * 1024)
#define OPT_RUNS 15                /* samples per figure (the median is kept, or --fastest) */
#define OPT_QUICK_RUNS 5
#define OPT_MAX_OPENSSL 2          /* --openssl libraries compared with at once */
#define OPT_MAX_PLACEMENTS 256     /* stack offsets: 4096 / 256 is the 16-byte stack alignment */

struct bench_options {
    /* Empty lists mean "all" (sizes: the default rows). */
    const char *impls[OPT_MAX];
    size_t n_impls;
    const char *modes[OPT_MAX];    /* as given: "cbc" selects cbc-enc and cbc-dec */
    size_t n_modes;
    size_t sizes[OPT_MAX];         /* ascending, no repeats */
    size_t n_sizes;
    int keybits[3];
    size_t n_keybits;
    const char *csv[OPT_MAX];
    size_t n_csv;
    double seconds;                /* timing per figure, all runs together */
    int runs;
    int quick, list, bound_only;
    int fastest;                   /* keep each figure's fastest run, not its median */
    const char *openssl[OPT_MAX_OPENSSL];   /* libraries to compare with; none: the system's */
    size_t n_openssl;
    int placements;                /* stack offsets each figure is measured at */

    /* Internal, from the parent to a measuring child (see bench.c). */
    const char *child_role, *child_name;
    double tsc_hz;
    int no_openssl;
};

/* A failure while measuring: "bench: " and the message on stderr, exit 3. */
void bench_fail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* Fills o from argv; exits 0 after --help, 2 on any bad input. */
void options_parse(struct bench_options *o, int argc, char **argv);

int options_mode_selected(const struct bench_options *o,
                          const struct bench_mode *m);
int options_impl_selected(const struct bench_options *o, const char *name);
int options_bits_selected(const struct bench_options *o, int bits);

/* The buffer sizes to measure: --size, or the defaults of AES or SHA-1. */
const size_t *options_sizes(const struct bench_options *o, int sha1,
                            size_t *count);

#endif
