/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The OPENSSL_ia32cap environment syntax, with OpenSSL 3.0's exact rules
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

void casm_ia32cap_apply(const unsigned int cpuid[4], const char *env,
                        unsigned int out[4])
{
    uint64_t v0;

    if (env == NULL) {
        memcpy(out, cpuid, 4 * sizeof(out[0]));
        out[0] |= 1u << 10;
        return;
    }

    /*
     * OpenSSL only runs CPUID when V0 is "~mask" or empty; after a bare V0
     * words 2-3 start from zero, whatever ":V1" then says.
     */
    out[2] = out[3] = 0;
    if (env[0] == '~') {
        uint64_t mask = parse_number(env + 1);
        v0 = ((uint64_t)cpuid[1] << 32 | cpuid[0]) & ~mask;
        out[2] = cpuid[2];
        out[3] = cpuid[3];
        /*
         * Clearing FXSR (bit 24) also clears what needs XMM registers:
         * PCLMULQDQ, AMD XOP, AES-NI and AVX.
         */
        if (mask & CAP_W0_FXSR)
            v0 &= ~((uint64_t)(CAP_W1_PCLMULQDQ | CAP_W1_XOP | CAP_W1_AESNI |
                               CAP_W1_AVX) << 32);
    } else if (env[0] == ':') {
        v0 = (uint64_t)cpuid[1] << 32 | cpuid[0];
        out[2] = cpuid[2];
        out[3] = cpuid[3];
    } else {
        v0 = parse_number(env);
    }

    const char *colon = strchr(env, ':');
    if (colon != NULL) {
        const char *s = colon + 1;
        uint64_t v1 = parse_number(s[0] == '~' ? s + 1 : s);
        if (s[0] == '~') {
            out[2] &= ~(unsigned int)v1;
            out[3] &= ~(unsigned int)(v1 >> 32);
        } else {
            out[2] = (unsigned int)v1;
            out[3] = (unsigned int)(v1 >> 32);
        }
    } else {
        out[2] = out[3] = 0;
    }
    out[0] = (unsigned int)v0 | 1u << 10;
    out[1] = (unsigned int)(v0 >> 32);
}
