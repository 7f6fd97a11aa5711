# SPDX-License-Identifier: Apache-2.0
# The middle stage of the 32-bit layer: what a module asks for, checked and
# recorded as a list of statements for a back end.  It owns the per-function
# state: local labels, the stack depth (distance from esp to the DWARF CFA)
# and where callee-saved registers sit, from which it writes the CFI and
# &wparam offsets.  One state, so CFI and argument offsets cannot disagree.
# It also knows an ebp frame (`mov ebp, esp` with ebp unchanged since), so
# `leave` is followed exactly, and where a ret is allowed: at the return
# address (depth 4), or in a local subroutine at the depth its call made.
#
# Statements: { k => 'insn', mn, ops => [...], size => N or undef }
#             { k => 'label', name }       { k => 'align', n }
#             { k => 'func', name }        { k => 'endfunc', name }
#             { k => 'cfi', op => 'startproc'|'endproc'|'cfa'|'offset'|
#                             'restore'|'remember'|'restore_state'|
#                             'def_cfa' (reg, esp if none)|'cfa_deref', ... }
#             { k => 'data', size => 1|2|4, values => [TERMS...] }
#             { k => 'section', name => 'text'|'rodata' }
#             { k => 'comment', text }     { k => 'extern', name }
package X86::Program;

use strict;
use warnings;
use X86::ISA qw(mnemonic_info register_info);
use X86::Operand qw(memory operand is_label_name parse_disp);
use X86::Diag qw(fail source_line);
use Common::ConditionCodes qw(@CC);

my %CALLEE_SAVED = map { $_ => 1 } qw(ebp ebx esi edi);
my %SHIFT = map { $_ => 1 } qw(shl shr sar sal rol ror rcl rcr shld shrd);
my %FIXED_SIZE = map { $_ => 1 } (qw(lea bswap clflush prefetcht0 prefetcht1
    prefetcht2 prefetchnta), map { "set$_" } @CC);

# new(pic => 'none'|'got'|'macho', x86only => bool[, endbr => 'public'|
#     'all'|'none', endbr_cet => bool]): endbr32 at public functions (the
#     default), at every function or none; endbr_cet: each one only where
#     __CET__ is defined (OpenSSL's conventions); stop_at_unknown: see
#     unknown_stack; common => [SYMBOL, SIZE]: an object that uses SYMBOL
#     defines it as a common symbol of SIZE bytes (as OpenSSL's objects
#     define OPENSSL_ia32cap_P); pcrel => {SYMBOL => 1}: picmeup reaches
#     SYMBOL PC-relative where the GOT would be used; push_count: &wparam
#     counts as OpenSSL's layer does (count_push); begin_labels: see
#     begin_label; bare_label_push: see bare_label.
sub new {
    my ($class, %opt) = @_;
    return bless { %opt, st => [], labelno => 0, func => undef,
                   section => 'text', externs => {}, nlptr => {} }, $class;
}

sub statements { return $_[0]{st} }
sub non_lazy_pointers { return [ sort keys %{ $_[0]{nlptr} } ] }
sub emit { my ($self, %s) = @_; push @{ $self->{st} }, { %s, where => source_line() } }

# --- labels ---------------------------------------------------------------
# Each function has its own label names (as in OpenSSL's layer); outside a
# function they belong to the file.  The string handed out is unique in the
# file, so it can be concatenated into displacements.

sub label {
    my ($self, $name) = @_;
    fail("a label name must be a word, not \"" . ($name // 'undef') . "\"")
        unless defined $name && !ref $name && $name =~ /^\w+$/;
    return $self->entry($name)->{id};
}

# A function's labels are its own; a name it does not define (a table
# after the function, say) is looked up, or left, at file level.
sub entry {
    my ($self, $name, $defining) = @_;
    my $file = $self->{file_labels} //= {};
    my $f = $self->{func};
    my $sc = $f ? $f->{labels} : $file;
    return $sc->{$name} if $sc->{$name};
    return $file->{$name} if $f && $file->{$name} && !($defining && $file->{$name}{defined});
    return $sc->{$name} = { id => sprintf('.L%03d%s', $self->{labelno}++, $name),
                            first_use => source_line() };
}

sub set_label {
    my ($self, $name, $align) = @_;
    my $l = $self->entry($name, 1);
    fail("label \"$name\" is defined twice (first at $l->{defined})") if $l->{defined};
    $l->{defined} = source_line();
    $self->align($align) if $align && $align > 1;
    # call L; L: (the position-independent call/pop): control reaches L
    # only through the call, with its return address pushed.
    if ($self->{func} && ($self->{func}{called} // '') eq $l->{id}) {
        $self->set_depth($self->{func}{cfa} + 4);
        delete $self->{func}{called};
    }
    $self->emit(k => 'label', name => $l->{id}, public => $l->{public});
    $self->arrive($l->{id}) if $self->{func};
    return $l->{id};
}

# static_label(NAME): a label of the file, not of the function being
# written: every function's &label(NAME) and &set_label(NAME) mean it.
sub static_label {
    my ($self, $name) = @_;
    fail("a label name must be a word, not \"" . ($name // 'undef') . "\"")
        unless defined $name && !ref $name && $name =~ /^\w+$/;
    my $file = $self->{file_labels} //= {};
    return ($file->{$name} //= { id => sprintf('.L%03d%s', $self->{labelno}++, $name),
                                  first_use => source_line() })->{id};
}

# public_label(NAME): a label of the file that is also a global symbol
# (a table other objects use); set_label(NAME) places it.
sub public_label {
    my ($self, $name) = @_;
    fail("bad symbol name \"" . ($name // 'undef') . "\"") unless defined $name && $name =~ /^[A-Za-z_]\w*$/;
    my $file = $self->{file_labels} //= {};
    fail("public_label(\"$name\"): the label is already in use") if $file->{$name};
    $file->{$name} = { id => $name, public => 1, first_use => source_line() };
    $self->emit(k => 'public', name => $name);
    return $name;
}

# islabel(TEXT), as in OpenSSL's layer: TEXT if it is a label this file
# handed out, else the label handed out for the name TEXT (the function's
# own, then the file's; under begin_labels a function's name is one),
# else undef.
sub islabel {
    my ($self, $text) = @_;
    return undef unless defined $text && !ref $text;
    my @scopes = ($self->{func} ? $self->{func}{labels} : (), $self->{file_labels} // {});
    return $text if is_label_name($text) && grep { $_->{id} eq $text } map { values %$_ } @scopes;
    my ($l) = grep { $_ } map { $_->{$text} } @scopes;
    return $l ? $l->{id} : undef;
}

# Whether TEXT is a label's or a function's name as this file handed it
# out (a string &label, &islabel or &public_label returned).
sub is_handed_out {
    my ($self, $text) = @_;
    return 0 if !defined $text || ref $text;
    my @scopes = ($self->{func} ? $self->{func}{labels} : (), $self->{file_labels} // {});
    return scalar grep { $_->{id} eq $text } map { values %$_ } @scopes;
}

# &push(LABEL): OpenSSL's layer writes the label bare, which GNU as reads
# as the word stored at LABEL and nasm as LABEL's address (e_padlock-x86
# pushes its SEH handler so).  Under bare_label_push (OpenSSL's
# conventions) ours writes the same; elsewhere the two readings make it an
# error.
sub bare_label {
    my ($self, $id) = @_;
    fail("push(\"$id\"): a bare label is the word at it on GNU as and its address on nasm;"
         . " push &DWP(0, LABEL) for the word") unless $self->{bare_label_push};
    return { type => 'bare', disp => parse_disp($id) };
}

# --- stack depth and CFI --------------------------------------------------------
sub cfi { my ($self, %s) = @_; $self->emit(k => 'cfi', %s) }

sub set_depth {
    my ($self, $cfa) = @_;
    my $f = $self->{func};
    return if $f->{untracked};
    return $self->unknown_stack("the stack pointer moves above the return address (CFA offset $cfa)")
        if $cfa < 4;
    return if $cfa == $f->{cfa};
    $f->{cfa} = $cfa;
    $f->{below} = {};
    if (my $sw = $f->{sw}) {
        fail("the stack pointer moves above the switched frame's saved-esp slot")
            if $cfa < $sw->{base};
        $self->cfi(op => 'cfa_deref', slot => $sw->{slot} + $cfa - $sw->{base}, base => $sw->{base});
        return;
    }
    $self->cfi(op => 'cfa', offset => $cfa);
}

# A change of esp the layer cannot follow (a stack realigned with and, esp
# loaded from another register, depths that disagree at a label): an error,
# or under stop_at_unknown (OpenSSL's conventions: its modules carry no
# CFI of their own) the end of the function's tracked frame.  From there
# to the function's end its CFI says the return address is unknown
# (DW_CFA_undefined of eip, so an unwinder stops rather than guess) and
# no depth is checked (see track_untracked).
sub unknown_stack {
    my ($self, $why) = @_;
    my $f = $self->{func};
    fail($why) unless $self->{stop_at_unknown} && !$f->{sw};
    return if $f->{untracked};
    $f->{untracked} = source_line() . " ($why)";
    $self->cfi(op => 'undefined', reg => 'eip');
}

# --- stack switching ----------------------------------------------------------
# switch_stack(REG, SLOT): esp becomes REG (a new, say aligned, frame below
# the old one) and the old esp is kept at SLOT of the new frame.  Nothing
# is written below esp at any point (i386 has no red zone: a signal frame
# would be built over it), so the order is
#     xchg REG, esp         CFA = REG + depth (for this one instruction)
#     mov  SLOT(esp), REG   CFA = [esp + SLOT] + depth (a DWARF expression)
# and from then on the CFA is moved along by every later push or esp
# adjustment, so unwinding is right at each instruction.  &wparam is
# refused until restore_stack(), which reloads esp from the slot.
# Afterwards REG holds the caller's esp, not the frame: the frame is esp.
# Values for the new frame are stored after the switch, through esp; a
# memory operand through a register the layer saw set below esp (lea REG,
# [esp-N], and/sub of it after) is refused until that register is written
# otherwise, esp moves or a label is reached.
sub switch_stack {
    my ($self, $reg, $slot) = @_;
    my $f = $self->{func} or fail("switch_stack outside a function");
    fail("switch_stack: the stack is already switched (at $f->{sw}{where})") if $f->{sw};
    my $r = register_info($reg);
    fail("switch_stack: the new frame must be in a 32-bit general register other than esp")
        unless $r && $r->{class} eq 'gpr' && $r->{size} == 4 && $r->{name} ne 'esp';
    fail("switch_stack: the slot must be a non-negative multiple of 4")
        unless defined $slot && $slot =~ /^\d+$/ && $slot % 4 == 0;
    $self->emit(k => 'insn', mn => 'xchg', kind => 'gpr', ops => [ operand($r->{name}), operand('esp') ]);
    delete $f->{below}{ $r->{name} };
    $self->cfi(op => 'def_cfa', reg => $r->{name}, offset => $f->{cfa});
    $self->insn('mov', memory(4, $slot, 'esp'), $r->{name});
    $f->{sw} = { slot => 0 + $slot, base => $f->{cfa}, where => source_line() };
    $self->cfi(op => 'cfa_deref', slot => 0 + $slot, base => $f->{cfa});
}

sub restore_stack {
    my ($self) = @_;
    my $f = $self->{func} or fail("restore_stack outside a function");
    my $sw = $f->{sw} or fail("restore_stack without switch_stack");
    fail("restore_stack: $f->{cfa} bytes are on the switched stack, $sw->{base} at switch_stack")
        unless $f->{cfa} == $sw->{base};
    $self->emit(k => 'insn', mn => 'mov', kind => 'gpr',
                ops => [ operand('esp'), operand(memory(4, $sw->{slot}, 'esp')) ]);
    $f->{sw} = undef;
    $self->cfi(op => 'def_cfa', offset => $f->{cfa});
}

# Control reaches label $id: by falling through (or jumping back) the depth
# must equal what the other paths to it have; after a jmp/ret the label's
# recorded state is adopted.
sub arrive {
    my ($self, $id) = @_;
    my $f = $self->{func};
    my $seen = $f->{at_label}{$id};
    $f->{below} = {};
    if ($f->{untracked}) {
        $f->{dead} = 0;
        return;
    }
    if ($f->{dead}) {
        if ($seen) {
            $self->adopt($seen);
        }
        $f->{dead} = 0;
    } else {
        $self->branch_to($id);
        $f->{frame} = $f->{at_label}{$id}{frame};
    }
    $f->{at_label}{$id}{placed} = 1 if $f->{at_label}{$id};
}

# After a jmp or ret, the state recorded at a label becomes the current one.
sub adopt {
    my ($self, $seen) = @_;
    my $f = $self->{func};
    my ($had, $has) = ($f->{sw}, $seen->{sw_state});
    $f->{sw} = $has;
    if (($had // 0) != ($has // 0)) {
        $f->{cfa} = $seen->{cfa};
        $self->cfi(op => $has ? 'cfa_deref' : 'def_cfa', offset => $seen->{cfa},
                   ($has ? (slot => $has->{slot} + $seen->{cfa} - $has->{base}, base => $has->{base}) : ()));
    } else {
        $self->set_depth($seen->{cfa});
    }
    $f->{saved} = { %{ $seen->{saved} } };
    @$f{qw(frame ret_depth)} = @$seen{qw(frame ret_depth)};
}

sub branch_to {
    my ($self, $id) = @_;
    my $f = $self->{func};
    my $seen = $f->{at_label}{$id};
    my $sw = $f->{sw} ? "switched at $f->{sw}{where}" : 'not switched';
    return if $f->{untracked};
    if ($seen && $seen->{cfa} != $f->{cfa}) {
        return $self->unknown_stack("stack depth differs at $id: $f->{cfa} bytes here, $seen->{cfa} at $seen->{where}");
    }
    if ($seen && $seen->{sw} ne $sw) {
        fail("stack switching differs at $id: $sw here, $seen->{sw} at $seen->{where}");
    }
    if ($seen && ($seen->{frame} // -1) != ($f->{frame} // -1)) {
        # Code after a placed label was read with its frame: a later jump
        # there must not bring another.  Before that, the frame is just
        # unknown from the label on.
        fail("the ebp frame differs at $id: " . frame_text($f->{frame}) . " here, "
             . frame_text($seen->{frame}) . " at $seen->{where}")
            if $seen->{placed} && defined $seen->{frame};
        $seen->{frame} = undef;
    }
    $f->{at_label}{$id} //= { cfa => $f->{cfa}, sw => $sw, saved => { %{ $f->{saved} } },
                              sw_state => $f->{sw}, frame => $f->{frame},
                              ret_depth => $f->{ret_depth}, where => source_line() };
}

sub frame_text {
    my ($frame) = @_;
    return defined $frame ? "ebp = CFA-$frame" : 'no known ebp frame';
}

# leave is  mov esp, ebp; pop ebp: exact only while ebp is the frame
# pointer set by `mov ebp, esp` at a known depth.
sub leave {
    my ($self) = @_;
    my $f = $self->{func};
    fail("leave while the stack is switched (at $f->{sw}{where})") if $f->{sw};
    fail("leave without an ebp frame the CFI can follow (mov ebp, esp in this function, "
         . "ebp unchanged since)") unless defined $f->{frame};
    $f->{cfa} = $f->{frame};
    $f->{frame} = undef;
    my $restores = ($f->{saved}{ebp} // -1) == $f->{cfa};
    $self->set_depth($f->{cfa} - 4);
    if ($restores) {
        delete $f->{saved}{ebp};
        $self->cfi(op => 'restore', reg => 'ebp');
    }
}

# Whether instruction $mn may write ebp (then the frame is no longer known).
sub writes_ebp {
    my ($mn, @ops) = @_;
    my $is_ebp = sub { $_[0] && $_[0]{type} eq 'reg' && $_[0]{reg} =~ /^e?bp$/ };
    return 1 if $mn =~ /^(xchg|xadd|cmpxchg)$/ && grep { $is_ebp->($_) } @ops;
    return $is_ebp->($ops[0]) && $mn !~ /^(cmp|test|bt|push)$/;
}

# How instruction $mn with operands @ops moves esp, in a function.
sub track {
    my ($self, $mn, @ops) = @_;
    my $f = $self->{func} or return;
    my $dst = $ops[0];
    $f->{pushed} += 4 if $mn =~ /^push(?:fd?)?$/;
    $f->{pushed} -= 4 if $mn =~ /^pop(?:fd?)?$/;
    return $self->track_untracked($mn, $dst) if $f->{untracked};
    my $is_esp = sub { $_[0] && $_[0]{type} eq 'reg' && $_[0]{reg} =~ /^e?sp$/ };
    $self->below_esp($mn, @ops);
    if ($mn eq 'mov' && $dst->{type} eq 'reg' && $dst->{reg} eq 'ebp' && $is_esp->($ops[1])) {
        $f->{frame} = $f->{sw} ? undef : $f->{cfa};
    } elsif (writes_ebp($mn, @ops)) {
        $f->{frame} = undef;
    }
    if ($mn eq 'leave') {
        $self->leave;
    } elsif ($mn eq 'push' || $mn eq 'pushf' || $mn eq 'pushfd') {
        $self->set_depth($f->{cfa} + 4);
        if ($dst && $dst->{type} eq 'reg' && $CALLEE_SAVED{ $dst->{reg} } && !$f->{saved}{ $dst->{reg} }
            && !$f->{sw}) {
            $f->{saved}{ $dst->{reg} } = $f->{cfa};
            $self->cfi(op => 'offset', reg => $dst->{reg}, offset => -$f->{cfa});
        }
    } elsif ($mn eq 'pop' || $mn eq 'popf' || $mn eq 'popfd') {
        return $self->unknown_stack("pop of esp is not supported") if $is_esp->($dst);
        my $r = $dst && $dst->{type} eq 'reg' ? $dst->{reg} : '';
        my $restores = $r && !$f->{sw} && ($f->{saved}{$r} // -1) == $f->{cfa};
        $self->set_depth($f->{cfa} - 4);
        if ($restores) {
            delete $f->{saved}{$r};
            $self->cfi(op => 'restore', reg => $r);
        }
    } elsif (($mn eq 'sub' || $mn eq 'add') && $is_esp->($dst)) {
        return $self->unknown_stack("$mn esp needs an immediate for the CFI to follow it")
            unless $ops[1]{type} eq 'imm';
        $self->set_depth($f->{cfa} + ($mn eq 'sub' ? 1 : -1) * $ops[1]{value});
    } elsif ($mn eq 'lea' && $is_esp->($dst)) {
        my $n = esp_offset($ops[1]);
        return $self->unknown_stack("lea esp needs [esp+constant] for the CFI to follow it") unless defined $n;
        $self->set_depth($f->{cfa} - $n);
    } elsif ($is_esp->($dst) && $mn !~ /^(cmp|test|bt|push)$/) {
        return $self->unknown_stack("$mn changes esp in a way the CFI cannot follow (use push/pop, add/sub/lea with a constant)");
    } elsif ($mn eq 'xchg' && $is_esp->($ops[1])) {
        return $self->unknown_stack("xchg with esp is not supported");
    }
    fail("ret while the stack is switched (at $f->{sw}{where}): restore_stack first")
        if $mn eq 'ret' && $f->{sw};
    if ($mn eq 'ret' && !$f->{dead} && $f->{cfa} != $f->{ret_depth}) {
        my $n = $f->{cfa} - $f->{ret_depth};
        $self->unknown_stack("ret with $n bytes " . ($n > 0 ? 'still on the stack above the return address'
                                                           : 'popped beyond the return address'));
    }
    if ($mn eq 'jmp' || $mn eq 'ret') {
        $self->branch_to($dst->{name}) if $dst && $dst->{type} eq 'label';
        $f->{dead} = 1;
    } elsif ($dst && $dst->{type} eq 'label' && $mn eq 'call') {
        $f->{called} = $dst->{name};
        # A local subroutine starts with the return address pushed.
        local $f->{cfa} = $f->{cfa} + 4;
        local $f->{ret_depth} = $f->{cfa};
        $self->branch_to($dst->{name});
    } elsif ($dst && $dst->{type} eq 'label') {
        $self->branch_to($dst->{name});
    }
}

# After unknown_stack only the flow is followed (where code ends); &wparam
# then counts as OpenSSL's does (count_push).
sub track_untracked {
    my ($self, $mn, $dst) = @_;
    my $f = $self->{func};
    $f->{dead} = 1 if $mn eq 'jmp' || $mn eq 'ret';
}

# N for a memory operand [esp+N] with a constant N, else undef.
sub esp_offset {
    my ($m) = @_;
    return undef unless ($m->{base} // '') eq 'esp' && !$m->{index}
        && !grep { $_->{kind} ne 'num' } @{ $m->{disp} };
    my $n = 0;
    $n += $_->{sign} * $_->{value} for @{ $m->{disp} };
    return $n;
}

# Registers known to point below esp (switch_stack's comment): an access
# through one is refused (lea only computes an address); and/sub keep the
# mark, any other write, an esp move (set_depth) or a label (arrive) drops
# it.
sub below_esp {
    my ($self, $mn, @ops) = @_;
    my $below = $self->{func}{below} //= {};
    for my $m (grep { $_->{type} eq 'mem' && $mn ne 'lea' } @ops) {
        my ($r) = grep { defined && $below->{$_} } @$m{qw(base index)} or next;
        fail("$mn: a memory operand based on $r, which points below esp (set at $below->{$r}): "
             . "a signal would overwrite it; store after switch_stack, through esp");
    }
    my $dst = $ops[0];
    if ($mn eq 'lea' && $dst->{type} eq 'reg' && (esp_offset($ops[1]) // 0) < 0) {
        $below->{ $dst->{reg} } = source_line();
        return;
    }
    return if $mn =~ /^(and|sub|cmp|test|bt|push)$/;
    delete $below->{ $_->{reg} } for grep { $_->{type} eq 'reg' } @ops;
}

# --- instructions -------------------------------------------------------------
sub insn {
    my ($self, $mn, @args) = @_;
    my $info = mnemonic_info($mn) or fail("unknown instruction \"$mn\"");
    # Under begin_labels &call(NAME) means the label NAME where there is
    # one (of the function or the file), as in OpenSSL's layer.
    if ($self->{begin_labels} && $mn eq 'call' && @args == 1 && !ref $args[0] && $args[0] =~ /^\w+$/) {
        my ($l) = grep { $_ } map { ($_ // {})->{ $args[0] } }
                  ($self->{func} ? $self->{func}{labels} : undef), $self->{file_labels};
        $args[0] = $l->{id} if $l;
    }
    fail("$mn takes " . join(' or ', @{ $info->{counts} }) . " operands, not " . scalar(@args))
        unless grep { $_ == @args } @{ $info->{counts} };
    my @ops = $mn eq 'push' && @args == 1 && $self->is_handed_out($args[0])
            ? ($self->bare_label($args[0]))
            : map { operand($_, $info->{kind} eq 'branch') } @args;
    for my $op (@ops) {
        fail("$mn: an MMX/SSE register in a 386-only build")
            if $self->{x86only} && $op->{type} eq 'reg' && $op->{class} ne 'gpr';
    }
    fail("$mn: an MMX/SSE instruction in a 386-only build")
        if $self->{x86only} && $info->{kind} eq 'vec';
    fail("$mn: an immediate cannot be the destination")
        if @ops > 1 && $ops[0]{type} eq 'imm' && $mn ne 'push';
    fail("$mn: two memory operands") if 2 <= grep { $_->{type} eq 'mem' } @ops;
    if ($info->{kind} ne 'branch') {
        fail("$mn: \"$_->{name}\" is a jump target, not an operand")
            for grep { $_->{type} =~ /^(label|symbol)$/ } @ops;
    }
    my %s = (k => 'insn', mn => $mn, kind => $info->{kind}, ops => \@ops);
    delete $self->{func}{called} if $self->{func};
    if ($info->{kind} eq 'gpr' && !$FIXED_SIZE{$mn}) {
        my @sized = grep { $_->{type} eq 'reg' } ($SHIFT{$mn} ? @ops[0 .. ($mn =~ /^shld|shrd$/ ? 1 : 0)] : @ops);
        if (!@sized) {
            my ($m) = grep { $_->{type} eq 'mem' } @ops;
            $s{size} = $m ? $m->{size} : 4;
            fail("$mn: the operand size is unknown; use &DWP, &WP or &BP")
                unless $s{size};
        }
    }
    if ($info->{kind} eq 'ext') {
        my $src = $ops[1];
        $s{src_size} = $src->{type} eq 'reg' ? $src->{size} : $src->{size};
        fail("$mn: the source must be a byte or word") unless ($s{src_size} // 0) =~ /^[12]$/;
    }
    $self->emit(%s);
    $self->track($mn, @ops);
    # Whether an instruction since the last jmp or ret can fall through
    # (labels and data after a ret, as in a table, cannot).
    $self->{func}{live} = !$self->{func}{dead} if $self->{func};
}

# --- functions ------------------------------------------------------------------
sub function_begin_B {
    my ($self, $name) = @_;
    fail("function \"$name\" starts inside \"$self->{func}{name}\"") if $self->{func};
    fail("bad function name \"" . ($name // 'undef') . "\"") unless defined $name && $name =~ /^[A-Za-z_]\w*$/;
    $self->section('text');
    # A leading underscore makes a private (file-local) function, as in
    # OpenSSL's layer.
    $self->emit(k => 'func', name => $name, private => ($name =~ /^_/ ? 1 : 0));
    $self->{func} = { name => $name, labels => {}, cfa => 4, pushed => 4, saved => {}, at_label => {},
                      dead => 0, ret_depth => 4, frame => undef, begun => source_line() };
    $self->begin_label($name) if $self->{begin_labels};
    $self->cfi(op => 'startproc');
    # An indirect-branch target under CET (IBT).  A private function is
    # only reached by direct calls from this file, so it needs none (under
    # OpenSSL's conventions every function has one, see new).
    my $endbr = $self->{endbr} // 'public';
    $self->endbranch if $endbr eq 'all' || ($endbr eq 'public' && $name !~ /^_/);
}

# Under begin_labels (see new), as in OpenSSL's layer: &label(FUNCTION)
# and &call(FUNCTION) after the function's start mean a local label at its
# entry (a direct call, never through the PLT); for a private function,
# its symbol.
sub begin_label {
    my ($self, $name) = @_;
    my $file = $self->{file_labels} //= {};
    return if $file->{$name};
    if ($name =~ /^_/) {
        $file->{$name} = { id => $name, public => 1, defined => source_line() };
        return;
    }
    my $l = $file->{$name} = { id => sprintf('.L%03d_%s_begin', $self->{labelno}++, $name),
                               defined => source_line(), begin => 1 };
    $self->emit(k => 'label', name => $l->{id});
}

# endbr32 here; under OpenSSL's conventions only where __CET__ is defined
# (X86::Emit::Gas) and not at all where its layer writes none (nasm).
sub endbranch {
    my ($self) = @_;
    return if ($self->{endbr} // '') eq 'none';
    $self->insn('endbr32');
    $self->{st}[-1]{cet} = 1 if $self->{endbr_cet};
}

# initseg(FUNCTION): FUNCTION runs when the program or library is loaded
# (X86::Emit::* registers it as the object format does).
sub initseg {
    my ($self, $name) = @_;
    fail("bad symbol name \"" . ($name // 'undef') . "\"") unless defined $name && $name =~ /^[A-Za-z_]\w*$/;
    $self->{initseg} = $name;
}
sub initseg_function { return $_[0]{initseg} }

# safeseh(HANDLER): a Win32 structured exception handler the image's
# SAFESEH table lists (nasm only: other flavours register none).
sub safeseh {
    my ($self, $name) = @_;
    fail("bad symbol name \"" . ($name // 'undef') . "\"") unless defined $name && $name =~ /^[A-Za-z_]\w*$/;
    $self->emit(k => 'safeseh', name => $name);
}

sub function_begin {
    my ($self, $name) = @_;
    $self->function_begin_B($name);
    $self->insn('push', $_) for qw(ebp ebx esi edi);
    $self->{func}{pushed_four} = 1;
}

sub epilogue {
    my ($self, $what) = @_;
    my $f = $self->{func};
    fail("a return while the stack is switched (at $f->{sw}{where}): restore_stack first")
        if $f->{sw};
    # The four pops then the ret need the depth function_begin left.
    my $n = $f->{cfa} - (4 + 4 * 4);
    $self->unknown_stack("$what with $n bytes still pushed above the registers of function_begin")
        if !$f->{dead} && !$f->{untracked} && $n > 0;
    $self->unknown_stack("$what with " . -$n . " bytes of the registers of function_begin already popped")
        if !$f->{dead} && !$f->{untracked} && $n < 0;
    $self->insn('pop', $_) for qw(edi esi ebx ebp);
    $self->insn('ret');
}

# A return from the middle of a function_begin body: the code after it
# still has the registers pushed, so the CFI state is remembered around it.
sub function_end_A {
    my ($self) = @_;
    my $f = $self->{func} or fail("function_end_A outside a function");
    my %keep = (cfa => $f->{cfa}, saved => { %{ $f->{saved} } }, frame => $f->{frame},
                pushed => $f->{pushed});
    $self->cfi(op => 'remember');
    $self->epilogue('function_end_A');
    $self->cfi(op => 'restore_state');
    @$f{qw(cfa saved frame pushed)} = @keep{qw(cfa saved frame pushed)};
}

sub function_end_B {
    my ($self, $name) = @_;
    my $f = $self->{func} or fail("function_end_B(\"$name\") without a function");
    fail("function_end_B(\"$name\") closes function \"$f->{name}\"") if $name ne $f->{name};
    fail("function $name ends with the stack switched (at $f->{sw}{where})") if $f->{sw} && !$f->{dead};
    fail("function $name runs off its end: no ret or jmp before function_end_B"
         . ($f->{pushed_four} ? " (function_begin's registers are still pushed; "
            . "function_end pops them and returns)" : '')) unless $f->{dead} || !$f->{live};
    # Labels used here but not set: file-level ones (checked in finish).
    for my $l (sort keys %{ $f->{labels} }) {
        my $lab = $f->{labels}{$l};
        $self->{file_labels}{$l} //= $lab unless $lab->{defined};
    }
    $self->cfi(op => 'endproc');
    $self->emit(k => 'endfunc', name => $name);
    $self->{func} = undef;
}

sub function_end {
    my ($self, $name) = @_;
    fail("function_end(\"$name\") without a function") unless $self->{func};
    $self->epilogue('function_end');
    $self->function_end_B($name);
}

sub depth {
    my ($self, $what) = @_;
    my $f = $self->{func} or fail("$what outside a function");
    return $f->{cfa};
}

# Argument $n (0-based) of the current function, from the tracked depth.
sub wparam {
    my ($self, $n) = @_;
    fail("wparam needs an argument number") unless defined $n && $n =~ /^\d+$/;
    fail("wparam after switch_stack (at $self->{func}{sw}{where}): the arguments are not at a known esp offset")
        if $self->{func} && $self->{func}{sw};
    my $depth = $self->depth('wparam');
    $depth = $self->{func}{pushed} if $self->{push_count} || $self->{func}{untracked};
    return memory(4, $depth + 4 * $n, 'esp');
}

# OpenSSL's &wparam counts only what push, pop, stack_push and
# stack_pop move (from 4 at the function's entry); under push_count (see
# new) this layer's &wparam does the same, so its offsets are OpenSSL's.
sub count_push {
    my ($self, $bytes) = @_;
    $self->{func}{pushed} += $bytes if $self->{func};
}

# --- data, sections -----------------------------------------------------------
sub section {
    my ($self, $name) = @_;
    return if $self->{section} eq $name;
    fail("a $name section inside function $self->{func}{name}") if $self->{func};
    $self->{section} = $name;
    $self->emit(k => 'section', name => $name);
}

sub align {
    my ($self, $n) = @_;
    fail("bad alignment \"$n\" (a power of two)") unless $n =~ /^\d+$/ && $n && !($n & ($n - 1));
    $self->emit(k => 'align', n => 0 + $n);
}

sub data {
    my ($self, $size, @values) = @_;
    fail("no data values") unless @values;
    my @v;
    # A value may be a comma-joined list of them (OpenSSL's layer pastes
    # its arguments into one directive).
    for my $v (map { defined && !ref && /,/ ? split(/,/) : $_ } @values) {
        my $t = parse_disp($v);
        fail("a symbol in byte or short data") if $size < 4 && grep { $_->{kind} ne 'num' } @$t;
        push @v, $t;
    }
    $self->emit(k => 'data', size => $size, values => \@v);
}

sub extern {
    my ($self, $name) = @_;
    fail("bad symbol name \"$name\"") unless $name =~ /^[A-Za-z_]\w*$/;
    return if $self->{externs}{$name}++;
    $self->emit(k => 'extern', name => $name);
}

# hidden(NAME): a global that stays inside the linked program or library.
sub hidden {
    my ($self, $name) = @_;
    fail("bad symbol name \"" . ($name // 'undef') . "\"") unless defined $name && $name =~ /^[A-Za-z]\w*$/;
    $self->emit(k => 'hidden', name => $name);
}

# comment(LINE...): each LINE a comment; none or a blank one, an empty line.
sub comment {
    my ($self, @lines) = @_;
    @lines = ('') unless @lines;
    $self->emit(k => 'comment', text => $_ // '') for @lines;
}

# --- position-independent addresses -----------------------------------------
# picmeup(DST, SYM[, BASE, REF]): the address of SYM (a local label or a
# global symbol) into DST.  BASE holds the run-time address of label REF
# (from an earlier call/pop); without it a call/pop is emitted here.
sub picmeup {
    my ($self, $dst, $sym, $base, $ref) = @_;
    my $d = operand($dst);
    fail("picmeup: the destination must be a 32-bit general register")
        unless $d->{type} eq 'reg' && $d->{class} eq 'gpr' && $d->{size} == 4;
    fail("picmeup: bad symbol \"" . ($sym // 'undef') . "\"")
        unless defined $sym && ($sym =~ /^[A-Za-z_]\w*$/ || is_label_name($sym));
    my $local = is_label_name($sym);
    if ($self->{pic} eq 'none') {
        $self->insn('lea', $dst, memory(4, $sym));
        return;
    }
    $self->depth('picmeup with -fPIC');
    if (!defined $base) {
        fail("picmeup: a reference label without a base register") if defined $ref;
        my $name = 'picmeup' . $self->{labelno};
        $ref = $self->label($name);
        # The call leaves its return address (= REF) on the stack until
        # the pop (set_label counts it).
        $self->insn('call', $ref);
        $self->set_label($name);
        $self->insn('pop', $dst);
        $self->count_push(4);    # as OpenSSL's blindpop: the call was not counted
        $base = $dst;
    }
    fail("picmeup: the reference must be a label from &label") unless is_label_name($ref);
    my @minus_ref = ({ sign => -1, kind => 'label', value => $ref });
    if ($local) {
        $self->insn('lea', $dst, memory(4, [ { sign => 1, kind => 'label', value => $sym }, @minus_ref ], $base));
    } elsif ($self->{pic} eq 'got' && $self->{pcrel}{$sym}) {
        # Defined in this object (a common symbol, see new): reached
        # PC-relative, without the GOT.
        $self->insn('lea', $dst, memory(4, [ { sign => 1, kind => 'sym', value => $sym }, @minus_ref ], $base));
    } elsif ($self->{pic} eq 'got') {
        $self->insn('lea', $dst, memory(4, [ { sign => 1, kind => 'gotpc', value => $ref } ], $base));
        $self->insn('mov', $dst, memory(4, [ { sign => 1, kind => 'got', value => $sym } ], $dst));
    } else {
        $self->{nlptr}{$sym} = 1;
        $self->insn('mov', $dst, memory(4, [ { sign => 1, kind => 'nlptr', value => $sym }, @minus_ref ], $base));
    }
}

sub finish {
    my ($self) = @_;
    fail("function $self->{func}{name} (begun at $self->{func}{begun}) is not closed")
        if $self->{func};
    for my $l (sort keys %{ $self->{file_labels} // {} }) {
        my $lab = $self->{file_labels}{$l};
        fail("label \"$l\" is used but never set", $lab->{first_use}) unless $lab->{defined};
    }
    return $self->{st};
}

1;
