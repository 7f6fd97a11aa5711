/* SPDX-License-Identifier: Apache-2.0 */
/* The dispatching SHA-1 API (cryptoasm.h): one-shot and streamed. */

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

int casm_sha1_init_with(CASM_SHA1_CTX *c, const struct casm_sha1_impl *impl)
{
    if (c == NULL || impl == NULL)
        return CASM_ERR_NULL;
    SHA1_Init(&c->sha);
    c->impl = impl;
    return 0;
}

int casm_sha1_init(CASM_SHA1_CTX *c)
{
    return casm_sha1_init_with(c, casm_sha1_best());
}

int casm_sha1_update(CASM_SHA1_CTX *c, const void *data, size_t len)
{
    if (c == NULL || (len && data == NULL))
        return CASM_ERR_NULL;
    if (c->impl == NULL)
        return CASM_ERR_STATE;
    casm_sha1_update_with(&c->sha, data, len, c->impl->block);
    return 0;
}

int casm_sha1_final(CASM_SHA1_CTX *c, unsigned char md[20])
{
    if (c == NULL || md == NULL)
        return CASM_ERR_NULL;
    if (c->impl == NULL)
        return CASM_ERR_STATE;
    /* Wipes c->sha; the context then reads as unusable until init. */
    casm_sha1_final_with(md, &c->sha, c->impl->block);
    c->impl = NULL;
    return 0;
}
