# SPDX-License-Identifier: Apache-2.0
# The plan of a byte-wise round (see ByteRound.pm): in which order to
# compute the four output words, and by how many bytes to rotate each state
# register before each of its uses, for the fewest instructions.  Pure
# search, no code written.
package AES586::RoundPlan;

use strict;
use warnings;

# Instructions to get the byte at position $pos of a register out: at its
# last use the register may be destroyed, otherwise a copy is shifted.
sub extract_cost {
    my ($pos, $last) = @_;
    return 1 if $pos < 2;                       # movzbl %al / %ah
    return $last ? 1 : 2 if $pos == 3;          # shr $24 (on a copy)
    return $last ? 2 : 3;                       # shr $16, movzbl / and
}

# Cheapest rotations of one register before each of its uses (bytes @b,
# the last one at the last output), a ror counting $weight: returns
# (cost, [rotation before use k]).  Without movzbl no rotation helps.
sub plan_register {
    my ($weight, $movzbl, @b) = @_;
    my %best = (0 => [0, []]);
    for my $k (0 .. $#b) {
        my %next;
        for my $r (sort keys %best) {
            for my $d (0 .. 3) {
                next if $d && !$movzbl;
                my $nr = ($r + $d) & 3;
                my $c = $best{$r}[0] + ($d ? $weight : 0) + extract_cost(($b[$k] - $nr) & 3, $k == $#b);
                $next{$nr} = [$c, [ @{ $best{$r}[1] }, $d ]] if !$next{$nr} || $c < $next{$nr}[0];
            }
        }
        %best = %next;
    }
    # ties broken by the rotations, so the choice never depends on hash order
    my ($min) = sort { $a->[0] <=> $b->[0] || "@{$a->[1]}" cmp "@{$b->[1]}" } values %best;
    return @$min;
}

sub permutations {
    my (@x) = @_;
    return ([]) unless @x;
    return map { my $i = $_; map { [ $x[$i], @$_ ] } permutations(@x[ grep { $_ != $i } 0 .. $#x ]) } 0 .. $#x;
}

# plan(DIR, WEIGHT, MOVZBL): { order => [output words], rot => {i => [rotation
# of state word i before use k]}, cost }.  Output word j reads byte b of
# state word j + DIR*b.  The first cheapest of the 24 orders wins.
my %CACHE;
sub plan {
    my ($dir, $weight, $movzbl) = @_;
    return $CACHE{"$dir $weight $movzbl"} //= do {
        my $best;
        for my $order (permutations(0 .. 3)) {
            my ($cost, %rot) = (0);
            for my $i (0 .. 3) {
                my @b = map { ($i - $_) * $dir & 3 } @$order;   # byte of s_i used by output j
                my ($c, $rotations) = plan_register($weight, $movzbl, @b);
                $cost += $c;
                $rot{$i} = $rotations;
            }
            $best = { cost => $cost, order => $order, rot => \%rot } if !$best || $cost < $best->{cost};
        }
        $best;
    };
}

1;
