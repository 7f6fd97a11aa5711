/* SPDX-License-Identifier: Apache-2.0 */
/*
 * XTS and CCM for the table-based assembly (aes-x86_64.pl), with the
 * policy of its AES_cbc_encrypt and the ECB glue: the compact,
 * cache-hardened code for short messages, the full T-tables from
 * AES_X86_64_FULL_TABLES_FROM bytes on (crypto/aes/AesPaths.pm).  The
 * whole blocks run in the module's mode loops (aes-x86_64/modes.pl); the
 * tweak's first encryption and XTS's ciphertext stealing are
 * crypto/modes/xts128.c's.
 */
#include <stddef.h>

#include <openssl/aes.h>

#include "aes/aes_x86_64.h"
#include "aes_paths.h"
#include "modes/block_util.h"
#include "modes/xts128_blocks.h"

BLOCK128_OF(AES_encrypt)
BLOCK128_OF(AES_decrypt)
BLOCK128_OF(aes_x86_64_encrypt_full)
BLOCK128_OF(aes_x86_64_decrypt_full)

static void xts(const unsigned char *in, unsigned char *out, size_t len,
                const void *key1, const void *key2, const unsigned char iv[16],
                int enc, int full)
{
    XTS128_CONTEXT ctx = {
        .key1 = (void *)key1,
        .key2 = (void *)key2,
        .block1 = full ? (enc ? aes_x86_64_encrypt_full_block128
                              : aes_x86_64_decrypt_full_block128)
                       : (enc ? AES_encrypt_block128 : AES_decrypt_block128),
        .block2 = full ? aes_x86_64_encrypt_full_block128 : AES_encrypt_block128,
    };
    xts128_blocks_f blocks = full ? (enc ? aes_x86_64_xts_enc_full : aes_x86_64_xts_dec_full)
                                  : (enc ? aes_x86_64_xts_enc_compact : aes_x86_64_xts_dec_compact);
    xts128_encrypt_with(&ctx, iv, in, out, len, enc, blocks);
}

void aes_x86_64_xts_encrypt(const unsigned char *in, unsigned char *out,
                            size_t len, const void *key1, const void *key2,
                            const unsigned char iv[16])
{
    xts(in, out, len, key1, key2, iv, 1, len >= AES_X86_64_FULL_TABLES_FROM);
}

void aes_x86_64_xts_decrypt(const unsigned char *in, unsigned char *out,
                            size_t len, const void *key1, const void *key2,
                            const unsigned char iv[16])
{
    xts(in, out, len, key1, key2, iv, 0, len >= AES_X86_64_FULL_TABLES_FROM);
}

void aes_x86_64_xts_encrypt_full(const unsigned char *in, unsigned char *out,
                                 size_t len, const void *key1,
                                 const void *key2, const unsigned char iv[16])
{
    xts(in, out, len, key1, key2, iv, 1, 1);
}

void aes_x86_64_xts_decrypt_full(const unsigned char *in, unsigned char *out,
                                 size_t len, const void *key1,
                                 const void *key2, const unsigned char iv[16])
{
    xts(in, out, len, key1, key2, iv, 0, 1);
}

void aes_x86_64_ccm64_encrypt_blocks(const unsigned char *in,
                                     unsigned char *out, size_t blocks,
                                     const void *key,
                                     const unsigned char ivec[16],
                                     unsigned char cmac[16])
{
    if (blocks >= AES_X86_64_FULL_TABLES_FROM / 16)
        aes_x86_64_ccm64_enc_full(in, out, blocks, key, ivec, cmac);
    else
        aes_x86_64_ccm64_enc_compact(in, out, blocks, key, ivec, cmac);
}

void aes_x86_64_ccm64_decrypt_blocks(const unsigned char *in,
                                     unsigned char *out, size_t blocks,
                                     const void *key,
                                     const unsigned char ivec[16],
                                     unsigned char cmac[16])
{
    if (blocks >= AES_X86_64_FULL_TABLES_FROM / 16)
        aes_x86_64_ccm64_dec_full(in, out, blocks, key, ivec, cmac);
    else
        aes_x86_64_ccm64_dec_compact(in, out, blocks, key, ivec, cmac);
}
