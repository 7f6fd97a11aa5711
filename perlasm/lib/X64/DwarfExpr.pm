# SPDX-License-Identifier: Apache-2.0
# The operand syntax of .cfi_cfa_expression and .cfi_expression (OpenSSL's
# perlasm dialect) into DWARF expression bytes.
#
# Operands are comma-separated and pushed in order onto the DWARF stack:
#   %reg  %reg+EXPR  %reg-EXPR  EXPR(%reg)   DW_OP_bregN with that offset
#   +EXPR                                    DW_OP_plus_uconst
#   EXPR                                     DW_OP_litN (0..31) or DW_OP_consts
#   NAME:EXPR  NAME:EXPRU                    DW_OP_NAME, signed (or U: unsigned)
#                                            LEB128 argument (constu, fbreg, ...)
#   NAME                                     an operator without argument
# EXPR is a constant expression (X64::Expr).  The numbers are those of the
# DWARF standard ("DWARF Expressions") and of the x86-64 psABI (registers).
package X64::DwarfExpr;

use strict;
use warnings;
use Exporter 'import';
use X64::Expr qw(evaluate is_constant);
use X64::ISA qw(gp64_of);

our @EXPORT_OK = qw(expression_bytes dwarf_register uleb128 sleb128);

# Operators without an argument.
my %SIMPLE = (
    deref => 0x06, dup => 0x12, drop => 0x13, over => 0x14, pick => 0x15,
    swap => 0x16, rot => 0x17, xderef => 0x18, abs => 0x19, and => 0x1a,
    div => 0x1b, minus => 0x1c, mod => 0x1d, mul => 0x1e, neg => 0x1f,
    not => 0x20, or => 0x21, plus => 0x22, shl => 0x24, shr => 0x25,
    shra => 0x26, xor => 0x27,
);
# Operators taking one LEB128 argument (NAME:EXPR).
my %WITH_ARG = (
    constu => 0x10, consts => 0x11, plus_uconst => 0x23, regx => 0x90,
    fbreg => 0x91, piece => 0x93,
);
use constant { DW_OP_lit0 => 0x30, DW_OP_breg0 => 0x70, DW_OP_consts => 0x11,
               DW_OP_plus_uconst => 0x23 };

# DWARF register numbers of the 64-bit integer registers (psABI).
my %DWARF_REG = (rax => 0, rdx => 1, rcx => 2, rbx => 3, rsi => 4, rdi => 5,
                 rbp => 6, rsp => 7, map { ("r$_" => $_) } 8 .. 15);

sub fail { die "$_[0]\n" }

sub uleb128 {
    my ($v) = @_;
    fail("$v cannot be encoded unsigned") if $v < 0;
    my @b;
    do {
        my $byte = $v & 0x7f;
        $v >>= 7;
        push @b, $byte | ($v ? 0x80 : 0);
    } while ($v);
    return @b;
}

sub sleb128 {
    my ($v) = @_;
    use integer;
    my @b;
    while (1) {
        my $byte = $v & 0x7f;
        $v >>= 7;
        my $done = ($v == 0 && !($byte & 0x40)) || ($v == -1 && ($byte & 0x40));
        push @b, $byte | ($done ? 0 : 0x80);
        return @b if $done;
    }
}

# The DWARF number of a 64-bit general-purpose register named "%name".
sub dwarf_register {
    my ($text) = @_;
    my ($name) = $text =~ /^%(\w+)$/ or fail("bad register \"$text\"");
    my $n = $DWARF_REG{ lc $name };
    fail("%$name is not a 64-bit general-purpose register"
         . (gp64_of($name) ? ' (use %' . gp64_of($name) . ')' : '')) unless defined $n;
    return $n;
}

sub operand_bytes {
    my ($tok) = @_;
    if ($tok =~ /^(%\w+)\s*(?:([-+])(.+))?$/) {
        my $off = defined $2 ? evaluate("0$2($3)") : 0;
        return (DW_OP_breg0 + dwarf_register($1), sleb128($off));
    }
    if ($tok =~ /^(.*?)\(\s*(%\w+)\s*\)$/) {
        my $off = length $1 ? evaluate($1) : 0;
        return (DW_OP_breg0 + dwarf_register($2), sleb128($off));
    }
    if ($tok =~ /^\+(.+)$/ && is_constant($1)) {
        return (DW_OP_plus_uconst, uleb128(evaluate($1)));
    }
    if (is_constant($tok)) {
        my $v = evaluate($tok);
        return DW_OP_lit0 + $v if $v >= 0 && $v < 32;
        return (DW_OP_consts, sleb128($v));
    }
    if ($tok =~ /^(\w+):(.+?)(U?)$/) {
        my $op = $WITH_ARG{$1} // fail("unknown DWARF operator \"$1\" in \"$tok\"");
        my $v = evaluate($2);
        return ($op, $3 ? uleb128($v) : sleb128($v));
    }
    return $SIMPLE{$tok} // fail("unknown DWARF operator \"$tok\"");
}

# The bytes of the expression written as @operands (already split on commas).
sub expression_bytes {
    my (@operands) = @_;
    fail("empty DWARF expression") unless @operands;
    return map { operand_bytes($_) } @operands;
}

1;
