# SPDX-License-Identifier: Apache-2.0
# The one Win64 exception handler the layer generates, for the unwind
# states Win64 unwind codes cannot say (X64::Win64Unwind): a CFA read from
# memory (.cfi_cfa_expression REG+N,deref,+K, as frames that realign rsp
# and keep the old rsp in a stack slot write it), a CFA based on a
# volatile register, a register held in another register.
#
# Each such region's UNWIND_INFO has no codes, the EHANDLER flag, this
# handler and, as its handler data, a table made from the region's state:
#   dword  CONTEXT offset of the CFA's base register
#   dword  N: the register is rounded down to a multiple of N first (a
#          CFA expression REG,-N,and,+D: rsp inside a realigned frame
#          whose depth a loop changes), 0 when not
#   dword  displacement added to it (signed)
#   dword  CONTEXT offset of an index register, 0 when none
#   dword  the index register's multiplier
#   dword  1: load the CFA from that address; 0: the address is the CFA
#   dword  added to the CFA after the load (signed)
#   dword  K and
#   dword  N of the realigned frame base, ((CFA - K) & -N), 0 when none
#   dword  number of entries that follow, each three dwords:
#            CONTEXT offset of the restored register,
#            kind: 0 a 64-bit register saved at CFA+operand,
#                  1 an xmm register saved at CFA+operand,
#                  2 a register held in the register whose CONTEXT
#                    offset is operand,
#                  4, 5 as 0, 1 but at rsp+operand (saves made after
#                    rsp was realigned),
#                  8, 9 as 0, 1 but at the realigned frame base +
#                    operand, if that is not below rsp (else the slot
#                    is released and the register back),
#            operand (signed).
# The dispatcher calls the handler with the context at the faulting
# instruction (r8) and the dispatcher context (r9), whose ContextRecord
# the handler fills with the caller's frame: the faulting context, rsp set
# to the CFA, rip to the return address below it, and the saved registers
# read back.  It returns ExceptionContinueSearch.  It is a leaf that uses
# only volatile registers, so it needs no unwind data of its own.
package X64::Win64Handler;

use strict;
use warnings;
use X64::Win64Unwind ();

our $NAME = 'perlasm_win64_cfi_handler';

# Win64 register numbers (CONTEXT order); DWARF numbers (psABI) to them.
my %WIN_GPR = (rax => 0, rcx => 1, rdx => 2, rbx => 3, rsp => 4, rbp => 5,
               rsi => 6, rdi => 7, map { ("r$_" => $_) } 8 .. 15);
my @DWARF_TO_WIN = (0, 2, 1, 3, 6, 7, 5, 4, 8 .. 15);
# Offsets in CONTEXT: Rax, then the others in register-number order;
# Xmm0 in FltSave, then every 16 bytes.  Rsp, Rip and the offsets the
# handler reads from DISPATCHER_CONTEXT are in the code below.
use constant { CTX_GPR => 0x78, CTX_XMM => 0x1a0 };
# UNWIND_INFO version 1 with UNW_FLAG_EHANDLER, no prologue, no codes.
use constant INFO_HEADER => (0x09, 0, 0, 0);

sub gpr_offset { return CTX_GPR + 8 * $WIN_GPR{ $_[0] } }

# Does the state need the handler?  Only a CFA on rsp or a callee-saved
# register, and registers saved at offsets from it, are said by codes.
sub needs_handler {
    my ($st) = @_;
    return 1 unless $st->{base} eq 'rsp' || X64::Win64Unwind::is_frame_register($st->{base});
    return scalar grep { ref } values %{ $st->{saved} };
}

sub fail { die "$_[0]\n" }

# Unsigned and signed LEB128 at $b->[$$i], advancing $$i.
sub leb {
    my ($b, $i, $signed) = @_;
    my ($v, $shift, $byte) = (0, 0);
    do {
        fail('truncated DWARF expression') if $$i >= @$b;
        $byte = $b->[ $$i++ ];
        $v |= ($byte & 0x7f) << $shift;
        $shift += 7;
    } while ($byte & 0x80);
    $v -= 1 << $shift if $signed && ($byte & 0x40);
    return $v;
}

# The CFA rule of an expression: (base, alignment, displacement, index,
# multiplier, load, addend).  The shape OpenSSL's frames use:
#   DW_OP_bregB N [DW_OP_bregI 0, DW_OP_litM or constu M, mul, plus]
#   [deref] [plus_uconst K]
# or, inferred (X64::Win64Inferred), DW_OP_breg7 0, consts -A, and,
# plus_uconst N in place of the first.
sub cfa_rule {
    my ($bytes) = @_;
    my @b = @$bytes;
    my $i = 0;
    my $text = join(' ', map { sprintf '%02x', $_ } @b);
    my $breg = sub {
        return undef unless $i < @b && $b[$i] >= 0x70 && $b[$i] <= 0x7f;
        my $reg = $DWARF_TO_WIN[ $b[ $i++ ] - 0x70 ];
        return [ $reg, leb(\@b, \$i, 1) ];
    };
    my $base = $breg->() or fail("the CFA expression ($text) does not start at a register");
    my $align = 0;
    if ($i < @b && $b[$i] == 0x11) {            # DW_OP_consts -N, DW_OP_and, DW_OP_plus_uconst D
        $i++;
        $align = -leb(\@b, \$i, 1);
        fail("the CFA expression ($text) rounds to other than a power of two")
            if $align <= 0 || $align & ($align - 1) || $base->[1] || "@b[$i, $i + 1]" ne '26 35';
        $i += 2;
        $base->[1] = leb(\@b, \$i, 0);
    }
    my ($index, $mul) = (undef, 0);
    if (my $idx = $breg->()) {
        fail("the CFA expression ($text) offsets its index register") if $idx->[1];
        $index = $idx->[0];
        if ($i < @b && $b[$i] >= 0x30 && $b[$i] < 0x50) { $mul = $b[ $i++ ] - 0x30 }
        elsif ($i < @b && $b[$i] == 0x10) { $i++; $mul = leb(\@b, \$i, 0) }
        else { fail("the CFA expression ($text) has no multiplier for its index") }
        fail("the CFA expression ($text) does not scale and add its index")
            unless "@b[$i, $i + 1]" eq '30 34';   # mul (0x1e), plus (0x22)
        $i += 2;
    }
    my $load = 0;
    if ($i < @b && $b[$i] == 0x06) { $load = 1; $i++ }
    my $addend = 0;
    if ($i < @b && $b[$i] == 0x23) { $i++; $addend = leb(\@b, \$i, 0) }
    fail("the CFA expression ($text) is not REG+N[,INDEX,M,mul,plus][,deref][,+K]")
        if $i != @b;
    return ($base->[0], $align, $base->[1], $index, $mul, $load, $addend);
}

# The handler data of one state, as 32-bit words.
sub table {
    my ($st) = @_;
    my @rule;
    if ($st->{base} eq 'expr') {
        my ($base, $align, $disp, $index, $mul, $load, $addend) = cfa_rule($st->{expr});
        @rule = (CTX_GPR + 8 * $base, $align, $disp,
                 defined $index ? CTX_GPR + 8 * $index : 0, $mul, $load, $addend);
    } else {
        @rule = (gpr_offset($st->{base}), 0, $st->{off}, 0, 0, 0, 0);
    }
    my (@entries, @frame);
    for my $r (sort keys %{ $st->{saved} }) {
        my $slot = $st->{saved}{$r};
        if (ref $slot && defined $slot->{frame}) {
            @frame = ($slot->{k}, $slot->{n}) unless @frame;
            fail("%$r is saved in a frame realigned otherwise than the others")
                if "@frame" ne "$slot->{k} $slot->{n}";
            push @entries, $r =~ /^xmm(\d+)$/ ? (CTX_XMM + 16 * $1, 9) : (gpr_offset($r), 8),
                $slot->{frame};
            next;
        }
        if (ref $slot && defined $slot->{rsp}) {
            push @entries, $r =~ /^xmm(\d+)$/ ? (CTX_XMM + 16 * $1, 5) : (gpr_offset($r), 4),
                $slot->{rsp};
            next;
        }
        if (ref $slot) {
            fail("%$r is saved where a DWARF expression says") unless $slot->{reg};
            defined $WIN_GPR{ $slot->{reg} } or fail("%$r is held in %$slot->{reg}");
            push @entries, gpr_offset($r), 2, gpr_offset($slot->{reg});
            next;
        }
        my $depth = $st->rsp_depth;
        next if defined $depth && $depth + $slot < 0;   # below rsp: released
        if ($r =~ /^xmm(\d+)$/) { push @entries, CTX_XMM + 16 * $1, 1, $slot }
        elsif (defined $WIN_GPR{$r}) { push @entries, gpr_offset($r), 0, $slot }
        else { fail("cannot restore %$r") }
    }
    return map { $_ & 0xffffffff } @rule, (@frame ? @frame : (0, 0)), @entries / 3, @entries;
}

# The handler, as perlasm text (AT&T) for the layer to translate.
sub code {
    my $l = '.Lperlasm_cfi_handler';
    return split /\n/, <<"EOT";
$NAME:
	mov	56(%r9),%r10
	mov	(%r10),%eax
	mov	(%r8,%rax),%r11
	mov	4(%r10),%ecx
	neg	%rcx
	jz	${l}_not_rounded
	and	%rcx,%r11
${l}_not_rounded:
	movslq	8(%r10),%rax
	add	%rax,%r11
	mov	12(%r10),%eax
	test	%eax,%eax
	jz	${l}_no_index
	mov	(%r8,%rax),%rax
	mov	16(%r10),%edx
	imul	%rdx,%rax
	add	%rax,%r11
${l}_no_index:
	cmpl	\$0,20(%r10)
	jz	${l}_no_load
	mov	(%r11),%r11
${l}_no_load:
	movslq	24(%r10),%rax
	add	%rax,%r11
	mov	%r11,%rax
	mov	28(%r10),%ecx
	sub	%rcx,%rax
	mov	32(%r10),%ecx
	neg	%rcx
	and	%rcx,%rax
	movq	%rax,%xmm1
	mov	40(%r9),%rdx
	mov	\$1232,%ecx
${l}_copy:
	mov	-8(%r8,%rcx),%rax
	mov	%rax,-8(%rdx,%rcx)
	sub	\$8,%rcx
	jnz	${l}_copy
	mov	%r11,152(%rdx)
	mov	-8(%r11),%rax
	mov	%rax,248(%rdx)
	mov	36(%r10),%ecx
	lea	40(%r10),%r10
${l}_next:
	test	%ecx,%ecx
	jz	${l}_done
	movslq	8(%r10),%r9
	mov	4(%r10),%eax
	cmp	\$2,%eax
	je	${l}_in_register
	test	\$8,%al
	jz	${l}_not_frame
	movq	%r9,%xmm0
	paddq	%xmm1,%xmm0
	movq	%xmm0,%r9
	cmp	152(%r8),%r9
	jb	${l}_step
	jmp	${l}_at
${l}_not_frame:
	test	\$4,%al
	jz	${l}_from_cfa
	add	152(%r8),%r9
	jmp	${l}_at
${l}_from_cfa:
	add	%r11,%r9
${l}_at:
	test	\$1,%al
	jnz	${l}_xmm
	mov	(%r9),%r9
	jmp	${l}_store
${l}_xmm:
	movdqu	(%r9),%xmm0
	mov	(%r10),%eax
	movdqu	%xmm0,(%rdx,%rax)
	jmp	${l}_step
${l}_in_register:
	mov	(%r8,%r9),%r9
${l}_store:
	mov	(%r10),%eax
	mov	%r9,(%rdx,%rax)
${l}_step:
	add	\$12,%r10
	dec	%ecx
	jmp	${l}_next
${l}_done:
	mov	\$1,%eax
	ret
EOT
}

1;
