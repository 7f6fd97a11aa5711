/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The planted fault of build/fuzz32/fuzz_modes_planted (test/fuzz/fuzz32.mk):
 * linked with ld's --wrap=aesni_ecb_encrypt_xmm, so the registry's call of
 * the assembly ECB (the aesni row calls the xmm variant's fixed path) lands
 * here.  The real function runs, then a call of two
 * blocks or more gets bit 0 of its second block's first byte flipped: a
 * wrong result the fuzzer must report as a mismatch (test/t/71-fuzz32.t).
 */
#include <stddef.h>

#include <openssl/aes.h>

void __real_aesni_ecb_encrypt_xmm(const unsigned char *in, unsigned char *out,
                              size_t len, const AES_KEY *key, int enc);
void __wrap_aesni_ecb_encrypt_xmm(const unsigned char *in, unsigned char *out,
                              size_t len, const AES_KEY *key, int enc);

void __wrap_aesni_ecb_encrypt_xmm(const unsigned char *in, unsigned char *out,
                              size_t len, const AES_KEY *key, int enc)
{
    __real_aesni_ecb_encrypt_xmm(in, out, len, key, enc);
    if (len >= 32)
        out[16] ^= 1;
}
