/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Prints this library's OPENSSL_ia32cap_P, as computed before main from
 * CPUID and the OPENSSL_ia32cap environment variable, as four hex words:
 *   xxxxxxxx xxxxxxxx xxxxxxxx xxxxxxxx
 * test/ossl_capdump/ossl_capdump.c prints OpenSSL's the same way, and
 * test/t/30-ia32cap.t compares the two.
 *
 *   capdump            OPENSSL_ia32cap_P
 *   capdump --detect   casm_ia32cap_detect(): CPUID before the env mask
 */
#include <stdio.h>
#include <string.h>

#include "cpuid/ia32cap.h"

int main(int argc, char **argv)
{
    unsigned int w[4];

    if (argc > 2 || (argc == 2 && strcmp(argv[1], "--detect") != 0)) {
        fprintf(stderr, "usage: %s [--detect]\n", argv[0]);
        return 2;
    }
    if (argc == 2)
        casm_ia32cap_detect(w);
    else
        memcpy(w, OPENSSL_ia32cap_P, sizeof(w));
    printf("%08x %08x %08x %08x\n", w[0], w[1], w[2], w[3]);
    return 0;
}
