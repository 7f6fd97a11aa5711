/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Whether the CPU, as OPENSSL_ia32cap_P describes it (after the
 * environment mask), has a set of capabilities.  Apart from the detection
 * (ia32cap_detect.c, which defines the words), so a program that defines
 * them itself can still link the registry.
 */
#include "cpuid/ia32cap.h"

int casm_cpu_has(const unsigned int need[4])
{
    for (int i = 0; i < 4; i++)
        if ((OPENSSL_ia32cap_P[i] & need[i]) != need[i])
            return 0;
    return 1;
}
