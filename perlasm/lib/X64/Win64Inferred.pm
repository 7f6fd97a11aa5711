# SPDX-License-Identifier: Apache-2.0
# What an instruction without CFI does to the unwind state, for Win64
# unwind from CFI alone.  OpenSSL's modules write Win64-only prologue and
# epilogue code (saving rsi, rdi and xmm6-15, room for them on the stack)
# with no .cfi_* lines: their own .pdata/.xdata and handlers described it.
# With those dropped, the layer reads the effect from the instructions:
#   push/pop of a register      rsp by 8; a callee-saved register's slot
#   pushf/popf                  rsp by 8
#   sub/add $N,%rsp, lea N(%rsp),%rsp
#                               rsp by N
#   and $-N,%rsp, sub/add %REG,%rsp
#                               rsp's depth no longer known (with the
#                               CFA in rsp, it moves to a copy of rsp)
#   mov of a callee-saved register not saved yet to memory, as below
#                               its save slot
#   a 128-bit store of xmm6-15 to D(%rsp) or D(CFA base register), the
#   register's first since the function started
#                               its save slot (where rsp was realigned,
#                               from the realigned frame base, or else
#                               from rsp: { rsp => D })
#   a load of xmm6-15, or of a register saved after rsp was realigned,
#   from its slot               the register is back
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
use X64::DwarfExpr ();
use X64::Win64Handler ();

my %CALLEE_SAVED = map { $_ => 1 } qw(rbx rbp rsi rdi r12 r13 r14 r15);
# Instructions that only read their last operand.
my %READS_ONLY = map { $_ => 1 } qw(cmp test bt);
my %XMM_MOVE = map { $_ => 1 } qw(movaps movups movdqa movdqu movapd movupd
    vmovdqa32 vmovdqa64 vmovdqu8 vmovdqu16 vmovdqu32 vmovdqu64
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
# up; or a mov or lea from such a copy) to the depth that copy stands for:
# stores through it, and rsp set back from it, are then known too.
sub after {
    my ($st, $name, $ops, $copies) = @_;
    my @ops = @$ops;
    my $dst = $ops[-1];
    my $rsp_dst = $dst && $dst->{type} eq 'reg' && $dst->{reg} eq 'rsp';
    my $new = $st->clone;
    forget_written($name, \@ops, $copies);
    my $base_moved;
    if ($dst && $dst->{type} eq 'reg' && !$rsp_dst && !$READS_ONLY{$name}) {
        my $gp = gp64_of($dst->{reg}) // '';
        my $src = $ops[0];
        my $depth = $st->rsp_depth;
        # What the source stands for: rsp's depth, or a copy's.
        my $from = $src->{type} eq 'reg' ? ($src->{reg} eq 'rsp' ? $depth : $copies->{ $src->{reg} })
                 : $src->{type} eq 'mem' && !$src->{index} && defined $src->{base}
                   ? ($src->{base} eq 'rsp' ? $depth : $copies->{ $src->{base} }) : undef;
        delete $copies->{$gp};
        if ($gp ne $dst->{reg}) {                 # a 32-bit or narrower result
        } elsif ($name eq 'mov' && $src->{type} eq 'reg' && defined $from
                 && (gp64_of($src->{reg}) // '') eq $src->{reg}) {
            $copies->{$gp} = $from;
        } elsif ($name eq 'lea' && $src->{type} eq 'mem' && defined $from
                 && defined(my $d = disp($src))) {
            $copies->{$gp} = $from - $d;      # D bytes above what the base stands for
        }
        # The CFA's base register set to a known copy of rsp: the offset
        # follows (bsaes's Win64-only `lea 0xa0(%rax),%rax` in its epilogues).
        if ($new->{base} eq $gp && defined $copies->{$gp} && $copies->{$gp} != $new->{off}) {
            $new->{off} = $copies->{$gp};
            $base_moved = 1;
        }
    }
    my $set_depth = sub {
        my ($depth) = @_;
        # rsp set back from a copy: the CFA is rsp + that depth, whatever
        # register or expression described it (a frame register about to
        # be popped, aesni-xts-avx512's `mov %rbp,%rsp; pop %rbp`).
        $new->move_cfa('rsp', $depth);
        delete $new->{frame};
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
        $new->{expr} = rsp_expr_moved($new->{expr}, $n, $new->{frame}) if $new->{base} eq 'expr';
        $new->{frame} = { %{ $new->{frame} }, sp => $new->{frame}{sp} - $n } if $new->{frame};
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
    if ($name =~ /^(push|pop)fq?$/ && !@ops) {
        $move->($1 eq 'push' ? 8 : -8);
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
    if ($rsp_dst && ($name eq 'and' || ($name eq 'sub' || $name eq 'add') && $ops[0]{type} eq 'reg')) {
        # rsp realigned from a known depth: the new frame base is
        # ((CFA - depth) & -N), from which later saves are found.
        my $depth = $new->rsp_depth;
        my $mask = $name eq 'and' && $ops[0]{type} eq 'imm' && is_constant($ops[0]{expr})
            ? evaluate($ops[0]{expr}) : 0;
        if (defined $depth && $mask < 0 && !(-$mask & (-$mask - 1))) {
            $new->{frame} = { k => $depth, n => -$mask, sp => 0 };
        } else {
            delete $new->{frame};
        }
        if ($new->{base} eq 'rsp') {
            # The CFA moves to a register still holding a copy of rsp, a
            # callee-saved one first (a frame register codes can say):
            # bn_gather5's `lea (%rsp),%r10`, bsaes_xts_decrypt's `mov
            # %rsp,%rbp` without CFI.  With none, the CFI must say.
            my ($copy) = sort { !$CALLEE_SAVED{$a} <=> !$CALLEE_SAVED{$b} || $a cmp $b }
                         grep { defined $copies->{$_} } keys %$copies;
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
    if ($name eq 'mov' && @ops == 2 && $ops[1]{type} eq 'reg' && $CALLEE_SAVED{ $ops[1]{reg} }
        && $ops[0]{type} eq 'mem' && ref $new->{saved}{ $ops[1]{reg} }) {
        # A register loaded back from the slot it was saved in (after
        # rsp was realigned): the slot may be wiped next (aesni-xts-avx512).
        my $slot = slot($new, $ops[0], $copies);
        if (defined $slot && X64::UnwindState::slot_text($slot)
            eq X64::UnwindState::slot_text($new->{saved}{ $ops[1]{reg} })) {
            delete $new->{saved}{ $ops[1]{reg} };
            return $new;
        }
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
    return $base_moved ? $new : undef;
}

# Registers that a call or an instruction with implicit or second results
# may overwrite no longer hold a copy of rsp.
my %IMPLICIT = (
    call => [qw(rax rcx rdx r8 r9 r10 r11)],      # volatile across a call
    (map { $_ => [qw(rax rdx)] } qw(mul div idiv cqo rdtsc xgetbv)),
    rdtscp => [qw(rax rcx rdx)], cpuid => [qw(rax rbx rcx rdx)],
    (map { $_ => [qw(rsi rdi rcx rax)] } qw(movsb movsw movsd movsq stosb stosw stosd stosq
                                            lodsb lodsq cmpsb scasb)),
);
my %ALL_OPERANDS = map { $_ => 1 } qw(xchg xadd cmpxchg mulx);

sub forget_written {
    my ($name, $ops, $copies) = @_;
    my @gone = @{ $IMPLICIT{$name} // [] };
    push @gone, qw(rax rdx) if $name eq 'imul' && @$ops == 1;
    push @gone, map { gp64_of($_->{reg}) // () } grep { $_->{type} eq 'reg' } @$ops
        if $ALL_OPERANDS{$name};
    delete @$copies{@gone};
}

# An instruction spelt out as bytes that writes some general register
# (X64::SpeltInstruction): no register is known to copy rsp now.
sub unknown_instruction {
    my ($copies) = @_;
    %$copies = ();
}

# A CFA expression that starts at rsp (DW_OP_breg7 N: the old rsp kept in
# a stack slot), once rsp has moved $n bytes down without CFI saying so.
# In a realigned frame (%$frame: rsp its base + sp, the base a multiple
# of n), the slot is found from rsp rounded down to the alignment
# (DW_OP_consts -n, DW_OP_and, DW_OP_plus_uconst): right wherever rsp
# stays within the alignment above the base, as in a loop that moves rsp
# on each pass (sha512's AVX2 rounds, whose Win64 CFI does not follow
# them).  Otherwise the slot is $n further up (Camellia_cbc_encrypt's
# pushfq).  An expression already rounded, or not at rsp, stays.
sub rsp_expr_moved {
    my ($expr, $n, $frame) = @_;
    return $expr unless @$expr && $expr->[0] == 0x77;
    my $i = 1;
    my $off = X64::Win64Handler::leb($expr, \$i, 1);
    return $expr if $i < @$expr && $expr->[$i] == 0x11;       # rounded already
    my @rest = @$expr[ $i .. $#$expr ];
    if ($frame && $frame->{sp} >= 0 && $frame->{sp} < $frame->{n} && $off + $frame->{sp} >= 0) {
        return [ 0x77, 0, 0x11, X64::DwarfExpr::sleb128(-$frame->{n}), 0x1a,
                 0x23, X64::DwarfExpr::uleb128($off + $frame->{sp}), @rest ];
    }
    return [ 0x77, X64::DwarfExpr::sleb128($off + $n), @rest ];
}

# A memory operand's offset from the CFA, where the state tells it.
sub slot {
    my ($st, $op, $copies) = @_;
    return undef if $op->{index} || $op->{seg};
    my $d = disp($op) // return undef;
    my $base = $op->{base} // return undef;
    if ($base eq 'rsp') {
        my $depth = $st->rsp_depth;
        return $d - $depth if defined $depth;
        my $fr = $st->{frame};
        return $fr ? { frame => $fr->{sp} + $d, k => $fr->{k}, n => $fr->{n} } : { rsp => $d };
    }
    return $d - $st->{off} if $base eq $st->{base};
    return $d - $copies->{$base} if defined $copies->{$base};
    return undef;
}

1;
