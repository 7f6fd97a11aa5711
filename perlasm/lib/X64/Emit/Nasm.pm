# SPDX-License-Identifier: Apache-2.0
# Win64 with nasm: Intel syntax (destination first, sizes as keywords,
# RIP-relative memory as [rel sym]); unwind tables arrive as .pdata/.xdata
# data, the same bytes the mingw64 flavour emits.
package X64::Emit::Nasm;

use strict;
use warnings;
use X64::Parser qw(map_symbols);
use X64::ISA qw(lookup_mnemonic register_info);
use X64::Expr qw(evaluate is_constant);

sub new { my ($class, %opt) = @_; return bless { %opt }, $class }
sub win64 { 1 }
sub labels_are_symbols { 1 }   # every label, L$ ones too, is a COFF symbol
sub has_cfi { 0 }

sub die_here { die "$_[0]\n" }

# --- names ---------------------------------------------------------------
sub symbol {
    my ($self, $name) = @_;
    die_here("numeric local label $name is not supported by the $self->{flavour} flavour")
        if $name =~ /^\d+[bf]?$/;
    return 'L$' . substr($name, 2) if $name =~ /^\.L/;
    return $name;
}

sub expr {
    my ($self, $e) = @_;
    $e = map_symbols($e, sub { $self->symbol($_[0]) });
    $e =~ s/(?<![\w\$])\.(?![\w\$])/\$/g;     # "." (here) is "$" in nasm
    return $e;
}

my %SIZE = (1 => 'BYTE', 2 => 'WORD', 4 => 'DWORD', 8 => 'QWORD',
            16 => 'OWORD', 32 => 'YWORD', 64 => 'ZWORD');
sub size_keyword { my ($self, $n) = @_; return $SIZE{$n} }

sub mem_text {
    my ($self, $op) = @_;
    my @terms;
    my $disp = $self->expr($op->{disp} // '');
    if (($op->{base} // '') eq 'rip') {
        return "[rel $disp]";
    }
    # nasm joins the displacement to the registers with "+": a constant
    # expression goes in as its value (X64::Expr), any other with an
    # operator in parentheses, so its precedence cannot change.  A
    # displacement is a signed 32-bit number: 0x80000000 and up, which
    # GNU as takes as written, is given to nasm as the negative it means.
    my $disp_text = $disp;
    my $disp_is_expr = $disp =~ /[-+*\/%<>&|^~!()]/ && $disp !~ /^-?\w+$/;
    if ($disp_is_expr) {
        $disp = is_constant($disp) ? evaluate($disp) : "($disp)";
    }
    if (is_constant($disp) && (my $v = evaluate($disp)) >= 2**31) {
        $disp = $v < 2**32 ? $v - 2**32 : $disp;
    }
    # With both registers: "disp+index*scale+base", as OpenSSL's nasm
    # flavour writes it.  For a scale of 1 nasm picks which register is
    # the base from the text's shape, so the same shape gives OpenSSL's
    # encoding.
    push @terms, $op->{index} . "*" . ($op->{scale} // 1) if $op->{index} && $op->{base};
    push @terms, $op->{base} if $op->{base};
    push @terms, $op->{index} . (($op->{scale} // 1) != 1 ? "*$op->{scale}" : '')
        if $op->{index} && !$op->{base};
    my $inside = join '+', @terms;
    if (length $disp && $disp ne '0' && $op->{index} && $op->{base}) {
        # OpenSSL's shape, expression kept as written: nasm makes the
        # scaled register the base after an expression it folds and the
        # other one after a plain number.
        $inside = ($disp_is_expr ? "(($disp_text))" : $disp) . "+$inside";
    } elsif (length $disp && $disp ne '0') {
        $inside = length $inside
            ? ($disp =~ /^-/ ? "$inside$disp" : "$inside+$disp") : $disp;
    }
    $inside = '0' unless length $inside;
    my $seg = $op->{seg} ? "$op->{seg}:" : '';
    return "[$seg$inside]";
}

sub decorations {
    my ($self, $op) = @_;
    my $d = '';
    $d .= "{1to$op->{bcst}}" if $op->{bcst};
    $d .= "{$op->{mask}}"    if $op->{mask};
    $d .= '{z}'              if $op->{zero};
    return $d;
}

sub operand {
    my ($self, $op, $size) = @_;
    return $op->{reg} . $self->decorations($op) if $op->{type} eq 'reg';
    return $self->expr($op->{expr}) if $op->{type} eq 'imm' || $op->{type} eq 'expr';
    my $kw = $size ? $self->size_keyword($size) : '';
    return ($kw ? "$kw" : '') . $self->mem_text($op) . $self->decorations($op);
}

# Operand size a memory operand needs spelled out, if any.
sub memory_size {
    my ($self, $info, $st) = @_;
    return $info->{src_size} if $info->{src_size};
    if ($info->{class} eq 'gp' || $info->{class} eq 'plain') {
        return $info->{size} if $info->{size};
        # Branches through memory, push/pop: 64-bit.
        return 8 if $info->{name} =~ /^(call|jmp|push|pop)$/;
    }
    return 0;
}

sub insn {
    my ($self, $st) = @_;
    my $info = { %{ lookup_mnemonic($st->{mnemonic}) } };
    my @ops = @{ $st->{operands} };
    my $vec = grep { $_->{type} eq 'reg' && register_info($_->{reg})->[0] =~ /^(vec|mmx)$/ } @ops;
    if ($info->{name} eq 'movq' && !$vec) {
        # movq between integer registers/memory is plain mov.
        @$info{qw(name size class)} = ('mov', 8, 'gp');
    }
    my $size = $self->memory_size($info, $st);
    $size = 0 if $info->{name} eq 'lea';
    my @text = map { $self->operand($_, $_->{type} eq 'mem' ? $size : 0) } reverse @ops;
    # A jump to a label is always the rel32 form, as OpenSSL's nasm flavour
    # writes it: the same code whichever nasm optimises or not.
    @text = map { $self->near_target($_) } @text
        if $info->{rel32} && @ops == 1 && $ops[0]{type} eq 'expr' && !$ops[0]{indirect};
    my $line = "\t" . ($st->{prefix} ? "$st->{prefix} " : '') . $info->{name};
    $line .= "\t" . join(', ', @text) if @text;
    return "$line\n";
}

sub near_target { my ($self, $t) = @_; return "NEAR $t" }
sub label { my ($self, $n) = @_; return $self->symbol($n) . ":\n" }
sub comment { my ($self, $text) = @_; return "; $text\n" }
sub endbr { return "\tendbr64\n" }

# --- directives --------------------------------------------------------------
sub file_header {
    return "default rel\n";
}
sub file_footer { '' }

my %SECTION = (
    text   => 'section .text code align=64',
    data   => 'section .data data align=8',
    rodata => 'section .rdata rdata align=64',
    bss    => 'section .bss bss align=64',
    pdata  => 'section .pdata rdata align=4',
    xdata  => 'section .xdata rdata align=8',
    init   => 'section .CRT$XCU rdata align=8',   # the C run-time's initialisers
);
# The read-only data sections take the alignment the input gives
# (.section NAME align=N); the others keep their own.
my %INPUT_ALIGNS = map { $_ => 1 } qw(rodata pdata xdata);
sub input_align {
    my ($self, $kind, $align) = @_;
    return $INPUT_ALIGNS{$kind} ? $align : undef;
}
sub section {
    my ($self, $kind, $raw, $align) = @_;
    my $line = $SECTION{$kind} or die_here("section $raw has no $self->{flavour} equivalent");
    $align = $self->input_align($kind, $align);
    $line =~ s/align=\d+$/align=$align/ if defined $align;
    return "$line\n";
}

sub p2align { my ($self, $n) = @_; return "ALIGN\t$n\n" }

my %DATA = (byte => 'DB', value => 'DW', long => 'DD', quad => 'DQ');
sub data {
    my ($self, $type, @items) = @_;
    return "\t$DATA{$type}\t" . join(',', map { $self->expr($_) } @items) . "\n";
}
# Reserved, not initialised, in .bss (nasm refuses data there).
sub zero {
    my ($self, $n, $section) = @_;
    return $section eq 'bss' ? "\tresb\t$n\n" : "\ttimes $n db 0\n";
}
sub asciz { my ($self, $s) = @_; return "\tDB\t$s,0\n" }
sub init_entry { my ($self, $st, $sym) = @_; return "\tDQ\t" . $self->expr($sym) . "\n" }
sub rva { my ($self, $e) = @_; return "\tDD\t" . $self->expr($e) . " wrt ..imagebase\n" }

sub global { my ($self, $n) = @_; return "global\t" . $self->symbol($n) . "\n" }
sub hidden { '' }
sub extern { my ($self, $n) = @_; return "extern\t" . $self->symbol($n) . "\n" }
sub comm {
    my ($self, $n, $size) = @_;
    return "common\t" . $self->symbol($n) . " $size\n";
}
sub set_const { my ($self, $n, $e) = @_; return "$n\tequ\t" . $self->expr($e) . "\n" }
sub function_type { '' }
sub object_type { '' }
sub size { '' }
sub cfi { '' }

1;
