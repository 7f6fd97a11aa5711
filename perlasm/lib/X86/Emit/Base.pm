# SPDX-License-Identifier: Apache-2.0
# The interface every 32-bit back end implements:
#   new(flavour => NAME, pic => 'none'|'got'|'macho')
#   render(PROGRAM) -> the whole output text
# render() walks the statements of an X86::Program and calls one method
# per statement kind (st_insn, st_label, st_func, st_endfunc, st_cfi,
# st_data, st_section, st_align, st_comment, st_extern), between header()
# and footer().  A back end is one file; adding a flavour touches one file.
package X86::Emit::Base;

use strict;
use warnings;

sub new { my ($class, %opt) = @_; return bless { %opt }, $class }

sub render {
    my ($self, $program) = @_;
    $self->{program} = $program;
    my $out = $self->header;
    for my $s (@{ $program->statements }) {
        my $m = "st_$s->{k}";
        $out .= $self->$m($s);
    }
    return $out . $self->footer;
}

# Whether the program refers to global symbol $name (in an operand, data
# or an extern declaration).
sub uses_symbol {
    my ($self, $name) = @_;
    for my $s (@{ $self->{program}->statements }) {
        return 1 if $s->{k} eq 'extern' && $s->{name} eq $name;
        my @terms = $s->{k} eq 'data' ? map { @$_ } @{ $s->{values} }
                  : $s->{k} eq 'insn' ? map { @{ $_->{disp} // [] } } @{ $s->{ops} } : ();
        return 1 if grep { $_->{kind} =~ /^(?:sym|got|nlptr)$/ && $_->{value} eq $name } @terms;
    }
    return 0;
}

# [SYMBOL, SIZE] when this object is to define SYMBOL as a common symbol
# (X86::Program's common option), else undef.
sub common_symbol {
    my ($self) = @_;
    my $c = $self->{program}{common} or return undef;
    return $self->uses_symbol($c->[0]) ? $c : undef;
}

# Displacement or data TERMs as text; $name_of maps a term to its spelling.
sub terms_text {
    my ($self, $terms) = @_;
    my $text = '';
    for my $t (@$terms) {
        my $v = $self->term($t);
        if ($t->{kind} eq 'num') {
            next if $v == 0 && @$terms > 1;
            $v = -$v if $t->{sign} < 0;
            $text .= ($v < 0 || $text eq '' ? '' : '+') . $v;
        } else {
            $text .= $t->{sign} < 0 ? "-$v" : ($text eq '' ? $v : "+$v");
        }
    }
    return $text eq '' ? '0' : $text;
}

1;
