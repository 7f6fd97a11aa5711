/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The OPENSSL_ia32cap environment syntax, with OpenSSL 3.5's exact rules
 * (including its quirks, so one variable steers both libraries the same
 * way).  See ia32cap.h for the grammar.
 */
#include <stdint.h>
#include <string.h>

#include "cpuid/ia32cap.h"

static unsigned int digit_value(char c)
{
    if (c >= '0' && c <= '9')
        return (unsigned int)(c - '0');
    if (c >= 'a' && c <= 'f')
        return (unsigned int)(c - 'a' + 10);
    if (c >= 'A' && c <= 'F')
        return (unsigned int)(c - 'A' + 10);
    return 16;  /* not a digit in any base we accept: stops the number */
}

/* 0x.. hex, 0.. octal, else decimal; stops at the first non-digit. */
static uint64_t parse_number(const char *s)
{
    unsigned int base = 10, d;
    uint64_t v = 0;

    if (*s == '0') {
        base = 8;
        s++;
        if (*s == 'x' || *s == 'X') {
            base = 16;
            s++;
        }
    }
    while ((d = digit_value(*s)) < base) {
        v = v * base + d;
        s++;
    }
    return v;
}

/* Writes the 64-bit value v over words i and i+1. */
static void set_pair(unsigned int *w, int i, uint64_t v)
{
    w[i] = (unsigned int)v;
    w[i + 1] = (unsigned int)(v >> 32);
}

void casm_ia32cap_apply(const unsigned int cpuid[CASM_IA32CAP_WORDS],
                        const char *env,
                        unsigned int out[CASM_IA32CAP_WORDS])
{
    uint64_t v0;

    if (env == NULL) {
        memcpy(out, cpuid, CASM_IA32CAP_WORDS * sizeof(out[0]));
        out[0] |= 1u << 10;
        return;
    }

    /*
     * OpenSSL only runs CPUID when F0 is "~mask" or empty; after a bare F0
     * words 2-9 start from zero, whatever the later fields say.
     */
    if (env[0] == '~' || env[0] == ':')
        memcpy(out, cpuid, CASM_IA32CAP_WORDS * sizeof(out[0]));
    else
        memset(out, 0, CASM_IA32CAP_WORDS * sizeof(out[0]));
    v0 = (uint64_t)cpuid[1] << 32 | cpuid[0];
    if (env[0] == '~') {
        uint64_t mask = parse_number(env + 1);
        v0 &= ~mask;
        /*
         * Clearing FXSR (bit 24) also clears what needs XMM registers:
         * PCLMULQDQ, AMD XOP, AES-NI and AVX.
         */
        if (mask & CAP_W0_FXSR)
            v0 &= ~((uint64_t)(CAP_W1_PCLMULQDQ | CAP_W1_XOP | CAP_W1_AESNI |
                               CAP_W1_AVX) << 32);
    } else if (env[0] != ':') {
        v0 = parse_number(env);
    }

    /* F1-F4, each starting after the previous field's ':'. */
    const char *f = strchr(env, ':');
    if (f != NULL)
        f++;
    for (int i = 2; i < CASM_IA32CAP_WORDS; i += 2) {
        if (f == NULL || *f == '\0') {
            set_pair(out, i, 0);
            continue;
        }
        if (*f != ':') {
            uint64_t v = parse_number(*f == '~' ? f + 1 : f);
            if (*f == '~')
                set_pair(out, i, ((uint64_t)out[i + 1] << 32 | out[i]) & ~v);
            else
                set_pair(out, i, v);
        }
        f = strchr(f, ':');
        if (f != NULL)
            f++;
    }
    if (!(out[6] & CAP_W6_AVX10))
        out[9] = 0;
    out[0] = (unsigned int)v0 | 1u << 10;
    out[1] = (unsigned int)(v0 >> 32);
}
