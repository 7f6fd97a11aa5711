# SPDX-License-Identifier: Apache-2.0
# Win64 with MASM (ml64): best effort.  There is no MASM on these machines,
# so this output is never assembled by the tests; it differs from nasm only
# in spelling (PTR sizes, segment directives, EXTERN/PUBLIC, IMAGEREL).
package X64::Emit::Masm;

use strict;
use warnings;
use parent -norequire, 'X64::Emit::Nasm';
require X64::Emit::Nasm;

my %SIZE = (1 => 'BYTE', 2 => 'WORD', 4 => 'DWORD', 8 => 'QWORD',
            16 => 'XMMWORD', 32 => 'YMMWORD', 64 => 'ZMMWORD');
sub size_keyword { my ($self, $n) = @_; return "$SIZE{$n} PTR " }

sub mem_text {
    my ($self, $op) = @_;
    my $t = $self->SUPER::mem_text($op);
    $t =~ s/^\[rel (.*)\]$/$1/;        # RIP-relative is the default
    return $t;
}

# MASM spells hexadecimal 0ABh.
sub expr {
    my ($self, $e) = @_;
    $e = $self->SUPER::expr($e);
    $e =~ s/\b0x([0-9a-fA-F]+)\b/0$1h/g;
    return $e;
}

sub file_header { return "OPTION\tDOTNAME\n" }
# ml64 picks the jump form itself (OpenSSL's masm flavour says nothing).
sub near_target { my ($self, $t) = @_; return $t }

my %SEGMENT = (
    text   => '_TEXT	SEGMENT ALIGN(64) \'CODE\'',
    data   => '_DATA	SEGMENT ALIGN(8) \'DATA\'',
    bss    => '_BSS	SEGMENT ALIGN(64) \'BSS\'',
    rodata => '.rdata	SEGMENT READONLY ALIGN(64)',
    pdata  => '.pdata	SEGMENT READONLY ALIGN(4)',
    xdata  => '.xdata	SEGMENT READONLY ALIGN(8)',
    init   => '.CRT$XCU	SEGMENT READONLY ALIGN(8)',
);
sub section {
    my ($self, $kind, $raw, $align) = @_;
    my $close = $self->{open_segment} ? "$self->{open_segment}\tENDS\n" : '';
    my $seg = $SEGMENT{$kind}
        or X64::Emit::Nasm::die_here("section $raw has no masm equivalent");
    $align = $self->input_align($kind, $align);
    $seg =~ s/ALIGN\(\d+\)/ALIGN($align)/ if defined $align;
    ($self->{open_segment}) = $seg =~ /^(\S+)/;
    return $close . "$seg\n";
}

sub p2align { my ($self, $n) = @_; return "ALIGN\t$n\n" }
sub zero { my ($self, $n) = @_; return "\tDB\t$n DUP (0)\n" }
sub asciz { my ($self, $s) = @_; return "\tDB\t$s,0\n" }
sub rva { my ($self, $e) = @_; return "\tDD\tIMAGEREL " . $self->expr($e) . "\n" }
sub global { my ($self, $n) = @_; return "PUBLIC\t" . $self->symbol($n) . "\n" }
sub extern { my ($self, $n) = @_; return "EXTERN\t" . $self->symbol($n) . ":NEAR\n" }
sub comm { my ($self, $n, $size) = @_; return "COMM\t" . $self->symbol($n) . ":BYTE:$size\n" }
sub label { my ($self, $n) = @_; return $self->symbol($n) . "::\n" }
sub endbr { return "\tDB\t0F3h,00Fh,01Eh,0FAh\n" }

sub file_footer {
    my ($self) = @_;
    my $close = $self->{open_segment} ? "$self->{open_segment}\tENDS\n" : '';
    return $close . "END\n";
}

1;
