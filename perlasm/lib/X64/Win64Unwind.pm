# SPDX-License-Identifier: Apache-2.0
# Win64 unwind tables (.pdata / .xdata) from unwind states.
#
# A function is cut into regions over which the unwind state is constant;
# each region gets its own RUNTIME_FUNCTION and an UNWIND_INFO with no
# prologue (SizeOfProlog 0) whose codes describe that state completely:
#   [UWOP_SET_FPREG]           when the CFA is based on rbp
#   UWOP_SAVE_NONVOL[_FAR]     each saved integer register
#   UWOP_SAVE_XMM128[_FAR]     each saved xmm register
#   UWOP_ALLOC_*               CFA offset - 8: back to the return address
# The unwinder applies all codes of a region, so the description is exact
# at every instruction, prologue and epilogue included, and needs nothing
# from the assembler but label differences.
package X64::Win64Unwind;

use strict;
use warnings;

my %GPR = (rax => 0, rcx => 1, rdx => 2, rbx => 3, rsp => 4, rbp => 5,
           rsi => 6, rdi => 7, map { ("r$_" => $_) } 8 .. 15);
# Registers that may hold the frame: callee-saved ones (the unwinder reads
# the frame register of an outer frame from the context it rebuilt).
my %FRAME_REG = map { $_ => 1 } qw(rbx rbp rsi rdi r12 r13 r14 r15);
sub is_frame_register { return $FRAME_REG{ $_[0] } }
use constant {
    UWOP_ALLOC_LARGE => 1, UWOP_ALLOC_SMALL => 2, UWOP_SET_FPREG => 3,
    UWOP_SAVE_NONVOL => 4, UWOP_SAVE_NONVOL_FAR => 5,
    UWOP_SAVE_XMM128 => 8, UWOP_SAVE_XMM128_FAR => 9,
};

sub die_here { die "$_[0]\n" }

# Unwind codes for one state, as a list of 16-bit slots.  What the codes
# cannot say is pushed onto @$gaps (text for the reader of the output):
# a register held in another register, or saved where a DWARF expression
# says.  A slot below rsp (released by a pop that an annotation missed)
# cannot hold a save on Win64, where anything may write below rsp: the
# register has its value back, and is left out.  A CFA the codes cannot
# reach (an expression, a volatile or no frame register) is an error.
sub codes_for_state {
    my ($st, $gaps) = @_;
    my @slots;
    my $code = sub { my ($op, $info) = @_; push @slots, ($info << 12) | ($op << 8) };
    # Prologue offset byte is 0 for every code (no prologue).
    if ($st->{base} eq 'expr') {
        die_here("Win64 unwind: the CFA is a DWARF expression (.cfi_cfa_expression), "
                 . "which unwind codes cannot describe: give the function its own .pdata/.xdata entry");
    } elsif ($FRAME_REG{ $st->{base} }) {
        $code->(UWOP_SET_FPREG, 0);
    } elsif ($st->{base} ne 'rsp') {
        die_here("Win64 unwind: CFA based on %$st->{base} cannot be described"
                 . " (a frame register must be callee-saved)");
    }
    for my $r (sort keys %{ $st->{saved} }) {
        my $slot = $st->{saved}{$r};
        if (ref $slot) {
            push @$gaps, $slot->{reg} ? "%$r is held in %$slot->{reg}"
                                      : "%$r is saved where a DWARF expression says";
            next;
        }
        my $depth = $st->rsp_depth;
        next if defined $depth && $depth + $slot < 0;   # below rsp: released
        my $at = $st->{off} + $slot;                    # from the frame base
        die_here("Win64 unwind: %$r saved below the frame base") if $at < 0;
        if ($r =~ /^xmm(\d+)$/) {
            my $n = $1;
            if ($at % 16 == 0 && $at / 16 < 0x10000) {
                $code->(UWOP_SAVE_XMM128, $n);
                push @slots, $at / 16;
            } else {
                $code->(UWOP_SAVE_XMM128_FAR, $n);
                push @slots, $at & 0xffff, $at >> 16;
            }
        } else {
            defined $GPR{$r} or die_here("Win64 unwind: cannot save %$r");
            if ($at % 8 == 0 && $at / 8 < 0x10000) {
                $code->(UWOP_SAVE_NONVOL, $GPR{$r});
                push @slots, $at / 8;
            } else {
                $code->(UWOP_SAVE_NONVOL_FAR, $GPR{$r});
                push @slots, $at & 0xffff, $at >> 16;
            }
        }
    }
    my $alloc = $st->{off} - 8;
    die_here("Win64 unwind: stack adjustment $alloc is not a multiple of 8")
        if $alloc < 0 || $alloc % 8;
    if ($alloc == 0) {
    } elsif ($alloc <= 128) {
        $code->(UWOP_ALLOC_SMALL, $alloc / 8 - 1);
    } elsif ($alloc <= 512 * 1024 - 8) {
        $code->(UWOP_ALLOC_LARGE, 0);
        push @slots, $alloc / 8;
    } else {
        $code->(UWOP_ALLOC_LARGE, 1);
        push @slots, $alloc & 0xffff, $alloc >> 16;
    }
    return @slots;
}

# The bytes of one UNWIND_INFO, as numbers.
sub unwind_info_bytes {
    my ($st, $gaps) = @_;
    my @slots = codes_for_state($st, $gaps // []);
    die_here("Win64 unwind: too many unwind codes") if @slots > 255;
    my $frame = $FRAME_REG{ $st->{base} } ? $GPR{ $st->{base} } : 0;   # FrameOffset 0
    my @bytes = (1, 0, scalar(@slots), $frame);
    push @slots, 0 if @slots % 2;        # the array is padded to even length
    push @bytes, $_ & 0xff, $_ >> 8 for @slots;
    return @bytes;
}

1;
