# SPDX-License-Identifier: Apache-2.0
# AT&T-syntax emitter shared by the GNU-as flavours; each flavour is a
# small subclass (Elf.pm, MachO.pm, Mingw64.pm) that overrides only what
# differs: symbol spelling, section names and what ELF-only directives
# become.
package X64::Emit::Gas;

use strict;
use warnings;
use X64::Parser qw(map_symbols);

sub new {
    my ($class, %opt) = @_;
    return bless { %opt }, $class;
}

sub win64 { 0 }
sub labels_are_symbols { 0 }   # .L labels stay out of the object
sub has_cfi { 1 }

# --- names ---------------------------------------------------------------
sub local_label { my ($self, $name) = @_; return $name }   # ".Lfoo"
# A name with linkage (declared .globl, .extern, .comm or .hidden).
sub global_name { my ($self, $name) = @_; return $name }

sub symbol {
    my ($self, $name) = @_;
    return $name if $name =~ /^\d+[bf]?$/;
    return $self->local_label($name) if $name =~ /^\.L/;
    return $name if $self->{constants}{$name};
    return $self->global_name($name) if $self->{linkage_names}{$name};
    return $name;
}

sub expr {
    my ($self, $e) = @_;
    return map_symbols($e, sub { $self->symbol($_[0]) });
}

# --- instructions ------------------------------------------------------------
sub operand {
    my ($self, $op) = @_;
    my $star = $op->{indirect} ? '*' : '';
    my $deco = '';
    $deco .= "{1to$op->{bcst}}" if $op->{bcst};
    $deco .= "{%$op->{mask}}"  if $op->{mask};
    $deco .= '{z}'             if $op->{zero};
    if ($op->{type} eq 'reg') { return "$star%$op->{reg}$deco" }
    if ($op->{type} eq 'imm') { return '$' . $self->expr($op->{expr}) }
    if ($op->{type} eq 'expr') { return $star . $self->expr($op->{expr}) }
    my $seg = $op->{seg} ? "%$op->{seg}:" : '';
    my $disp = $self->expr($op->{disp} // '');
    return "$star$seg$disp$deco" if $op->{absolute};
    my $inside = join ',', ($op->{base} ? "%$op->{base}" : ''),
        ($op->{index} ? ("%$op->{index}", $op->{scale} // 1) : ());
    return "$star$seg$disp($inside)$deco";
}

sub insn {
    my ($self, $st) = @_;
    my $text = "\t" . ($st->{prefix} ? "$st->{prefix} " : '') . $st->{mnemonic};
    my @ops = map { $self->operand($_) } @{ $st->{operands} };
    $text .= "\t" . join(',', @ops) if @ops;
    return "$text\n";
}

sub label { my ($self, $name) = @_; return $self->symbol($name) . ":\n" }
sub comment { my ($self, $text) = @_; return "# $text\n" }
sub endbr { return "\tendbr64\n" }

# --- directives --------------------------------------------------------------
sub file_header { return '' }
sub file_footer { return '' }

my %SECTION = (
    text   => ".text",
    data   => ".data",
    rodata => ".section\t.rodata",
    bss    => ".bss",
    init   => ".section\t.init",
);
sub section_name { my ($self, $kind) = @_; return $SECTION{$kind} }

sub section {
    my ($self, $kind, $raw) = @_;
    my $name = $self->section_name($kind);
    return "$name\n" if defined $name;
    return ".section\t$raw\n";
}

sub p2align {
    my ($self, $bytes) = @_;
    my $log = 0;
    $log++ while (1 << $log) < $bytes;
    return "\t.p2align\t$log\n";
}

my %DATA = (byte => '.byte', value => '.value', long => '.long',
            quad => '.quad');
sub data {
    my ($self, $type, @items) = @_;
    return "\t$DATA{$type}\t" . join(',', map { $self->expr($_) } @items) . "\n";
}
sub zero { my ($self, $n) = @_; return "\t.zero\t$n\n" }
# A function the loader calls at start-up: a pointer in the list.
sub init_entry {
    my ($self, $st, $sym) = @_;
    return "\t.p2align\t3\n\t.quad\t" . $self->expr($sym) . "\n";
}
sub asciz { my ($self, $s) = @_; return "\t.asciz\t$s\n" }
sub rva { my ($self, $e) = @_; return "\t.rva\t" . $self->expr($e) . "\n" }

sub global { my ($self, $n) = @_; return "\t.globl\t" . $self->symbol($n) . "\n" }
sub hidden { my ($self, $n) = @_; return "\t.hidden\t" . $self->symbol($n) . "\n" }
sub extern { return '' }
sub comm {
    my ($self, $n, @rest) = @_;
    return "\t.comm\t" . join(',', $self->symbol($n), @rest) . "\n";
}
sub set_const {
    my ($self, $n, $e) = @_;
    return "\t.set\t$n," . $self->expr($e) . "\n";
}
sub function_type {
    my ($self, $n) = @_;
    return "\t.type\t" . $self->symbol($n) . ",\@function\n";
}
sub object_type {
    my ($self, $n) = @_;
    return "\t.type\t" . $self->symbol($n) . ",\@object\n";
}
sub size {
    my ($self, $n, $e) = @_;
    return "\t.size\t" . $self->symbol($n) . "," . $self->expr($e) . "\n";
}

sub cfi {
    my ($self, $name, @args) = @_;
    my $args = join(',', @args);
    return "\t.cfi_$name" . (length $args ? "\t$args" : '') . "\n";
}

1;
