#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# perlasm/x86_64-xlate.pl: every flavour against real assemblers.
#
#  - test/xlate/isa_corpus.s (one of each construct) translated for each
#    flavour, assembled with no warnings (GNU as, clang -target
#    x86_64-apple-macos, x86_64-w64-mingw32-as, nasm -f win64), and
#    disassembled with llvm-objdump: the instruction stream must equal the
#    ELF build's (so operand order, sizes, RIP-relative memory, opmasks and
#    broadcasts are right in every syntax);
#  - the same input translates to byte-identical output twice;
#  - elf32 (x32): the corpus and the three x86_64 modules assemble with
#    `as --x32` into ELF32 objects (4-byte aligned property note); a
#    gcc -mx32 program runs a known answer through each module where this
#    kernel runs x32 programs (else, built and linked, a counted SKIP);
#  - ELF objects carry the IBT/SHSTK property and the GNU-stack note, global
#    functions start with endbr64, local ones only when their address is
#    used (none when only direct branches reach them), constants sit in
#    read-only data;
#  - bad input: a clear message naming the line, non-zero exit, no file.
#  - OpenSSL 3.5's dialect ({vex}, .section NAME align=N, .previous, labels
#    in .byte, a comma after the last operand): the text each flavour gets,
#    and {vex} assembled to its VEX form.
# A missing assembler makes its checks SKIP with the reason.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib", "$FindBin::Bin/../../support/perl";
use Slurp qw(slurp spew);
use Capture ();
use File::Temp qw(tempdir);
use ImplRuns qw(result finish run_child);
use X86Disasm qw(instructions64);

my $root  = "$FindBin::Bin/../..";
my $xlate = "$root/perlasm/x86_64-xlate.pl";
my $input = "$root/test/xlate/isa_corpus.s";
my $dir   = tempdir(CLEANUP => 1);

sub have { my ($cmd) = @_; return !system("command -v $cmd >/dev/null 2>&1") }

# Runs a command; returns (exit status, stdout+stderr).
sub run { return Capture::capture(@_) }

sub translate {
    my ($flavour, $in, $out) = @_;
    return run('sh', '-c', "exec \"$^X\" \"$xlate\" $flavour \"$out\" < \"$in\"");
}

my %ASSEMBLE = (
    elf     => [ 'as', sub { ('as', '--warn', '--fatal-warnings', '-o', $_[1], $_[0]) } ],
    elf32   => [ 'as', sub { ('as', '--x32', '--warn', '--fatal-warnings', '-o', $_[1], $_[0]) } ],
    macosx  => [ 'clang', sub { ('clang', '-target', 'x86_64-apple-macos10.13', '-Werror',
                                 '-c', '-x', 'assembler', '-o', $_[1], $_[0]) } ],
    mingw64 => [ 'x86_64-w64-mingw32-as',
                 sub { ('x86_64-w64-mingw32-as', '--fatal-warnings', '-o', $_[1], $_[0]) } ],
    nasm    => [ 'nasm', sub { ('nasm', '-f', 'win64', '-w+all',
                                '-Werror', '-o', $_[1], $_[0]) } ],
);

# --- each flavour: translate, assemble, compare with ELF ----------------------
my %obj;
for my $flavour (qw(elf elf32 macosx mingw64 nasm masm)) {
    my $asm = "$dir/corpus.$flavour." . ($flavour =~ /nasm|masm/ ? 'asm' : 's');
    my ($st, $msg) = translate($flavour, $input, $asm);
    result($st == 0 && -s $asm, "$flavour: isa_corpus.s translates") or print "#   $msg";
    my ($again) = "$asm.again";
    translate($flavour, $input, $again);
    result(defined slurp($asm) && slurp($asm) eq (slurp($again) // ''),
           "$flavour: a second translation is byte-identical");
    next if $flavour eq 'masm';    # no MASM here: text only (README)
    my ($tool, $cmd) = @{ $ASSEMBLE{$flavour} };
    if (!have($tool)) {
        result(1, "$flavour: assembles with no warnings", "SKIP $tool not installed");
        next;
    }
    my $o = "$dir/corpus.$flavour.o";
    ($st, $msg) = run($cmd->($asm, $o));
    result($st == 0 && $msg eq '', "$flavour: $tool assembles it with no warnings")
        or print map { "#   $_\n" } split /\n/, $msg;
    $obj{$flavour} = $o if $st == 0;
}

my $ref = $obj{elf} && have('llvm-objdump') ? instructions64($obj{elf}, 'isa_corpus') : undef;
for my $flavour (qw(elf32 macosx mingw64 nasm)) {
    if (!$ref || !$obj{$flavour}) {
        result(1, "$flavour: instruction stream equals ELF's",
               'SKIP ' . (have('llvm-objdump') ? 'no object to compare' : 'llvm-objdump not installed'));
        next;
    }
    my $got = instructions64($obj{$flavour}, 'isa_corpus') // [];
    my $n = @$ref > @$got ? @$ref : @$got;
    my ($bad) = grep { ($ref->[$_] // '') ne ($got->[$_] // '') } 0 .. $n - 1;
    result(!defined $bad && @$ref > 150,
           "$flavour: instruction stream equals ELF's (" . scalar(@$ref) . " instructions)")
        or printf "#   instruction %d: ELF \"%s\", %s \"%s\"\n", $bad // -1,
                  $ref->[$bad // 0] // '(none)', $flavour, $got->[$bad // 0] // '(none)';
}

# --- the frame corpus: Mach-O and ELF share the SysV ABI, so the frame
# helper must give them the same instructions -------------------------------
my %fc_obj;
if (have('as') && have('clang') && have('llvm-objdump')) {
    my %fc;
    for my $flavour (qw(elf macosx)) {
        my $asm = "$dir/frames.$flavour.s";
        my $o = "$dir/frames.$flavour.o";
        my ($st, $msg) = translate($flavour, "$root/test/xlate/frame_corpus.s", $asm);
        ($st, $msg) = run($ASSEMBLE{$flavour}[1]->($asm, $o)) unless $st;
        result($st == 0 && $msg eq '', "$flavour: frame_corpus.s translates and assembles cleanly")
            or print map { "#   $_\n" } split /\n/, $msg;
        $fc{$flavour} = instructions64($o) // [] unless $st;
        $fc_obj{$flavour} = $o unless $st;
    }
    my ($e, $m) = map { join("\n", @{ $_ // [] }) } @fc{qw(elf macosx)};
    result(length $e && $e eq $m, 'macosx: frame corpus instruction stream equals ELF\'s ('
           . scalar(@{ $fc{elf} // [] }) . ' instructions)');
} else {
    result(1, 'macosx: frame corpus equals ELF', 'SKIP as, clang or llvm-objdump missing');
}

# --- the rest of the dialect: symbol directives, .comm, .extern, .picmeup,
# data, .previous, remember/restore_state ---------------------------------
# A corpus of test/xlate/ translated for every flavour and assembled
# where the assembler is installed: the objects by flavour.
sub corpus_objects {
    my ($corpus, $stem) = @_;
    my %objs;
    for my $flavour (qw(elf macosx mingw64 nasm masm)) {
        my $asm = corpus_output($stem, $flavour);
        my ($st, $msg) = translate($flavour, "$root/test/xlate/$corpus", $asm);
        if ($st || $flavour eq 'masm' || !have($ASSEMBLE{$flavour}[0])) {
            result($st == 0, "$flavour: $corpus translates") or print "#   $msg";
            next;
        }
        my $o = "$dir/$stem.$flavour.o";
        ($st, $msg) = run($ASSEMBLE{$flavour}[1]->($asm, $o));
        result($st == 0 && $msg eq '', "$flavour: $corpus translates and assembles cleanly")
            or print map { "#   $_\n" } split /\n/, $msg;
        $objs{$flavour} = $o unless $st;
    }
    return %objs;
}
sub corpus_output {
    my ($stem, $flavour) = @_;
    return "$dir/$stem.$flavour." . ($flavour =~ /nasm|masm/ ? 'asm' : 's');
}

{
    my %dobj = corpus_objects('dialect_corpus.s', 'dialect');
    if ($dobj{elf} && have('readelf')) {
        my (undef, $syms) = run('readelf', '-s', '-W', $dobj{elf});
        result($syms =~ /FUNC\s+GLOBAL\s+HIDDEN\s+\d+\s+dc_hidden/
               && $syms =~ /GLOBAL\s+DEFAULT\s+COM\s+dc_common/
               && $syms =~ /GLOBAL\s+DEFAULT\s+UND\s+dc_external/,
               'elf: .hidden, .comm and .extern give the right symbols');
        my (undef, $dis) = run('objdump', '-d', $dobj{elf});
        result($dis =~ /lea\s+-0x7\(%rip\),%rax/, 'elf: .picmeup loads its own address');
        result($dis =~ /<dc_index32>:\n(?:.*\n)?\s+[0-9a-f]+:[^\n]*lea\s+0x8\(%rdi,%rsi,8\),%rax/,
               'elf: 32-bit registers in an address are taken as their 64-bit ones');
    }
    # Every global function of every ELF corpus starts with endbr64: the
    # frame helper writes it, raw-dialect code says endbranch.  The one
    # raw entry that does not (dc_no_endbr) gets none, as with OpenSSL's
    # layer.
    if ($dobj{elf} && have('nm') && have('objdump')) {
        my (@missing, @added);
        my $entries = 0;
        for my $o (grep { defined } $dobj{elf}, $obj{elf}, $fc_obj{elf}) {
            my (undef, $nm) = run('nm', '-g', '--defined-only', $o);
            my (undef, $dis) = run('objdump', '-d', $o);
            for my $sym ($nm =~ /^[0-9a-f]+ T (\w+)$/mg) {
                $entries++;
                my $has = $dis =~ /<\Q$sym\E>:\n\s+[0-9a-f]+:\s+f3 0f 1e fa\s/;
                push @missing, $sym if !$has && $sym ne 'dc_no_endbr';
                push @added, $sym if $has && $sym eq 'dc_no_endbr';
            }
        }
        result(!@missing && !@added && $entries >= 10,
               "elf: all $entries global entries start with endbr64 where the text asks (frame helper, endbranch), none added elsewhere")
            or print "#   missing at: @missing; added at: @added\n";
    }
    # A local entry gets endbr64 exactly when its address is used.
    if ($dobj{elf} && have('objdump')) {
        my (undef, $dis) = run('objdump', '-d', $dobj{elf});
        my %want = (dc_direct_only => 0, dc_frame_direct => 0,
                    dc_address_taken => 1, dc_frame_in_table => 1);
        my @wrong = grep {
            my ($first) = $dis =~ /<\Q$_\E>:\n\s+[0-9a-f]+:\s+((?:[0-9a-f]{2} )+)/;
            !defined $first || (($first =~ /^f3 0f 1e fa /) ? 1 : 0) != $want{$_}
        } sort keys %want;
        result(!@wrong, 'elf: local entries reached only by direct branches have no endbr64, '
               . 'those whose address is used (lea, .quad) have one')
            or print "#   wrong at: @wrong\n";
    }
    if ($dobj{macosx} && have('llvm-nm')) {
        my (undef, $syms) = run('llvm-nm', '-m', $dobj{macosx});
        result($syms =~ /private external _dc_hidden/,
               'macosx: .hidden becomes .private_extern on _dc_hidden');
    }
}
{
    my ($st, $msg) = run('sh', '-c', "printf '.section .pdata\\n.rva x\\n' | \"$^X\" \"$xlate\" elf -");
    result($st != 0 && $msg =~ /exists only on Win64/, 'elf: a .pdata section is refused with a reason');
}

# --- unwind and section forms: expressions, CFA rules, .init, own SEH ------
{
    my %cobj = corpus_objects('cfi_corpus.s', 'cfi');
    for my $flavour (qw(mingw64 nasm)) {
        my $text = slurp(corpus_output('cfi', $flavour)) // '';
        result($text =~ /Win64 unwind: cc_keep_rbx: %rbx is held in %r8 from \S+; not restored/,
               "$flavour: what Win64 codes cannot say (.cfi_register) is said in the output, per function");
    }
    if ($cobj{elf} && have('readelf')) {
        my (undef, $fr) = run('readelf', '--debug-dump=frames-interp', $cobj{elf});
        # cc_sums: push (16), then 128+24 more; cc_alloca: 8*2 below the return address.
        result($fr =~ /rsp\+168\s+c-16/ && $fr =~ /rsp\+24\s+c-8/,
               'elf: expressions in .cfi_adjust_cfa_offset and .cfi_alloca give the CFA offsets')
            or print $fr =~ s/^/#   /mgr;
        result($fr =~ /r8 \(r8\)/, 'elf: .cfi_register says rbx is in r8');
        my (undef, $init) = run('objdump', '-d', '-j', '.init', $cobj{elf});
        result($init =~ /call/, 'elf: section .init holds the start-up call');
    }
    my %INIT = (macosx => '__mod_init_func', mingw64 => '.ctors', nasm => '.CRT$XCU');
    for my $flavour (sort keys %INIT) {
        next unless $cobj{$flavour} && have('llvm-objdump');
        my (undef, $h) = run('llvm-objdump', '-h', $cobj{$flavour});
        result(index($h, $INIT{$flavour}) >= 0, "$flavour: section .init becomes $INIT{$flavour}");
    }

    # Each operand form of .cfi_cfa_expression and .cfi_expression, read
    # back by readelf's own DWARF decoder.
    if (have('as') && have('readelf')) {
        my $in = "$dir/dwarf-forms.s";
        spew($in, ".text\ndf:\n.cfi_startproc\n\tnop\n",
            ".cfi_cfa_expression\t8*2(%rsp),%r9,8,mul,plus,deref,+8\n\tnop\n",
            ".cfi_cfa_expression\t%rsp-8,deref,-200,minus,constu:300U,plus\n\tnop\n",
            ".cfi_expression\t%rbx,%rsp+0x10\n\tnop\n.cfi_def_cfa\t%rsp,8\n\tret\n.cfi_endproc\n");
        my ($st, $msg) = translate('elf', $in, "$dir/dwarf-forms.out.s");
        ($st, $msg) = run('as', '--fatal-warnings', '-o', "$dir/dwarf-forms.o", "$dir/dwarf-forms.out.s")
            unless $st;
        my (undef, $fr) = $st ? (1, '') : run('readelf', '--debug-dump=frames', "$dir/dwarf-forms.o");
        my @want = (
            'DW_CFA_def_cfa_expression (DW_OP_breg7 (rsp): 16; DW_OP_breg9 (r9): 0; DW_OP_lit8; '
                . 'DW_OP_mul; DW_OP_plus; DW_OP_deref; DW_OP_plus_uconst: 8)',
            'DW_CFA_def_cfa_expression (DW_OP_breg7 (rsp): -8; DW_OP_deref; DW_OP_consts: -200; '
                . 'DW_OP_minus; DW_OP_constu: 300; DW_OP_plus)',
            'DW_CFA_expression: r3 (rbx) (DW_OP_breg7 (rsp): 16)',
        );
        my @missing = grep { index($fr, $_) < 0 } @want;
        result(!$st && !@missing, 'elf: every operand form of .cfi_cfa_expression and .cfi_expression '
               . 'encodes as DWARF says (registers, EXPR(%reg), literals, consts, NAME:EXPR, operators)')
            or print map { "#   missing: $_\n" } @missing, ($st ? $msg : ());
    }

    # Frames Win64 codes cannot describe: CFI on ELF and Mach-O, the
    # module's own tables on Win64 (which need OpenSSL's SEH labels).
    my $own = "$root/test/xlate/own_seh_corpus.s";
    my $with_tables = "$dir/own_seh_all.s";
    spew($with_tables, slurp($own), slurp("$root/test/xlate/own_seh_tables.s"));
    for my $flavour (qw(elf macosx mingw64 nasm)) {
        my $win = $flavour =~ /mingw64|nasm/;
        my $asm = "$dir/own.$flavour." . ($flavour eq 'nasm' ? 'asm' : 's');
        my ($st, $msg) = translate($flavour, $win ? $with_tables : $own, $asm);
        my $text = slurp($asm) // '';
        if ($st || !have($ASSEMBLE{$flavour}[0])) {
            result($st == 0, "$flavour: own_seh_corpus.s translates") or print "#   $msg";
            next;
        }
        my $o = "$dir/own.$flavour.o";
        ($st, $msg) = run($ASSEMBLE{$flavour}[1]->($asm, $o));
        result($st == 0 && $msg eq '', "$flavour: own_seh_corpus.s translates and assembles cleanly"
               . ($win ? ' (the SEH labels its tables use are defined)' : ''))
            or print map { "#   $_\n" } split /\n/, $msg;
        if ($flavour eq 'elf' && !$st && have('readelf')) {
            my (undef, $fr) = run('readelf', '--debug-dump=frames', $o);
            result($fr =~ /DW_CFA_def_cfa_expression \(DW_OP_breg7 \(rsp\): 40; DW_OP_deref; DW_OP_plus_uconst: 16\)/,
                   'elf: .cfi_cfa_expression %rsp+8*5,deref,+16 is DW_CFA_def_cfa_expression')
                or print "#   no such expression in the frame table\n";
            (undef, $fr) = run('readelf', '--debug-dump=frames-interp', $o);
            result($fr =~ /rax\+8\s+c-16\s+c-24/,
                   'elf: pushes after .cfi_def_cfa_register %rax save at rsp, CFA stays rax+8')
                or print $fr =~ s/^/#   /mgr;
        }
        next unless $win;
        # The layer's boundary labels: none inside the functions the tables cover.
        my $label = $flavour eq 'nasm' ? qr/^L\$(?:unwind|end)_\d+:/m : qr/^\.L(?:unwind|end)_\d+:/m;
        my ($expr_body) = $text =~ /^cc_expr:\n(.*?)SEH_end_cc_expr:/ms;
        my ($rax_body) = $text =~ /^cc_rax_frame:\n(.*?)cc_rax_frame_end:/ms;
        my ($pop_body) = $text =~ /^cc_wrong_pop:\n(.*?)^\s*(?:repz\s+)?ret\b/ms;
        result(defined $expr_body && defined $rax_body && $expr_body !~ $label && $rax_body !~ $label
               && defined $pop_body && $pop_body =~ $label,
               "$flavour: functions the module's .pdata covers get no tables of ours, the others do");
        ($st, $msg) = translate($flavour, $own, "$dir/own-bare.s");
        result($st != 0 && $msg =~ /function cc_rax_frame: Win64 unwind: CFA based on %rax cannot be described/
               && !-e "$dir/own-bare.s",
               "$flavour: a frame Win64 codes cannot describe, without tables of its own, is an error naming the function")
            or print "#   exit $st: $msg";
    }
}

# --- X64::Expr against Perl, whose arithmetic OpenSSL's layer uses ---------
{
    use lib "$FindBin::Bin/../../perlasm/lib";
    require X64::Expr;
    my @cases = ('128+24', '32*5+8', '-(128+24)', '8*(5+1)-3', '2+3*4<<1', '1<<4|8', '0x50&0x1f^3',
                 '-7/2', '-7%3', '~0x0f&0xff', '!0+!5', '010+0b11', '(1+2)*(3+4)');
    my @wrong;
    for my $e (@cases) {
        (my $perl = $e) =~ s/0b([01]+)/oct("0b$1")/ge;
        my $want = do { use integer; eval $perl };
        my $got = eval { X64::Expr::evaluate($e) };
        push @wrong, "$e: got " . ($got // "error $@") . ", Perl says $want"
            unless defined $got && $got == $want;
    }
    result(!@wrong, 'X64::Expr gives what Perl gives for ' . scalar(@cases)
           . ' expressions (precedence, signs, hex, binary, octal)') or print map { "#   $_\n" } @wrong;
}

# --- ELF security notes, endbr64, read-only data ----------------------------
if ($obj{elf} && have('readelf')) {
    my (undef, $notes) = run('readelf', '-n', $obj{elf});
    result($notes =~ /x86 feature: IBT, SHSTK/, 'elf: .note.gnu.property says IBT, SHSTK');
    my (undef, $sections) = run('readelf', '-S', '-W', $obj{elf});
    result($sections =~ /\.note\.GNU-stack/, 'elf: .note.GNU-stack present (non-executable stack)');
    my ($rodata) = $sections =~ /\.rodata\s+PROGBITS\s+\S+\s+\S+\s+(\S+)/;
    result(defined $rodata && hex($rodata) >= 48, 'elf: constants are in .rodata');
    my (undef, $dis) = run('objdump', '-d', $obj{elf});
    result($dis =~ /<isa_corpus>:\n\s+0:\s+f3 0f 1e fa\s+endbr64/, 'elf: the global entry starts with endbr64');
} else {
    result(1, 'elf: notes and sections', 'SKIP no ELF object or readelf');
}
if ($obj{macosx}) {
    my (undef, $syms) = run('llvm-objdump', '-t', '-h', $obj{macosx});
    result($syms =~ /\b_isa_corpus\b/ && $syms =~ /__const/,
           'macosx: symbols get "_", constants go to __TEXT,__const');
}
if ($obj{mingw64}) {
    my (undef, $h) = run('llvm-objdump', '-h', $obj{mingw64});
    result($h =~ /\.rdata/, 'mingw64: constants go to .rdata');
}

# --- bad input -----------------------------------------------------------------
my @bad = (
    [ "\tmovq\t%rax,%rbx\n\tfrobq\t%rax\n", qr/:2: unknown instruction "frobq"/, 'unknown mnemonic' ],
    [ "\tmovq\t%rxx,%rbx\n", qr/:1: unknown register %rxx/, 'unknown register' ],
    [ "\tnop\n.frobnicate 1\n", qr/:2: unknown directive \.frobnicate/, 'unknown directive' ],
    [ "\tmovq\t(%rax,%rbx,3),%rcx\n", qr/:1: bad scale 3/, 'bad scale' ],
    [ "\tnop\n\tmov\t%eax,%ebx /* never closed\n", qr/:2: unterminated \/\* comment/, 'an unterminated C comment' ],
    [ "\tmovz\t(%rsi),%eax\n", qr/:1: movz: the source size is unknown \(write movzb or movzw\)/,
      'movz with a memory source' ],
    [ "\tmovzb\t%al,(%rdi)\n", qr/:1: movzb: the destination must be a general-purpose register/,
      'movzb into memory' ],
    [ ".function f, args=2, save=rdi\n", qr/:1: rdi is not a callee-saved register/, 'frame helper: bad save list' ],
    [ ".function f, args=2\n\tret\n", qr/:end: function f is not closed/, 'frame helper: unclosed function' ],
    [ ".function f, args=1, xmm=6-7\n\tpxor\t%xmm9,%xmm9\n", qr/:2: pxor writes %xmm9, callee-saved on Win64/,
      'frame helper: an undeclared xmm6-15 write' ],
    [ ".function f, args=1\n\tmov\t\$1,%r12d\n", qr/:2: mov writes %r12d, callee-saved: add r12 to save=/,
      'frame helper: an undeclared callee-saved GPR write' ],
    [ ".function f, args=1, save=rbx, align=64\n\txor\t%ebp,%ebp\n", qr/:2: xor writes %ebp but %rbp is this function's frame pointer/,
      'frame helper: a write to the frame pointer' ],
    [ ".cfi_startproc\n.cfi_adjust_cfa_offset\t128+\n", qr/:2: bad expression "128\+": it ends too early/,
      'a malformed constant expression' ],
    [ ".align\tfoo*2\n", qr/:1: bad expression "foo\*2": "foo" is not a number/, 'a symbol where a number belongs' ],
    [ ".cfi_startproc\n.cfi_cfa_expression\t%rsp+8,deref,frob,+8\n", qr/:2: unknown DWARF operator "frob"/,
      'an unknown operator in .cfi_cfa_expression' ],
    [ ".cfi_startproc\n.cfi_cfa_expression\t%rsp+8,deref,+8\n.cfi_adjust_cfa_offset\t8\n",
      qr/:3: \.cfi_adjust_cfa_offset while the CFA is an expression/, 'an offset change while the CFA is an expression' ],
    [ ".section\t.init\n\tmov\t%rax,%rbx\n", qr/:2: only a call of a function may go in section \.init/,
      'an instruction other than a call in section .init' ],
);
for my $case (@bad) {
    my ($text, $want, $what) = @$case;
    my $in = "$dir/bad.s";
    spew($in, $text);
    for my $flavour (qw(elf nasm)) {
        my $out = "$dir/bad.$flavour.out";
        my ($st, $msg) = translate($flavour, $in, $out);
        my @left = glob("$out*");
        result($st != 0 && $msg =~ $want && !@left,
               "$flavour: $what is an error naming the line, no output left")
            or print "#   exit $st, message: $msg#   files left: @left\n";
    }
}
{
    my ($st, $msg) = translate('vax', $input, "$dir/x.s");
    result($st != 0 && $msg =~ /unknown flavour "vax"/ && !-e "$dir/x.s",
           'an unknown flavour is an error, no output');
    ($st, $msg) = translate('elf', $input, "$dir/no/such/dir/x.s");
    result($st != 0 && $msg =~ /cannot write/ && !glob("$dir/no/such/dir/*"),
           'an unwritable output is an error');
}

# --- every assembly module in every flavour ---------------------------------------
for my $module (glob("$root/crypto/*/asm/*-x86_64.pl")) {
    (my $short = $module) =~ s{^\Q$root\E/}{};
    for my $flavour (qw(elf macosx mingw64 nasm masm)) {
        my $asm = "$dir/module.$flavour." . ($flavour =~ /nasm|masm/ ? 'asm' : 's');
        my ($st, $msg) = run($^X, $module, $flavour, $asm);
        my ($st2) = run($^X, $module, $flavour, "$asm.again");
        my $same = !$st && !$st2 && slurp($asm) eq (slurp("$asm.again") // '');
        if ($st || $flavour eq 'masm' || !have($ASSEMBLE{$flavour}[0])) {
            result(!$st && $same, "$short $flavour: translates, byte-identical twice")
                or print "#   $msg";
            next;
        }
        ($st, $msg) = run($ASSEMBLE{$flavour}[1]->($asm, "$dir/module.$flavour.o"));
        result($st == 0 && $msg eq '' && $same,
               "$short $flavour: translates (byte-identical twice) and assembles with no warnings")
            or print map { "#   $_\n" } split /\n/, $msg;
    }
}

# --- a module script drives the layer -------------------------------------------
{
    my $module = "$root/test/xlate/demo_module.pl";
    my $out = "$dir/demo.s";
    my ($st, $msg) = run($^X, $module, 'elf', $out);
    result($st == 0 && (slurp($out) // '') =~ /demo_add:/,
           'perl module.pl FLAVOUR OUTPUT writes the translation') or print "#   $msg";
    local $ENV{DEMO_MNEMONIC} = 'adx';
    $out = "$dir/demo.asm";
    ($st, $msg) = run($^X, $module, 'nasm', $out);
    result($st != 0 && $msg =~ m{demo_module\.pl:5: unknown instruction "adx"} && !glob("$out*"),
           'a typo in a module names the module and line, leaves no file')
        or print "#   exit $st: $msg";
}

# --- an OpenSSL module opens its own pipe into the layer: the error names
# the script (from the process that feeds us), quotes the line, and gives
# the script's line where that text is literal in it ------------------------
{
    my $script = "$dir/openssl_style.pl";
    open(my $fh, '>', $script) or die;
    print $fh <<'EOT';
my ($flavour, $output) = @ARGV;
open STDOUT, "| \"$^X\" \"$ENV{XLATE}\" $flavour \"$output\"" or die;
print <<___;
.text
	movzb	(%rsi),%eax
	movzx	%al,%ecx
___
close STDOUT or die "error closing STDOUT\n";
EOT
    close $fh;
    local $ENV{XLATE} = $xlate;
    my $out = "$dir/openssl_style.s";
    my ($st, $msg) = run($^X, $script, 'elf', $out);
    result($st != 0 && $msg =~ m{openssl_style\.pl:3: unknown instruction "movzx"}
           && $msg =~ /^\s+movzx\s+%al,%ecx$/m
           && $msg =~ m{line 3 of the perlasm text for \Q$out\E; written at \S*openssl_style\.pl line 6\)}
           && !glob("$out*"),
           'an OpenSSL-style module: the error names the script, quotes the line, gives its source line, no file')
        or print "#   exit $st: $msg";
}

# A hexadecimal CFI offset once drew a Perl warning from the layer (which
# is now fatal): it translates, silently.
{
    my ($st, $msg) = run('sh', '-c', "printf '.cfi_startproc\\n\\tsub \$8,%%rsp\\n.cfi_adjust_cfa_offset 0x8\\n"
                         . "\\tadd \$8,%%rsp\\n.cfi_adjust_cfa_offset -0x8\\n\\tret\\n.cfi_endproc\\n'"
                         . " | \"$^X\" \"$xlate\" elf - 2>&1 >/dev/null");
    result($st == 0 && $msg eq '', 'a hexadecimal .cfi_adjust_cfa_offset translates with no warning')
        or print "#   exit $st: $msg";
}

# --- x32: the modules in elf32, linked into a gcc -mx32 program --------------------
{
    my @objs;
    for my $m (qw(sha1-x86_64 aes-x86_64 aesni-x86_64)) {
        my ($pl) = glob("$root/crypto/*/asm/$m.pl");
        my ($st, $msg) = run($^X, $pl, 'elf32', "$dir/$m.x32.s");
        ($st, $msg) = run($ASSEMBLE{elf32}[1]->("$dir/$m.x32.s", "$dir/$m.x32.o")) unless $st;
        my (undef, $hdr) = $st ? (1, '') : run('readelf', '-h', '-n', "$dir/$m.x32.o");
        result($st == 0 && $msg eq '' && $hdr =~ /Class:\s+ELF32/ && $hdr =~ /Machine:\s+Advanced Micro Devices X86-64/
               && $hdr =~ /GNU\s+0x0000000c\s+NT_GNU_PROPERTY_TYPE_0/ && $hdr =~ /IBT, SHSTK/,
               "elf32: $m assembles with as --x32 into an ELF32 x86-64 object, 12-byte IBT/SHSTK property")
            or print map { "#   $_\n" } split /\n/, $msg;
        push @objs, "$dir/$m.x32.o" unless $st;
    }
    my $cc = 'gcc -mx32';
    my $probe = "$dir/x32_probe";
    my ($pst) = run('sh', '-c', "printf '#include <stdio.h>\\nint main(void){return puts(sizeof(void *) == 4 ? \"x32\" : \"?\") < 0;}\\n'"
                    . " | $cc -x c -o $probe - 2>&1");
    if ($pst) {
        result(1, 'x32 known answers', "SKIP $cc not usable (gcc-multilib)");
    } elsif (@objs != 3) {
        result(0, 'x32 known answers: a module did not assemble');
    } else {
        my $kat = "$dir/x32_kat";
        my ($st, $msg) = run(split(' ', $cc), '-O2', '-Wall', '-Wextra', '-Werror', '-DWITH_AESNI', "-I$root/test",
                             '-o', $kat, "$root/test/module_kat.c", "$root/test/lib/tap.c", @objs);
        result($st == 0 && $msg eq '', 'x32: the known-answer program links with the three elf32 objects')
            or print map { "#   $_\n" } split /\n/, $msg;
        # The probe must print its line: exec hands a format the kernel
        # refuses to the shell, so an exit status alone would not tell.
        my (undef, $said) = run('sh', '-c', "$probe 2>/dev/null");
        if ($said ne "x32\n") {
            result(1, 'x32 known answers run',
                   'SKIP this kernel does not run x32 programs (no x32 syscall ABI), and qemu-user has no x32 target');
        } elsif (!$st) {
            run_child('x32: the elf32 modules\' known answers', {}, $kat);
        }
    }
}

# --- OpenSSL's build passes compiler flags between flavour and output ----------
{
    my $module = "$root/crypto/sha/asm/sha1-x86_64.pl";
    my ($st, $msg) = run($^X, $module, 'elf', "$dir/plain.s");
    my ($st2, $msg2) = run($^X, $module, 'elf', '-fPIC', '-DOPENSSL_PIC', '-Wa,--noexecstack',
                           '-O3', "$dir/flags.s");
    result(!$st && !$st2 && slurp("$dir/plain.s") eq (slurp("$dir/flags.s") // ''),
           'perl module.pl FLAVOUR -FLAGS... OUTPUT: flags accepted, same output as without')
        or print "#   $msg$msg2";
    ($st, $msg) = run($^X, $module, 'elf', 'stray', "$dir/stray.s");
    result($st != 0 && $msg =~ /unexpected argument "stray"/ && !-e "$dir/stray.s",
           'a stray word between flavour and output is an error, no file')
        or print "#   exit $st: $msg";
}

# --- OpenSSL 3.5's dialect, directive by directive ---------------------------
# Each input translated for each flavour: the expected pieces of text appear
# in that order.  Masm is compared as text only (no MASM here).
{
    my $body = "\t{vex} vpmadd52luq 0(%rsi),%ymm1,%ymm3\n\tvmovdqu -16(%rbp),%xmm15,\n";
    my @cases = (
        [ '{vex} prefix; a comma after the last operand is dropped',
          ".text\nf:\n$body\tret\n",
          { gas  => [ "\t{vex} vpmadd52luq\t0(%rsi),%ymm1,%ymm3\n\tvmovdqu\t-16(%rbp),%xmm15\n" ],
            nasm => [ "\t{vex} vpmadd52luq\tymm3, ymm1, [rsi]\n\tvmovdqu\txmm15, [rbp-16]\n" ] } ],
        [ '.section .rodata align=N and .previous (twice)',
          ".text\nf:\n\tret\n.section .rodata align=4096\nt:\n.long 1\n.previous\ng:\n\tret\n.previous\n.long 2\n.text\n",
          { elf     => [ ".section\t.rodata\n", "t:\n", ".text\ng:\n", ".section\t.rodata\n\t.long\t2\n.text\n" ],
            macosx  => [ ".section\t__TEXT,__const\n", ".text\ng:\n", ".section\t__TEXT,__const\n\t.long\t2\n" ],
            mingw64 => [ ".section\t.rdata,\"dr\"\n", ".text\ng:\n", ".section\t.rdata,\"dr\"\n\t.long\t2\n" ],
            nasm    => [ "section .rdata rdata align=4096\n", "section .text code align=64\ng:\n",
                         "section .rdata rdata align=4096\n\tDD\t2\n" ],
            masm    => [ "_TEXT\tENDS\n.rdata\tSEGMENT READONLY ALIGN(4096)\n", ".rdata\tENDS\n_TEXT\tSEGMENT ALIGN(64) 'CODE'\ng::\n",
                         "_TEXT\tENDS\n.rdata\tSEGMENT READONLY ALIGN(4096)\n\tDD\t2\n" ] } ],
        [ '.section .rodata without align: the flavour\'s own alignment',
          ".section .rodata\n.long 1\n",
          { nasm => [ "section .rdata rdata align=64\n" ], masm => [ ".rdata\tSEGMENT READONLY ALIGN(64)\n" ] } ],
        [ 'labels in .byte operands are spelt for the flavour',
          ".text\n.La:\n\tnop\n.Lb:\n\tret\n.section .rodata align=16\n.byte .Lb-.La,1\n",
          { elf     => [ "\t.byte\t.Lb-.La,1\n" ], macosx => [ "\t.byte\tLb-La,1\n" ],
            mingw64 => [ "\t.byte\t.Lb-.La,1\n" ], nasm => [ "\tDB\tL\$b-L\$a,1\n" ],
            masm    => [ "\tDB\tL\$b-L\$a,1\n" ] } ],
    );
    for my $case (@cases) {
        my ($what, $in, $expect) = @$case;
        spew("$dir/dialect.s", $in);
        for my $flavour (qw(elf macosx mingw64 nasm masm)) {
            my $want = $expect->{$flavour}
                // $expect->{ $flavour =~ /nasm|masm/ ? 'nasm' : 'gas' } or next;
            my $out = "$dir/dialect.$flavour";
            my ($st, $msg) = translate($flavour, "$dir/dialect.s", $out);
            my $text = slurp($out) // '';
            my ($at, $missing) = (0, undef);
            for my $piece (@$want) {
                my $i = index($text, $piece, $at);
                if ($i < 0) { $missing = $piece; last }
                $at = $i + length $piece;
            }
            result(!$st && $msg eq '' && !defined $missing, "3.5 dialect, $flavour: $what")
                or print "#   exit $st: $msg", map({ "#   $_\n" } "missing (in order): " . ($missing // ''),
                                                      split /\n/, $text);
        }
    }

    # {vex} selects the VEX encoding (c4/c5), not EVEX (62).
    spew("$dir/vex.s", ".text\nf:\n$body\tret\n");
    for my $flavour (qw(elf nasm)) {
        my $tool = $ASSEMBLE{$flavour}[0];
        if (!have($tool)) { result(1, "$flavour: {vex} assembles", "SKIP $tool not installed"); next }
        my $asm = corpus_output('vex', $flavour);
        my ($st, $msg) = translate($flavour, "$dir/vex.s", $asm);
        ($st, $msg) = run($ASSEMBLE{$flavour}[1]->($asm, "$dir/vex.$flavour.o")) unless $st;
        my (undef, $dis) = run('objdump', '-d', "$dir/vex.$flavour.o");
        result(!$st && $msg eq '' && $dis =~ /^\s+0:\s+c4 e2 f5 b4 1e\s+\{vex\} vpmadd52luq/m,
               "$flavour: {vex} vpmadd52luq assembles, warning-free, to its VEX form")
            or print "#   exit $st: $msg\n", map { "#   $_\n" } split /\n/, $dis;
    }

    # Misuse: one line, non-zero exit, no output.
    for my $bad ([ "{vex} add %eax,%eax\n", qr/\{vex\} goes only before an AVX instruction/ ],
                 [ "vpxor %xmm0,%xmm1,%xmm2,,\n", qr/empty operand/ ],
                 [ ".section .rodata align=48\n", qr/bad section alignment "48"/ ]) {
        my ($in, $re) = @$bad;
        spew("$dir/bad35.s", ".text\nf:\n$in");
        unlink "$dir/bad35.s.out";
        my ($st, $msg) = translate('elf', "$dir/bad35.s", "$dir/bad35.s.out");
        result($st != 0 && $msg =~ $re && !-e "$dir/bad35.s.out", "3.5 dialect misuse refused: $in" =~ s/\n//r)
            or print "#   exit $st: $msg";
    }
}

finish();
