# SPDX-License-Identifier: Apache-2.0
# Mach-O (macOS): clang's assembler.  Symbols get the leading underscore,
# local labels the "L" prefix, read-only data goes to __TEXT,__const and
# .hidden becomes .private_extern; ELF-only .type/.size are dropped.
package X64::Emit::MachO;

use strict;
use warnings;
use parent -norequire, 'X64::Emit::Gas';
require X64::Emit::Gas;

sub local_label { my ($self, $n) = @_; return 'L' . substr($n, 2) }
sub global_name { my ($self, $n) = @_; return "_$n" }

sub section_name {
    my ($self, $kind) = @_;
    return ".section\t__TEXT,__const" if $kind eq 'rodata';
    return ".mod_init_func" if $kind eq 'init';
    return $self->SUPER::section_name($kind);
}

sub hidden { my ($self, $n) = @_; return "\t.private_extern\t" . $self->symbol($n) . "\n" }
sub function_type { '' }
sub object_type { '' }
sub size { '' }

1;
