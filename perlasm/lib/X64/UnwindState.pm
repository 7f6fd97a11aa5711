# SPDX-License-Identifier: Apache-2.0
# Where the caller's frame is at one point of a function: the canonical
# frame address (CFA, the caller's rsp before the call, plus 8... i.e. the
# value of rsp before the return address was pushed) as base register +
# offset, and each saved register's slot as an offset from the CFA.
# One state machine feeds both DWARF CFI (ELF, Mach-O) and the Win64
# unwind tables, so the two can never disagree.
#
# Besides register + offset, the CFA may be a DWARF expression
# (base 'expr', `expr` its bytes: .cfi_cfa_expression), and a register
# may be saved, instead of at an offset, in another register
# ({ reg => NAME }: .cfi_register), where an expression says
# ({ expr => [bytes] }: .cfi_expression) or, after rsp was realigned, at
# an offset from rsp ({ rsp => N }: only inferred, X64::Win64Inferred),
# or, after rsp was realigned (`and $-N,%rsp`), at an offset from the
# realigned frame base, which the CFA gives: ((CFA - K) & -N) + D
# ({ frame => D, k => K, n => N }; only inferred).  While rsp's offset
# from such a base is known, `frame` holds { k, n, sp }.
package X64::UnwindState;

use strict;
use warnings;
use X64::DwarfExpr ();

sub new {
    my ($class) = @_;
    # At entry the return address is at [rsp]: CFA = rsp + 8.
    return bless { base => 'rsp', off => 8, saved => {} }, $class;
}

sub clone {
    my ($self) = @_;
    return bless { base => $self->{base}, off => $self->{off}, expr => $self->{expr},
                   sp => $self->{sp}, saved => { %{ $self->{saved} } },
                   frame => $self->{frame} }, ref $self;
}

# How far rsp is below the CFA.  While the CFA is rsp-based that is its
# offset; otherwise `sp`, set when the CFA left rsp and moved by pushes
# and pops since.  (Not part of the unwind rule: equals ignores it.)
sub rsp_depth {
    my ($self) = @_;
    return $self->{base} eq 'rsp' ? $self->{off} : $self->{sp};
}

# The CFA rule changes to $base (+ $off): rsp's depth is kept.
sub move_cfa {
    my ($self, $base, $off) = @_;
    $self->{sp} = $self->rsp_depth;
    $self->{base} = $base;
    $self->{off} = $off if defined $off;
    delete $self->{expr} unless $base eq 'expr';
}

# A comparable text for a CFA rule or a saved register's slot.
sub slot_text {
    my ($v) = @_;
    return "$v" unless ref $v;
    return "reg:$v->{reg}" if $v->{reg};
    return "rsp:$v->{rsp}" if defined $v->{rsp};
    return "frame:$v->{k}:$v->{n}:$v->{frame}" if defined $v->{frame};
    return 'expr:' . join(',', @{ $v->{expr} });
}
sub cfa_text {
    my ($self) = @_;
    return $self->{base} eq 'expr' ? slot_text({ expr => $self->{expr} })
                                   : "$self->{base}+$self->{off}";
}

sub equals {
    my ($a, $b) = @_;
    return 0 unless $a->cfa_text eq $b->cfa_text;
    my @ka = sort keys %{ $a->{saved} };
    my @kb = sort keys %{ $b->{saved} };
    return 0 unless "@ka" eq "@kb";
    for (@ka) { return 0 unless slot_text($a->{saved}{$_}) eq slot_text($b->{saved}{$_}) }
    return 1;
}

# A .cfi_escape of raw CFA instruction bytes.
sub escape { return [ 'escape', map { sprintf '0x%02x', $_ } @_ ] }

# The CFI directives that turn state $old into $new.
sub cfi_diff {
    my ($old, $new) = @_;
    my @d;
    if ($new->{base} eq 'expr') {
        # DW_CFA_def_cfa_expression (0x0f), its length, the expression.
        push @d, escape(0x0f, X64::DwarfExpr::uleb128(scalar @{ $new->{expr} }),
                        @{ $new->{expr} })
            if $old->cfa_text ne $new->cfa_text;
    } elsif ($old->{base} ne $new->{base} || $old->{base} eq 'expr') {
        push @d, [ 'def_cfa', "%$new->{base}", $new->{off} ];
    } elsif ($old->{off} != $new->{off}) {
        push @d, [ 'def_cfa_offset', $new->{off} ];
    }
    for my $r (sort keys %{ $new->{saved} }) {
        my ($o, $n) = ($old->{saved}{$r}, $new->{saved}{$r});
        next if defined $o && slot_text($o) eq slot_text($n);
        if (!ref $n) { push @d, [ 'offset', "%$r", $n ] }
        elsif ($n->{reg}) { push @d, [ 'register', "%$r", "%$n->{reg}" ] }
        else {
            # DW_CFA_expression (0x10): register, length, expression.
            push @d, escape(0x10, X64::DwarfExpr::uleb128(X64::DwarfExpr::dwarf_register("%$r")),
                            X64::DwarfExpr::uleb128(scalar @{ $n->{expr} }), @{ $n->{expr} });
        }
    }
    for my $r (sort keys %{ $old->{saved} }) {
        push @d, [ 'restore', "%$r" ] unless exists $new->{saved}{$r};
    }
    return @d;
}

1;
