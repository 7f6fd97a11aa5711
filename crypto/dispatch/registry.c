/*
 * The implementations this build contains, fastest first.  Assembly
 * modules add their entries here as they land.
 */
#include <string.h>

#include "impl.h"
#include "aes/aes_c.h"
#include "cpuid/ia32cap.h"

/*
 * The C AES core (aes_c_*): with the table assembly built it is reached by
 * direct calls only; without it, it is the dispatcher's last resort, and
 * its mask clears AES-NI, SSSE3 and PCLMULQDQ (":~0" keeps words 2-3 as
 * detected), which also puts OpenSSL on its table-based path.
 */
#if defined(CASM_AES_ASM) || defined(CASM_AES586_ASM)
#define AES_C_MASK NULL                     /* the assembly always wins */
#else
#define AES_C_MASK "~0x200020200000000:~0"
#endif
static const struct casm_aes_impl aes_c = {
    .name = "c",
    .need = { 0, 0, 0, 0 },
    .need_name = "nothing",
    .force_mask = AES_C_MASK,
    .set_encrypt_key = aes_c_set_encrypt_key,
    .set_decrypt_key = aes_c_set_decrypt_key,
    .encrypt = (block128_f)aes_c_encrypt,
    .decrypt = (block128_f)aes_c_decrypt,
    .ecb = NULL,
    .cbc = (cbc128_f)aes_c_cbc_encrypt,
    .ctr32 = NULL,
};

#ifdef CASM_AESNI_ASM
/* AES-NI (crypto/aes/asm/aesni-x86_64.pl): OpenSSL's default path too. */
int aesni_set_encrypt_key(const unsigned char *key, int bits, AES_KEY *k);
int aesni_set_decrypt_key(const unsigned char *key, int bits, AES_KEY *k);
void aesni_encrypt(const unsigned char *in, unsigned char *out, const AES_KEY *k);
void aesni_decrypt(const unsigned char *in, unsigned char *out, const AES_KEY *k);
void aesni_ecb_encrypt(const unsigned char *in, unsigned char *out, size_t len,
                       const AES_KEY *k, int enc);
void aesni_cbc_encrypt(const unsigned char *in, unsigned char *out, size_t len,
                       const AES_KEY *k, unsigned char *ivec, int enc);
void aesni_ctr32_encrypt_blocks(const unsigned char *in, unsigned char *out,
                                size_t blocks, const void *k,
                                const unsigned char ivec[16]);
void aesni_xts_encrypt(const unsigned char *in, unsigned char *out, size_t len,
                       const void *key1, const void *key2,
                       const unsigned char iv[16]);
void aesni_xts_decrypt(const unsigned char *in, unsigned char *out, size_t len,
                       const void *key1, const void *key2,
                       const unsigned char iv[16]);
void aesni_ccm64_encrypt_blocks(const unsigned char *in, unsigned char *out,
                                size_t blocks, const void *key,
                                const unsigned char ivec[16],
                                unsigned char cmac[16]);
void aesni_ccm64_decrypt_blocks(const unsigned char *in, unsigned char *out,
                                size_t blocks, const void *key,
                                const unsigned char ivec[16],
                                unsigned char cmac[16]);
void aesni_ocb_encrypt(const unsigned char *in, unsigned char *out,
                       size_t blocks, const void *key, size_t start_block_num,
                       unsigned char offset_i[16], const unsigned char L_[][16],
                       unsigned char checksum[16]);
void aesni_ocb_decrypt(const unsigned char *in, unsigned char *out,
                       size_t blocks, const void *key, size_t start_block_num,
                       unsigned char offset_i[16], const unsigned char L_[][16],
                       unsigned char checksum[16]);

static const struct casm_aes_impl aes_aesni = {
    .name = "aesni",
    .need = { 0, CAP_W1_AESNI, 0, 0 },
    .need_name = "AES-NI",
    .force_mask = ":~0x20000000000",
    .set_encrypt_key = aesni_set_encrypt_key,
    .set_decrypt_key = aesni_set_decrypt_key,
    .encrypt = (block128_f)aesni_encrypt,
    .decrypt = (block128_f)aesni_decrypt,
    .ecb = (ecb128_f)aesni_ecb_encrypt,
    .cbc = (cbc128_f)aesni_cbc_encrypt,
    .ctr32 = aesni_ctr32_encrypt_blocks,
    .xts_enc = aesni_xts_encrypt,
    .xts_dec = aesni_xts_decrypt,
    .ccm64_enc = aesni_ccm64_encrypt_blocks,
    .ccm64_dec = aesni_ccm64_decrypt_blocks,
    .ocb_enc = aesni_ocb_encrypt,
    .ocb_dec = aesni_ocb_decrypt,
};
/*
 * The VAES widths of aesni_ecb_encrypt, aesni_cbc_encrypt (decryption),
 * aesni_ctr32_encrypt_blocks and aesni_xts_encrypt/decrypt, reached directly; the other functions
 * (CCM's serial chain has no wide form) are the AES-NI ones.  "aesni" is then forced by clearing VAES (word 3 bit 9),
 * the ymm width by clearing AVX512F (word 2 bit 16).
 */
void aesni_ecb_encrypt_vaes512(const unsigned char *in, unsigned char *out,
                               size_t len, const AES_KEY *k, int enc);
void aesni_cbc_encrypt_vaes512(const unsigned char *in, unsigned char *out,
                               size_t len, const AES_KEY *k,
                               unsigned char *ivec, int enc);
void aesni_ctr32_encrypt_blocks_vaes512(const unsigned char *in,
                                        unsigned char *out, size_t blocks,
                                        const void *k,
                                        const unsigned char ivec[16]);
void aesni_xts_encrypt_vaes512(const unsigned char *in, unsigned char *out,
                              size_t len, const void *key1, const void *key2,
                              const unsigned char iv[16]);
void aesni_xts_decrypt_vaes512(const unsigned char *in, unsigned char *out,
                              size_t len, const void *key1, const void *key2,
                              const unsigned char iv[16]);
void aesni_ecb_encrypt_vaes256(const unsigned char *in, unsigned char *out,
                               size_t len, const AES_KEY *k, int enc);
void aesni_cbc_encrypt_vaes256(const unsigned char *in, unsigned char *out,
                               size_t len, const AES_KEY *k,
                               unsigned char *ivec, int enc);
void aesni_ctr32_encrypt_blocks_vaes256(const unsigned char *in,
                                        unsigned char *out, size_t blocks,
                                        const void *k,
                                        const unsigned char ivec[16]);
void aesni_xts_encrypt_vaes256(const unsigned char *in, unsigned char *out,
                              size_t len, const void *key1, const void *key2,
                              const unsigned char iv[16]);
void aesni_xts_decrypt_vaes256(const unsigned char *in, unsigned char *out,
                              size_t len, const void *key1, const void *key2,
                              const unsigned char iv[16]);
/* OCB has a ymm width only (aesni-x86_64/ocb.pl). */
void aesni_ocb_encrypt_vaes256(const unsigned char *in, unsigned char *out,
                               size_t blocks, const void *key,
                               size_t start_block_num, unsigned char offset_i[16],
                               const unsigned char L_[][16],
                               unsigned char checksum[16]);
void aesni_ocb_decrypt_vaes256(const unsigned char *in, unsigned char *out,
                               size_t blocks, const void *key,
                               size_t start_block_num, unsigned char offset_i[16],
                               const unsigned char L_[][16],
                               unsigned char checksum[16]);

static const struct casm_aes_impl aes_aesni_vaes512 = {
    .name = "aesni_vaes512",
    .need = { 0, CAP_W1_AESNI,
              CAP_W2_AVX512F | CAP_W2_AVX512BW | CAP_W2_AVX512VL,
              CAP_W3_VAES | CAP_W3_VPCLMULQDQ },
    .need_name = "AES-NI, AVX-512 F/BW/VL, VAES and VPCLMULQDQ",
    .force_mask = NULL,
    .set_encrypt_key = aesni_set_encrypt_key,
    .set_decrypt_key = aesni_set_decrypt_key,
    .encrypt = (block128_f)aesni_encrypt,
    .decrypt = (block128_f)aesni_decrypt,
    .ecb = (ecb128_f)aesni_ecb_encrypt_vaes512,
    .cbc = (cbc128_f)aesni_cbc_encrypt_vaes512,
    .ctr32 = aesni_ctr32_encrypt_blocks_vaes512,
    .xts_enc = aesni_xts_encrypt_vaes512,
    .xts_dec = aesni_xts_decrypt_vaes512,
    .ccm64_enc = aesni_ccm64_encrypt_blocks,
    .ccm64_dec = aesni_ccm64_decrypt_blocks,
};
static const struct casm_aes_impl aes_aesni_vaes256 = {
    .name = "aesni_vaes256",
    .need = { 0, CAP_W1_AESNI, CAP_W2_AVX2, CAP_W3_VAES | CAP_W3_VPCLMULQDQ },
    .need_name = "AES-NI, AVX2, VAES and VPCLMULQDQ",
    .force_mask = ":~0x10000",
    .set_encrypt_key = aesni_set_encrypt_key,
    .set_decrypt_key = aesni_set_decrypt_key,
    .encrypt = (block128_f)aesni_encrypt,
    .decrypt = (block128_f)aesni_decrypt,
    .ecb = (ecb128_f)aesni_ecb_encrypt_vaes256,
    .cbc = (cbc128_f)aesni_cbc_encrypt_vaes256,
    .ctr32 = aesni_ctr32_encrypt_blocks_vaes256,
    .xts_enc = aesni_xts_encrypt_vaes256,
    .xts_dec = aesni_xts_decrypt_vaes256,
    .ccm64_enc = aesni_ccm64_encrypt_blocks,
    .ccm64_dec = aesni_ccm64_decrypt_blocks,
    .ocb_enc = aesni_ocb_encrypt_vaes256,
    .ocb_dec = aesni_ocb_decrypt_vaes256,
};
#define AESNI_IMPLS &aes_aesni_vaes512, &aes_aesni_vaes256, &aes_aesni,
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
void aes_x86_64_encrypt_full(const unsigned char *in, unsigned char *out,
                             const AES_KEY *k);
void aes_x86_64_decrypt_full(const unsigned char *in, unsigned char *out,
                             const AES_KEY *k);
void aes_x86_64_cbc_encrypt_full(const unsigned char *in, unsigned char *out,
                                 size_t len, const AES_KEY *k,
                                 unsigned char *ivec, int enc);
void aes_x86_64_ecb(const unsigned char *in, unsigned char *out, size_t len,
                    const void *key, int enc);

static const struct casm_aes_impl aes_x86_64 = {
    .name = "x86_64",
    .need = { 0, 0, 0, 0 },
    .need_name = "nothing",
    .force_mask = "~0x200020200000000:~0",
    .set_encrypt_key = AES_set_encrypt_key,
    .set_decrypt_key = AES_set_decrypt_key,
    .encrypt = (block128_f)AES_encrypt,
    .decrypt = (block128_f)AES_decrypt,
    .ecb = aes_x86_64_ecb,
    .cbc = (cbc128_f)AES_cbc_encrypt,
};
static const struct casm_aes_impl aes_x86_64_full = {
    .name = "x86_64_full",
    .need = { 0, 0, 0, 0 },
    .need_name = "nothing",
    .force_mask = NULL,
    .set_encrypt_key = AES_set_encrypt_key,
    .set_decrypt_key = AES_set_decrypt_key,
    .encrypt = (block128_f)aes_x86_64_encrypt_full,
    .decrypt = (block128_f)aes_x86_64_decrypt_full,
    .cbc = (cbc128_f)aes_x86_64_cbc_encrypt_full,
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

static const struct casm_aes_impl aes_x86 = {
    .name = "x86",
    .need = { 0, 0, 0, 0 },
    .need_name = "nothing",
    .force_mask = "~0x200020200000000:~0",
    .set_encrypt_key = AES_set_encrypt_key,
    .set_decrypt_key = AES_set_decrypt_key,
    .encrypt = (block128_f)AES_encrypt,
    .decrypt = (block128_f)AES_decrypt,
    .cbc = (cbc128_f)AES_cbc_encrypt,
};
static const struct casm_aes_impl aes_x86_full = {
    .name = "x86_full",
    .need = { 0, 0, 0, 0 },
    .need_name = "nothing",
    .force_mask = NULL,
    .set_encrypt_key = AES_set_encrypt_key,
    .set_decrypt_key = AES_set_decrypt_key,
    .encrypt = (block128_f)aes586_encrypt_full,
    .decrypt = (block128_f)aes586_decrypt_full,
    .cbc = (cbc128_f)aes586_cbc_encrypt_full,
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

#ifdef CASM_SHA1_ASM
/*
 * SHA-1 assembly (crypto/sha/asm/sha1-x86_64.pl), in the order its own
 * dispatcher, sha1_block_data_order, tries them.  Each force mask also
 * puts OpenSSL 3.0 on its equivalent path: SHA-NI needs no mask (it is
 * the default here); ":~0x20000000" clears SHA; ":~0x20000020" also
 * AVX2; "~0x1000000000000000:..." also AVX; "~0x20000000000:~0" clears
 * SSSE3, which every SIMD variant needs (here as in OpenSSL), leaving the
 * integer code.  (":~0" clears nothing: it keeps words 2-3 as detected.)
 */
void sha1_block_data_order_shaext(SHA_CTX *c, const void *p, size_t n);
void sha1_block_data_order_avx2(SHA_CTX *c, const void *p, size_t n);
void sha1_block_data_order_avx(SHA_CTX *c, const void *p, size_t n);
void sha1_block_data_order_ssse3(SHA_CTX *c, const void *p, size_t n);
void sha1_block_data_order_x86_64(SHA_CTX *c, const void *p, size_t n);

static const struct casm_sha1_impl sha1_shani = {
    .name = "shani",
    .need = { 0, CAP_W1_SSSE3, CAP_W2_SHA, 0 },
    .need_name = "SHA-NI and SSSE3",
    .force_mask = NULL,
    .block = sha1_block_data_order_shaext,
};
static const struct casm_sha1_impl sha1_avx2 = {
    .name = "avx2",
    .need = { 0, CAP_W1_AVX | CAP_W1_SSSE3, CAP_W2_AVX2 | CAP_W2_BMI1 | CAP_W2_BMI2, 0 },
    .need_name = "AVX2, BMI1 and BMI2",
    .force_mask = ":~0x20000000",
    .block = sha1_block_data_order_avx2,
};
static const struct casm_sha1_impl sha1_avx = {
    .name = "avx",
    .need = { 0, CAP_W1_AVX | CAP_W1_SSSE3, 0, 0 },
    .need_name = "AVX",
    .force_mask = ":~0x20000020",
    .block = sha1_block_data_order_avx,
};
static const struct casm_sha1_impl sha1_ssse3 = {
    .name = "ssse3",
    .need = { 0, CAP_W1_SSSE3, 0, 0 },
    .need_name = "SSSE3",
    .force_mask = "~0x1000000000000000:~0x20000020",
    .block = sha1_block_data_order_ssse3,
};
static const struct casm_sha1_impl sha1_x86_64 = {
    .name = "x86_64",
    .need = { 0, 0, 0, 0 },
    .need_name = "nothing",
    .force_mask = "~0x20000000000:~0",
    .block = sha1_block_data_order_x86_64,
};
#define SHA1_ASM_IMPLS &sha1_shani, &sha1_avx2, &sha1_avx, &sha1_ssse3, &sha1_x86_64,
#define SHA1_C_MASK NULL       /* the assembly always wins: direct calls only */
#else
#define SHA1_ASM_IMPLS
#define SHA1_C_MASK "~0x20000000000:~0"   /* OpenSSL's integer path */
#endif

/* The C reference compression function. */
static const struct casm_sha1_impl sha1_c = {
    .name = "c",
    .need = { 0, 0, 0, 0 },
    .need_name = "nothing",
    .force_mask = SHA1_C_MASK,
    .block = sha1_block_data_order_c,
};

const struct casm_sha1_impl *const casm_sha1_impls[] = { SHA1_ASM_IMPLS &sha1_c };
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
