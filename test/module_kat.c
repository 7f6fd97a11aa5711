/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One known answer through the public entry points of the modules of a
 * build the library does not make, linked with their objects alone and
 * test/lib/tap.c: SHA-1 "abc" (FIPS 180) through sha1_block_data_order and
 * AES-128 (FIPS 197 appendix C.1) through AES_set_encrypt_key/AES_encrypt
 * and AES_set_decrypt_key/AES_decrypt, and, with -DWITH_AESNI, aesni_set_encrypt_key/aesni_encrypt (run only
 * where the CPU has AES-NI).  Every such build is ILP32:
 *   x32 (gcc -mx32): the three x86_64 modules in the elf32 flavour
 *     (test/t/60-xlate.t);
 *   i386 (gcc -m32): sha1-586 and aes-586 without -DOPENSSL_IA32_SSE2
 *     (test/t/86-sha1-586.t); the three 32-bit modules' a.out output
 *     retargeted to ELF (test/t/80-x86asm.t).
 * OPENSSL_ia32cap_P is all zero: the dispatchers take their baseline paths.
 */
#include <stdint.h>
#include <string.h>
#include "lib/tap.h"

unsigned int OPENSSL_ia32cap_P[4];

typedef struct { uint32_t rd_key[60]; int rounds; } aes_key;
void sha1_block_data_order(uint32_t *h, const void *in, size_t blocks);
int AES_set_encrypt_key(const unsigned char *key, int bits, aes_key *ks);
void AES_encrypt(const unsigned char *in, unsigned char *out, const aes_key *ks);
int AES_set_decrypt_key(const unsigned char *key, int bits, aes_key *ks);
void AES_decrypt(const unsigned char *in, unsigned char *out, const aes_key *ks);
#ifdef WITH_AESNI
int aesni_set_encrypt_key(const unsigned char *key, int bits, aes_key *ks);
void aesni_encrypt(const unsigned char *in, unsigned char *out, const aes_key *ks);
#endif

static const unsigned char KEY[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
static const unsigned char PT[16] = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                                      0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff };
static const unsigned char CT[16] = { 0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30,
                                      0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a };

int main(void)
{
    tap_ok(sizeof(void *) == 4 && sizeof(long) == 4, "an ILP32 program (4-byte pointers and long)");

    /* "abc", padded to one block: 0x80, zeros, the bit length 24. */
    unsigned char block[64] = { 'a', 'b', 'c', 0x80 };
    block[63] = 24;
    uint32_t h[5] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0 };
    static const uint32_t want[5] = { 0xa9993e36, 0x4706816a, 0xba3e2571, 0x7850c26c, 0x9cd0d89d };
    sha1_block_data_order(h, block, 1);
    tap_ok(memcmp(h, want, sizeof want) == 0, "sha1_block_data_order: SHA-1(\"abc\")");

    aes_key ks;
    unsigned char out[16];
    AES_set_encrypt_key(KEY, 128, &ks);
    AES_encrypt(PT, out, &ks);
    tap_ok(memcmp(out, CT, 16) == 0, "AES_encrypt: AES-128 FIPS 197 C.1");
    AES_set_decrypt_key(KEY, 128, &ks);
    AES_decrypt(CT, out, &ks);
    tap_ok(memcmp(out, PT, 16) == 0, "AES_decrypt: AES-128 FIPS 197 C.1");

#ifdef WITH_AESNI
    if (!__builtin_cpu_supports("aes")) {
        tap_skip("this CPU has no AES-NI", "aesni_encrypt: AES-128 FIPS 197 C.1");
    } else {
        memset(out, 0, sizeof out);
        aesni_set_encrypt_key(KEY, 128, &ks);
        aesni_encrypt(PT, out, &ks);
        tap_ok(memcmp(out, CT, 16) == 0, "aesni_encrypt: AES-128 FIPS 197 C.1");
    }
#endif
    return tap_done();
}
