/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Calls, once each and in a fixed order, every assembly entry point that
 * chooses its own code path from OPENSSL_ia32cap_P.  In the 64-bit build:
 * aesni-x86_64's ECB, CBC decryption, CTR32, XTS and OCB (zmm, ymm or xmm
 * inside the function) and sha1-x86_64's sha1_block_data_order (SHA-NI,
 * AVX2, AVX, SSSE3 or integer).  In the -m32 build (build/m32/small):
 * aes-586's AES_encrypt, AES_decrypt and AES_cbc_encrypt (the compact
 * rounds in MMX/SSE or in integer registers; AES_cbc_encrypt takes the
 * full tables from 512 bytes whatever the CPU, the long call) and
 * sha1-586's sha1_block_data_order (SHA-NI, AVX, SSSE3 or integer);
 * aesni-x86 reads no capability bit, so it has no call here.  Each input
 * is long enough for the widest path.  The program computes nothing worth
 * checking: test/t/13-dispatch.t and test/t/87-dispatch32.t run it under a
 * debugger (test/lib/PathTrace.pm) and record which internal path each
 * call entered.
 *
 *   cpu_paths          the calls, one "ok" line each
 *   cpu_paths --list   NAME<TAB>ENTRY-SYMBOL per call, in call order
 *   cpu_paths --only NAME   that call alone (also xts_enc_vaes256: the
 *                      ymm XTS forced, VPCLMULQDQ or not; route_cbc in the
 *                      -m32 build: CBC through the public API, the key
 *                      scheduled by the registry's choice)
 *
 * The AES-NI calls are left out (one SKIP line) on a CPU without AES-NI.
 */
#include <stdio.h>
#include <string.h>

#include "cpuid/capset.h"
#include "impl.h"
#include "lib/tap.h"
#ifdef CASM_AESNI_ASM
#include "variants.h"
#endif
#ifdef CASM_AES586_ASM
#include <openssl/aes.h>
#endif
#if defined(CASM_SHA1_ASM) || defined(CASM_SHA1_586_ASM)
#include <openssl/sha.h>
#endif

/* Above every wide threshold, and leaving work for each loop: 71 blocks
 * are two 32-block zmm groups, one 4-block register and 3 xmm blocks; four
 * 16-block ymm groups, three 2-block registers and one block; eight xmm
 * groups of 8 and a tail of 7. */
enum { BLOCKS = 71 };

#if defined(CASM_AESNI_ASM) || defined(CASM_AES586_ASM) || defined(CASM_SHA1_ASM) || \
    defined(CASM_SHA1_586_ASM)
static unsigned char in[BLOCKS * 16];
#endif
#if defined(CASM_AESNI_ASM) || defined(CASM_AES586_ASM)
static const unsigned char key128[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
static unsigned char out[BLOCKS * 16], iv[16];
static AES_KEY enc_key, dec_key;
#endif
#ifdef CASM_AESNI_ASM
static unsigned char tag[16], ocb_l[64][16];

static void keys(void)
{
    aesni_set_encrypt_key(key128, 128, &enc_key);
    aesni_set_decrypt_key(key128, 128, &dec_key);
}
static void ecb_enc(void) { aesni_ecb_encrypt(in, out, sizeof(in), &enc_key, 1); }
static void ecb_dec(void) { aesni_ecb_encrypt(in, out, sizeof(in), &dec_key, 0); }
static void cbc_dec(void) { aesni_cbc_encrypt(in, out, sizeof(in), &dec_key, iv, 0); }
static void ctr32(void) { aesni_ctr32_encrypt_blocks(in, out, BLOCKS, &enc_key, iv); }
static void xts_enc(void) { aesni_xts_encrypt(in, out, sizeof(in), &enc_key, &enc_key, iv); }
static void xts_dec(void) { aesni_xts_decrypt(in, out, sizeof(in), &dec_key, &enc_key, iv); }
static void ocb_enc(void) { aesni_ocb_encrypt(in, out, BLOCKS, &enc_key, 1, iv, ocb_l, tag); }
static void ocb_dec(void) { aesni_ocb_decrypt(in, out, BLOCKS, &dec_key, 1, iv, ocb_l, tag); }
static void xts_enc_vaes256(void) { aesni_xts_encrypt_vaes256(in, out, sizeof(in), &enc_key, &enc_key, iv); }
static void xts_enc_vaes512(void) { aesni_xts_encrypt_vaes512(in, out, sizeof(in), &enc_key, &enc_key, iv); }
static void xts_dec_vaes512(void) { aesni_xts_decrypt_vaes512(in, out, sizeof(in), &dec_key, &enc_key, iv); }
#endif
#ifdef CASM_AES586_ASM
/* Below AES_cbc_encrypt's full-table threshold (512 bytes), and above it. */
enum { CBC_SHORT = 4 * 16 };

static void keys(void)
{
    AES_set_encrypt_key(key128, 128, &enc_key);
    AES_set_decrypt_key(key128, 128, &dec_key);
}
static void aes_enc(void) { AES_encrypt(in, out, &enc_key); }
static void aes_dec(void) { AES_decrypt(in, out, &dec_key); }
static void cbc_enc(void) { AES_cbc_encrypt(in, out, CBC_SHORT, &enc_key, iv, 1); }
static void cbc_dec(void) { AES_cbc_encrypt(in, out, CBC_SHORT, &dec_key, iv, 0); }
static void cbc_dec_long(void) { AES_cbc_encrypt(in, out, sizeof(in), &dec_key, iv, 0); }

/* CBC through the public API with the key scheduled by the registry's
 * choice: which module's code runs shows the registry's binding. */
static void route_cbc(void)
{
    CASM_AES_KEY k;
    casm_aes_set_key(&k, key128, 128);
    casm_aes_cbc(&k, in, out, CBC_SHORT, iv, 1);
}
#endif
#if defined(CASM_SHA1_ASM) || defined(CASM_SHA1_586_ASM)
static void sha1(void)
{
    SHA_CTX c;
    memset(&c, 0, sizeof(c));
    sha1_block_data_order(&c, in, sizeof(in) / 64);    /* whole blocks of in */
}
#endif

struct call { const char *name, *symbol; int aesni; void (*fn)(void); };

static const struct call calls[] = {
#ifdef CASM_AESNI_ASM
    { "ecb_enc", "aesni_ecb_encrypt", 1, ecb_enc },
    { "ecb_dec", "aesni_ecb_encrypt", 1, ecb_dec },
    { "cbc_dec", "aesni_cbc_encrypt", 1, cbc_dec },
    { "ctr32", "aesni_ctr32_encrypt_blocks", 1, ctr32 },
    { "xts_enc", "aesni_xts_encrypt", 1, xts_enc },
    { "xts_dec", "aesni_xts_decrypt", 1, xts_dec },
    { "ocb_enc", "aesni_ocb_encrypt", 1, ocb_enc },
    { "ocb_dec", "aesni_ocb_decrypt", 1, ocb_dec },
#endif
#ifdef CASM_AES586_ASM
    { "aes_enc", "AES_encrypt", 0, aes_enc },
    { "aes_dec", "AES_decrypt", 0, aes_dec },
    { "cbc_enc", "AES_cbc_encrypt", 0, cbc_enc },
    { "cbc_dec", "AES_cbc_encrypt", 0, cbc_dec },
    { "cbc_dec_long", "AES_cbc_encrypt", 0, cbc_dec_long },
#endif
#if defined(CASM_SHA1_ASM) || defined(CASM_SHA1_586_ASM)
    { "sha1", "sha1_block_data_order", 0, sha1 },
#endif
    { NULL, NULL, 0, NULL },
};

/* Reached by --only alone: the ymm XTS forced, whatever the CPU has
 * (VPCLMULQDQ included), the control that an emulator without it faults;
 * the zmm XTS forced, whose tweak loop the Intel bit chooses (33) though
 * the entries pass zmm over on Intel; in the -m32 build, CBC through the
 * registry's choice (route_cbc). */
static const struct call extra[] = {
#ifdef CASM_AESNI_ASM
    { "xts_enc_vaes256", "aesni_xts_encrypt_vaes256", 1, xts_enc_vaes256 },
    { "xts_enc_vaes512", "aesni_xts_encrypt_vaes512", 1, xts_enc_vaes512 },
    { "xts_dec_vaes512", "aesni_xts_decrypt_vaes512", 1, xts_dec_vaes512 },
#endif
#ifdef CASM_AES586_ASM
    { "route_cbc", "casm_aes_cbc", 0, route_cbc },
#endif
    { NULL, NULL, 0, NULL },
};

static const struct call *find(const char *name)
{
    for (const struct call *t = calls; t->name != NULL; t++)
        if (strcmp(t->name, name) == 0)
            return t;
    for (const struct call *t = extra; t->name != NULL; t++)
        if (strcmp(t->name, name) == 0)
            return t;
    return NULL;
}

static void make_call(const struct call *c, int have_aesni)
{
    if (c->aesni && !have_aesni) {
        tap_skip("this CPU has no AES-NI", "%s", c->name);
        return;
    }
    c->fn();
    tap_ok(1, "%s called", c->name);
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (const struct call *c = calls; c->name != NULL; c++)
            printf("%s\t%s\n", c->name, c->symbol);
        return 0;
    }
    const struct call *only = NULL;
    if (argc == 3 && strcmp(argv[1], "--only") == 0 && (only = find(argv[2])) == NULL) {
        fprintf(stderr, "%s: no call named %s\n", argv[0], argv[2]);
        return 2;
    }
    if (argc != 1 && only == NULL) {
        fprintf(stderr, "usage: %s [--list | --only NAME]\n", argv[0]);
        return 2;
    }
    if (calls[0].name == NULL)
        tap_skip_all("built without the assembly modules (NO_ASM=1)");
    static const unsigned int aesni[4] = CAPSET(AESNI);
    int have_aesni = casm_cpu_has(aesni);
#ifdef CASM_AESNI_ASM
    if (have_aesni)
        keys();
#elif defined(CASM_AES586_ASM)
    keys();
#endif
    if (only != NULL)
        make_call(only, have_aesni);
    else
        for (const struct call *c = calls; c->name != NULL; c++)
            make_call(c, have_aesni);
    return tap_done();
}
