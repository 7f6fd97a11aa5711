# SPDX-License-Identifier: Apache-2.0
# aes-586's compact MixColumns, on packed bytes: a column is a dword, row
# r in bits 8r.  In the integer registers one column at a time; in MMX two
# columns per register, mm7 = 0x1b in every byte.
package AES586::MixColumns;

use strict;
use warnings;
use AES586::Perlasm qw(mov and xor add shr ror imul lea DWP
                      movq pxor pand pcmpgtb paddb psrld pslld por pshufw);

# new(imul => 0|1): xtime's reduction by imul $0x1b, or by two lea.
sub new {
    my ($class, %opt) = @_;
    return bless { %opt }, $class;
}

# ------------------------------------------------------------- integer
# xtime on four packed bytes in $x, $t clobbered.
sub xtime_int {
    my ($self, $x, $t) = @_;
    &mov($t, $x);
    &and($t, 0x80808080);
    &xor($x, $t);
    &add($x, $x);
    &shr($t, 7);
    if ($self->{imul}) { &imul($t, $t, 0x1b) }
    else { &lea($t, &DWP(0, $t, $t, 2)); &lea($t, &DWP(0, $t, $t, 8)) }   # 27 = 3*9
    &xor($x, $t);
}

# MixColumns of the column in $x (esi, edi clobbered): with r8 = ror(x, 8)
# (row r+1 brought to row r) and u = x ^ r8,  out = 2u ^ r8 ^ ror(u, 16).
sub mix_int {
    my ($self, $x) = @_;
    &mov("esi", $x);
    &ror("esi", 8);
    &xor($x, "esi");
    &mov("edi", $x);
    &ror("edi", 16);
    &xor("esi", "edi");
    $self->xtime_int($x, "edi");
    &xor($x, "esi");
}

# InvMixColumns = MixColumns after w ^= 4(w ^ ror(w, 16)) (The Design of
# Rijndael, 4.1.3).
sub inv_pre_int {
    my ($self, $x) = @_;
    &mov("esi", $x);
    &ror("esi", 16);
    &xor("esi", $x);
    $self->xtime_int("esi", "edi");
    $self->xtime_int("esi", "edi");
    &xor($x, "esi");
}

# ----------------------------------------------------------------- MMX
# Rotations within each 32-bit lane: by 16 with pshufw, by 8 with two
# shifts.
sub xtime_mmx {
    my ($self, $x, $t) = @_;
    &pxor($t, $t);
    &pcmpgtb($t, $x);          # 0xff where the top bit is set
    &pand($t, "mm7");
    &paddb($x, $x);
    &pxor($x, $t);
}

# MixColumns of the two columns in $x, as mix_int; $r8, $t clobbered.
sub mix_mmx {
    my ($self, $x, $r8, $t) = @_;
    &movq($r8, $x);
    &psrld($r8, 8);
    &movq($t, $x);
    &pslld($t, 24);
    &por($r8, $t);
    &pxor($x, $r8);
    &pshufw($t, $x, 0xb1);
    &pxor($r8, $t);
    $self->xtime_mmx($x, $t);
    &pxor($x, $r8);
}

sub inv_pre_mmx {
    my ($self, $x, $u, $t) = @_;
    &pshufw($u, $x, 0xb1);
    &pxor($u, $x);
    $self->xtime_mmx($u, $t);
    $self->xtime_mmx($u, $t);
    &pxor($x, $u);
}

1;
