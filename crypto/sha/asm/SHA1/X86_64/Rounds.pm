# SPDX-License-Identifier: Apache-2.0
# SHA-1 rounds in general-purpose registers (FIPS 180-4 §6.1.2, step 3),
# shared by every x86_64 variant that is not SHA-NI: Integer.pm and the
# three SIMD variants in Simd.pm differ only in where W[t] (+K) comes from
# and whether BMI1/BMI2 forms may be used.
#
#     T = ROTL5(a) + f_t(b,c,d) + e + K_t + W_t
#     e = d; d = c; c = ROTL30(b); b = a; a = T
#
# The five working variables never move: each round adds into the register
# that holds e, which then becomes a, and the names rotate in Perl.
#
# Why the sums are ordered as they are: T of round t depends on a from
# round t-1 only through ROTL5(a); b (the input of f) is a from two rounds
# back.  So e + W+K + f(b,c,d) is summed first and ROTL5(a) is added last,
# which leaves 2 cycles (rotate, add) per round on the critical path.
package SHA1::X86_64::Rounds;

use strict;
use warnings;

our @K = (0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6);   # §4.2.1

sub k_of   { my ($t) = @_; return $K[int($t / 20)]; }
# Round function for round t (§4.1.1): Ch, Parity, Maj, Parity.
sub f_of   { my ($t) = @_; return (qw(ch parity maj parity))[int($t / 20)]; }

# K_t as a 32-bit signed number, usable as an address displacement
# (which the CPU sign-extends; the 32-bit sum is the same).
sub k_disp {
    my ($t) = @_;
    my $k = k_of($t);
    return $k >= 0x80000000 ? $k - 2**32 : $k;
}

# '%eax' -> '%rax', '%r10d' -> '%r10'.
sub r64 {
    my ($r) = @_;
    return $r =~ /^%r(\d+)d$/ ? "%r$1" : $r =~ /^%e(\w\w)$/ ? "%r$1" : die "r64: $r\n";
}

# A round generator.
#   v   => [a, b, c, d, e]  32-bit registers holding the working variables
#   tmp => [t0, t1]         32-bit scratch registers
#   bmi => 1                use andn (BMI1) and rorx (BMI2)
sub new {
    my ($class, %o) = @_;
    die "rounds: five working registers\n" unless @{ $o{v} } == 5;
    die "rounds: two scratch registers\n"  unless @{ $o{tmp} } == 2;
    return bless { v => [ @{ $o{v} } ], tmp => [ @{ $o{tmp} } ], bmi => $o{bmi} ? 1 : 0 },
        $class;
}

# Registers of a, b, c, d, e as they stand before the next round.
sub vars { my ($self) = @_; return @{ $self->{v} }; }

# The instructions of round t, as a list of perlasm lines.  $wk is where
# the message word comes from: a memory operand holding W[t]+K_t, or a
# register holding W[t] alone (K_t is then added by lea).
sub round {
    my ($self, $t, $wk) = @_;
    my ($a, $b, $c, $d, $e) = @{ $self->{v} };
    my ($t0, $t1) = @{ $self->{tmp} };
    my $f = f_of($t);
    my @i;

    if ($wk =~ /^%/) {
        push @i, sprintf("lea\t%d(%s,%s),%s", k_disp($t), r64($e), r64($wk), $e);
    } else {
        push @i, "add\t$wk,$e";
    }

    my $b_next = $b;        # the register that holds ROTL30(b) afterwards
    if ($self->{bmi}) {
        # rorx writes ROTL30(b) to a scratch register without a mov, so the
        # old b register is free for f; the two swap names below.
        $b_next = $t1;
        if ($f eq 'ch') {
            # Ch = (b & c) + (~b & d): the two terms have no common bits.
            push @i, "andn\t$d,$b,$t0", "add\t$t0,$e",
                     "rorx\t\$2,$b,$t1", "and\t$c,$b", "add\t$b,$e";
        } elsif ($f eq 'parity') {
            # In b's register, which rorx has freed: no copy.  b is the
            # newest input and goes through two XORs, but it is a round
            # older than a, whose ROTL5 is added last, so the sum still
            # waits for a alone.
            push @i, "rorx\t\$2,$b,$t1", "xor\t$c,$b", "xor\t$d,$b", "add\t$b,$e";
        } else {
            # Maj = (b & (c ^ d)) + (c & d): again no common bits; c & d
            # is c & ~(c ^ d), one andn from the XOR already made.
            push @i, "mov\t$c,$t0", "xor\t$d,$t0", "rorx\t\$2,$b,$t1", "and\t$t0,$b",
                     "andn\t$c,$t0,$t0", "add\t$t0,$e", "add\t$b,$e";
        }
        push @i, "rorx\t\$27,$a,$t0", "add\t$t0,$e";
        $self->{tmp} = [ $t0, $b ];
    } else {
        if ($f eq 'ch') {
            # Ch = ((c ^ d) & b) ^ d
            push @i, "mov\t$c,$t0", "xor\t$d,$t0", "and\t$b,$t0", "xor\t$d,$t0",
                     "add\t$t0,$e";
        } elsif ($f eq 'parity') {
            push @i, "mov\t$c,$t0", "xor\t$d,$t0", "xor\t$b,$t0", "add\t$t0,$e";
        } else {
            push @i, "mov\t$c,$t0", "mov\t$c,$t1", "and\t$d,$t0", "xor\t$d,$t1",
                     "add\t$t0,$e", "and\t$b,$t1", "add\t$t1,$e";
        }
        push @i, "mov\t$a,$t0", "rol\t\$5,$t0", "ror\t\$2,$b", "add\t$t0,$e";
    }
    $self->{v} = [ $e, $a, $b_next, $c, $d ];
    return @i;
}

# The moves that put a..e back into @want and leave @spare as the scratch
# registers: the BMI rounds swap names every round, so a loop must settle
# them before branching back to code generated for the first names.
# Register-to-register moves are eliminated at rename on current cores, so
# this costs a few decode slots once per loop.
sub settle {
    my ($self, $want, $spare) = @_;
    my %pending;                        # destination => source
    for my $i (0 .. 4) {
        $pending{ $want->[$i] } = $self->{v}[$i] if $want->[$i] ne $self->{v}[$i];
    }
    my @free = @{ $self->{tmp} };       # hold nothing needed
    my @i;
    while (%pending) {
        my %is_src = map { $_ => 1 } values %pending;
        my ($dst) = grep { !$is_src{$_} } sort keys %pending;
        if (defined $dst) {
            push @i, "mov\t$pending{$dst},$dst";
            delete $pending{$dst};
            next;
        }
        # Only cycles are left: park one source in a free register.
        my ($d) = sort keys %pending;
        my $src = $pending{$d};
        my ($f) = grep { !$is_src{$_} && !exists $pending{$_} } @free;
        die "rounds: no free register to settle through\n" unless defined $f;
        push @i, "mov\t$src,$f";
        $_ eq $src and $_ = $f for values %pending;
    }
    $self->{v} = [@$want];
    $self->{tmp} = [@$spare];
    return @i;
}

1;
