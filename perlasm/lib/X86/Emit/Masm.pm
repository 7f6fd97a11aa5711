# SPDX-License-Identifier: Apache-2.0
# MASM (ml) for Win32, OpenSSL's win32 scheme: nasm's Intel syntax (Nasm.pm)
# spelt for MASM.  As in OpenSSL's, code and constants share one segment
# aligned far enough for the 64-byte aligned tables; functions are plain
# labels (no PROC, so every label is visible to every function); endbr32
# is written as its bytes, which older ml versions do not know as a name.
# No ml here: the tests assemble it with LLVM's MASM assembler (llvm-ml).
package X86::Emit::Masm;

use strict;
use warnings;
use parent -norequire, 'X86::Emit::Nasm';
require X86::Emit::Nasm;

my $SEGMENT = '_TEXT$';

sub operand {
    my ($self, $op, $size) = @_;
    # An immediate's size comes from the other operand or the instruction.
    $size = undef if $op->{type} eq 'imm';
    my $text = $self->SUPER::operand($op, $size);
    $text =~ s/^(BYTE|WORD|DWORD|QWORD) \[/$1 PTR [/;
    return $text;
}

# MASM may read the bare names as the 16-bit forms: name the 32-bit ones.
my %RENAME = (pushf => 'pushfd', popf => 'popfd');
sub st_insn {
    my ($self, $s) = @_;
    return "\tDB\t0F3h,00Fh,01Eh,0FBh\n" if $s->{mn} eq 'endbr32';
    return $self->SUPER::st_insn({ %$s, mn => $RENAME{ $s->{mn} } // $s->{mn} });
}

sub st_align   { my ($self, $s) = @_; return "ALIGN\t$s->{n}\n" }
sub st_section { '' }    # one segment for code and constants
sub st_public  { my ($self, $s) = @_; return "PUBLIC\t" . $self->global($s->{name}) . "\n" }
sub st_safeseh { '' }

sub st_func {
    my ($self, $s) = @_;
    my $g = $self->global($s->{name});
    return ($s->{private} ? '' : "PUBLIC\t$g\n") . "ALIGN\t16\n$g:\n";
}

sub header {
    my ($self) = @_;
    my $h = ".686\n.XMM\n.MODEL\tFLAT\n";
    $h .= "EXTERN\t" . $self->global($_) . ":NEAR\n" for $self->externs;
    # PAGE (256 bytes): aligned enough for ALIGN 64, in every ml version.
    return "$h$SEGMENT\tSEGMENT PAGE 'CODE'\n";
}

sub footer { return "$SEGMENT\tENDS\nEND\n" }

# MASM objects leave a common symbol external (no COMMON written here).
sub common_symbol { undef }

1;
