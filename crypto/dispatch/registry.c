/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The implementations this build contains, fastest first: the assembly
 * modules' rows, generated from their dispatch declarations
 * (each module script's .dispatch file, by gen_registry_rows.pl), then
 * the C code.
 * Each entry names the capabilities it needs (CAPSET_NEED: the bits and
 * their names as text) and those a force mask must clear (CAPSET), from
 * the one capability table; the mask text is made from them.
 */
#include <stdio.h>
#include <string.h>

#include "impl.h"
#include "aes/aes_c.h"
#include "cpuid/capset.h"
#include "modes/block_util.h"
#include "registry_rows.h"

/* BLOCK128_OF (modes/block_util.h) wraps the single-block functions; the
 * bulk ones are stored as they are declared. */

/* What puts OpenSSL 3.0 on its table-based AES path. */
const unsigned int casm_openssl_table_path[4] = CAPSET(AESNI, SSSE3, PCLMULQDQ);

/*
 * The C AES core (aes_c_*): when a built assembly row needs nothing, it
 * is reached by direct calls only; else it is the dispatcher's last
 * resort, and its mask is OpenSSL's table path (words 2-3 stay as
 * detected).
 */
#ifdef CASM_AES_ASM_COVERS_ALL
#define AES_C_FORCE NULL                    /* the assembly always wins */
#else
#define AES_C_FORCE casm_openssl_table_path
#endif
static const struct casm_aes_impl aes_c = {
    .name = "c",
    CAPSET_NEED(NONE),
    .force_clear = AES_C_FORCE,
    .set_encrypt_key = aes_c_set_encrypt_key,
    .set_decrypt_key = aes_c_set_decrypt_key,
    .encrypt = aes_c_encrypt_block128,
    .decrypt = aes_c_decrypt_block128,
    .ecb = NULL,
    .cbc = aes_c_cbc_encrypt,
    .ctr32 = NULL,
};

const struct casm_aes_impl *const casm_aes_impls[] = { CASM_AES_ASM_ROWS &aes_c };
const size_t casm_aes_impl_count =
    sizeof(casm_aes_impls) / sizeof(casm_aes_impls[0]);

/* What puts OpenSSL 3.0 on its integer SHA-1 path. */
#ifdef CASM_SHA1_ASM_COVERS_ALL
#define SHA1_C_FORCE NULL      /* the assembly always wins: direct calls only */
#else
static const unsigned int sha1_integer_path[4] = CAPSET(SSSE3);
#define SHA1_C_FORCE sha1_integer_path
#endif

/* The C reference compression function. */
static const struct casm_sha1_impl sha1_c = {
    .name = "c",
    CAPSET_NEED(NONE),
    .force_clear = SHA1_C_FORCE,
    .block = sha1_block_data_order_c,
};

const struct casm_sha1_impl *const casm_sha1_impls[] = { CASM_SHA1_ASM_ROWS &sha1_c };
const size_t casm_sha1_impl_count =
    sizeof(casm_sha1_impls) / sizeof(casm_sha1_impls[0]);

/*
 * OPENSSL_ia32cap's halves cover words 0-1 and 2-3, low word first.  A
 * half that clears nothing is left out before the colon (the detected
 * words 0-1 stay) and written "~0" after it (without ":V1" words 2-3
 * would become 0).
 */
const char *casm_force_mask_text(const unsigned int *clear,
                                 char buf[CASM_FORCE_MASK_MAX])
{
    if (clear == NULL)
        return NULL;
    unsigned long long v0 = (unsigned long long)clear[1] << 32 | clear[0];
    unsigned long long v1 = (unsigned long long)clear[3] << 32 | clear[2];
    char lo[24] = "", hi[24] = "~0";
    if (v0 != 0)
        snprintf(lo, sizeof(lo), "~0x%llx", v0);
    if (v1 != 0)
        snprintf(hi, sizeof(hi), "~0x%llx", v1);
    snprintf(buf, CASM_FORCE_MASK_MAX, "%s:%s", lo, hi);
    return buf;
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

/* Whether the dispatcher takes an entry of these needs and avoid bits. */
static int takes(const unsigned int need[4], const unsigned int avoid[4])
{
    int avoids = (avoid[0] | avoid[1] | avoid[2] | avoid[3]) != 0;
    return casm_cpu_has(need) && !(avoids && casm_cpu_has(avoid));
}

/* The last entry of each table needs and avoids nothing, so these never
 * fail. */
const struct casm_aes_impl *casm_aes_best(void)
{
    size_t i = 0;
    while (!takes(casm_aes_impls[i]->need, casm_aes_impls[i]->avoid))
        i++;
    return casm_aes_impls[i];
}

const struct casm_sha1_impl *casm_sha1_best(void)
{
    size_t i = 0;
    while (!takes(casm_sha1_impls[i]->need, casm_sha1_impls[i]->avoid))
        i++;
    return casm_sha1_impls[i];
}
