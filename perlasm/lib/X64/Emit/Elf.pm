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

sub file_footer {
    # GNU_PROPERTY_X86_FEATURE_1_AND (0xc0000002) with IBT|SHSTK (3):
    # the object promises endbr64 at indirect-branch targets and a
    # shadow-stack-clean return discipline.
    return <<'EOT';
	.section	.note.GNU-stack,"",@progbits
	.section	.note.gnu.property,"a",@note
	.p2align	3
	.long	4
	.long	16
	.long	5
	.asciz	"GNU"
	.long	0xc0000002
	.long	4
	.long	3
	.p2align	3
EOT
}

1;
