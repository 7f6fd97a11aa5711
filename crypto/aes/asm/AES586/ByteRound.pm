# SPDX-License-Identifier: Apache-2.0
# One SubBytes+ShiftRows pass of aes-586, a table lookup per byte.  Output
# word j takes byte b of state word i = j + dir*b (dir 1 encryption,
# ShiftRows left; -1 decryption), so each output uses one byte of every
# state word.  Bytes 0 and 1 of eax..edx come out in one movzbl (%al,
# %ah); a byte elsewhere costs a copy and shifts, so a register may be
# rotated (one ror) between its uses to bring the next byte low, as
# RoundPlan.pm chooses; at the last output every register dies and is
# shifted in place.
package AES586::ByteRound;

use strict;
use warnings;
use AES586::Perlasm qw(mov shr and ror movzx);
use AES586::RoundPlan;

my @S = qw(eax ebx ecx edx);
my @L = qw(al bl cl dl);
my @H = qw(ah bh ch dh);

# new(movzbl => 0|1, mask24 => 0|1, ror_weight => N): the instruction
# choices (aes-586.pl's switches) and what a ror counts for in the plan.
sub new {
    my ($class, %opt) = @_;
    return bless { %opt }, $class;
}

# Byte b of state word i into an index register, after rotating it by $d
# bytes; $rot holds each register's rotation so far.  Returns the register.
sub extract {
    my ($self, $rot, $i, $b, $d, $last) = @_;
    if ($d) {
        &ror($S[$i], 8 * $d);
        $rot->[$i] = ($rot->[$i] + $d) & 3;
    }
    my $pos = ($b - $rot->[$i]) & 3;
    if ($pos == 3) {
        my $r = $last ? $S[$i] : "edi";
        &mov($r, $S[$i]) unless $last;
        &shr($r, 24);
        &and($r, 0xff) if $self->{mask24};
        return $r;
    }
    if ($self->{movzbl} && $pos < 2) {
        &movzx("edi", $pos ? $H[$i] : $L[$i]);
        return "edi";
    }
    if ($self->{movzbl} && $last) {
        &shr($S[$i], 16);
        &movzx($S[$i], $L[$i]);
        return $S[$i];
    }
    &mov("edi", $S[$i]);
    &shr("edi", 8 * $pos) if $pos;
    &and("edi", 0xff);
    return "edi";
}

# The pass: $lookup->(INDEX_REG, b) adds byte b's contribution to esi;
# after each of the first three outputs $keep->(j) moves column j out of
# esi; the last stays in esi and its column is returned.
sub pass {
    my ($self, $dir, $lookup, $keep) = @_;
    my $plan = AES586::RoundPlan::plan($dir, $self->{ror_weight}, $self->{movzbl} ? 1 : 0);
    my @order = @{ $plan->{order} };
    my @rot = (0) x 4;
    for my $k (0 .. 3) {
        my $j = $order[$k];
        for my $b (0 .. 3) {
            my $i = ($j + $dir * $b) & 3;
            $lookup->($self->extract(\@rot, $i, $b, $plan->{rot}{$i}[$k], $k == 3), $b);
        }
        $keep->($j) if $k < 3;
    }
    return $order[3];
}

1;
