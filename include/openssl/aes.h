/* SPDX-License-Identifier: Apache-2.0 */
/*
 * AES block cipher: declarations compatible with OpenSSL's <openssl/aes.h>.
 *
 * The key schedule layout is OpenSSL's: 60 round-key words and the round
 * count at byte offset 240.  Each implementation family (C, table assembly,
 * AES-NI) formats rd_key its own way, so a schedule made by one family is
 * only ever used by that family.
 */
#ifndef PERLASM_X86_OPENSSL_AES_H
#define PERLASM_X86_OPENSSL_AES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AES_ENCRYPT 1
#define AES_DECRYPT 0
#define AES_MAXNR 14
#define AES_BLOCK_SIZE 16

struct aes_key_st {
    uint32_t rd_key[4 * (AES_MAXNR + 1)];
    int rounds;
};
typedef struct aes_key_st AES_KEY;

/* 0 on success, -1 if userKey or key is NULL, -2 if bits is not 128/192/256. */
int AES_set_encrypt_key(const unsigned char *userKey, const int bits,
                        AES_KEY *key);
int AES_set_decrypt_key(const unsigned char *userKey, const int bits,
                        AES_KEY *key);

void AES_encrypt(const unsigned char *in, unsigned char *out,
                 const AES_KEY *key);
void AES_decrypt(const unsigned char *in, unsigned char *out,
                 const AES_KEY *key);

/*
 * CBC; ivec is updated.  As in OpenSSL, a trailing partial block is
 * zero-padded on encryption and written as a whole block (out needs room
 * for length rounded up to 16), and on decryption a whole block is read.
 */
void AES_cbc_encrypt(const unsigned char *in, unsigned char *out,
                     size_t length, const AES_KEY *key,
                     unsigned char *ivec, const int enc);

#ifdef __cplusplus
}
#endif

#endif
