/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target: the registry's bulk CCM64 and OCB functions and its
 * single-block functions, every implementation that has them, against
 * plain C over the C AES (aes_c.h): CCM64 block by block as include/
 * crypto/impl.h's ccm128_f describes it, OCB through the model the other
 * OCB tests use (support/lib/ocb_model.h).  fuzz_modes reaches ECB, CBC,
 * CTR, XTS and LRW through the casm_* API; this target calls the
 * registry's remaining entry points directly.
 *
 * Input:
 *   byte 0    bits 0-1 key size, bit 2 OCB (else CCM64), bit 3 decrypt,
 *             bit 4 in place, bits 5-7 buffer misalignment 0-7
 *   4 bytes   OCB: first block number (made non-zero)
 *   32 bytes  key
 *   16 bytes  CCM: counter block; OCB: offset
 *   16 bytes  CCM: CBC-MAC; OCB: checksum
 *   16 bytes  OCB: L_0 (L_k = 2·L_{k-1} in GF(2^128), as RFC 7253 makes them)
 *   the rest  data, cut to whole blocks
 * Checks: output, the updated MAC / offset and checksum, the counter block
 * left unwritten (CCM), and each single-block function on the first
 * block.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cryptoasm.h>
#include "aes/aes_c.h"
#include "impl.h"
#include "../../support/lib/ocb_model.h"

#include "fuzz_util.h"

#define NAME "fuzz_ccm_ocb"
#define L_COUNT 64      /* ntz of any size_t block number is below this */

struct job {
    int bits, ocb, enc, in_place;
    size_t offset, start, blocks;
    unsigned char key[32], iv[16], mac[16], L[L_COUNT][16];
    const unsigned char *data;
};

/* Bytes 8..15 as a 64-bit big-endian counter, plus one. */
static void ctr64_inc(unsigned char ctr[16])
{
    for (int i = 15; i >= 8 && ++ctr[i] == 0; i--)
        ;
}

/* CCM64: out = in ^ E(ctr), ctr + 1; the MAC over the plaintext block. */
static void ref_ccm64(const struct job *jb, const AES_KEY *ek,
                      unsigned char *out, unsigned char mac[16])
{
    unsigned char ctr[16], ks[16];
    memcpy(ctr, jb->iv, 16);
    for (size_t j = 0; j < jb->blocks; j++) {
        const unsigned char *in = jb->data + 16 * j;
        aes_c_encrypt(ctr, ks, ek);
        ctr64_inc(ctr);
        for (int k = 0; k < 16; k++) {
            out[16 * j + k] = in[k] ^ ks[k];
            mac[k] ^= jb->enc ? in[k] : out[16 * j + k];
        }
        aes_c_encrypt(mac, mac, ek);
    }
}

static void describe(const struct job *jb, const char *impl)
{
    fprintf(stderr, "impl \"%s\", AES-%d %s %s, %zu blocks, %s, offset %zu, "
            "first block number %zu\n", impl, jb->bits, jb->ocb ? "OCB" : "CCM64",
            jb->enc ? "encrypt" : "decrypt", jb->blocks,
            jb->in_place ? "in place" : "out of place", jb->offset, jb->start);
    fuzz_hex("key", jb->key, (size_t)jb->bits / 8);
    fuzz_hex(jb->ocb ? "offset" : "counter block", jb->iv, 16);
    fuzz_hex(jb->ocb ? "checksum" : "cmac", jb->mac, 16);
}

static void expect(const struct job *jb, const char *impl, const char *what,
                   const void *got, const void *want, size_t n)
{
    if (n == 0 || memcmp(got, want, n) == 0)
        return;
    describe(jb, impl);
    fuzz_expect_eq(NAME, what, got, want, n);
}

static void test_impl(const struct job *jb, const struct casm_aes_impl *impl,
                      const unsigned char *ref_out, const unsigned char ref_mac[16],
                      const unsigned char ref_iv[16])
{
    ccm128_f ccm = jb->enc ? impl->ccm64_enc : impl->ccm64_dec;
    ocb128_f ocb = jb->enc ? impl->ocb_enc : impl->ocb_dec;
    AES_KEY ek, dk;
    if (impl->set_encrypt_key(jb->key, jb->bits, &ek) != 0
        || impl->set_decrypt_key(jb->key, jb->bits, &dk) != 0) {
        describe(jb, impl->name);
        fuzz_fail(NAME, "set_*_key refused a %d-bit key", jb->bits);
    }

    /* The single-block functions on the first block (or the key). */
    const unsigned char *blk = jb->blocks ? jb->data : jb->key;
    unsigned char got[16], want[16];
    AES_KEY cek, cdk;
    aes_c_set_encrypt_key(jb->key, jb->bits, &cek);
    aes_c_set_decrypt_key(jb->key, jb->bits, &cdk);
    impl->encrypt(blk, got, &ek);
    aes_c_encrypt(blk, want, &cek);
    expect(jb, impl->name, "single-block encrypt (got) vs C AES (expected)", got, want, 16);
    impl->decrypt(blk, got, &dk);
    aes_c_decrypt(blk, want, &cdk);
    expect(jb, impl->name, "single-block decrypt (got) vs C AES (expected)", got, want, 16);

    if (jb->ocb ? ocb == NULL : ccm == NULL)
        return;                     /* no bulk function: block at a time */
    size_t len = 16 * jb->blocks;
    unsigned char *buf = fuzz_alloc(jb->offset + len), *out = buf + jb->offset;
    unsigned char *in_buf = NULL;
    const unsigned char *in = out;
    unsigned char iv[16], mac[16];
    if (jb->in_place) {
        memcpy(out, jb->data, len);
    } else {
        in_buf = fuzz_alloc(jb->offset + len);
        memcpy(in_buf + jb->offset, jb->data, len);
        in = in_buf + jb->offset;
    }
    memcpy(iv, jb->iv, 16);
    memcpy(mac, jb->mac, 16);
    if (jb->ocb)
        ocb(in, out, jb->blocks, jb->enc ? (const void *)&ek : (const void *)&dk,
            jb->start, iv, (const unsigned char (*)[16])jb->L, mac);
    else
        ccm(in, out, jb->blocks, &ek, iv, mac);
    expect(jb, impl->name, "output (got) vs reference (expected)", out, ref_out, len);
    expect(jb, impl->name, jb->ocb ? "checksum (got) vs reference (expected)"
                                   : "cmac (got) vs reference (expected)", mac, ref_mac, 16);
    expect(jb, impl->name, jb->ocb ? "offset (got) vs reference (expected)"
                                   : "counter block (got) vs the caller's (expected)",
           iv, ref_iv, 16);
    free(buf);
    free(in_buf);
}

/* a = 2·a in GF(2^128), OCB's doubling (big-endian, x^128 = x^7+x^2+x+1). */
static void gf_double(unsigned char r[16], const unsigned char a[16])
{
    int carry = a[0] >> 7;
    for (int i = 0; i < 15; i++)
        r[i] = (unsigned char)(a[i] << 1 | a[i + 1] >> 7);
    r[15] = (unsigned char)(a[15] << 1 ^ (carry ? 0x87 : 0));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const int key_bits[4] = { 128, 192, 256, 128 };
    struct fuzz_in in = { data, size };
    struct job jb;

    uint8_t flags = fuzz_byte(&in);
    jb.bits = key_bits[flags & 3];
    jb.ocb = flags >> 2 & 1;
    jb.enc = !(flags >> 3 & 1);
    jb.in_place = flags >> 4 & 1;
    jb.offset = flags >> 5;
    /* Block numbers start + j stay within size_t and above zero. */
    jb.start = fuzz_u32(&in) % 0xffff0000u + 1;
    fuzz_bytes(&in, jb.key, sizeof(jb.key));
    fuzz_bytes(&in, jb.iv, sizeof(jb.iv));
    fuzz_bytes(&in, jb.mac, sizeof(jb.mac));
    fuzz_bytes(&in, jb.L[0], 16);
    for (int k = 1; k < L_COUNT; k++)
        gf_double(jb.L[k], jb.L[k - 1]);
    jb.data = in.p;
    jb.blocks = in.left / 16;

    unsigned char *ref_out = fuzz_alloc(16 * jb.blocks);
    unsigned char ref_mac[16], ref_iv[16];
    AES_KEY ek, dk;
    if (aes_c_set_encrypt_key(jb.key, jb.bits, &ek) != 0
        || aes_c_set_decrypt_key(jb.key, jb.bits, &dk) != 0)
        fuzz_fail(NAME, "aes_c_set_*_key refused a %d-bit key", jb.bits);
    memcpy(ref_mac, jb.mac, 16);
    memcpy(ref_iv, jb.iv, 16);
    if (jb.ocb)
        ocb_model_bulk(jb.data, ref_out, jb.blocks, jb.enc ? &ek : &dk,
                       jb.enc ? aes_c_encrypt_block128 : aes_c_decrypt_block128, jb.enc, jb.start, ref_iv,
                       (const unsigned char (*)[16])jb.L, ref_mac);
    else
        ref_ccm64(&jb, &ek, ref_out, ref_mac);

    for (size_t i = 0; i < casm_aes_impl_count; i++) {
        const struct casm_aes_impl *impl = casm_aes_impls[i];
        if (casm_cpu_has(impl->need))
            test_impl(&jb, impl, ref_out, ref_mac, ref_iv);
    }
    free(ref_out);
    return 0;
}
