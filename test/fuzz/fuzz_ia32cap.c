/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target: casm_ia32cap_apply() on arbitrary OPENSSL_ia32cap
 * strings.  It must not crash or read past the string's NUL (ASan), must
 * always set bit 10 of word 0, and must agree with the small model below,
 * written separately from the rules in crypto/cpuid/ia32cap.h (OpenSSL
 * 3.0's behaviour).
 *
 * Input: 16 bytes of "detected" capability words (native byte order),
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
 * OPENSSL_ia32cap = [~]V0[:[~]V1].  V0 acts on words 0-1 and V1 on words
 * 2-3 (low word in the low half); "~V" clears V's bits, a bare V replaces.
 */
static void model(const unsigned int cpu[4], const char *env,
                  unsigned int out[4])
{
    uint64_t w01 = (uint64_t)cpu[1] << 32 | cpu[0];
    uint64_t w23 = (uint64_t)cpu[3] << 32 | cpu[2];

    if (env != NULL) {
        const char *colon = strchr(env, ':');

        if (env[0] == '~') {
            uint64_t mask = model_number(env + 1);
            w01 &= ~mask;
            /* No FXSR: also no PCLMULQDQ, XOP, AES-NI, AVX (word 1). */
            if (mask & 1u << 24)
                w01 &= ~((uint64_t)(1u << 1 | 1u << 11 | 1u << 25 | 1u << 28)
                         << 32);
        } else if (env[0] != ':') {
            /* A bare V0: OpenSSL never runs CPUID, so 2-3 start at 0. */
            w01 = model_number(env);
            w23 = 0;
        }

        if (colon == NULL)
            w23 = 0;
        else if (colon[1] == '~')
            w23 &= ~model_number(colon + 2);
        else
            w23 = model_number(colon + 1);
    }
    out[0] = (unsigned int)w01 | 1u << 10;     /* "initialised" */
    out[1] = (unsigned int)(w01 >> 32);
    out[2] = (unsigned int)w23;
    out[3] = (unsigned int)(w23 >> 32);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_in in = { data, size };
    unsigned int cpu[4], got[4], want[4];

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
        fprintf(stderr, "detected %08x %08x %08x %08x, OPENSSL_ia32cap ",
                cpu[0], cpu[1], cpu[2], cpu[3]);
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
        fprintf(stderr, "  casm_ia32cap_apply: %08x %08x %08x %08x\n"
                "  model:              %08x %08x %08x %08x\n",
                got[0], got[1], got[2], got[3],
                want[0], want[1], want[2], want[3]);
        fuzz_fail(NAME, !(got[0] & 1u << 10) ? "bit 10 of word 0 is clear"
                                             : "words differ from the model");
    }
    free(env);
    return 0;
}
