/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Records the instructions one AES call executes, for the 32-bit
 * benchmark (bench/x86mca.pl): the call is single-stepped under qemu-i386
 * by trace32_call (support/abi/abi_cdecl.c) and every executed address is
 * printed, in order.  Built once per implementation: with -DTRACE_C it
 * calls the C reference (aes_c_*, aes_core.c compiled -m32 -O2); with
 * -DTRACE_OPENSSL OpenSSL 3.0's own aes-586 object, its five globals
 * renamed ossl586_AES_* (bench/x86mca/x86mca.mk); otherwise our AES_*
 * names (an aes-586 object).  Linked -no-pie, so the addresses are the
 * ones objdump prints for the program.
 *
 *   trace32 BITS CBC_BYTES [PATH]
 * prints, for each path (C: "c"; aes-586: "compact", the AES_encrypt /
 * AES_decrypt code and aes586_cbc_encrypt_compact, and "full", its
 * aes586_*_full T-table functions; OpenSSL's: "compact" and "full", see
 * below), or only PATH, and each of ecb-enc
 * ecb-dec (one block call) and cbc-enc cbc-dec (one CBC call of CBC_BYTES):
 *   trace PATH MODE BITS BYTES COUNT
 *   followed by COUNT lines of hex addresses.
 */
#include "../../support/abi/abi32_typed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/aes.h>

typedef void block_fn(const unsigned char *in, unsigned char *out, const AES_KEY *key);
typedef void cbc_fn(const unsigned char *in, unsigned char *out, size_t len,
                    const AES_KEY *key, unsigned char *ivec, const int enc);
ABI32_SHAPE(block, block_fn, 3)
ABI32_SHAPE(cbc, cbc_fn, 6)

#ifdef TRACE_C
#include "aes/aes_c.h"
#define SET_ENCRYPT_KEY aes_c_set_encrypt_key
#define SET_DECRYPT_KEY aes_c_set_decrypt_key
static const struct path {
    const char *name;
    block_fn *encrypt, *decrypt;
    cbc_fn *cbc;
} paths[] = { { "c", aes_c_encrypt, aes_c_decrypt, aes_c_cbc_encrypt } };
#elif defined(TRACE_OPENSSL)
/*
 * OpenSSL's aes-586 exports no path by name: its AES_encrypt/AES_decrypt
 * always run the compact code (MMX when OPENSSL_ia32cap_P has SSE), and
 * AES_cbc_encrypt takes its full T-tables only from 512 bytes, a multiple
 * of 16, and only when word 0 bit 28 (a hyper-threading CPU sharing its
 * L1) is clear.  So the path is chosen through that bit: "compact" sets it
 * (CBC on the compact code at any length, as OpenSSL runs on an HTT
 * machine), "full" clears it (CBC on the T-tables).  OpenSSL has no
 * full-table one-block entry, so both paths' ECB is AES_encrypt/decrypt.
 */
#include "cpuid/ia32cap.h"
void ossl586_AES_encrypt(const unsigned char *in, unsigned char *out, const AES_KEY *key);
void ossl586_AES_decrypt(const unsigned char *in, unsigned char *out, const AES_KEY *key);
void ossl586_AES_cbc_encrypt(const unsigned char *in, unsigned char *out, size_t len,
                             const AES_KEY *key, unsigned char *ivec, const int enc);
int ossl586_AES_set_encrypt_key(const unsigned char *user, const int bits, AES_KEY *key);
int ossl586_AES_set_decrypt_key(const unsigned char *user, const int bits, AES_KEY *key);
#define SET_ENCRYPT_KEY ossl586_AES_set_encrypt_key
#define SET_DECRYPT_KEY ossl586_AES_set_decrypt_key
#define OSSL_HTT (1u << 28)
#define OSSL_FULL_MIN 512
static const struct path {
    const char *name;
    block_fn *encrypt, *decrypt;
    cbc_fn *cbc;
    int htt;
} paths[] = {
    { "compact", ossl586_AES_encrypt, ossl586_AES_decrypt, ossl586_AES_cbc_encrypt, 1 },
    { "full", ossl586_AES_encrypt, ossl586_AES_decrypt, ossl586_AES_cbc_encrypt, 0 },
};
#else
#include "aes/aes586.h"
#define SET_ENCRYPT_KEY AES_set_encrypt_key
#define SET_DECRYPT_KEY AES_set_decrypt_key
static const struct path {
    const char *name;
    block_fn *encrypt, *decrypt;
    cbc_fn *cbc;
} paths[] = {
    { "compact", AES_encrypt, AES_decrypt, aes586_cbc_encrypt_compact },
    { "full", aes586_encrypt_full, aes586_decrypt_full, aes586_cbc_encrypt_full },
};
#endif

#define MAX_BYTES 4096
#define MAX_TRACE 4000000

static unsigned char in[MAX_BYTES], out[MAX_BYTES], iv[16];
static uint32_t eips[MAX_TRACE];

#define PTR(p) ((uint32_t)(uintptr_t)(p))

static int trace(const char *path, const char *mode, unsigned bits, unsigned bytes,
                 struct code_handle fn, const uint32_t *args, int nargs)
{
    char err[512];
    size_t n = 0;
    if (trace32_call_fn(fn, args, nargs, eips, MAX_TRACE, &n, err, sizeof(err)) != 0) {
        fprintf(stderr, "trace32: %s: %s\n", mode, err);
        return -1;
    }
    if (n > MAX_TRACE) {
        fprintf(stderr, "trace32: %s: %zu instructions, more than %d\n", mode, n, MAX_TRACE);
        return -1;
    }
    printf("trace %s %s %u %u %zu\n", path, mode, bits, bytes, n);
    for (size_t i = 0; i < n; i++)
        printf("%08x\n", (unsigned)eips[i]);
    return 0;
}

int main(int argc, char **argv)
{
    static AES_KEY ekey, dkey;
    unsigned char key[32];
    unsigned bits, bytes;
    int rc = 0, matched = 0;

    if ((argc != 3 && argc != 4) || (bits = (unsigned)atoi(argv[1]), bits != 128 && bits != 192 && bits != 256)
        || (bytes = (unsigned)atoi(argv[2])) == 0 || bytes % 16 || bytes > MAX_BYTES) {
        fprintf(stderr, "usage: %s 128|192|256 CBC_BYTES [PATH] (CBC_BYTES a multiple "
                "of 16, at most %d)\n", argv[0], MAX_BYTES);
        return 2;
    }
    for (unsigned i = 0; i < sizeof(key); i++)
        key[i] = (unsigned char)(i * 37 + 11);
    for (unsigned i = 0; i < sizeof(in); i++)
        in[i] = (unsigned char)(i * 101 + 7);
    if (SET_ENCRYPT_KEY(key, (int)bits, &ekey) != 0 || SET_DECRYPT_KEY(key, (int)bits, &dkey) != 0) {
        fprintf(stderr, "trace32: key schedule failed\n");
        return 1;
    }
    for (size_t p = 0; p < sizeof(paths) / sizeof(paths[0]); p++) {
        const struct path *t = &paths[p];
        const uint32_t enc[3] = { PTR(in), PTR(out), PTR(&ekey) };
        const uint32_t dec[3] = { PTR(in), PTR(out), PTR(&dkey) };
        const uint32_t cbc_enc[6] = { PTR(in), PTR(out), bytes, PTR(&ekey), PTR(iv), 1 };
        const uint32_t cbc_dec[6] = { PTR(in), PTR(out), bytes, PTR(&dkey), PTR(iv), 0 };
        if (argc == 4 && strcmp(argv[3], t->name) != 0)
            continue;
        matched = 1;
#ifdef TRACE_OPENSSL
        if (!t->htt && bytes < OSSL_FULL_MIN) {
            fprintf(stderr, "trace32: OpenSSL's aes-586 runs CBC on its full tables from %d "
                    "bytes only (CBC_BYTES is %u)\n", OSSL_FULL_MIN, bytes);
            return 2;
        }
        OPENSSL_ia32cap_P[0] = t->htt ? OPENSSL_ia32cap_P[0] | OSSL_HTT : OPENSSL_ia32cap_P[0] & ~OSSL_HTT;
#endif
        rc |= trace(t->name, "ecb-enc", bits, 16, abi32_block(t->encrypt), enc, 3);
        rc |= trace(t->name, "ecb-dec", bits, 16, abi32_block(t->decrypt), dec, 3);
        rc |= trace(t->name, "cbc-enc", bits, bytes, abi32_cbc(t->cbc), cbc_enc, 6);
        rc |= trace(t->name, "cbc-dec", bits, bytes, abi32_cbc(t->cbc), cbc_dec, 6);
    }
    if (!matched) {
        fprintf(stderr, "trace32: no path \"%s\"\n", argv[3]);
        return 2;
    }
    return rc ? 1 : 0;
}
