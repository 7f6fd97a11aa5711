# SPDX-License-Identifier: Apache-2.0
# Win64 with GNU as (mingw-w64).  AT&T syntax like ELF; read-only data in
# .rdata; unwind information arrives as .pdata/.xdata data built by
# X64::Win64Unwind, the same tables the nasm flavour emits.
package X64::Emit::Mingw64;

use strict;
use warnings;
use parent -norequire, 'X64::Emit::Gas';
require X64::Emit::Gas;

sub win64 { 1 }
sub has_cfi { 0 }

sub section_name {
    my ($self, $kind) = @_;
    return ".section\t.rdata,\"dr\"" if $kind eq 'rodata';
    return ".section\t.pdata,\"dr\"" if $kind eq 'pdata';
    return ".section\t.xdata,\"dr\"" if $kind eq 'xdata';
    return ".section\t.ctors" if $kind eq 'init';       # what mingw's start-up runs
    return $self->SUPER::section_name($kind);
}

sub hidden { '' }
sub function_type { '' }
sub object_type { '' }
sub size { '' }
sub cfi { '' }
sub endbr { return "\tendbr64\n" }

1;
