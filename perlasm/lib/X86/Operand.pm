# SPDX-License-Identifier: Apache-2.0
# Operands as a module writes them ("eax", 16, &DWP(4,"esp","ecx",4),
# &label("loop"), "external_symbol") turned into structures the back ends
# print.  Every check happens here, at the module's line.
#
#   { type => 'reg',  reg => 'eax', class => 'gpr'|'mmx'|'xmm'|'ymm', size => 4 }
#   { type => 'imm',  value => 42 }
#   { type => 'mem',  size => 4 or undef, base, index, scale, disp => [TERM...] }
#   { type => 'label', name => '.L003loop' }      (branch targets)
#   { type => 'symbol', name => 'memcpy' }        (branch targets)
#   { type => 'bare', disp => [TERM] }            (&push(LABEL) under OpenSSL's
#                                                  conventions: X86::Program::bare_label)
# A displacement is a sum of TERMs { sign => 1|-1, kind, value }:
#   num (an integer), label (local), sym (global), and the PIC forms
#   got (sym@GOT), gotpc (_GLOBAL_OFFSET_TABLE_ from a reference label)
#   and nlptr (a Mach-O non-lazy pointer cell).
package X86::Operand;

use strict;
use warnings;
use Exporter 'import';
use X86::ISA qw(register_info);
use X86::Diag qw(fail);

our @EXPORT_OK = qw(memory operand is_label_name parse_disp);

# Local labels are handed to modules as strings of this form, so that
# "&label('tbl').'-'.&label('pic')" works inside a displacement.
sub is_label_name { return defined $_[0] && !ref $_[0] && $_[0] =~ /^\.L\d{3,}\w*$/ }

my $NUM = qr/(?:0x[0-9a-fA-F]+|\d+)/;

sub num_value { my ($t) = @_; return $t =~ /^0x/i ? hex($t) : 0 + $t }

# A displacement as a module writes it: a number, or a sum and difference
# of numbers, labels and symbols ("16", "-8", ".L001tbl-.L002pic+4").
sub parse_disp {
    my ($d) = @_;
    return [] if !defined $d || $d =~ /^\s*$/;
    return [ @$d ] if ref $d eq 'ARRAY';
    fail("a displacement cannot be a " . ref($d)) if ref $d;
    my $s = $d;
    $s =~ s/\s+//g;
    my @terms;
    my $const = 0;
    fail("bad displacement \"$d\"") if $s eq '';
    $s = "+$s" unless $s =~ /^[+-]/;
    while (length $s) {
        $s =~ s/^([+-])([A-Za-z_.\$][\w.\$]*|$NUM)// or fail("bad displacement \"$d\"");
        my ($sign, $t) = ($1 eq '-' ? -1 : 1, $2);
        if ($t =~ /^$NUM$/) { $const += $sign * num_value($t); next }
        if (is_label_name($t)) { push @terms, { sign => $sign, kind => 'label', value => $t }; next }
        fail("\"$t\" in a displacement is a register; give it as base or index")
            if register_info($t);
        push @terms, { sign => $sign, kind => 'sym', value => $t };
    }
    push @terms, { sign => 1, kind => 'num', value => $const } if $const || !@terms;
    return \@terms;
}

sub gpr32 {
    my ($name, $role) = @_;
    return undef if !defined $name || $name eq '';
    my $r = register_info($name);
    fail("unknown register \"$name\"") unless $r;
    fail("$role register must be a 32-bit general register, not $name")
        unless $r->{class} eq 'gpr' && $r->{size} == 4;
    return $r->{name};
}

# memory(SIZE, DISP, BASE, INDEX, SCALE): what &DWP and friends return.
sub memory {
    my ($size, $disp, $base, $index, $scale) = @_;
    my $m = bless { type => 'mem', size => $size }, 'X86::Mem';
    $m->{disp}  = parse_disp($disp);
    $m->{base}  = gpr32($base, 'a base');
    $m->{index} = gpr32($index, 'an index');
    if (defined $m->{index}) {
        fail("esp cannot be an index register") if $m->{index} eq 'esp';
        $scale = 1 if !defined $scale || $scale eq '' || $scale eq '0';
        fail("bad scale $scale (1, 2, 4 or 8)") unless $scale =~ /^[1248]$/;
        $m->{scale} = 0 + $scale;
    } elsif (defined $scale && $scale ne '' && $scale ne '0' && $scale ne '1') {
        fail("a scale ($scale) without an index register");
    }
    return $m;
}

# One argument of an instruction.  $branch: a label or symbol is a target.
sub operand {
    my ($v, $branch) = @_;
    fail("an undefined operand") unless defined $v;
    if (ref $v) {
        return { %$v } if ref $v eq 'X86::Mem';
        fail("an operand cannot be a " . ref($v) . " reference");
    }
    if (my $r = register_info($v)) {
        return { type => 'reg', reg => $r->{name}, class => $r->{class}, size => $r->{size} };
    }
    if ($v =~ /^\s*(-?)\s*($NUM)\s*$/) {
        return { type => 'imm', value => ($1 ? -1 : 1) * num_value($2) };
    }
    if ($branch) {
        return { type => 'label', name => $v } if is_label_name($v);
        return { type => 'symbol', name => $v } if $v =~ /^[A-Za-z_][\w\$]*$/;
    }
    fail("unknown register \"$v\"") if $v =~ /^[A-Za-z]\w*$/;
    fail("bad operand \"$v\"");
}

package X86::Mem;
use overload '""' => sub {
    my ($m) = @_;
    my $d = join '', map { ($_->{sign} < 0 ? '-' : '+') . $_->{value} } @{ $m->{disp} };
    return sprintf('mem%s[%s%s%s]', $m->{size} ? $m->{size} * 8 : '', $d,
                   $m->{base} ? "+$m->{base}" : '',
                   $m->{index} ? "+$m->{index}*$m->{scale}" : '');
}, fallback => 1;

1;
