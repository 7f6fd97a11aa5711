# SPDX-License-Identifier: Apache-2.0
# Intel syntax for nasm -f win32 (the win32n flavour): destination first,
# sizes as keywords where no register gives them, cdecl names with "_",
# local labels L$..., every external symbol declared with "extern".
package X86::Emit::Nasm;

use strict;
use warnings;
use parent -norequire, 'X86::Emit::Base';
require X86::Emit::Base;

sub global { my ($self, $name) = @_; return "_$name" }
sub local_label { my ($self, $id) = @_; return 'L$' . substr($id, 2) }

sub term {
    my ($self, $t) = @_;
    my $k = $t->{kind};
    return $t->{value} if $k eq 'num';
    return $self->local_label($t->{value}) if $k eq 'label';
    return $self->global($t->{value}) if $k eq 'sym';
    die "win32n has no $k references (position-independent code is ELF and Mach-O only)\n";
}

my %SIZE = (1 => 'BYTE', 2 => 'WORD', 4 => 'DWORD', 8 => 'QWORD');
my %RENAME = (rep_movsb => 'rep movsb', rep_movsd => 'rep movsd',
              rep_stosb => 'rep stosb', rep_stosd => 'rep stosd');

sub operand {
    my ($self, $op, $size) = @_;
    my $t = $op->{type};
    return $op->{reg} if $t eq 'reg';
    return ($size ? "$SIZE{$size} " : '') . $op->{value} if $t eq 'imm';
    return $self->local_label($op->{name}) if $t eq 'label';
    return $self->global($op->{name}) if $t eq 'symbol';
    return $self->terms_text($op->{disp}) if $t eq 'bare';    # see X86::Program::bare_label
    my @in;
    push @in, $op->{base} if $op->{base};
    push @in, $op->{index} . ($op->{scale} != 1 ? "*$op->{scale}" : '') if $op->{index};
    my $disp = $self->terms_text($op->{disp});
    if ($disp ne '0' || !@in) {
        push @in, $disp;
    }
    my $inner = join('+', @in);
    $inner =~ s/\+-/-/g;
    return ($size ? "$SIZE{$size} " : '') . "[$inner]";
}

sub st_insn {
    my ($self, $s) = @_;
    my $mn = $RENAME{ $s->{mn} } // $s->{mn};
    my @ops = @{ $s->{ops} };
    my @text;
    for my $i (0 .. $#ops) {
        my $sz;
        # The size keyword goes on the first memory or immediate operand
        # when no register gives the size; movzx/movsx always name it.
        $sz = $s->{size} if $s->{size} && $i == 0;
        $sz = $s->{src_size} if $s->{kind} eq 'ext' && $i == 1 && $ops[1]{type} eq 'mem';
        $sz = 4 if $s->{kind} eq 'branch' && $ops[$i]{type} eq 'mem';
        push @text, $self->operand($ops[$i], $sz);
    }
    # near_jumps (OpenSSL's conventions): every jump to a label in its
    # near form, as OpenSSL's layer writes them (nasm would pick short).
    $text[0] = "NEAR $text[0]" if $self->{near_jumps} && $mn =~ /^j/ && @ops == 1
        && $ops[0]{type} =~ /^(?:label|symbol)$/;
    # One-operand shifts and rotates shift by one.
    push @text, 1 if @ops == 1 && $mn =~ /^(shl|shr|sar|sal|rol|ror|rcl|rcr)$/;
    return "\t$mn" . (@text ? "\t" . join(',', @text) : '') . "\n";
}

sub st_label {
    my ($self, $s) = @_;
    return ($s->{public} ? $self->global($s->{name}) : $self->local_label($s->{name})) . ":\n";
}
sub st_public  { my ($self, $s) = @_; return "global\t" . $self->global($s->{name}) . "\n" }
sub st_safeseh {
    my ($self, $s) = @_;
    return "%if __NASM_VERSION_ID__ >= 0x02030000\nsafeseh\t" . $self->global($s->{name}) . "\n%endif\n";
}
sub st_comment { my ($self, $s) = @_; return length $s->{text} ? "; $s->{text}\n" : "\n" }
sub st_extern  { '' }    # declared from the references, in header()
sub st_cfi     { '' }    # no DWARF on Win32; SEH needs no tables here
sub st_endfunc { '' }
sub st_hidden  { '' }    # no visibility in COFF objects

sub st_align {
    my ($self, $s) = @_;
    return $self->{in_data} ? "\talign\t$s->{n},db 0\n" : "\talign\t$s->{n}\n";
}

sub st_section {
    my ($self, $s) = @_;
    $self->{in_data} = $s->{name} ne 'text';
    return "section\t.data align=4\n" if $s->{name} eq 'data';
    return $s->{name} eq 'text' ? "section\t.text\n" : "section\t.rdata\n";
}

sub st_func {
    my ($self, $s) = @_;
    my $g = $self->global($s->{name});
    return ($s->{private} ? '' : "global\t$g\n") . "\talign\t16\n$g:\n";
}

my %DATA = (1 => 'db', 2 => 'dw', 4 => 'dd');
sub st_data {
    my ($self, $s) = @_;
    return "\t$DATA{$s->{size}}\t" . join(',', map { $self->terms_text($_) } @{ $s->{values} }) . "\n";
}

# The global symbols the code uses and does not define, sorted.
sub externs {
    my ($self) = @_;
    my $st = $self->{program}->statements;
    my %defined = map { $_->{name} => 1 } grep { $_->{k} eq 'func' } @$st;
    my %used;
    for my $s (grep { $_->{k} eq 'insn' } @$st) {
        for my $op (@{ $s->{ops} }) {
            $used{ $op->{name} } = 1 if $op->{type} eq 'symbol';
            $used{ $_->{value} } = 1 for grep { $_->{kind} eq 'sym' } @{ $op->{disp} // [] };
        }
    }
    for my $s (grep { $_->{k} eq 'data' || $_->{k} eq 'extern' } @$st) {
        $used{ $s->{name} } = 1 if $s->{k} eq 'extern';
        next unless $s->{k} eq 'data';
        $used{ $_->{value} } = 1 for grep { $_->{kind} eq 'sym' } map { @$_ } @{ $s->{values} };
    }
    my $c = $self->common_symbol;
    $defined{ $c->[0] } = 1 if $c;
    return grep { !$defined{$_} } sort keys %used;
}

sub header {
    my ($self) = @_;
    my $h = "bits\t32\n";
    # SAFESEH: an absolute @feat.00 with bit 0 set (no unsafe handlers).
    $h .= "\$\@feat.00\tequ\t1\n";
    $h .= "extern\t" . $self->global($_) . "\n" for $self->externs;
    return "${h}section\t.text\n";
}

# &initseg: a pointer in .CRT$XCU, which the C runtime calls at start-up.
sub footer {
    my ($self) = @_;
    my $out = '';
    my $c = $self->common_symbol;
    $out .= "segment\t.bss\ncommon\t" . $self->global($c->[0]) . " $c->[1]\n" if $c;
    my $init = $self->{program}->initseg_function or return $out;
    my $g = $self->global($init);
    return $out . "segment\t.CRT\$XCU data align=4\nextern\t$g\ndd\t$g\n";
}

1;
