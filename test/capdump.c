/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Prints this library's OPENSSL_ia32cap_P, as computed before main from
 * CPUID and the OPENSSL_ia32cap environment variable, as hex words:
 *   xxxxxxxx xxxxxxxx xxxxxxxx xxxxxxxx
 * the first four (OpenSSL 3.0's array), or all ten with --all (3.5's).
 * test/ossl_capdump/ossl_capdump.c prints OpenSSL 3.0's the same way, and
 * test/t/30-ia32cap.t compares them and 3.5's.
 *
 *   capdump [--all]            OPENSSL_ia32cap_P
 *   capdump --detect [--all]   casm_ia32cap_detect(): CPUID before the env mask
 */
#include <stdio.h>
#include <string.h>

#include "cpuid/ia32cap.h"

int main(int argc, char **argv)
{
    unsigned int w[CASM_IA32CAP_WORDS];
    int detect = 0, n = 4;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--detect") == 0 && !detect) {
            detect = 1;
        } else if (strcmp(argv[i], "--all") == 0 && n == 4) {
            n = CASM_IA32CAP_WORDS;
        } else {
            fprintf(stderr, "usage: %s [--detect] [--all]\n", argv[0]);
            return 2;
        }
    }
    if (detect)
        casm_ia32cap_detect(w);
    else
        memcpy(w, OPENSSL_ia32cap_P, sizeof(w));
    for (int i = 0; i < n; i++)
        printf("%08x%c", w[i], i == n - 1 ? '\n' : ' ');
    return 0;
}
