/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Handles (support/lib/code_handle.h) on the registry's prototype shapes
 * (crypto/impl.h), for the 64-bit and the 32-bit checkers alike: abi_cbc(f)
 * takes only a casm_aes_cbc_f and records its six arguments.
 */
#ifndef SUPPORT_ABI_ABI_SHAPES_H
#define SUPPORT_ABI_ABI_SHAPES_H

#include "impl.h"
#include "../lib/code_handle.h"

CODE_HANDLE_SHAPE(abi_sha1_block, sha1_block_f, 3)
CODE_HANDLE_SHAPE(abi_set_key, casm_aes_set_key_f, 3)
CODE_HANDLE_SHAPE(abi_block, block128_f, 3)
/* AES_encrypt's own shape (the registry holds block128_f wrappers of it). */
typedef void (*aes_block_f)(const unsigned char *in, unsigned char *out, const AES_KEY *key);
CODE_HANDLE_SHAPE(abi_aes_block, aes_block_f, 3)
CODE_HANDLE_SHAPE(abi_ecb, casm_aes_ecb_f, 5)
CODE_HANDLE_SHAPE(abi_cbc, casm_aes_cbc_f, 6)
CODE_HANDLE_SHAPE(abi_ctr32, ctr128_f, 5)
CODE_HANDLE_SHAPE(abi_xts, xts128_f, 6)
CODE_HANDLE_SHAPE(abi_ccm64, ccm128_f, 6)
CODE_HANDLE_SHAPE(abi_ocb, ocb128_f, 8)

#endif
