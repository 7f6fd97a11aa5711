/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Prints OpenSSL's OPENSSL_ia32cap_P as four hex words, the same format as
 * test/capdump.c prints ours:
 *   xxxxxxxx xxxxxxxx xxxxxxxx xxxxxxxx
 *
 * Linked statically with the system's libcrypto.a (libssl-dev), whose
 * OPENSSL_ia32cap_P is an exported symbol there (the shared library hides
 * it).  Kept out of test/ so that it is never linked with our archive,
 * which defines the same symbol.  No OpenSSL headers: the two declarations
 * below are all it needs.
 */
#include <stdint.h>
#include <stdio.h>

/* OpenSSL 3.0: int OPENSSL_init_crypto(uint64_t, const OPENSSL_INIT_SETTINGS *) */
int OPENSSL_init_crypto(uint64_t opts, const void *settings);
extern unsigned int OPENSSL_ia32cap_P[4];

int main(void)
{
    if (OPENSSL_init_crypto(0, NULL) != 1) {
        fprintf(stderr, "ossl_capdump: OPENSSL_init_crypto failed\n");
        return 1;
    }
    printf("%08x %08x %08x %08x\n", OPENSSL_ia32cap_P[0], OPENSSL_ia32cap_P[1],
           OPENSSL_ia32cap_P[2], OPENSSL_ia32cap_P[3]);
    return 0;
}
