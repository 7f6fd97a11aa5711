# SPDX-License-Identifier: Apache-2.0
# Stage 1 of the 64-bit layer: one line of perlasm text into statements.
#
# A statement is a hash with `kind`:
#   label      { name }
#   insn       { mnemonic, prefix, operands => [operand...] }
#   directive  { name (with the dot), args (text) }
# Operands, in AT&T order:
#   { type => 'reg', reg, mask, zero }
#   { type => 'imm', expr }
#   { type => 'mem', seg, disp, base, index, scale, bcst, mask, zero }
#   { type => 'expr', expr }              (jump/call target)
# with `indirect => 1` for `*operand`.  Expressions stay text; emitters
# rename the symbols in them through X64::Parser::map_symbols.
package X64::Parser;

use strict;
use warnings;
use Exporter 'import';
use X64::ISA qw(register_info lookup_mnemonic gp64_of);

our @EXPORT_OK = qw(parse_line map_symbols);

# Errors are "die"d as plain text; the driver adds file and line.
sub fail { die "$_[0]\n" }

sub strip_comment {
    my ($line) = @_;
    my $out = '';
    my $quote = 0;
    for my $ch (split //, $line) {
        $quote = !$quote if $ch eq '"';
        last if !$quote && $ch eq '#';
        $out .= $ch;
    }
    return $out;
}

# Split on commas outside (), {} and quotes.
sub split_operands {
    my ($text) = @_;
    my @parts;
    my ($cur, $depth, $quote) = ('', 0, 0);
    for my $ch (split //, $text) {
        $quote = !$quote if $ch eq '"';
        if (!$quote) {
            $depth++ if $ch eq '(' || $ch eq '{';
            $depth-- if $ch eq ')' || $ch eq '}';
            if ($ch eq ',' && $depth == 0) {
                push @parts, $cur;
                $cur = '';
                next;
            }
        }
        $cur .= $ch;
    }
    push @parts, $cur if $cur =~ /\S/ || @parts;
    s/^\s+|\s+$//g for @parts;
    return @parts;
}

sub reg_name {
    my ($text) = @_;
    my ($name) = $text =~ /^%(\w+)$/ or fail("bad register syntax \"$text\"");
    register_info($name) or fail("unknown register %$name");
    return lc $name;
}

# A base or index register.  A 32-bit one is taken as its 64-bit register,
# as OpenSSL's layer does (its modules index with 32-bit counters).
sub address_reg {
    my ($text) = @_;
    my $r = reg_name($text);
    my $info = register_info($r);
    return $info->[0] eq 'gp' && $info->[1] == 4 ? gp64_of($r) : $r;
}

# Trailing {%kN} and {z} decorations of a register or memory operand.
sub take_decorations {
    my ($text, $op) = @_;
    while ($text =~ s/\{([^{}]*)\}\s*$//) {
        my $d = $1;
        if ($d =~ /^%(k[0-7])$/)    { $op->{mask} = $1 }
        elsif ($d eq 'z')           { $op->{zero} = 1 }
        elsif ($d =~ /^1to(\d+)$/)  { $op->{bcst} = $1 }
        else { fail("unknown operand decoration {$d}") }
        $text =~ s/\s+$//;
    }
    return $text;
}

sub parse_operand {
    my ($text) = @_;
    my %op;
    $op{indirect} = 1 if $text =~ s/^\*\s*//;
    $text = take_decorations($text, \%op);

    if ($text =~ /^%/) {
        return { %op, type => 'reg', reg => reg_name($text) };
    }
    if ($text =~ /^\$(.+)$/) {
        return { %op, type => 'imm', expr => $1 };
    }
    my $seg;
    $seg = reg_name($1) if $text =~ s/^(%[a-z]s)\s*:\s*//;
    if ($text =~ /^(.*?)\(\s*([^()]*)\)$/) {
        my ($disp, $inside) = ($1, $2);
        my ($base, $index, $scale) = map { s/^\s+|\s+$//gr } split /,/, $inside, -1;
        my %mem = (%op, type => 'mem', disp => $disp, seg => $seg);
        $mem{base}  = address_reg($base)  if defined $base  && length $base;
        $mem{index} = address_reg($index) if defined $index && length $index;
        if (defined $scale && length $scale) {
            fail("bad scale $scale") unless $scale =~ /^[1248]$/;
            $mem{scale} = $scale;
        }
        return \%mem;
    }
    fail("empty operand") unless length $text;
    return { %op, type => 'mem', disp => $text, seg => $seg, absolute => 1 }
        if $seg;
    return { %op, type => 'expr', expr => $text };
}

# Returns a list of statements (a label may share a line with more).
sub parse_line {
    my ($line) = @_;
    $line = strip_comment($line);
    my @out;
    while ($line =~ s/^\s*([A-Za-z_.\$][\w.\$]*|\d+)\s*:(?!:)//) {
        push @out, { kind => 'label', name => $1 };
    }
    $line =~ s/^\s+|\s+$//g;
    return @out unless length $line;

    # Several statements may be separated by ';' (outside strings).
    if ($line =~ /;/ && $line !~ /"/) {
        return (@out, map { parse_line($_) } split /;/, $line);
    }
    if ($line =~ /^(\.\w+)\s*(.*)$/) {
        return (@out, { kind => 'directive', name => lc $1, args => $2 });
    }
    my ($mnemonic, $rest) = $line =~ /^([A-Za-z][\w]*)\s*(.*)$/
        or fail("cannot parse \"$line\"");
    my $prefix;
    if ($mnemonic =~ /^(rep|repe|repz|repne|repnz|lock)$/i && $rest =~ /^[a-z]/i) {
        $prefix = lc $mnemonic;
        ($mnemonic, $rest) = $rest =~ /^([A-Za-z][\w]*)\s*(.*)$/;
    }
    lookup_mnemonic($mnemonic) or fail("unknown instruction \"$mnemonic\"");
    my @operands = map { parse_operand($_) } split_operands($rest);
    return (@out, { kind => 'insn', mnemonic => lc $mnemonic,
                    prefix => $prefix, operands => \@operands });
}

# Rewrite each symbol name in an expression with $cb->(name); numbers,
# numeric local labels (1b, 2f) and "." are left alone.
sub map_symbols {
    my ($expr, $cb) = @_;
    return $expr unless defined $expr;
    $expr =~ s/(?<![\w.\$])([A-Za-z_.\$][\w.\$]*)/$1 eq '.' ? '.' : $cb->($1)/ge;
    return $expr;
}

1;
