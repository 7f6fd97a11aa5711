/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The implementations this build contains, fastest first.  Assembly
 * modules add their entries here as they land.  Each entry names the
 * capabilities it needs (CAPSET_NEED: the bits and their names as text)
 * and those a force mask must clear (CAPSET), from the one capability
 * table; the mask text is made from them.
 */
#include <stdio.h>
#include <string.h>

#include "impl.h"
#include "aes/aes_c.h"
#include "cpuid/capset.h"
#include "modes/block_util.h"

/* BLOCK128_OF (modes/block_util.h) wraps the single-block functions; the
 * bulk ones are stored as they are declared. */

/* What puts OpenSSL 3.0 on its table-based AES path. */
const unsigned int casm_openssl_table_path[4] = CAPSET(AESNI, SSSE3, PCLMULQDQ);

/*
 * The C AES core (aes_c_*): with the table assembly built it is reached by
 * direct calls only; without it, it is the dispatcher's last resort, and
 * its mask is OpenSSL's table path (words 2-3 stay as detected).
 */
#if defined(CASM_AES_ASM) || defined(CASM_AES586_ASM)
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

#if defined(CASM_AESNI_ASM) || defined(CASM_AESNIX86_ASM)
/*
 * AES-NI (crypto/aes/asm/aesni-x86_64.pl, or aesni-x86.pl in the -m32
 * build, with the same names): OpenSSL's default path too.
 */
#ifdef CASM_AESNI_ASM
#include "aes/aesni_x86_64.h"
#else
#include "aes/aesni_x86.h"
#endif
BLOCK128_OF(aesni_encrypt)
BLOCK128_OF(aesni_decrypt)

static const struct casm_aes_impl aes_aesni = {
    .name = "aesni",
    CAPSET_NEED(AESNI),
    .force_clear = (const unsigned int[4])CAPSET(VAES),
    .set_encrypt_key = aesni_set_encrypt_key,
    .set_decrypt_key = aesni_set_decrypt_key,
    .encrypt = aesni_encrypt_block128,
    .decrypt = aesni_decrypt_block128,
    .ecb = aesni_ecb_encrypt,
    .cbc = aesni_cbc_encrypt,
    .ctr32 = aesni_ctr32_encrypt_blocks,
    .xts_enc = aesni_xts_encrypt,
    .xts_dec = aesni_xts_decrypt,
    .ccm64_enc = aesni_ccm64_encrypt_blocks,
    .ccm64_dec = aesni_ccm64_decrypt_blocks,
    .ocb_enc = aesni_ocb_encrypt,
    .ocb_dec = aesni_ocb_decrypt,
};
#endif

#ifdef CASM_AESNI_ASM
/*
 * The VAES widths of aesni_ecb_encrypt, aesni_cbc_encrypt (decryption),
 * aesni_ctr32_encrypt_blocks and aesni_xts_encrypt/decrypt, reached
 * directly; the other functions (CCM's serial chain has no wide form) are
 * the AES-NI ones.  "aesni" is then forced by clearing VAES, the ymm width
 * by clearing AVX512F.
 */
static const struct casm_aes_impl aes_aesni_vaes512 = {
    .name = "aesni_vaes512",
    CAPSET_NEED(AESNI, AVX512F, AVX512BW, AVX512VL, VAES, VPCLMULQDQ),
    .force_clear = NULL,
    .set_encrypt_key = aesni_set_encrypt_key,
    .set_decrypt_key = aesni_set_decrypt_key,
    .encrypt = aesni_encrypt_block128,
    .decrypt = aesni_decrypt_block128,
    .ecb = aesni_ecb_encrypt_vaes512,
    .cbc = aesni_cbc_encrypt_vaes512,
    .ctr32 = aesni_ctr32_encrypt_blocks_vaes512,
    .xts_enc = aesni_xts_encrypt_vaes512,
    .xts_dec = aesni_xts_decrypt_vaes512,
    .ccm64_enc = aesni_ccm64_encrypt_blocks,
    .ccm64_dec = aesni_ccm64_decrypt_blocks,
};
static const struct casm_aes_impl aes_aesni_vaes256 = {
    .name = "aesni_vaes256",
    CAPSET_NEED(AESNI, AVX2, VAES, VPCLMULQDQ),
    .force_clear = (const unsigned int[4])CAPSET(AVX512F),
    .set_encrypt_key = aesni_set_encrypt_key,
    .set_decrypt_key = aesni_set_decrypt_key,
    .encrypt = aesni_encrypt_block128,
    .decrypt = aesni_decrypt_block128,
    .ecb = aesni_ecb_encrypt_vaes256,
    .cbc = aesni_cbc_encrypt_vaes256,
    .ctr32 = aesni_ctr32_encrypt_blocks_vaes256,
    .xts_enc = aesni_xts_encrypt_vaes256,
    .xts_dec = aesni_xts_decrypt_vaes256,
    .ccm64_enc = aesni_ccm64_encrypt_blocks,
    .ccm64_dec = aesni_ccm64_decrypt_blocks,
    .ocb_enc = aesni_ocb_encrypt_vaes256,
    .ocb_dec = aesni_ocb_decrypt_vaes256,
};
#define AESNI_IMPLS &aes_aesni_vaes512, &aes_aesni_vaes256, &aes_aesni,
#elif defined(CASM_AESNIX86_ASM)
#define AESNI_IMPLS &aes_aesni,          /* no VAES on 32-bit: AES-NI first */
#else
#define AESNI_IMPLS
#endif

#ifdef CASM_AES_ASM
/*
 * Table-based AES (crypto/aes/asm/aes-x86_64.pl), which provides OpenSSL's
 * AES_* names: the compact, cache-hardened path for single blocks and
 * short CBC, full T-tables for long CBC.  "x86_64_full" reaches the
 * full-table code for every call, so both paths are tested.  Its mask
 * also puts OpenSSL on its table path; the C AES is then direct-call only.
 */
#include "aes/aes_x86_64.h"
BLOCK128_OF(AES_encrypt)
BLOCK128_OF(AES_decrypt)
BLOCK128_OF(aes_x86_64_encrypt_full)
BLOCK128_OF(aes_x86_64_decrypt_full)

static const struct casm_aes_impl aes_x86_64 = {
    .name = "x86_64",
    CAPSET_NEED(NONE),
    .force_clear = casm_openssl_table_path,
    .set_encrypt_key = AES_set_encrypt_key,
    .set_decrypt_key = AES_set_decrypt_key,
    .encrypt = AES_encrypt_block128,
    .decrypt = AES_decrypt_block128,
    .ecb = aes_x86_64_ecb,
    .cbc = AES_cbc_encrypt,
    .xts_enc = aes_x86_64_xts_encrypt,
    .xts_dec = aes_x86_64_xts_decrypt,
    .ccm64_enc = aes_x86_64_ccm64_encrypt_blocks,
    .ccm64_dec = aes_x86_64_ccm64_decrypt_blocks,
};
static const struct casm_aes_impl aes_x86_64_full = {
    .name = "x86_64_full",
    CAPSET_NEED(NONE),
    .force_clear = NULL,
    .set_encrypt_key = AES_set_encrypt_key,
    .set_decrypt_key = AES_set_decrypt_key,
    .encrypt = aes_x86_64_encrypt_full_block128,
    .decrypt = aes_x86_64_decrypt_full_block128,
    .cbc = aes_x86_64_cbc_encrypt_full,
    .xts_enc = aes_x86_64_xts_encrypt_full,
    .xts_dec = aes_x86_64_xts_decrypt_full,
    .ccm64_enc = aes_x86_64_ccm64_enc_full,
    .ccm64_dec = aes_x86_64_ccm64_dec_full,
};
#define AES_TABLE_IMPLS &aes_x86_64, &aes_x86_64_full,
#else
#define AES_TABLE_IMPLS
#endif

#ifdef CASM_AES586_ASM
/*
 * Table-based AES for 32-bit x86 (crypto/aes/asm/aes-586.pl, the -m32
 * build), which provides OpenSSL's AES_* names: compact code for single
 * blocks and short CBC (MMX/SSE when the CPU has SSE), full T-tables for
 * long CBC.  "x86_full" reaches the full-table code for every call.
 */
#include "aes/aes586.h"
BLOCK128_OF(AES_encrypt)
BLOCK128_OF(AES_decrypt)
BLOCK128_OF(aes586_encrypt_full)
BLOCK128_OF(aes586_decrypt_full)

static const struct casm_aes_impl aes_x86 = {
    .name = "x86",
    CAPSET_NEED(NONE),
    .force_clear = casm_openssl_table_path,
    .set_encrypt_key = AES_set_encrypt_key,
    .set_decrypt_key = AES_set_decrypt_key,
    .encrypt = AES_encrypt_block128,
    .decrypt = AES_decrypt_block128,
    .cbc = AES_cbc_encrypt,
};
static const struct casm_aes_impl aes_x86_full = {
    .name = "x86_full",
    CAPSET_NEED(NONE),
    .force_clear = NULL,
    .set_encrypt_key = AES_set_encrypt_key,
    .set_decrypt_key = AES_set_decrypt_key,
    .encrypt = aes586_encrypt_full_block128,
    .decrypt = aes586_decrypt_full_block128,
    .cbc = aes586_cbc_encrypt_full,
};
#define AES586_IMPLS &aes_x86, &aes_x86_full,
#else
#define AES586_IMPLS
#endif

const struct casm_aes_impl *const casm_aes_impls[] = {
    AESNI_IMPLS AES_TABLE_IMPLS AES586_IMPLS &aes_c
};
const size_t casm_aes_impl_count =
    sizeof(casm_aes_impls) / sizeof(casm_aes_impls[0]);

/* What puts OpenSSL 3.0 on its integer SHA-1 path. */
static const unsigned int sha1_integer_path[4] = CAPSET(SSSE3);

#if defined(CASM_SHA1_ASM) || defined(CASM_SHA1_586_ASM)
/*
 * SHA-1 assembly: crypto/sha/asm/sha1-x86_64.pl, or sha1-586.pl in the
 * -m32 build, in the order their own dispatchers, sha1_block_data_order,
 * try them.  The SHA-NI, AVX and SSSE3 paths have the same names and
 * entries in both.  Each force mask also puts OpenSSL 3.0 on its
 * equivalent path: SHA-NI needs none (it is the default here); AVX2's
 * clears SHA; AVX's also AVX2 (which OpenSSL's and our 32-bit code do not
 * have); SSSE3's also AVX; the integer code's clears SSSE3, which every
 * SIMD path needs (here as in OpenSSL).
 */
#ifdef CASM_SHA1_ASM
#include "sha/sha1_x86_64.h"
#else
#include "sha/sha1_586.h"
#endif

static const struct casm_sha1_impl sha1_shani = {
    .name = "shani",
    CAPSET_NEED(SSSE3, SHA),
    .force_clear = NULL,
    .block = sha1_block_data_order_shaext,
};
static const struct casm_sha1_impl sha1_avx = {
    .name = "avx",
    CAPSET_NEED(AVX, SSSE3),
    .force_clear = (const unsigned int[4])CAPSET(SHA, AVX2),
    .block = sha1_block_data_order_avx,
};
static const struct casm_sha1_impl sha1_ssse3 = {
    .name = "ssse3",
    CAPSET_NEED(SSSE3),
    .force_clear = (const unsigned int[4])CAPSET(SHA, AVX2, AVX),
    .block = sha1_block_data_order_ssse3,
};
#endif

#ifdef CASM_SHA1_ASM
static const struct casm_sha1_impl sha1_avx2 = {
    .name = "avx2",
    CAPSET_NEED(AVX, SSSE3, AVX2, BMI1, BMI2),
    .force_clear = (const unsigned int[4])CAPSET(SHA),
    .block = sha1_block_data_order_avx2,
};
static const struct casm_sha1_impl sha1_x86_64 = {
    .name = "x86_64",
    CAPSET_NEED(NONE),
    .force_clear = sha1_integer_path,
    .block = sha1_block_data_order_x86_64,
};
#define SHA1_ASM_IMPLS &sha1_shani, &sha1_avx2, &sha1_avx, &sha1_ssse3, &sha1_x86_64,
#define SHA1_C_FORCE NULL      /* the assembly always wins: direct calls only */
#elif defined(CASM_SHA1_586_ASM)
static const struct casm_sha1_impl sha1_x86 = {
    .name = "x86",
    CAPSET_NEED(NONE),
    .force_clear = sha1_integer_path,
    .block = sha1_block_data_order_x86,
};
#define SHA1_ASM_IMPLS &sha1_shani, &sha1_avx, &sha1_ssse3, &sha1_x86,
#define SHA1_C_FORCE NULL      /* the assembly always wins: direct calls only */
#else
#define SHA1_ASM_IMPLS
#define SHA1_C_FORCE sha1_integer_path
#endif

/* The C reference compression function. */
static const struct casm_sha1_impl sha1_c = {
    .name = "c",
    CAPSET_NEED(NONE),
    .force_clear = SHA1_C_FORCE,
    .block = sha1_block_data_order_c,
};

const struct casm_sha1_impl *const casm_sha1_impls[] = { SHA1_ASM_IMPLS &sha1_c };
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
