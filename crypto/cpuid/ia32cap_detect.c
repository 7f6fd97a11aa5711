/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fills OPENSSL_ia32cap_P before main() from CPUID and XGETBV, then applies
 * the OPENSSL_ia32cap environment mask.  The synthesised bits and the
 * leaves read follow what OpenSSL 3.5 computes (3.0's for words 0-3), so a
 * mask means the same thing to all three libraries.
 */
#include <cpuid.h>
#include <stdlib.h>
#include <string.h>

#include "cpuid/ia32cap.h"

unsigned int OPENSSL_ia32cap_P[CASM_IA32CAP_WORDS];

struct regs { unsigned int a, b, c, d; };

static struct regs cpuid(unsigned int leaf, unsigned int sub)
{
    struct regs r;
    __cpuid_count(leaf, sub, r.a, r.b, r.c, r.d);
    return r;
}

static unsigned int xgetbv0(void)
{
    unsigned int lo, hi;
    __asm__ volatile ("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return lo;
}

static int vendor_is(const struct regs *r0, const char name[13])
{
    char v[12];
    memcpy(v, &r0->b, 4);
    memcpy(v + 4, &r0->d, 4);
    memcpy(v + 8, &r0->c, 4);
    return memcmp(v, name, 12) == 0;
}

void casm_ia32cap_detect(unsigned int out[CASM_IA32CAP_WORDS])
{
    const struct regs r0 = cpuid(0, 0);
    const unsigned int max_leaf = r0.a;
    const int intel = vendor_is(&r0, "GenuineIntel");
    const int amd = vendor_is(&r0, "AuthenticAMD");
    unsigned int xop = 0;          /* AMD XOP, reported in word 1 bit 11 */
    unsigned int sharing = ~0u;    /* nonzero: caches may be shared */
    int amd_cores = 0;

    memset(out, 0, CASM_IA32CAP_WORDS * sizeof(out[0]));

    if (amd) {
        unsigned int max_ext = cpuid(0x80000000, 0).a;
        if (max_ext >= 0x80000001)
            xop = cpuid(0x80000001, 0).c & (1u << 11);
        if (max_ext >= 0x80000008)
            amd_cores = (int)(cpuid(0x80000008, 0).c & 0xff) + 1;
    }
    if (!amd_cores && max_leaf >= 4)
        sharing = (cpuid(4, 0).a >> 14) & 0xfff;  /* threads per L1 - 1 */

    struct regs r1 = cpuid(1, 0);
    const unsigned int logical = (r1.b >> 16) & 0xff;
    unsigned int edx = r1.d, ecx = r1.c;

    if (amd_cores) {
        /*
         * Bit 28 stays only if there are more logical CPUs than cores.
         * OpenSSL compares the low bytes only (256 cores count as 0).
         */
        if ((edx & (1u << 28)) &&
            (unsigned char)logical <= (unsigned char)amd_cores)
            edx &= ~(1u << 28);
    } else {
        edx &= ~(CAP_W0_INTEL | 1u << 20);  /* reserved; reused below */
        if (intel) {
            const unsigned int family = (r1.a >> 8) & 0xf;
            edx |= CAP_W0_INTEL;
            if (family == 15)
                edx |= 1u << 20;        /* Pentium 4 */
            const unsigned int sig = r1.a & 0x0fff0ff0;
            if (family == 6 && (sig == 0x00050670 || sig == 0x00080650))
                ecx &= ~(1u << 26);     /* Knights: report as Silvermont */
        }
        if (edx & (1u << 28)) {
            /* HTT means "shares L1" only if L1 is shared and there are
             * several logical processors. */
            edx &= ~(1u << 28);
            if (sharing != 0 && logical > 1)
                edx |= 1u << 28;
        }
    }
    ecx = (ecx & ~CAP_W1_XOP) | xop;

    if (max_leaf >= 7) {
        struct regs r7 = cpuid(7, 0);
        if (!(ecx & (1u << 26)))
            r7.b &= ~CAP_W2_ADX;       /* no ADX on Knights */
        /* Skylake-X: OpenSSL avoids AVX-512F there (any vendor). */
        if ((r1.a & 0x0fff0ff0) == 0x00050650)
            r7.b &= ~CAP_W2_AVX512F;
        out[2] = r7.b;
        out[3] = r7.c;
        out[4] = r7.d;
        /* Sub-leaf 1 when leaf 7 lists it (EAX: the last sub-leaf). */
        if (r7.a >= 1) {
            const struct regs r71 = cpuid(7, 1);
            out[5] = r71.a;
            out[6] = r71.d;
            out[7] = r71.b;
            out[8] = r71.c;
            /* OpenSSL reads leaf 0x24 on the AVX10 bit alone, without
             * checking the highest leaf. */
            if (r71.d & CAP_W6_AVX10)
                out[9] = cpuid(0x24, 0).b;
        }
    }

    /*
     * Clear extensions whose register state the OS does not save, as
     * OpenSSL does: only the AVX family; the AVX10 and APX bits stay.
     */
    const unsigned int avx512_w2 = CAP_W2_AVX512VL | CAP_W2_AVX512BW |
                                   CAP_W2_AVX512IFMA | CAP_W2_AVX512F;
    unsigned int xcr0 = (ecx & CAP_W1_OSXSAVE) ? xgetbv0() & 0xe6 : 0;
    if (xcr0 != 0xe6)
        out[2] &= ~avx512_w2;
    if ((xcr0 & 6) != 6) {
        ecx &= ~(CAP_W1_AVX | CAP_W1_FMA | CAP_W1_XOP);
        out[2] &= ~CAP_W2_AVX2;
        out[5] &= ~CAP_W5_AVXIFMA;
    }
    out[0] = edx;
    out[1] = ecx;
}

__attribute__((constructor))
static void ia32cap_init(void)
{
    unsigned int detected[CASM_IA32CAP_WORDS];
    casm_ia32cap_detect(detected);
    casm_ia32cap_apply(detected, getenv("OPENSSL_ia32cap"), OPENSSL_ia32cap_P);
}
