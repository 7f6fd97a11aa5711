# SPDX-License-Identifier: Apache-2.0
# Stage 2 of the 64-bit layer: ABI, frames and unwind bookkeeping.
#
# Takes parsed statements (X64::Parser), keeps the unwind state of the
# current function (X64::UnwindState), expands the frame helper
# (.function/.return/.endfunction) into prologue, Win64 argument moves and
# epilogue, and hands text-producing calls to the flavour's emitter.  On
# Win64 it cuts each function into constant-state regions and writes
# their .pdata/.xdata at the end (X64::Win64Unwind).
package X64::Translate;

use strict;
use warnings;
use X64::Parser qw(parse_line);
use X64::ISA qw(register_info lookup_mnemonic gp64_of);
use X64::UnwindState;
use X64::Win64Unwind;
use X64::Win64Handler;
use X64::Win64Inferred;
use X64::Expr qw(evaluate is_constant);
use X64::SpeltInstruction qw(spelt_instruction writes_general_register);
use X64::DwarfExpr qw(expression_bytes);

sub fail { die "$_[0]\n" }

my @SYSV_ARGS  = qw(rdi rsi rdx rcx r8 r9);
my @WIN64_ARGS = qw(rcx rdx r8 r9);
my %CALLEE_SAVED_SYSV = map { $_ => 1 } qw(rbx rbp r12 r13 r14 r15);
# (Win64 adds rdi, rsi and xmm6-15, which the frame helper saves itself.)
# Win64: argument N > 4 sits above the return address and 32-byte shadow space:
# this is its offset from rsp at entry.
sub win64_stack_arg { my ($n) = @_; return 8 + 32 + 8 * ($n - 5) }

sub new {
    my ($class, %opt) = @_;
    my $self = bless {
        emit => $opt{emitter},
        out => '',
        section => 'text',
        prev_section => ['text'],   # for .previous: [kind, alignment]
        func => undef,          # the function being translated
        functions => [],        # finished functions with Win64 regions
        arg_shuffle => {},      # raw dialect: .type f,@function,N
        label_seq => 0,
        pending_labels => [],   # labels of the next function (note_label)
        # Win64 unwind from CFI only: the module's own .pdata/.xdata are
        # dropped, every function described from its CFI (win64_tables).
        cfi_unwind => $opt{cfi_unwind},
    }, $class;
    $self->{emit}{constants} = {};
    $self->{emit}{linkage_names} = {};
    return $self;
}

# Before the first line, what the whole text decides:
#  - the names it declares .globl, .extern, .comm or .hidden anywhere.
#    They are the ones with linkage, which Mach-O spells with a leading
#    "_"; a label only this file knows keeps its name, as in OpenSSL's
#    layer, and a call before the .globl still finds the declared spelling;
#  - whether it writes its own Win64 tables (a .pdata section): then the
#    layer builds none, and marks no regions (on nasm every label would be
#    a symbol in the object).
# A line that does not parse is left to the main pass, which reports it
# at its number.
sub prescan {
    my ($self, @lines) = @_;
    my $names = $self->{emit}{linkage_names};
    for my $line (@lines) {
        my @st = eval { parse_line($line) } or next;
        for my $st (grep { $_->{kind} eq 'directive' } @st) {
            next unless $st->{name} =~ /^\.(globl|global|extern|comm|hidden)$/;
            my @args = split_args($st->{args});
            @args = ($args[0]) if $st->{name} eq '.comm';
            $names->{$_} = 1 for grep { defined && length } @args;
        }
    }
}

sub emit { my ($self, $text) = @_; $self->{out} .= $text }
sub win64 { $_[0]{emit}->win64 }
sub new_label { my ($self, $what) = @_; return ".L${what}_" . $self->{label_seq}++ }

# --- entry points ------------------------------------------------------------
sub line {
    my ($self, $text) = @_;
    $self->statement($_) for parse_line($text);
}

sub finish {
    my ($self) = @_;
    fail("function $self->{func}{name} is not closed (.endfunction or .cfi_endproc missing)")
        if $self->{func};
    my $e = $self->{emit};
    $self->resolve_entry_endbr;
    my $tables = !$self->win64 ? ''
               : $self->{cfi_unwind} ? $self->win64_tables_from_cfi
               : $self->win64_tables;
    # Region boundaries become labels where a table entry uses them.
    (my $body = $self->{out}) =~ s/\0boundary ([^\0\s]+)\0/$self->{used_label}{$1} ? $e->label($1) : ''/ge;
    return $e->file_header . $body . $tables . $e->file_footer;
}

# A place a Win64 table may refer to; whether it is labelled is known at
# the end, when it is known which functions the layer describes.
sub boundary {
    my ($self, $name) = @_;
    $self->emit("\0boundary $name\0");
}

# --- statements --------------------------------------------------------------
sub statement {
    my ($self, $st) = @_;
    # Win64 unwind from CFI: what the last instruction did, as
    # X64::Win64Inferred says, and how a .cfi_* line after it combines.
    if (my $inferred = delete $self->{inferred}) {
        my $relative = $st->{kind} eq 'directive'
            && $st->{name} =~ /^\.cfi_(?:adjust_cfa_offset|alloca|push|pop)$/;
        if (!$relative || ($inferred->{moved_rsp} && $st->{name} ne '.cfi_alloca')) {
            $self->set_state($inferred);
            $self->{func}{state} = $inferred;    # rsp's depth too, which equals ignores
            return if $relative;                 # the instruction said it
        } else {
            # The CFI says the rest, but not where saves made from rsp now are.
            my $keep = $self->{func}{state}->clone;
            my $from_rsp = sub { my ($v) = @_; ref $v && (defined $v->{rsp} || defined $v->{frame}) };
            for my $r (keys %{ $keep->{saved} }, keys %{ $inferred->{saved} }) {
                next unless $from_rsp->($keep->{saved}{$r}) || $from_rsp->($inferred->{saved}{$r});
                $from_rsp->($inferred->{saved}{$r}) ? ($keep->{saved}{$r} = $inferred->{saved}{$r})
                                                    : delete $keep->{saved}{$r};
            }
            $self->set_state($keep);
        }
    }
    # A dropped section's contents go nowhere; only a section change ends it.
    return if $self->{section} eq 'dropped'
        && !($st->{kind} eq 'directive'
             && $st->{name} =~ /^\.(?:text|data|bss|section|previous)$/);
    if ($st->{kind} eq 'label') {
        $self->emit($self->{emit}->label($st->{name}));
        $self->{text_labels}{ $st->{name} } = 1 if $self->{section} eq 'text';
        $self->{last_label} = $st->{name};
        $self->note_label($st->{name});
        # Raw dialect on Win64: the argument moves follow the entry label.
        if ($self->win64 && defined(my $n = $self->{arg_shuffle}{ $st->{name} })) {
            $self->raw_shuffle_prologue($st->{name}, $n);
        }
        # endbr64 goes where the text asks for it: the frame helper writes
        # one, raw-dialect code says `endbranch` (as OpenSSL's modules do
        # wherever an indirect branch may land).
        return;
    }
    return $self->directive($st) if $st->{kind} eq 'directive';
    $self->instruction($st);
}

sub instruction {
    my ($self, $st) = @_;
    my $m = $st->{mnemonic};
    $self->note_address_uses($st);
    if ($self->{section} eq 'init') {
        # Only calls: each is an entry of the start-up list (a call on ELF),
        # which the run-time calls through its address.
        my ($op, @more) = @{ $st->{operands} };
        fail("only a call of a function may go in section .init")
            unless $m =~ /^callq?$/ && $op && $op->{type} eq 'expr' && !$op->{indirect} && !@more;
        $self->note_symbols($op->{expr});
        return $self->emit($self->{emit}->init_entry($st, $op->{expr}));
    }
    if ($m eq 'endbranch' || $m eq 'endbr64') {
        $self->{func}{code_in_region} = 1 if $self->{func};
        $self->emit($self->{emit}->endbr);
        return;
    }
    for my $op (@{ $st->{operands} }) {
        $self->resolve_arg($op) if $op->{type} eq 'expr' && $op->{expr} =~ /^\@arg/;
    }
    my $f = $self->{func};
    if ($self->{shuffled} && $m =~ /^retq?$/) {
        # Raw dialect on Win64: put back the caller's rdi and rsi, at every
        # ret up to the function's .size (its code may be cut into several
        # .cfi_startproc pieces).
        $self->insn('mov', '8(%rsp)', '%rdi');
        $self->insn('mov', '16(%rsp)', '%rsi');
    }
    if ($f && $f->{helper}) {
        $self->check_clobbers($st);
        $self->note_rsp_change($st);
        fail("call with rsp not 16-byte aligned: declare .function $f->{name} with calls or stack=")
            if $m =~ /^callq?$/ && ($f->{frame_size} + 8) % 16;
    }
    $self->emit_insn($st);
    if ($f && !$f->{helper} && $self->{cfi_unwind} && $self->win64) {
        my $info = lookup_mnemonic($m);
        $self->{inferred} = X64::Win64Inferred::after($f->{state}, $info ? $info->{name} : $m,
                                                      $st->{operands}, $f->{rsp_copies} //= {});
    }
}

# Win64 unwind from CFI: an instruction spelt out in `.byte` (X64::SpeltInstruction)
# changes the unwind state as if it had been written as text.
sub infer_spelt {
    my ($self, $args) = @_;
    my $f = $self->{func};
    return unless $f && !$f->{helper} && $self->{cfi_unwind} && $self->win64
        && $self->{section} eq 'text';
    my @bytes;
    for my $b (split_args($args)) {
        return unless is_constant($b);
        push @bytes, evaluate($b);
    }
    my $text = spelt_instruction(@bytes);
    if (!defined $text) {
        X64::Win64Inferred::unknown_instruction($f->{rsp_copies} //= {})
            if writes_general_register(@bytes);
        return;
    }
    my ($st) = X64::Parser::parse_line($text);
    $self->{inferred} = X64::Win64Inferred::after($f->{state}, lookup_mnemonic($st->{mnemonic})->{name},
                                                  $st->{operands}, $f->{rsp_copies} //= {});
}

# --- endbr64 where an indirect branch can land --------------------------------
# A function entry gets endbr64 when an indirect call or jump may reach
# it: it is global (any other object may take its address, or call it
# through a PLT), or this file uses its address other than as the target
# of a direct call or jump (lea, an immediate, a data directive).  A local
# function reached only by direct branches (a mode's shared body) gets
# none.  Whether a local one's address is used may only be known later in
# the file, so its entry gets a placeholder that finish() resolves.
my $ENDBR_MARK = "\0endbr:";

sub entry_endbr {
    my ($self, $name) = @_;
    return $self->emit($self->{emit}->endbr) if $self->{globals}{$name};
    $self->emit("$ENDBR_MARK$name\0");
}

sub resolve_entry_endbr {
    my ($self) = @_;
    my $endbr = $self->{emit}->endbr;
    $self->{out} =~ s{\Q$ENDBR_MARK\E([^\0]*)\0}{
        $self->{globals}{$1} || $self->{address_used}{$1} ? $endbr : ''
    }ge;
}

# Every symbol an expression names counts as a use of its address.
sub note_symbols {
    my ($self, $text) = @_;
    $self->{address_used}{$1} = 1 while ($text // '') =~ /([A-Za-z_.\$][\w.\$]*)/g;
}

# An instruction uses a symbol's address unless it is the target of a
# direct call or jump.
sub note_address_uses {
    my ($self, $st) = @_;
    my $direct = $st->{mnemonic} =~ /^(?:j[a-z]+|callq?)$/;
    for my $op (@{ $st->{operands} }) {
        next if $direct && $op->{type} eq 'expr';
        $self->note_symbols($op->{$_}) for grep { defined $op->{$_} } qw(expr disp);
    }
}

# Emit one instruction given as AT&T text operands.
sub insn {
    my ($self, $mnemonic, @ops) = @_;
    my ($st) = parse_line("$mnemonic\t" . join(',', @ops));
    $self->emit_insn($st);
}

sub emit_insn {
    my ($self, $st) = @_;
    $self->{func}{code_in_region} = 1 if $self->{func};
    $self->emit($self->{emit}->insn($st));
}

# A frame-helper function declares the callee-saved registers it uses;
# writing one it did not declare is an error at that line, not a
# corrupted caller found (maybe) at run time.  xmm6-15 count whatever the
# ABI, so the same source is right on Win64.
my %READS_ONLY = map { $_ => 1 } qw(cmp test bt ptest vptest comiss comisd
    ucomiss ucomisd vcomiss vcomisd vucomiss vucomisd push jmp call ret nop
    pause lfence mfence sfence clflush prefetcht0 prefetcht1 prefetcht2
    prefetchnta vzeroupper endbr64 ldmxcsr stmxcsr fnstcw fldcw);

sub check_clobbers {
    my ($self, $st) = @_;
    my $f = $self->{func};
    my $name = lookup_mnemonic($st->{mnemonic})->{name};
    return if $READS_ONLY{$name} || $name =~ /^j/;
    my @ops = @{ $st->{operands} };
    my @written;
    push @written, $ops[-1] if @ops;
    push @written, $ops[0] if $name =~ /^(xchg|xadd|cmpxchg)$/ && @ops > 1;
    push @written, $ops[-2] if $name eq 'mulx';
    push @written, { type => 'reg', reg => 'rbx' } if $name eq 'cpuid';
    push @written, map { { type => 'reg', reg => "xmm$_" } } 6 .. 15
        if $name eq 'vzeroall';
    my %saved = map { $_ => 1 } @{ $f->{saved_gp} };
    my %xmm = map { $_ => 1 } @{ $f->{declared_xmm} };
    for my $op (grep { $_->{type} eq 'reg' && !$_->{indirect} } @written) {
        my $r = $op->{reg};
        if (my $gp = gp64_of($r)) {
            fail("$st->{mnemonic} writes %$r but %rbp is this function's frame pointer")
                if $gp eq 'rbp' && $f->{use_fp};
            fail("$st->{mnemonic} writes %$r, callee-saved: add $gp to save= of .function $f->{name}")
                if $CALLEE_SAVED_SYSV{$gp} && !$saved{$gp};
        } elsif ($r =~ /^[xyz]mm(\d+)$/ && $1 >= 6 && $1 <= 15 && !$xmm{$1}) {
            fail("$st->{mnemonic} writes %$r, callee-saved on Win64: add $1 to xmm= of .function $f->{name}");
        }
    }
}

# Body code of a frame-helper function may move rsp; stack arguments are
# then only reachable through the frame pointer.
sub note_rsp_change {
    my ($self, $st) = @_;
    my $dst = $st->{operands}[-1];
    my $name = lookup_mnemonic($st->{mnemonic})->{name};
    if ($name =~ /^(push|pop|call)$/
        || ($dst && $dst->{type} eq 'reg' && $dst->{reg} eq 'rsp')) {
        $self->{func}{rsp_moved} = 1;
    }
}

# --- directives --------------------------------------------------------------
my %DATA_DIRECTIVE = ('.byte' => 'byte', '.value' => 'value', '.word' => 'value',
                      '.short' => 'value', '.long' => 'long', '.int' => 'long',
                      '.quad' => 'quad');

sub split_args { my ($t) = @_; return X64::Parser::split_operands($t) }

sub directive {
    my ($self, $st) = @_;
    my ($name, $args) = @$st{qw(name args)};
    my $e = $self->{emit};

    $self->note_symbols($args)
        if $DATA_DIRECTIVE{$name} || $name eq '.set' || $name eq '.equ' || $name eq '.rva';
    if ($DATA_DIRECTIVE{$name}) {
        # Bytes in a function are code (an instruction spelt out): with
        # unwind from CFI, a region they end is kept.  (The default output
        # stays as it was; there such a region is dropped.)
        $self->{func}{code_in_region} = 1
            if $self->{cfi_unwind} && $self->{func} && $self->{section} eq 'text';
        $self->infer_spelt($args) if $name eq '.byte';
        return $self->emit($e->data($DATA_DIRECTIVE{$name}, split_args($args)));
    }
    return $self->set_section('text')   if $name eq '.text';
    return $self->set_section('data')   if $name eq '.data';
    return $self->set_section('bss')    if $name eq '.bss';
    if ($name eq '.section') {
        my ($sec) = split_args($args);
        # OpenSSL's dialect: "NAME align=N".  Where a flavour states a
        # section's alignment in the section line (nasm, masm), N is it;
        # GNU as takes it from the .align after the line instead.
        my $align;
        if ($sec =~ s/\s+align\s*=\s*(.*)$//) {
            $align = evaluate($1);
            fail("bad section alignment \"$1\" (want a power of two)")
                if $align < 1 || $align & ($align - 1);
        }
        return $self->set_section('rodata', $align) if $sec =~ /^\.rodata/;
        if ($sec eq '.pdata' || $sec eq '.xdata') {
            fail("section $sec exists only on Win64 (guard it with the flavour)")
                unless $self->win64;
            return $self->set_section('dropped') if $self->{cfi_unwind};
            # The module writes SEH tables of its own: the functions
            # they cover get none of ours (see hand_described).
            return $self->set_section(substr($sec, 1), $align);
        }
        return $self->set_section('text')   if $sec eq '.text';
        # Start-up code: calls run when the object is loaded.
        return $self->set_section('init')   if $sec eq '.init';
        return if $sec =~ /^\.note\.GNU-stack/;       # we always add it
        fail("unsupported section $sec");
    }
    if ($name eq '.previous') {
        return $self->set_section(@{ $self->{prev_section} });
    }
    if ($name eq '.align' || $name eq '.p2align') {
        my ($n) = split_args($args);
        fail("$name needs an alignment") unless defined $n;
        $n = evaluate($n);
        fail("bad alignment \"$args\"") if $n < 0 || ($name eq '.p2align' && $n > 30);
        $n = 1 << $n if $name eq '.p2align';
        fail("alignment $n is not a power of two") if $n & ($n - 1);
        return $self->emit($e->p2align($n));
    }
    if ($name eq '.asciz') { return $self->emit($e->asciz($args)) }
    if ($name eq '.zero' || $name eq '.space') {
        my ($n) = split_args($args);
        fail("$name needs a byte count") unless defined $n;
        $n = evaluate($n);
        fail("$name: negative byte count $n") if $n < 0;
        return $self->emit($e->zero($n, $self->{section}));
    }
    if ($name eq '.globl' || $name eq '.global') {
        for my $sym (split_args($args)) {
            $self->{globals}{$sym} = 1;
            $self->emit($e->global($sym));
        }
        return;
    }
    if ($name eq '.hidden') { return $self->emit($e->hidden($_)) for split_args($args) }
    if ($name eq '.extern') { return $self->emit($e->extern($_)) for split_args($args) }
    if ($name eq '.comm') { return $self->emit($e->comm(split_args($args))) }
    if ($name eq '.rva') {
        for my $sym (split_args($args)) {
            # Every third .pdata word is where a hand-written entry starts.
            push @{ $self->{hand_starts} }, $sym
                if $self->{section} eq 'pdata' && $self->{pdata_words}++ % 3 == 0;
            $self->emit($e->rva($sym));
        }
        return;
    }
    if ($name eq '.set' || $name eq '.equ') {
        my ($sym, $val) = split_args($args);
        $e->{constants}{$sym} = 1;
        return $self->emit($e->set_const($sym, $val));
    }
    if ($name eq '.type') {
        my ($sym, $type, $nargs) = split_args($args);
        delete $self->{shuffled} if $type =~ /^\@(function|abi-omnipotent)$/;   # a new function
        if ($type eq '@function') {
            # Without N: all six SysV argument registers, as in OpenSSL.
            fail("bad argument count \"$nargs\" in .type $sym") if defined $nargs && $nargs !~ /^\d+$/;
            $self->{arg_shuffle}{$sym} = $nargs // 6;
            return $self->emit($e->function_type($sym));
        }
        return $self->emit($e->function_type($sym)) if $type eq '@abi-omnipotent';
        return $self->emit($e->object_type($sym)) if $type eq '@object';
        fail("unknown symbol type $type");
    }
    if ($name eq '.size') {
        my ($sym, $val) = split_args($args);
        if (($self->{shuffled} // '') eq $sym) {
            $self->raw_function_end($sym) if $self->win64;
            delete $self->{shuffled};
        }
        return $self->emit($e->size($sym, $val));
    }
    if ($name eq '.picmeup') {
        my ($reg) = split_args($args);
        my $l = $self->new_label('picmeup');
        $self->emit($e->label($l));
        return $self->insn('lea', "$l(%rip)", $reg);   # its own address
    }
    return $self->cfi(substr($name, 5), split_args($args)) if $name =~ /^\.cfi_/;
    return $self->function_begin($args) if $name eq '.function';
    return $self->function_return if $name eq '.return';
    return $self->function_end if $name eq '.endfunction';
    fail("unknown directive $name");
}

# Which function a label belongs to: the one open, or else the next to
# open (its name and any label just before it).
sub note_label {
    my ($self, $name) = @_;
    my $f = $self->{func};
    push @{ $f ? $f->{labels} : $self->{pending_labels} }, $name;
}

# .previous swaps the current and the previous section, as GNU as does.
sub set_section {
    my ($self, $kind, $align) = @_;
    $self->{pending_labels} = [];
    fail("$kind section switch inside function $self->{func}{name}")
        if $self->{func} && $kind ne 'text';
    $self->{prev_section} = [ $self->{section}, $self->{section_align} ];
    ($self->{section}, $self->{section_align}) = ($kind, $align);
    $self->emit($self->{emit}->section($kind, undef, $align)) unless $kind eq 'dropped';
}

# --- unwind state: one source for CFI and Win64 ------------------------------
sub state { $_[0]{func}{state} }

# Replace the current state; emits CFI (ELF, Mach-O) and opens a new Win64
# region when anything changed.
sub set_state {
    my ($self, $new) = @_;
    my $f = $self->{func} or fail("unwind annotation outside a function");
    my $old = $f->{state};
    return if $old->equals($new);
    if ($self->{emit}->has_cfi) {
        $self->emit($self->{emit}->cfi(@$_)) for X64::UnwindState::cfi_diff($old, $new);
    }
    $f->{state} = $new;
    $self->win64_region if $self->win64;
}

sub win64_region {
    my ($self) = @_;
    my $f = $self->{func};
    if (@{ $f->{regions} } && !$f->{code_in_region}) {
        # Nothing assembled since the last boundary: a region must not be
        # empty, so the newer state simply replaces it.
        $f->{regions}[-1][1] = $f->{state}->clone;
        return;
    }
    $f->{code_in_region} = 0;
    my $e = $self->{emit};
    # Where every label is an object symbol (nasm), the first region
    # starts at the function's own label if nothing lies between them:
    # one symbol fewer for disassemblers and debuggers to show.
    my $at_entry = $e->labels_are_symbols && !@{ $f->{regions} }
        && substr($self->{out}, -length $e->label($f->{name})) eq $e->label($f->{name});
    my $l = $at_entry ? $f->{name} : $self->new_label('unwind');
    $self->boundary($l) unless $at_entry;
    push @{ $f->{regions} }, [ $l, $f->{state}->clone ];
}

sub start_function {
    my ($self, $name, %how) = @_;
    fail("function $name starts inside $self->{func}{name}") if $self->{func};
    my $f = $self->{func} = { name => $name, state => X64::UnwindState->new,
                              regions => [], stack => [], %how,
                              labels => [ $name, @{ $self->{pending_labels} // [] } ] };
    $self->{pending_labels} = [];
    $self->emit($self->{emit}->cfi('startproc')) if $self->{emit}->has_cfi;
    $self->win64_region if $self->win64;
    return $f;
}

sub end_function {
    my ($self) = @_;
    my $f = $self->{func};
    $self->emit($self->{emit}->cfi('endproc')) if $self->{emit}->has_cfi;
    if ($self->win64) {
        pop @{ $f->{regions} } unless $f->{code_in_region};
        $f->{end} = $self->new_label('end');
        $self->boundary($f->{end});
        push @{ $self->{functions} }, $f;
    }
    $self->{func} = undef;
}

# Raw .cfi_* annotations, applied to the state machine.
sub cfi {
    my ($self, $what, @args) = @_;
    if ($what eq 'startproc') {
        return if $self->{func} && $self->{func}{raw_shuffle} && !$self->{func}{saw_startproc}++;
        return $self->start_function($self->{last_label} // 'anonymous');
    }
    fail(".cfi_$what outside .cfi_startproc/.cfi_endproc") unless $self->{func};
    if ($what eq 'endproc') { return $self->end_function }

    my $f = $self->{func};
    my $st = $f->{state}->clone;
    my $reg = sub {
        my ($t) = @_;
        my ($r) = ($t // '') =~ /^%(\w+)$/ or fail("bad register \"" . ($t // '') . "\" in .cfi_$what");
        register_info($r) or fail("unknown register %$r");
        return $r;
    };
    my $on_rsp = $st->{base} eq 'rsp';
    if ($what eq 'adjust_cfa_offset') {
        fail(".cfi_$what while the CFA is an expression") if $st->{base} eq 'expr';
        $st->{off} += num($args[0]);
    }
    elsif ($what eq 'alloca') {
        # rsp moved down by N: the CFA follows only while based on rsp.
        $on_rsp ? ($st->{off} += num($args[0])) : ($st->{sp} += num($args[0]));
    }
    elsif ($what eq 'def_cfa_offset') {
        fail(".cfi_$what while the CFA is an expression") if $st->{base} eq 'expr';
        $st->{off} = num($args[0]);
    }
    elsif ($what eq 'def_cfa_register') {
        fail(".cfi_$what while the CFA is an expression (use .cfi_def_cfa)")
            if $st->{base} eq 'expr';
        $st->move_cfa($reg->($args[0]));
    }
    elsif ($what eq 'def_cfa')          { $st->move_cfa($reg->($args[0]), num($args[1])) }
    elsif ($what eq 'cfa_expression')   {
        $st->move_cfa('expr');
        $st->{expr} = [ expression_bytes(@args) ];
    }
    elsif ($what eq 'offset')           { $st->{saved}{ $reg->($args[0]) } = num($args[1]) }
    elsif ($what eq 'rel_offset') {
        fail(".cfi_$what while the CFA is an expression") if $st->{base} eq 'expr';
        $st->{saved}{ $reg->($args[0]) } = num($args[1]) - $st->{off};
    }
    elsif ($what eq 'register')         { $st->{saved}{ $reg->($args[0]) } = { reg => $reg->($args[1]) } }
    elsif ($what eq 'expression') {
        my ($r, @ops) = @args;
        $st->{saved}{ $reg->($r) } = { expr => [ expression_bytes(@ops) ] };
    }
    elsif ($what eq 'restore')          { delete $st->{saved}{ $reg->($args[0]) } }
    elsif ($what eq 'push') {
        $on_rsp ? ($st->{off} += 8) : ($st->{sp} += 8);
        $st->{saved}{ $reg->($args[0]) } = -$st->rsp_depth;
    } elsif ($what eq 'pop') {
        $on_rsp ? ($st->{off} -= 8) : ($st->{sp} -= 8);
        delete $st->{saved}{ $reg->($args[0]) };
    } elsif ($what eq 'end_prologue' || $what eq 'epilogue') {
        # Markers for translators that describe only a prologue: every
        # region here is described completely, so they change nothing.
        return;
    } elsif ($what eq 'remember_state') {
        push @{ $f->{stack} }, $f->{state}->clone;
        $self->emit($self->{emit}->cfi('remember_state')) if $self->{emit}->has_cfi;
        return;
    } elsif ($what eq 'restore_state') {
        my $back = pop @{ $f->{stack} } or fail(".cfi_restore_state without .cfi_remember_state");
        $self->emit($self->{emit}->cfi('restore_state')) if $self->{emit}->has_cfi;
        # The CFI is already right; only Win64 needs a new region.
        $f->{state} = $back;
        $self->win64_region if $self->win64;
        return;
    } else {
        fail("unsupported directive .cfi_$what");
    }
    my $copy = $self->{cfi_unwind} && $self->win64 && $st->{base} ne 'expr'
        ? ($f->{rsp_copies} // {})->{ $st->{base} } : undef;
    if (defined $copy && $st->{base} ne 'rsp') {
        # The CFA in a register known to hold a copy of rsp: the offset is
        # that copy's depth.  OpenSSL's CFI, written for ELF, leaves out its
        # Win64-only allocations (bsaes's epilogues: `.cfi_def_cfa %rax,8`
        # before the Win64-only `lea 0xa0(%rax),%rax`).
        $st->{off} = $copy;
    }
    if ($self->{cfi_unwind} && $f->{raw_shuffle}) {
        # The caller's rdi and rsi stay in the shadow slots the layer put
        # them in: CFI that saves the shuffled ones describes SysV.
        for my $r (qw(rdi rsi)) {
            my $shadow = $f->{state}{saved}{$r};
            $st->{saved}{$r} = $shadow if defined $shadow && !ref $shadow && $shadow >= 0;
        }
    }
    $self->set_state($st);
}

# A number operand of a directive: a constant expression (X64::Expr).
sub num { my ($t) = @_; return evaluate($t) }

# Raw dialect on Win64 (.type f,@function,N): the Win64 arguments moved into
# the SysV registers, the caller's rdi/rsi kept in its shadow space.
sub raw_shuffle_prologue {
    my ($self, $name, $n) = @_;
    # Usually .cfi_startproc has opened the function already.
    my $f = $self->{func} // $self->start_function($name, opened_by_shuffle => 1);
    $f->{raw_shuffle} = 1;
    $self->{shuffled} = $name;
    $self->insn('mov', '%rdi', '8(%rsp)');
    $self->insn('mov', '%rsi', '16(%rsp)');
    # As OpenSSL's layer: rax holds the entry rsp, and .LSEH_begin_NAME
    # (which a module's own SEH tables refer to) follows.
    $self->insn('mov', '%rsp', '%rax');
    $f->{rsp_copies}{rax} = $f->{state}->rsp_depth;     # X64::Win64Inferred
    my $st = $f->{state}->clone;
    $st->{saved}{rdi} = 0;       # CFA + 0: the first shadow slot
    $st->{saved}{rsi} = 8;
    $self->set_state($st);
    $self->label_here(".LSEH_begin_$name");
    $self->win64_arg_moves($n, 8);
}

sub label_here {
    my ($self, $name) = @_;
    $self->emit($self->{emit}->label($name));
    $self->note_label($name);
}

# .size of a raw function on Win64: .LSEH_end_NAME, the other label a
# module's own SEH tables use; it closes the function if no .cfi_endproc
# did (OpenSSL's raw functions need not have CFI).
sub raw_function_end {
    my ($self, $name) = @_;
    my $f = $self->{func};
    $self->end_function if $f && $f->{opened_by_shuffle} && $f->{name} eq $name;
    $self->label_here(".LSEH_end_$name");
}

# rcx rdx r8 r9 and stack arguments 5, 6 into rdi rsi rdx rcx r8 r9.
# $entry is the distance from the current rsp to the return address.
sub win64_arg_moves {
    my ($self, $n, $entry) = @_;
    $n = 6 if $n > 6;
    $self->insn('mov', '%rcx', '%rdi') if $n >= 1;
    $self->insn('mov', '%rdx', '%rsi') if $n >= 2;
    $self->insn('mov', '%r8', '%rdx')  if $n >= 3;
    $self->insn('mov', '%r9', '%rcx')  if $n >= 4;
    for my $i (5 .. $n) {
        # Argument i (1-based, i > 4) sits above the 32-byte shadow space.
        my $off = $entry - 8 + win64_stack_arg($i);
        $self->insn('mov', "$off(%rsp)", '%' . $SYSV_ARGS[$i - 1]);
    }
}

# --- the frame helper ------------------------------------------------------------
# .function NAME, args=N [, save=rbx:r12] [, xmm=6-15] [, stack=BYTES]
#           [, align=BYTES] [, frame] [, calls]
sub function_begin {
    my ($self, $args) = @_;
    my ($name, @opts) = split_args($args);
    fail(".function needs a name") unless defined $name && $name =~ /^[A-Za-z_][\w.\$]*$/;
    my %o = (args => 0, save => '', xmm => '', stack => 0, align => 16, frame => 0,
             calls => 0);
    for (@opts) {
        my ($k, $v) = /^(\w+)(?:\s*=\s*(.*))?$/ or fail("bad .function option \"$_\"");
        fail("unknown .function option \"$k\"") unless exists $o{$k};
        $o{$k} = defined $v ? $v : 1;
    }
    for my $k (qw(args stack align)) {
        $o{$k} = evaluate($o{$k});
        fail(".function $k must not be negative") if $o{$k} < 0;
    }
    fail(".function align must be a power of two >= 16")
        if $o{align} < 16 || ($o{align} & ($o{align} - 1));
    my @save = grep { length } split /[:\s]+/, $o{save};
    for (@save) {
        s/^%//;
        fail("$_ is not a callee-saved register on SysV") unless $CALLEE_SAVED_SYSV{$_};
    }
    my @xmm;
    for my $part (grep { length } split /[:\s]+/, $o{xmm}) {
        my ($lo, $hi) = $part =~ /^(?:%?xmm)?(\d+)(?:-(\d+))?$/ or fail("bad xmm list \"$o{xmm}\"");
        $hi //= $lo;
        fail("xmm$lo-$hi: only xmm6-xmm15 are callee-saved (Win64)") if $lo < 6 || $hi > 15;
        push @xmm, $lo .. $hi;
    }
    my $use_fp = $o{frame} || $o{align} > 16;
    push @save, 'rbp' if $use_fp && !grep { $_ eq 'rbp' } @save;

    my $e = $self->{emit};
    delete $self->{shuffled};
    $self->emit($e->function_type($name));
    $self->emit($e->label($name));
    $self->{last_label} = $name;
    my $f = $self->start_function($name, helper => 1, nargs => $o{args});
    $f->{code_in_region} = 1;
    $self->entry_endbr($name);

    # Win64: rdi and rsi are callee-saved there, and the body uses them.
    my @push = (($self->win64 ? qw(rdi rsi) : ()), @save);
    my @xmm_saved = $self->win64 ? @xmm : ();
    for my $r (@push) {
        $self->insn('push', "%$r");
        my $st = $self->state->clone;
        $st->{off} += 8;
        $st->{saved}{$r} = -$st->{off};
        $self->set_state($st);
    }
    # Fixed frame: locals at 0(%rsp), then the xmm save area, padded so
    # rsp is 16-byte aligned (entry rsp is 8 mod 16).
    my $pushed = 8 * @push;
    my $locals = ($o{stack} + 15) & ~15;
    my $alloc = $locals + 16 * @xmm_saved;
    # Only a frame with locals, xmm saves or calls needs rsp 16-aligned.
    $alloc += 8 if ($alloc || $o{calls}) && ($pushed + $alloc + 8) % 16;
    $alloc += $o{align} - 16 if $o{align} > 16;   # room to realign
    if ($alloc) {
        $self->insn('sub', "\$$alloc", '%rsp');
        my $st = $self->state->clone;
        $st->{off} += $alloc;
        $self->set_state($st);
    }
    for my $i (0 .. $#xmm_saved) {
        my $at = $locals + 16 * $i;
        $self->insn('movaps', "%xmm$xmm_saved[$i]", "$at(%rsp)");
        my $st = $self->state->clone;
        $st->{saved}{"xmm$xmm_saved[$i]"} = $at - $st->{off};
        $self->set_state($st);
    }
    if ($use_fp) {
        $self->insn('mov', '%rsp', '%rbp');
        my $st = $self->state->clone;
        $st->move_cfa('rbp');
        $self->set_state($st);
    }
    @$f{qw(push xmm_saved locals alloc use_fp align)} =
        (\@push, \@xmm_saved, $locals, $alloc, $use_fp, $o{align});
    $f->{saved_gp} = [ grep { $_ ne 'rbp' || !$use_fp } @save ];
    $f->{declared_xmm} = \@xmm;
    $f->{frame_size} = $pushed + $alloc;      # fixed rsp to return address
    $self->win64_arg_moves($o{args}, $f->{frame_size} + 8) if $self->win64;
    $self->insn('and', '$' . -$o{align}, '%rsp') if $o{align} > 16;
}

sub function_return {
    my ($self) = @_;
    my $f = $self->{func};
    fail(".return outside .function") unless $f && $f->{helper};
    my $body = $f->{state}->clone;
    $self->emit($self->{emit}->cfi('remember_state')) if $self->{emit}->has_cfi;
    if ($f->{use_fp}) {
        $self->insn('mov', '%rbp', '%rsp');
        my $st = $self->state->clone;
        $st->move_cfa('rsp');
        $self->set_state($st);
    }
    my @xmm = @{ $f->{xmm_saved} };
    $self->insn('movaps', ($f->{locals} + 16 * $_) . '(%rsp)', "%xmm$xmm[$_]") for 0 .. $#xmm;
    if ($f->{alloc}) {
        $self->insn('add', "\$$f->{alloc}", '%rsp');
        my $st = $self->state->clone;
        $st->{off} -= $f->{alloc};
        delete $st->{saved}{$_} for grep { /^xmm/ } keys %{ $st->{saved} };
        $self->set_state($st);
    }
    for my $r (reverse @{ $f->{push} }) {
        $self->insn('pop', "%$r");
        my $st = $self->state->clone;
        $st->{off} -= 8;
        delete $st->{saved}{$r};
        $self->set_state($st);
    }
    # A plain ret: the text's `ret` is OpenSSL's (repz ret, X64::Parser).
    $self->emit_insn({ kind => 'insn', mnemonic => 'ret', operands => [] });
    # Code after .return is back in the body.
    $self->emit($self->{emit}->cfi('restore_state')) if $self->{emit}->has_cfi;
    $f->{state} = $body;
    $self->win64_region if $self->win64;
}

sub function_end {
    my ($self) = @_;
    my $f = $self->{func};
    fail(".endfunction outside .function") unless $f && $f->{helper};
    my $name = $f->{name};
    $self->end_function;
    $self->emit($self->{emit}->size($name, ".-$name"));
}

# @argN (N >= 7): a stack argument, as a memory operand.
sub resolve_arg {
    my ($self, $op) = @_;
    my ($n) = $op->{expr} =~ /^\@arg(\d+)$/ or fail("bad argument reference $op->{expr}");
    my $f = $self->{func};
    fail("$op->{expr} outside .function") unless $f && $f->{helper};
    fail("$op->{expr}: only arguments 7 and up live on the stack") if $n < 7;
    fail("$op->{expr}: the function declares args=$f->{nargs}") if $n > $f->{nargs};
    my $entry = $self->win64 ? win64_stack_arg($n) : 8 * ($n - 6);
    my $base = 'rsp';
    if ($f->{use_fp}) { $base = 'rbp' }
    elsif ($f->{rsp_moved}) {
        fail("$op->{expr}: rsp has moved since the prologue; declare the function with frame");
    }
    %$op = (type => 'mem', base => $base, disp => $f->{frame_size} + $entry);
}

# --- Win64 tables ------------------------------------------------------------
# Functions a hand-written .pdata entry starts in (by any of their labels)
# are the module's to describe: ours would overlap its entries.
sub hand_described {
    my ($self) = @_;
    my %start = map { $_ => 1 } @{ $self->{hand_starts} // [] };
    return map { $_->{name} => 1 } grep { grep { $start{$_} } @{ $_->{labels} } }
        @{ $self->{functions} };
}

sub win64_tables {
    my ($self) = @_;
    my $e = $self->{emit};
    my ($pdata, $xdata) = ('', '');
    my %theirs = $self->hand_described;
    for my $f (grep { !$theirs{ $_->{name} } } @{ $self->{functions} }) {
        my @r = @{ $f->{regions} };
        for my $i (0 .. $#r) {
            my ($start, $state) = @{ $r[$i] };
            my $end = $i < $#r ? $r[$i + 1][0] : $f->{end};
            my $info = $self->new_label('uwinfo');
            my @gaps;
            my @bytes = eval { X64::Win64Unwind::unwind_info_bytes($state, \@gaps) };
            (my $why = $@) =~ s/\s+$//;
            fail("function $f->{name}: $why") unless @bytes;
            $pdata .= $e->rva($start) . $e->rva($end) . $e->rva($info);
            $self->{used_label}{$_} = 1 for $start, $end;
            # What the codes cannot say is said here, in the output.
            $xdata .= $e->comment("Win64 unwind: $f->{name}: $_ from "
                                  . $e->symbol($start) . '; not restored when unwinding from there')
                for @gaps;
            $xdata .= $e->p2align(4) . $e->label($info) . $e->data('byte', @bytes);
        }
    }
    return '' unless length $pdata;
    return $e->section('pdata') . $e->p2align(4) . $pdata
         . $e->section('xdata') . $xdata;
}

# Win64 unwind from CFI alone (the module's own tables were dropped):
# every region of every function gets codes where they can say its state,
# else the generated handler (X64::Win64Handler) with the state as its
# table.  A comment per function says which, and one per global code
# label no function covers says the unwinder treats it as a leaf.  A
# function neither can describe is an error, all of them named at once.
sub win64_tables_from_cfi {
    my ($self) = @_;
    my $e = $self->{emit};
    my ($pdata, $xdata, $notes, $handler_used) = ('', '', '', 0);
    my @failed;
    for my $f (@{ $self->{functions} }) {
        my @r = @{ $f->{regions} };
        my ($by_handler, @why) = (0);
        for my $i (0 .. $#r) {
            my ($start, $state) = @{ $r[$i] };
            my $end = $i < $#r ? $r[$i + 1][0] : $f->{end};
            my $info = $self->new_label('uwinfo');
            # Codes where they can say the state (a save below the frame
            # register, for one, they cannot), else the handler.
            my @words = X64::Win64Handler::needs_handler($state) ? ()
                      : eval { X64::Win64Unwind::unwind_info_bytes($state) };
            my $handler = !@words;
            @words = eval { X64::Win64Handler::table($state) } if $handler;
            (my $why = $@) =~ s/\s+$//;
            if (!@words) { push @why, $why; next }
            $pdata .= $e->rva($start) . $e->rva($end) . $e->rva($info);
            $self->{used_label}{$_} = 1 for $start, $end;
            $xdata .= $e->p2align(4) . $e->label($info)
                . ($handler ? $e->data('byte', X64::Win64Handler::INFO_HEADER)
                              . $e->rva($X64::Win64Handler::NAME) . $e->data('long', @words)
                            : $e->data('byte', @words));
            $by_handler++ if $handler;
        }
        if (@why) { push @failed, "$f->{name} ($why[0])"; next }
        $handler_used += $by_handler;
        $notes .= $e->comment("Win64 unwind from CFI: $f->{name}: "
                              . ($by_handler ? "handler in $by_handler of " . @r . ' regions' : 'codes'));
    }
    fail("Win64 unwind from CFI: " . @failed . ' of ' . @{ $self->{functions} }
         . ' functions cannot be described: ' . join('; ', @failed)) if @failed;
    my %covered = map { map { $_ => 1 } @{ $_->{labels} } } @{ $self->{functions} };
    $notes .= $e->comment("Win64 unwind from CFI: $_: no CFI, unwound as a leaf")
        for grep { $self->{text_labels}{$_} && !$covered{$_} } sort keys %{ $self->{globals} // {} };
    if ($handler_used) {
        delete $self->{shuffled};
        $self->set_section('text');
        $self->emit($e->p2align(16));
        $self->line($_) for X64::Win64Handler::code();
    }
    return $notes unless length $pdata;
    return $notes . $e->section('pdata') . $e->p2align(4) . $pdata
         . $e->section('xdata') . $xdata;
}

1;
