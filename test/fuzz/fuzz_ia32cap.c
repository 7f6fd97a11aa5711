/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target: casm_ia32cap_apply() on arbitrary OPENSSL_ia32cap
 * strings.  It must not crash or read past the string's NUL (ASan), must
 * always set bit 10 of word 0, and must agree with the small model below,
 * written separately from the rules in crypto/cpuid/ia32cap.h (OpenSSL
 * 3.5's behaviour).
 *
 * Input: 40 bytes of "detected" capability words (native byte order),
 * one byte whose bit 0 means "variable unset", then the variable's text
 * up to the first NUL or the end of the input.
 */
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpuid/ia32cap.h"

#include "fuzz_util.h"

#define NAME "fuzz_ia32cap"

/*
 * A number: "0x"/"0X" then hex, another leading "0" then octal, else
 * decimal; read up to the first character that is not a digit of the
 * base (none at all reads as 0), modulo 2^64.
 */
static uint64_t model_number(const char *s)
{
    static const char digits[] = "0123456789abcdef";
    unsigned int base = 10;
    uint64_t v = 0;

    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    } else if (s[0] == '0') {
        base = 8;
        s++;
    }
    for (; *s != '\0'; s++) {
        const char *d = strchr(digits, tolower((unsigned char)*s));
        if (d == NULL || (unsigned int)(d - digits) >= base)
            break;
        v = v * base + (unsigned int)(d - digits);
    }
    return v;
}

/*
 * OPENSSL_ia32cap = F0:F1:F2:F3:F4, field k acting on words 2k, 2k+1 as
 * one 64-bit value (low word in the low half): "~V" clears V's bits, a
 * bare V replaces.  Fields are split at ':' first; an empty field that is
 * not the last one written keeps its pair, a missing or last empty one
 * zeroes it.  A bare F0 means OpenSSL ran no CPUID: every other pair starts
 * at 0.  Word 9 survives only with word 6 bit 19 (AVX10).
 */
#define PAIRS (CASM_IA32CAP_WORDS / 2)

static void model(const unsigned int cpu[CASM_IA32CAP_WORDS], const char *env,
                  unsigned int out[CASM_IA32CAP_WORDS])
{
    uint64_t pair[PAIRS];

    for (int k = 0; k < PAIRS; k++)
        pair[k] = (uint64_t)cpu[2 * k + 1] << 32 | cpu[2 * k];
    if (env != NULL) {
        /* field[k]: where field k starts, NULL past the last ':'. */
        const char *field[PAIRS];
        field[0] = env;
        for (int k = 1; k < PAIRS; k++) {
            const char *c = field[k - 1] ? strchr(field[k - 1], ':') : NULL;
            field[k] = c ? c + 1 : NULL;
        }
        if (env[0] == '~') {
            uint64_t mask = model_number(env + 1);
            pair[0] &= ~mask;
            /* No FXSR: also no PCLMULQDQ, XOP, AES-NI, AVX (word 1). */
            if (mask & 1u << 24)
                pair[0] &= ~((uint64_t)(1u << 1 | 1u << 11 | 1u << 25 | 1u << 28)
                             << 32);
        } else if (env[0] != ':') {
            pair[0] = model_number(env);
            for (int k = 1; k < PAIRS; k++)
                pair[k] = 0;
        }
        for (int k = 1; k < PAIRS; k++) {
            const char *f = field[k];
            if (f == NULL || f[0] == '\0')
                pair[k] = 0;
            else if (f[0] == '~')
                pair[k] &= ~model_number(f + 1);
            else if (f[0] != ':')
                pair[k] = model_number(f);
        }
        if (!(pair[3] & 1u << 19))
            pair[4] &= 0xffffffffu;
    }
    for (int k = 0; k < PAIRS; k++) {
        out[2 * k] = (unsigned int)pair[k];
        out[2 * k + 1] = (unsigned int)(pair[k] >> 32);
    }
    out[0] |= 1u << 10;     /* "initialised" */
}

/* The words on one line of the failure report. */
static void print_words(const char *label, const unsigned int w[CASM_IA32CAP_WORDS])
{
    fprintf(stderr, "%s", label);
    for (int i = 0; i < CASM_IA32CAP_WORDS; i++)
        fprintf(stderr, " %08x", w[i]);
    fputc('\n', stderr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_in in = { data, size };
    unsigned int cpu[CASM_IA32CAP_WORDS], got[CASM_IA32CAP_WORDS],
        want[CASM_IA32CAP_WORDS];

    fuzz_bytes(&in, cpu, sizeof(cpu));
    int unset = fuzz_byte(&in) & 1;

    /* The text alone in an allocation of its length + NUL, so ASan
     * reports any read past the terminator. */
    const uint8_t *nul = memchr(in.p, 0, in.left);
    size_t n = nul ? (size_t)(nul - in.p) : in.left;
    char *env = fuzz_alloc(n + 1);
    memcpy(env, in.p, n);
    env[n] = '\0';

    casm_ia32cap_apply(cpu, unset ? NULL : env, got);
    model(cpu, unset ? NULL : env, want);

    if (!(got[0] & 1u << 10) || memcmp(got, want, sizeof(got)) != 0) {
        print_words("detected", cpu);
        fprintf(stderr, "OPENSSL_ia32cap ");
        if (unset) {
            fprintf(stderr, "unset\n");
        } else {
            fputc('"', stderr);
            for (const unsigned char *c = (const unsigned char *)env; *c; c++) {
                if (*c >= 0x20 && *c < 0x7f && *c != '"' && *c != '\\')
                    fputc(*c, stderr);
                else
                    fprintf(stderr, "\\x%02x", *c);   /* keep the log readable */
            }
            fprintf(stderr, "\"\n");
        }
        print_words("  casm_ia32cap_apply:", got);
        print_words("  model:             ", want);
        fuzz_fail(NAME, !(got[0] & 1u << 10) ? "bit 10 of word 0 is clear"
                                             : "words differ from the model");
    }
    free(env);
    return 0;
}
