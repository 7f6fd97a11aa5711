/* SPDX-License-Identifier: Apache-2.0 */
/*
 * OpenSSL's sha1_block_data_order symbol for builds without an assembly
 * SHA-1 module: the C compression function.  The assembly module, when
 * built, provides this symbol instead (with its own CPU dispatch).
 */
#include <openssl/sha.h>

#include "impl.h"

void sha1_block_data_order(SHA_CTX *c, const void *p, size_t nblocks)
{
    sha1_block_data_order_c(c, p, nblocks);
}
