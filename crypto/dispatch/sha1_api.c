/* SPDX-License-Identifier: Apache-2.0 */
/* The dispatching SHA-1 API (cryptoasm.h). */
#include "impl.h"

int casm_sha1(const void *data, size_t len, unsigned char md[20])
{
    if (md == NULL || (len && data == NULL))
        return CASM_ERR_NULL;
    casm_sha1_with(casm_sha1_best()->block, data, len, md);
    return 0;
}

const char *casm_sha1_impl(void)
{
    return casm_sha1_best()->name;
}
