/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The entry points of crypto/aes/asm/aesni-x86.pl (the -m32 build): OpenSSL's
 * aesni_* names with the prototypes include/crypto/aes_platform.h gives them
 * on both x86 and x86_64, so the shapes are those of aesni_x86_64.h.  The
 * 32-bit module has no VAES widths: only the plain names are defined.
 */
#ifndef CRYPTO_AES_AESNI_X86_H
#define CRYPTO_AES_AESNI_X86_H

#include "aes/aesni_x86_64.h"

#endif
