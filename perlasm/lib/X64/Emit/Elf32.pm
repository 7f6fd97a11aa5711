# SPDX-License-Identifier: Apache-2.0
# x32 (Linux's ILP32 ABI on x86_64; OpenSSL's linux-x32 target and its elf32
# scheme): the text elf writes, assembled by `as --x32` into ELF32 objects.
# Only the CET property note differs: ELF32 notes are 4-byte aligned.
package X64::Emit::Elf32;

use strict;
use warnings;
use parent -norequire, 'X64::Emit::Elf';
require X64::Emit::Elf;

sub note_align { 4 }

1;
