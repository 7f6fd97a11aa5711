# SPDX-License-Identifier: Apache-2.0
# Where the caller's frame is at one point of a function: the canonical
# frame address (CFA, the caller's rsp before the call, plus 8... i.e. the
# value of rsp before the return address was pushed) as base register +
# offset, and each saved register's slot as an offset from the CFA.
# One state machine feeds both DWARF CFI (ELF, Mach-O) and the Win64
# unwind tables, so the two can never disagree.
package X64::UnwindState;

use strict;
use warnings;

sub new {
    my ($class) = @_;
    # At entry the return address is at [rsp]: CFA = rsp + 8.
    return bless { base => 'rsp', off => 8, saved => {} }, $class;
}

sub clone {
    my ($self) = @_;
    return bless { base => $self->{base}, off => $self->{off},
                   saved => { %{ $self->{saved} } } }, ref $self;
}

sub equals {
    my ($a, $b) = @_;
    return 0 unless $a->{base} eq $b->{base} && $a->{off} == $b->{off};
    my @ka = sort keys %{ $a->{saved} };
    my @kb = sort keys %{ $b->{saved} };
    return 0 unless "@ka" eq "@kb";
    for (@ka) { return 0 unless $a->{saved}{$_} == $b->{saved}{$_} }
    return 1;
}

# The CFI directives that turn state $old into $new.
sub cfi_diff {
    my ($old, $new) = @_;
    my @d;
    if ($old->{base} ne $new->{base}) {
        push @d, [ 'def_cfa', "%$new->{base}", $new->{off} ];
    } elsif ($old->{off} != $new->{off}) {
        push @d, [ 'def_cfa_offset', $new->{off} ];
    }
    for my $r (sort keys %{ $new->{saved} }) {
        my $o = $old->{saved}{$r};
        push @d, [ 'offset', "%$r", $new->{saved}{$r} ]
            if !defined $o || $o != $new->{saved}{$r};
    }
    for my $r (sort keys %{ $old->{saved} }) {
        push @d, [ 'restore', "%$r" ] unless exists $new->{saved}{$r};
    }
    return @d;
}

1;
