# SPDX-License-Identifier: Apache-2.0
# Constant expressions of the 64-bit layer, evaluated in this one place.
#
# Wherever the layer itself needs a number (.cfi_* offsets, .align,
# .zero, .function options, the operands of .cfi_cfa_expression) the
# text may be an integer expression: the operators of OpenSSL's perlasm,
# which hands such text to Perl, with Perl's precedence,
#   unary - + ~ !   * / %   + -   << >>   &   | ^
# parentheses, and decimal, 0x hexadecimal, 0b binary or 0-prefixed octal
# numbers.  Arithmetic is on 64-bit integers; / and % truncate toward
# zero, as the assemblers do.  Anything else (a symbol, a stray
# character, division by zero) is an error that quotes the text.
package X64::Expr;

use strict;
use warnings;
use Exporter 'import';

our @EXPORT_OK = qw(evaluate is_constant);

# Binary operators by precedence level, loosest first.
my @LEVELS = ([ '|', '^' ], [ '&' ], [ '<<', '>>' ], [ '+', '-' ], [ '*', '/', '%' ]);

sub fail { my ($text, $why) = @_; die "bad expression \"$text\": $why\n" }

sub tokens {
    my ($text) = @_;
    my @t;
    my $s = $text;
    while (length $s) {
        if    ($s =~ s/^\s+//) { next }
        elsif ($s =~ s/^0x([0-9a-f]+)//i) { push @t, [ num => hex $1 ] }
        elsif ($s =~ s/^0b([01]+)//i)     { push @t, [ num => oct "0b$1" ] }
        elsif ($s =~ s/^(0[0-7]*)(?![\w])//) { push @t, [ num => oct $1 ] }
        elsif ($s =~ s/^([1-9]\d*)(?![\w])//) { push @t, [ num => 0 + $1 ] }
        elsif ($s =~ s/^(<<|>>|[-+*\/%&|^~!()])//) { push @t, [ op => $1 ] }
        elsif ($s =~ /^([A-Za-z_.\$][\w.\$]*)/) { fail($text, "\"$1\" is not a number") }
        else { fail($text, 'unexpected "' . substr($s, 0, 1) . '"') }
    }
    return @t;
}

# Wraps a Perl integer to a signed 64-bit value.
sub wrap64 {
    my ($v) = @_;
    use integer;
    return $v + 0;
}

sub apply {
    my ($text, $op, $a, $b) = @_;
    use integer;
    return $a + $b if $op eq '+';
    return $a - $b if $op eq '-';
    return $a * $b if $op eq '*';
    if ($op eq '/' || $op eq '%') {
        fail($text, 'division by zero') if $b == 0;
        return $op eq '/' ? $a / $b : $a % $b;
    }
    return $a << $b if $op eq '<<';
    return $a >> $b if $op eq '>>';
    return $a & $b if $op eq '&';
    return $a | $b if $op eq '|';
    return $a ^ $b;
}

# Recursive descent over the token list (consumed from the front).
sub binary {
    my ($text, $t, $level) = @_;
    return unary($text, $t) if $level > $#LEVELS;
    my $v = binary($text, $t, $level + 1);
    while (@$t && $t->[0][0] eq 'op' && grep { $_ eq $t->[0][1] } @{ $LEVELS[$level] }) {
        my $op = (shift @$t)->[1];
        $v = apply($text, $op, $v, binary($text, $t, $level + 1));
    }
    return $v;
}

sub unary {
    my ($text, $t) = @_;
    my $tok = shift @$t or fail($text, 'it ends too early');
    use integer;
    return $tok->[1] if $tok->[0] eq 'num';
    my $op = $tok->[1];
    return -unary($text, $t) if $op eq '-';
    return unary($text, $t) if $op eq '+';
    return ~unary($text, $t) if $op eq '~';
    return unary($text, $t) ? 0 : 1 if $op eq '!';
    if ($op eq '(') {
        my $v = binary($text, $t, 0);
        my $close = shift @$t;
        fail($text, 'a "(" is not closed') unless $close && $close->[1] eq ')';
        return $v;
    }
    fail($text, "\"$op\" where a number belongs");
}

# The value of $text; dies with a message quoting it when it is not a
# constant expression.
sub evaluate {
    my ($text) = @_;
    fail('', 'it is empty') unless defined $text && $text =~ /\S/;
    my @t = tokens($text);
    my $v = binary($text, \@t, 0);
    fail($text, "\"$t[0][1]\" after the end") if @t;
    return wrap64($v);
}

# True when $text is a constant expression (no symbol, nothing malformed).
sub is_constant {
    my ($text) = @_;
    return defined eval { evaluate($text); 1 };
}

1;
