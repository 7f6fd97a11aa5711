/* aes_c_cbc_encrypt: the generic CBC mode over the C AES block functions. */
#include <openssl/modes.h>

#include "aes/aes_c.h"

void aes_c_cbc_encrypt(const unsigned char *in, unsigned char *out,
                       size_t length, const AES_KEY *key,
                       unsigned char *ivec, const int enc)
{
    if (enc)
        CRYPTO_cbc128_encrypt(in, out, length, key, ivec,
                              (block128_f)aes_c_encrypt);
    else
        CRYPTO_cbc128_decrypt(in, out, length, key, ivec,
                              (block128_f)aes_c_decrypt);
}
