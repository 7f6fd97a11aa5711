# SPDX-License-Identifier: Apache-2.0
# What an instruction without CFI does to the unwind state, for Win64
# unwind from CFI alone.  OpenSSL's modules write Win64-only prologue and
# epilogue code (saving rsi, rdi and xmm6-15, room for them on the stack)
# with no .cfi_* lines: their own .pdata/.xdata and handlers described it.
# With those dropped, the layer reads the effect from the instructions:
#   push/pop of a register      rsp by 8; a callee-saved register's slot
#   sub/add $N,%rsp, lea N(%rsp),%rsp
#                               rsp by N
#   and $-N,%rsp                rsp's depth no longer known (with the
#                               CFA in rsp, it moves to a copy of rsp)
#   mov of a callee-saved register not saved yet to memory, as below
#                               its save slot
#   a 128-bit store of xmm6-15 to D(%rsp) or D(CFA base register), the
#   register's first since the function started
#                               its save slot (from rsp, { rsp => D },
#                               where rsp was realigned)
#   a load of xmm6-15 from that slot
#                               the register is back
# A .cfi_* line after the instruction still applies, on top of what the
# instruction did; one that moves the CFA by a relative amount is left out
# where the instruction moved rsp by a known amount (the instruction is
# what happens; x25519's shared epilogue, for one, annotates
# `lea 88(%rsp),%rsp` with .cfi_adjust_cfa_offset 88), and otherwise
# applies instead of the inferred state.
package X64::Win64Inferred;

use strict;
use warnings;
use X64::Expr qw(evaluate is_constant);
use X64::UnwindState ();
use X64::ISA qw(gp64_of);

my %CALLEE_SAVED = map { $_ => 1 } qw(rbx rbp rsi rdi r12 r13 r14 r15);
my %XMM_MOVE = map { $_ => 1 } qw(movaps movups movdqa movdqu movapd movupd
    vmovaps vmovups vmovdqa vmovdqu vmovapd vmovupd);

# The constant displacement of a memory operand, or undef.
sub disp {
    my ($op) = @_;
    my $d = $op->{disp} // '';
    return 0 unless length $d;
    return is_constant($d) ? evaluate($d) : undef;
}

# The state after instruction $name (its canonical mnemonic) with
# operands @$ops, from state $st; undef when it changes nothing.
# %$copies (kept by the caller for the function) maps a register that
# holds a copy of rsp (mov %rsp,%REG, or lea D(%rsp),%REG: rsp D bytes
# up) to the depth that copy stands for: stores through it, and rsp set
# back from it, are then known too.
sub after {
    my ($st, $name, $ops, $copies) = @_;
    my @ops = @$ops;
    my $dst = $ops[-1];
    my $rsp_dst = $dst && $dst->{type} eq 'reg' && $dst->{reg} eq 'rsp';
    my $new = $st->clone;
    if ($dst && $dst->{type} eq 'reg' && !$rsp_dst) {
        my $gp = gp64_of($dst->{reg}) // '';
        delete $copies->{$gp};
        my $depth = $st->rsp_depth;
        if (!defined $depth) {
        } elsif ($name eq 'mov' && $ops[0]{type} eq 'reg' && $ops[0]{reg} eq 'rsp') {
            $copies->{$gp} = $depth;
        } elsif ($name eq 'lea' && $ops[0]{type} eq 'mem' && ($ops[0]{base} // '') eq 'rsp'
                 && !$ops[0]{index} && defined(my $d = disp($ops[0]))) {
            $copies->{$gp} = $depth - $d;     # rsp as it is d bytes higher up
        }
    }
    my $set_depth = sub {
        my ($depth) = @_;
        if ($new->{base} eq 'rsp') { $new->{off} = $depth } else { $new->{sp} = $depth }
    };
    if ($rsp_dst && $name eq 'mov' && $ops[0]{type} eq 'reg'
        && defined(my $d = $copies->{ $ops[0]{reg} })) {
        $set_depth->($d);
        return $new;
    }
    if ($rsp_dst && $name eq 'lea' && $ops[0]{type} eq 'mem' && !$ops[0]{index}
        && defined(my $d = $copies->{ $ops[0]{base} // '' }) && defined(my $o = disp($ops[0]))) {
        $set_depth->($d - $o);
        return $new;
    }
    my $move = sub {        # rsp down by $n bytes
        my ($n) = @_;
        $new->{moved_rsp} = 1;      # read by X64::Translate; clone drops it
        if ($new->{base} eq 'rsp') { $new->{off} += $n }
        elsif (defined $new->{sp}) { $new->{sp} += $n }
        my $saved = $new->{saved};      # shared with the old state: replaced, not changed
        $saved->{$_} = { rsp => $saved->{$_}{rsp} + $n }
            for grep { ref $saved->{$_} && defined $saved->{$_}{rsp} } keys %$saved;
    };
    if ($name eq 'push' && @ops == 1 && $ops[0]{type} eq 'reg' && $ops[0]{reg} =~ /^r/) {
        $move->(8);
        my $r = $ops[0]{reg};
        my $depth = $new->rsp_depth;
        $new->{saved}{$r} = -$depth
            if $CALLEE_SAVED{$r} && !exists $new->{saved}{$r} && defined $depth;
        return $new;
    }
    if ($name eq 'pop' && @ops == 1 && $ops[0]{type} eq 'reg' && $ops[0]{reg} =~ /^r/) {
        my $depth = $new->rsp_depth;
        my $r = $ops[0]{reg};
        delete $new->{saved}{$r}
            if defined $depth && defined $new->{saved}{$r} && !ref $new->{saved}{$r}
               && $new->{saved}{$r} == -$depth;
        $move->(-8);
        return $new;
    }
    if ($rsp_dst && ($name eq 'sub' || $name eq 'add') && $ops[0]{type} eq 'imm'
        && is_constant($ops[0]{expr})) {
        $move->(($name eq 'sub' ? 1 : -1) * evaluate($ops[0]{expr}));
        return $new;
    }
    if ($rsp_dst && $name eq 'lea' && $ops[0]{type} eq 'mem' && ($ops[0]{base} // '') eq 'rsp'
        && !$ops[0]{index} && defined(my $d = disp($ops[0]))) {
        $move->(-$d);
        return $new;
    }
    if ($rsp_dst && $name eq 'and') {
        if ($new->{base} eq 'rsp') {
            # The CFA moves to a register still holding a copy of rsp
            # (bn_gather5's `lea (%rsp),%r10`); with none, the CFI must say.
            my ($copy) = sort grep { defined $copies->{$_} } keys %$copies;
            return undef unless defined $copy;
            $new->move_cfa($copy, $copies->{$copy});
        }
        delete $new->{sp};
        for my $r (keys %{ $new->{saved} }) {
            my $slot = $new->{saved}{$r};
            delete $new->{saved}{$r} if ref $slot && defined $slot->{rsp};
        }
        return $new;
    }
    if ($name eq 'mov' && @ops == 2 && $ops[0]{type} eq 'reg' && $CALLEE_SAVED{ $ops[0]{reg} }
        && $ops[1]{type} eq 'mem' && !exists $new->{saved}{ $ops[0]{reg} }) {
        my $slot = slot($new, $ops[1], $copies) // return undef;
        $new->{saved}{ $ops[0]{reg} } = $slot;
        return $new;
    }
    if ($XMM_MOVE{$name} && @ops == 2) {
        my ($src, $to) = @ops;
        if ($src->{type} eq 'reg' && $src->{reg} =~ /^xmm(\d+)$/ && $1 >= 6
            && $to->{type} eq 'mem' && !exists $new->{saved}{ $src->{reg} }) {
            my $slot = slot($new, $to, $copies) // return undef;
            $new->{saved}{ $src->{reg} } = $slot;
            return $new;
        }
        if ($to->{type} eq 'reg' && $to->{reg} =~ /^xmm(\d+)$/ && $1 >= 6
            && $src->{type} eq 'mem' && defined $new->{saved}{ $to->{reg} }) {
            my $slot = slot($new, $src, $copies);
            return undef unless defined $slot && X64::UnwindState::slot_text($slot)
                eq X64::UnwindState::slot_text($new->{saved}{ $to->{reg} });
            delete $new->{saved}{ $to->{reg} };
            return $new;
        }
    }
    return undef;
}

# A memory operand's offset from the CFA, where the state tells it.
sub slot {
    my ($st, $op, $copies) = @_;
    return undef if $op->{index} || $op->{seg};
    my $d = disp($op) // return undef;
    my $base = $op->{base} // return undef;
    if ($base eq 'rsp') {
        my $depth = $st->rsp_depth;
        return defined $depth ? $d - $depth : { rsp => $d };
    }
    return $d - $st->{off} if $base eq $st->{base};
    return $d - $copies->{$base} if defined $copies->{$base};
    return undef;
}

1;
