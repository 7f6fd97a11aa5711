/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The XTS and CCM loops of each path of crypto/aes/asm/aes-x86_64.pl
 * (AesX86_64/Modes.pm), which aes_x86_64_xts_ccm.c wraps.  The module's
 * other hidden entry points (the full T-table paths, aes_x86_64_ecb and
 * XTS and CCM over both paths: the registry's rows) are declared in the
 * generated variants.h, from aes-x86_64.dispatch; its OpenSSL AES_* names
 * in <openssl/aes.h>.
 */
#ifndef CRYPTO_AES_AES_X86_64_H
#define CRYPTO_AES_AES_X86_64_H

#include <stddef.h>

#include "variants.h"

/* One path's XTS whole blocks, an xts128_blocks_f, and CCM64, a ccm128_f. */
#define AES_X86_64_MODE_LOOPS(path) \
    void aes_x86_64_xts_enc_##path(const unsigned char *in, unsigned char *out, \
                                   size_t blocks, const void *key, \
                                   unsigned char tweak[16]); \
    void aes_x86_64_xts_dec_##path(const unsigned char *in, unsigned char *out, \
                                   size_t blocks, const void *key, \
                                   unsigned char tweak[16]); \
    void aes_x86_64_ccm64_enc_##path(const unsigned char *in, unsigned char *out, \
                                     size_t blocks, const void *key, \
                                     const unsigned char ivec[16], \
                                     unsigned char cmac[16]); \
    void aes_x86_64_ccm64_dec_##path(const unsigned char *in, unsigned char *out, \
                                     size_t blocks, const void *key, \
                                     const unsigned char ivec[16], \
                                     unsigned char cmac[16]);
AES_X86_64_MODE_LOOPS(full)
AES_X86_64_MODE_LOOPS(compact)
#undef AES_X86_64_MODE_LOOPS

#endif
