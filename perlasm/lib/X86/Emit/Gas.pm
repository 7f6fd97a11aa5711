# SPDX-License-Identifier: Apache-2.0
# AT&T syntax for GNU as and clang's assembler: the elf, a.out, macosx and
# coff flavours.  They differ only in what %FLAVOUR below sets (names,
# sections, symbol visibility, load-time code, notes); everything else
# (operand order, size suffixes, memory syntax) is shared.
package X86::Emit::Gas;

use strict;
use warnings;
use parent -norequire, 'X86::Emit::Base';
require X86::Emit::Base;

# Per flavour: the global symbol prefix and local label prefix; whether it
# has CFI and .size; the read-only data section; a public function's
# declaration; plt: calls to preemptible symbols go through the PLT;
# hidden: the directive of a hidden symbol; comm_align: .comm's alignment
# argument (a power of two on Mach-O, bytes on ELF); feat00: the SAFESEH
# @feat.00 symbol (bit 0: no unsafe exception handlers registered);
# initseg: how a function runs at load time (&initseg); notes: the trailer.
my %FLAVOUR = (
    elf => {
        prefix => '', local => '.L', cfi => 1, size => 1, plt => 1,
        hidden => '.hidden', comm_align => ',4',
        rodata => "\t.section\t.rodata",
        func => sub { "\t.globl\t$_[0]\n\t.type\t$_[0],\@function\n" },
        initseg => sub { "\t.section\t.init\n\tcall\t$_[0]\n" },
        notes => \&elf_notes,
    },
    macosx => {
        prefix => '_', local => 'L', cfi => 1,
        hidden => '.private_extern', comm_align => ',2',
        rodata => "\t.section\t__TEXT,__const",
        func => sub { "\t.globl\t$_[0]\n" },
        initseg => sub { "\t.mod_init_func\n\t.p2align\t2\n\t.long\t$_[0]\n" },
        notes => \&macho_pointers,
    },
    # a.out has only .text, .data and .bss, no .eh_frame: constants stay
    # in .text and there is no CFI.  Its PIC linkers want .type on every
    # function (as OpenSSL writes them), others none.
    'a.out' => {
        prefix => '_', local => 'L', cfi => 0, pic_type => 1,
        rodata => "\t.text",
        func => sub { "\t.globl\t$_[0]\n" . ($_[1] ? "\t.type\t$_[0],\@function\n" : '') },
        initseg => sub { "\t.text\n\t.globl\t_GLOBAL_\$I\$$_[0]\n\t.p2align\t2\n_GLOBAL_\$I\$$_[0]:\n\tjmp\t$_[0]\n" },
    },
    coff => {
        prefix => '_', local => 'L', cfi => 0, feat00 => 1,
        rodata => "\t.section\t.rdata,\"dr\"",
        func => sub { "\t.globl\t$_[0]\n\t.def\t$_[0];\t.scl\t2;\t.type\t32;\t.endef\n" },
        initseg => sub { "\t.section\t.ctors\n\t.long\t$_[0]\n" },
    },
);

sub new {
    my ($class, %opt) = @_;
    my $self = $class->SUPER::new(%opt);
    $self->{f} = $FLAVOUR{ $opt{flavour} } or die "no AT&T flavour $opt{flavour}\n";
    return $self;
}

sub global { my ($self, $name) = @_; return $self->{f}{prefix} . $name }
sub local_label { my ($self, $id) = @_; return $self->{f}{local} . substr($id, 2) }

sub term {
    my ($self, $t) = @_;
    my $k = $t->{kind};
    return $t->{value} if $k eq 'num';
    return $self->local_label($t->{value}) if $k eq 'label';
    return $self->global($t->{value}) if $k eq 'sym';
    return $self->global($t->{value}) . '@GOT' if $k eq 'got';
    return $self->global('_GLOBAL_OFFSET_TABLE_') . '+[.-' . $self->local_label($t->{value}) . ']' if $k eq 'gotpc';
    return 'L' . $self->global($t->{value}) . '$non_lazy_ptr' if $k eq 'nlptr';
    die "term kind $k\n";
}

# Private and hidden functions of this file cannot be preempted.
sub bound_here {
    my ($self, $name) = @_;
    $self->{bound} //= { map { $_->{name} => 1 }
        grep { $_->{k} eq 'hidden' || ($_->{k} eq 'func' && $_->{private}) } @{ $self->{program}->statements } };
    return $self->{bound}{$name};
}

my %SUFFIX = (1 => 'b', 2 => 'w', 4 => 'l', 8 => 'q');
my %RENAME = (cdq => 'cltd', cwde => 'cwtl', rep_movsb => 'rep movsb', rep_movsd => 'rep movsl',
              rep_stosb => 'rep stosb', rep_stosd => 'rep stosl', pushfd => 'pushfl', popfd => 'popfl');

sub operand {
    my ($self, $op, $branch) = @_;
    my $t = $op->{type};
    my $star = $branch ? '*' : '';
    return "$star%$op->{reg}" if $t eq 'reg';
    return "\$$op->{value}" if $t eq 'imm';
    return $self->local_label($op->{name}) if $t eq 'label';
    return $self->terms_text($op->{disp}) if $t eq 'bare';    # see X86::Program::bare_label
    if ($t eq 'symbol') {
        # Through the PLT only what the dynamic linker may bind elsewhere.
        my $plt = $self->{pic} eq 'got' && $self->{f}{plt} && !$self->bound_here($op->{name});
        return $self->global($op->{name}) . ($plt ? '@PLT' : '');
    }
    my $disp = $self->terms_text($op->{disp});
    return "$star$disp" unless $op->{base} || $op->{index};
    $disp = '' if $disp eq '0';
    my $in = $op->{base} ? "%$op->{base}" : '';
    $in .= ",%$op->{index},$op->{scale}" if $op->{index};
    return "$star$disp($in)";
}

sub st_insn {
    my ($self, $s) = @_;
    return "#ifdef __CET__\n\tendbr32\n#endif\n" if $s->{cet};
    my $mn = $RENAME{ $s->{mn} } // $s->{mn};
    my @ops = @{ $s->{ops} };
    if ($s->{kind} eq 'ext') {
        $mn = substr($mn, 0, 4) . $SUFFIX{ $s->{src_size} } . $SUFFIX{ $ops[0]{size} };
    }
    $mn .= $SUFFIX{ $s->{size} } if $s->{size};
    my $branch = $s->{kind} eq 'branch';
    my $text = "\t$mn";
    $text .= "\t" . join(',', map { $self->operand($_, $branch) } reverse @ops) if @ops;
    return "$text\n";
}

sub st_label {
    my ($self, $s) = @_;
    return ($s->{public} ? $self->global($s->{name}) : $self->local_label($s->{name})) . ":\n";
}
sub st_public  { my ($self, $s) = @_; return "\t.globl\t" . $self->global($s->{name}) . "\n" }
sub st_safeseh { '' }
sub st_comment { my ($self, $s) = @_; return length $s->{text} ? "# $s->{text}\n" : "\n" }
sub st_extern  { '' }

sub st_align {
    my ($self, $s) = @_;
    my $k = 0;
    $k++ while (1 << $k) < $s->{n};
    return "\t.p2align\t$k\n";
}

sub st_section {
    my ($self, $s) = @_;
    return "\t.data\n" if $s->{name} eq 'data';
    return $s->{name} eq 'text' ? "\t.text\n" : "$self->{f}{rodata}\n";
}

sub st_func {
    my ($self, $s) = @_;
    my $g = $self->global($s->{name});
    my $pic_type = $self->{f}{pic_type} && $self->{pic} eq 'got';
    my $decl = $s->{private} ? (($self->{f}{size} || $pic_type) ? "\t.type\t$g,\@function\n" : '')
                             : $self->{f}{func}->($g, $pic_type);
    return $decl . "\t.p2align\t4\n$g:\n";
}

sub st_hidden {
    my ($self, $s) = @_;
    my $hidden = $self->{f}{hidden} or return '';
    return "\t$hidden\t" . $self->global($s->{name}) . "\n";
}

sub st_endfunc {
    my ($self, $s) = @_;
    return '' unless $self->{f}{size};
    my $g = $self->global($s->{name});
    return "\t.size\t$g,.-$g\n";
}

my %CFI = (startproc => '.cfi_startproc', endproc => '.cfi_endproc',
           remember => '.cfi_remember_state', restore_state => '.cfi_restore_state');
sub st_cfi {
    my ($self, $s) = @_;
    return '' unless $self->{f}{cfi};
    my $op = $s->{op};
    return "\t$CFI{$op}\n" if $CFI{$op};
    return "\t.cfi_def_cfa_offset\t$s->{offset}\n" if $op eq 'cfa';
    return "\t.cfi_offset\t%$s->{reg},$s->{offset}\n" if $op eq 'offset';
    return "\t.cfi_def_cfa\t%" . ($s->{reg} // 'esp') . ",$s->{offset}\n" if $op eq 'def_cfa';
    return "\t.cfi_escape\t" . join(',', map { sprintf '0x%02x', $_ } cfa_deref_bytes($s)) . "\n"
        if $op eq 'cfa_deref';
    return "\t.cfi_restore\t%$s->{reg}\n" if $op eq 'restore';
    return "\t.cfi_undefined\t%$s->{reg}\n" if $op eq 'undefined';
    die "cfi $op\n";
}

# DW_CFA_def_cfa_expression: CFA = [esp + slot] + base, i.e.
# DW_OP_breg4 slot; DW_OP_deref; DW_OP_plus_uconst base.
sub cfa_deref_bytes {
    my ($s) = @_;
    my @expr = (0x74, sleb128($s->{slot}), 0x06, 0x23, uleb128($s->{base}));
    return (0x0f, scalar(@expr), @expr);
}

sub uleb128 {
    my ($v) = @_;
    my @b;
    do { my $x = $v & 0x7f; $v >>= 7; push @b, $x | ($v ? 0x80 : 0) } while $v;
    return @b;
}

# The slot offset is never negative (the layer refuses that), so the
# signed form only needs a clear sign bit in its last byte.
sub sleb128 {
    my ($v) = @_;
    my @b = uleb128($v);
    if ($b[-1] & 0x40) { $b[-1] |= 0x80; push @b, 0 }
    return @b;
}

my %DATA = (1 => '.byte', 2 => '.short', 4 => '.long');
sub st_data {
    my ($self, $s) = @_;
    return "\t$DATA{$s->{size}}\t" . join(',', map { $self->terms_text($_) } @{ $s->{values} }) . "\n";
}

sub header {
    my ($self) = @_;
    my $h = "\t.text\n";
    $h = "\t.def\t\@feat.00;\t.scl\t3;\t.type\t0;\t.endef\n\t.globl\t\@feat.00\n"
       . "\t.set\t\@feat.00,1\n$h" if $self->{f}{feat00};
    return $h;
}

sub footer {
    my ($self) = @_;
    my $init = $self->{program}->initseg_function;
    my $out = '';
    if (my $c = $self->common_symbol) {
        $out .= "\t.comm\t" . $self->global($c->[0]) . ",$c->[1]" . ($self->{f}{comm_align} // '') . "\n";
    }
    $out .= $self->{f}{notes}->($self) if $self->{f}{notes};
    return $out . ($init ? $self->{f}{initseg}->($self->global($init)) : '');
}

# Mach-O: the non-lazy pointers of the symbols reached through them.
sub macho_pointers {
    my ($self) = @_;
    my $out = '';
    for my $sym (@{ $self->{program}->non_lazy_pointers }) {
        my $g = $self->global($sym);
        $out .= "\t.section\t__IMPORT,__pointers,non_lazy_symbol_pointers\n"
              . "L$g\$non_lazy_ptr:\n\t.indirect_symbol\t$g\n\t.long\t0\n";
    }
    return $out;
}

sub elf_notes {
    # GNU_PROPERTY_X86_FEATURE_1_AND = IBT|SHSTK: every entry has endbr32
    # and returns are plain ret.  4-byte aligned notes on 32-bit ELF.
    return <<'EOT';
	.section	.note.GNU-stack,"",@progbits
	.section	.note.gnu.property,"a",@note
	.p2align	2
	.long	4
	.long	12
	.long	5
	.asciz	"GNU"
	.long	0xc0000002
	.long	4
	.long	3
EOT
}

1;
