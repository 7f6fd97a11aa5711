/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A Win32 program over the coff or win32n object of aes-586.pl (linked by
 * i686-w64-mingw32-gcc; Win32 programs cannot run here, so 81-aes586.t
 * only checks that it links and compares the object's disassembly).  It
 * calls every export once and checks the FIPS-197 C.1 example, printing
 * TAP through test/lib/tap.h like the programs that run.
 */
#include <string.h>

#include <openssl/aes.h>

#include "../lib/tap.h"

unsigned int OPENSSL_ia32cap_P[4];

int main(void)
{
    static const unsigned char key[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
    static const unsigned char want[16] = { 0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30,
                                            0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a };
    unsigned char pt[16], ct[16], back[16], iv[16] = { 0 };
    AES_KEY ek, dk;

    for (int i = 0; i < 16; i++)
        pt[i] = (unsigned char)(0x11 * i);
    tap_plan(2);
    if (!tap_ok(AES_set_encrypt_key(key, 128, &ek) == 0 && AES_set_decrypt_key(key, 128, &dk) == 0,
                "AES_set_encrypt_key and AES_set_decrypt_key take a 128-bit key"))
        return tap_done();
    AES_encrypt(pt, ct, &ek);
    AES_decrypt(ct, back, &dk);
    int ok = memcmp(ct, want, 16) == 0 && memcmp(back, pt, 16) == 0;
    AES_cbc_encrypt(pt, back, 16, &ek, iv, AES_ENCRYPT);    /* zero IV: ECB */
    ok = ok && memcmp(back, ct, 16) == 0;
    tap_ok(ok, "FIPS-197 C.1 through AES_set_*_key, AES_encrypt, AES_decrypt and AES_cbc_encrypt");
    return tap_done();
}
