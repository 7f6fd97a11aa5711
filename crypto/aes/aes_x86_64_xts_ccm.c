/* SPDX-License-Identifier: Apache-2.0 */
/*
 * XTS and CCM for the table-based assembly (aes-x86_64.pl), with the
 * policy of its AES_cbc_encrypt and the ECB glue: the compact,
 * cache-hardened code for short messages, the full T-tables from
 * AES_X86_64_FULL_TABLES_FROM bytes on (crypto/aes/AesPaths.pm).  The
 * whole blocks run in the module's mode loops (AesX86_64/Modes.pm); the
 * tweak's first encryption and XTS's ciphertext stealing are
 * crypto/modes/xts128.c's.
 */
#include <stddef.h>

#include <openssl/aes.h>

#include "aes/aes_x86_64.h"
#include "aes_paths.h"
#include "impl.h"
#include "modes/block_util.h"
#include "modes/xts128_blocks.h"

BLOCK128_OF(AES_encrypt)
BLOCK128_OF(AES_decrypt)
BLOCK128_OF(aes_x86_64_encrypt_full)
BLOCK128_OF(aes_x86_64_decrypt_full)

/* What XTS and CCM call on one of the module's two paths. */
struct table_path {
    block128_f encrypt, decrypt;
    xts128_blocks_f xts_enc, xts_dec;
    ccm128_f ccm64_enc, ccm64_dec;
};

static const struct table_path full_tables = {
    .encrypt = aes_x86_64_encrypt_full_block128,
    .decrypt = aes_x86_64_decrypt_full_block128,
    .xts_enc = aes_x86_64_xts_enc_full,
    .xts_dec = aes_x86_64_xts_dec_full,
    .ccm64_enc = aes_x86_64_ccm64_enc_full,
    .ccm64_dec = aes_x86_64_ccm64_dec_full,
};

static const struct table_path compact_code = {
    .encrypt = AES_encrypt_block128,
    .decrypt = AES_decrypt_block128,
    .xts_enc = aes_x86_64_xts_enc_compact,
    .xts_dec = aes_x86_64_xts_dec_compact,
    .ccm64_enc = aes_x86_64_ccm64_enc_compact,
    .ccm64_dec = aes_x86_64_ccm64_dec_compact,
};

/* Counted in whole blocks, so the byte and block thresholds must agree. */
_Static_assert(AES_X86_64_FULL_TABLES_FROM % 16 == 0,
               "AES_X86_64_FULL_TABLES_FROM is a whole number of blocks");

/*
 * The one place the path is chosen, for a message of `blocks` whole
 * blocks (a block count, so CCM's cannot overflow on the way to bytes).
 */
static const struct table_path *path_for(size_t blocks)
{
    return blocks >= AES_X86_64_FULL_TABLES_FROM / 16 ? &full_tables
                                                      : &compact_code;
}

static void xts(const unsigned char *in, unsigned char *out, size_t len,
                const void *key1, const void *key2, const unsigned char iv[16],
                int enc, const struct table_path *path)
{
    XTS128_CONTEXT ctx = {
        .key1 = (void *)key1,
        .key2 = (void *)key2,
        .block1 = enc ? path->encrypt : path->decrypt,
        .block2 = path->encrypt,
    };
    xts128_encrypt_with(&ctx, iv, in, out, len, enc,
                        enc ? path->xts_enc : path->xts_dec);
}

void aes_x86_64_xts_encrypt(const unsigned char *in, unsigned char *out,
                            size_t len, const void *key1, const void *key2,
                            const unsigned char iv[16])
{
    xts(in, out, len, key1, key2, iv, 1, path_for(len / 16));
}

void aes_x86_64_xts_decrypt(const unsigned char *in, unsigned char *out,
                            size_t len, const void *key1, const void *key2,
                            const unsigned char iv[16])
{
    xts(in, out, len, key1, key2, iv, 0, path_for(len / 16));
}

void aes_x86_64_xts_encrypt_full(const unsigned char *in, unsigned char *out,
                                 size_t len, const void *key1,
                                 const void *key2, const unsigned char iv[16])
{
    xts(in, out, len, key1, key2, iv, 1, &full_tables);
}

void aes_x86_64_xts_decrypt_full(const unsigned char *in, unsigned char *out,
                                 size_t len, const void *key1,
                                 const void *key2, const unsigned char iv[16])
{
    xts(in, out, len, key1, key2, iv, 0, &full_tables);
}

void aes_x86_64_ccm64_encrypt_blocks(const unsigned char *in,
                                     unsigned char *out, size_t blocks,
                                     const void *key,
                                     const unsigned char ivec[16],
                                     unsigned char cmac[16])
{
    path_for(blocks)->ccm64_enc(in, out, blocks, key, ivec, cmac);
}

void aes_x86_64_ccm64_decrypt_blocks(const unsigned char *in,
                                     unsigned char *out, size_t blocks,
                                     const void *key,
                                     const unsigned char ivec[16],
                                     unsigned char cmac[16])
{
    path_for(blocks)->ccm64_dec(in, out, blocks, key, ivec, cmac);
}
