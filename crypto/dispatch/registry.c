/*
 * The implementations this build contains, fastest first.  Assembly
 * modules add their entries here as they land.
 */
#include <string.h>

#include "impl.h"
#include "cpuid/ia32cap.h"

/*
 * The C AES core.  It is the only AES implementation so far, so the
 * dispatcher picks it under any mask; its force mask clears AES-NI, SSSE3
 * and PCLMULQDQ (and all of words 2-3), which also puts OpenSSL on its
 * table-based path for a like-for-like comparison.  When the table
 * assembly lands, it takes this mask and the C core becomes reachable by
 * direct calls only (force_mask NULL).
 */
static const struct casm_aes_impl aes_c = {
    .name = "c",
    .need = { 0, 0, 0, 0 },
    .need_name = "nothing",
    .force_mask = "~0x200020200000000:~0",
    .set_encrypt_key = AES_set_encrypt_key,
    .set_decrypt_key = AES_set_decrypt_key,
    .encrypt = (block128_f)AES_encrypt,
    .decrypt = (block128_f)AES_decrypt,
    .ecb = NULL,
    .cbc = (cbc128_f)AES_cbc_encrypt,
    .ctr32 = NULL,
};

const struct casm_aes_impl *const casm_aes_impls[] = { &aes_c };
const size_t casm_aes_impl_count =
    sizeof(casm_aes_impls) / sizeof(casm_aes_impls[0]);

/* C SHA-1; the mask clears SSSE3 and words 2-3 (SHA-NI, AVX2), which is
 * OpenSSL's integer-only path. */
static const struct casm_sha1_impl sha1_c = {
    .name = "c",
    .need = { 0, 0, 0, 0 },
    .need_name = "nothing",
    .force_mask = "~0x20000000000:~0",
    .block = sha1_block_data_order_c,
};

const struct casm_sha1_impl *const casm_sha1_impls[] = { &sha1_c };
const size_t casm_sha1_impl_count =
    sizeof(casm_sha1_impls) / sizeof(casm_sha1_impls[0]);

int casm_cpu_has(const unsigned int need[4])
{
    for (int i = 0; i < 4; i++)
        if ((OPENSSL_ia32cap_P[i] & need[i]) != need[i])
            return 0;
    return 1;
}

const struct casm_aes_impl *casm_aes_impl_by_name(const char *name)
{
    for (size_t i = 0; i < casm_aes_impl_count; i++)
        if (strcmp(casm_aes_impls[i]->name, name) == 0)
            return casm_aes_impls[i];
    return NULL;
}

const struct casm_sha1_impl *casm_sha1_impl_by_name(const char *name)
{
    for (size_t i = 0; i < casm_sha1_impl_count; i++)
        if (strcmp(casm_sha1_impls[i]->name, name) == 0)
            return casm_sha1_impls[i];
    return NULL;
}

/* The last entry of each table needs nothing, so these never fail. */
const struct casm_aes_impl *casm_aes_best(void)
{
    size_t i = 0;
    while (!casm_cpu_has(casm_aes_impls[i]->need))
        i++;
    return casm_aes_impls[i];
}

const struct casm_sha1_impl *casm_sha1_best(void)
{
    size_t i = 0;
    while (!casm_cpu_has(casm_sha1_impls[i]->need))
        i++;
    return casm_sha1_impls[i];
}
