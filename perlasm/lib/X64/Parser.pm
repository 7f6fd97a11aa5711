# SPDX-License-Identifier: Apache-2.0
# Stage 1 of the 64-bit layer: one line of perlasm text into statements.
#
# A statement is a hash with `kind`:
#   label      { name }
#   insn       { mnemonic, prefix (rep..., lock, {vex}), operands => [operand...] }
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
use X64::ISA qw(register_info lookup_mnemonic size_suffix gp64_of);

our @EXPORT_OK = qw(parse_line map_symbols check_text);

# Errors are "die"d as plain text; the driver adds file and line.
sub fail { die "$_[0]\n" }

# Well-formed UTF-8, one character at a time (no overlong form, no
# surrogate, nothing above U+10FFFF).
my $UTF8_CHAR = qr/[\x00-\x7f]|[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]
                 |[\xe1-\xec\xee\xef][\x80-\xbf]{2}|\xed[\x80-\x9f][\x80-\xbf]
                 |\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}|\xf4[\x80-\x8f][\x80-\xbf]{2}/x;

# check_text(LINE): LINE (bytes, its newline removed) must be text: UTF-8
# with no control character but tab and form feed.  Binary input (NUL
# bytes, random bytes) stops here at its first line, naming the column,
# rather than as a parse error quoting the bytes.
sub check_text {
    my ($line) = @_;
    if ($line =~ /[\x00-\x08\x0a\x0b\x0d-\x1f\x7f]/) {
        my $byte = ord substr($line, $-[0], 1);
        fail(sprintf('not text: %s at column %d (binary input?)',
                     $byte ? sprintf('control character 0x%02x', $byte) : 'a NUL byte', $-[0] + 1));
    }
    return unless $line =~ /[\x80-\xff]/;
    pos($line) = 0;
    1 while $line =~ /\G(?:[\x00-\x7f]+|$UTF8_CHAR)/gc;
    my $at = pos($line);
    fail(sprintf('not UTF-8 text: byte 0x%02x at column %d (binary input?)', ord substr($line, $at, 1), $at + 1))
        if $at < length $line;
}

# Comments: '#' to the end of the line and C's /* ... */ (OpenSSL's
# modules write both), neither inside a string.  A /* left open is an
# error rather than a line silently cut short.
sub strip_comment {
    my ($line) = @_;
    my $out = '';
    my $quote = 0;
    my $i = 0;
    while ($i < length $line) {
        my $ch = substr($line, $i, 1);
        $quote = !$quote if $ch eq '"';
        if (!$quote && $ch eq '#') { last }
        if (!$quote && substr($line, $i, 2) eq '/*') {
            my $end = index($line, '*/', $i + 2);
            fail("unterminated /* comment") if $end < 0;
            $out .= ' ';
            $i = $end + 2;
            next;
        }
        $out .= $ch;
        $i++;
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

# A displacement is a signed 32-bit field; OpenSSL's modules also write
# one as its unsigned bit pattern (0xd76aa478 in md5), which nasm refuses:
# a plain number from 2^31 to 2^32-1 is taken as that pattern.
sub signed_disp32 {
    my ($disp) = @_;
    my ($n) = $disp =~ /^\s*(0x[0-9a-f]+|\d+)\s*$/i or return $disp;
    my $v = $n =~ /^0x/i ? hex $n : $n;
    return $v >= 2**31 && $v < 2**32 ? $v - 2**32 : $disp;
}

# A base or index register: OpenSSL's dialect lets a module name the
# 32-bit half (%ecx for %rcx) and means the 64-bit register, so that an
# index kept in a 32-bit variable needs no second name.
sub address_reg {
    my ($text) = @_;
    my $name = reg_name($text);
    return $name unless register_info($name)->[0] eq 'gp';
    my $wide = gp64_of($name);
    fail("%$name cannot address memory") unless $wide && register_info($name)->[1] >= 4;
    return $wide;
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
        $disp = signed_disp32($disp);
        my ($base, $index, $scale) = map { s/^\s+|\s+$//gr } split /,/, $inside, -1;
        my %mem = (%op, type => 'mem', disp => $disp, seg => $seg);
        $mem{base}  = address_reg($base)  if defined $base  && length $base;
        $mem{index} = address_reg($index) if defined $index && length $index;
        if (defined $scale && length $scale) {
            fail("bad scale $scale") unless $scale =~ /^[1248]$/;
            $mem{scale} = $scale;
        }
        # With no displacement, (%rbp,%rX) and (%r13,%rX) need a zero
        # disp8 that (%rX,%rbp) does not: the same address, one byte shorter.
        if ($mem{index} && ($mem{scale} // 1) == 1 && $mem{base}
            && $mem{base} =~ /^(rbp|r13)$/ && $disp =~ /^\s*0?\s*$/) {
            @mem{qw(base index)} = @mem{qw(index base)};
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
    # {vex}: the VEX encoding of an instruction that also has an EVEX one
    # (vpmadd52luq: AVX-IFMA rather than AVX512-IFMA).
    my $vex = $line =~ s/^\{vex\}\s*//;
    my ($mnemonic, $rest) = $line =~ /^([A-Za-z][\w]*)\s*(.*)$/
        or fail("cannot parse \"$line\"");
    my $prefix;
    if ($mnemonic =~ /^(rep|repe|repz|repne|repnz|lock)$/i && $rest =~ /^[a-z]/i) {
        $prefix = lc $mnemonic;
        ($mnemonic, $rest) = $rest =~ /^([A-Za-z][\w]*)\s*(.*)$/;
    }
    my $info = lookup_mnemonic($mnemonic) or fail("unknown instruction \"$mnemonic\"");
    if ($vex) {
        fail("{vex} goes only before an AVX instruction, not $mnemonic")
            if $info->{class} ne 'avx' || defined $prefix;
        $prefix = '{vex}';
    }
    my @texts = split_operands($rest);
    # OpenSSL's dialect: a comma after the last operand is dropped.
    pop @texts if @texts > 1 && $texts[-1] eq '';
    my @operands = map { parse_operand($_) } @texts;
    $mnemonic = complete_movz($mnemonic, $info, @operands) if $info->{complete};
    # OpenSSL's dialect: a bare ret is the two-byte `repz ret` (which old
    # AMD branch predictors want); its layer writes every one so.
    if ($info->{name} eq 'ret' && !@operands && !defined $prefix) {
        ($mnemonic, $prefix) = ('ret', 'repz');
    }
    return (@out, { kind => 'insn', mnemonic => lc $mnemonic,
                    prefix => $prefix, operands => \@operands });
}

# movz, movzb, movzw: the full spelling (movzbl, ...) from the sizes of the
# source (named, or the first register's) and the destination register.
sub complete_movz {
    my ($mnemonic, $info, @ops) = @_;
    fail("$mnemonic needs a source and a destination register") unless @ops == 2;
    my %letter = (1 => 'b', 2 => 'w');
    my $src = $letter{ $info->{src_size} }
        // ($ops[0]{type} eq 'reg' ? size_suffix($ops[0]{reg}) : undef);
    fail("$mnemonic: the source size is unknown (write movzb or movzw)")
        unless defined $src && ($src eq 'b' || $src eq 'w');
    my $dst = $ops[1]{type} eq 'reg' ? size_suffix($ops[1]{reg}) : undef;
    fail("$mnemonic: the destination must be a general-purpose register")
        unless defined $dst;
    my $full = "movz$src$dst";
    fail("$mnemonic: no zero extension from $src to $dst") unless lookup_mnemonic($full);
    return $full;
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
