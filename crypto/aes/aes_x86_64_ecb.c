/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ECB for the table-based assembly (aes-x86_64.pl), with the same policy
 * as its AES_cbc_encrypt: the compact, cache-hardened code for short
 * buffers, the full T-tables from AES_X86_64_FULL_TABLES_FROM bytes on
 * (crypto/aes/AesPaths.pm, the one place the length is written), where
 * speed matters more and the table-timing exposure is the same as CBC's.
 */
#include <stddef.h>

#include <openssl/aes.h>

#include "aes/aes_x86_64.h"
#include "aes_paths.h"

void aes_x86_64_ecb(const unsigned char *in, unsigned char *out, size_t len,
                    const AES_KEY *key, int enc)
{
    void (*block)(const unsigned char *, unsigned char *, const AES_KEY *);

    if (len >= AES_X86_64_FULL_TABLES_FROM)
        block = enc ? aes_x86_64_encrypt_full : aes_x86_64_decrypt_full;
    else
        block = enc ? AES_encrypt : AES_decrypt;
    for (size_t i = 0; i + 16 <= len; i += 16)
        block(in + i, out + i, key);
}
