# SPDX-License-Identifier: Apache-2.0
# Where aes-x86_64's two paths meet, written once.  The compact,
# cache-hardened code serves short buffers and the full T-tables long
# ones; AES_cbc_encrypt (crypto/aes/asm/aes-x86_64.pl) and the ECB glue
# (crypto/aes/aes_x86_64_ecb.c, through build/gen/aes_paths.h written by
# crypto/aes/gen_aes_paths.pl) switch at the same length.
package AesPaths;

use strict;
use warnings;

# Bytes from which the full tables are used: OpenSSL's AES_cbc_encrypt
# switches here too (its cbc_thresh); a hardening choice, not a speed one
# (see the figures in aes-x86_64.pl's header).
our $FULL_TABLES_FROM = 512;

1;
