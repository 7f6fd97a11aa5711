# SPDX-License-Identifier: Apache-2.0
# ELF (Linux, BSD): GNU as, with the CET property note and a
# non-executable stack note in every object.
package X64::Emit::Elf;

use strict;
use warnings;
use parent -norequire, 'X64::Emit::Gas';
require X64::Emit::Gas;

# ELF's .init is code: the calls run in sequence at start-up.
sub init_entry { my ($self, $st) = @_; return $self->insn($st) }

# ELF64 notes are 8-byte aligned (ELF32's, for x32, 4: Elf32.pm).
sub note_align { 8 }

sub file_footer {
    my ($self) = @_;
    my $align = $self->note_align;
    my $log2 = $align == 8 ? 3 : 2;
    # The property: type, size, the 4-byte value, padded to the alignment.
    my $desc = 12 + (-12 % $align);
    # GNU_PROPERTY_X86_FEATURE_1_AND (0xc0000002) with IBT|SHSTK (3):
    # the object promises endbr64 at indirect-branch targets and a
    # shadow-stack-clean return discipline.
    return <<"EOT";
	.section	.note.GNU-stack,"",\@progbits
	.section	.note.gnu.property,"a",\@note
	.p2align	$log2
	.long	4
	.long	$desc
	.long	5
	.asciz	"GNU"
	.long	0xc0000002
	.long	4
	.long	3
	.p2align	$log2
EOT
}

1;
