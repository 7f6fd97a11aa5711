#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# perlasm/x86asm.pl, the 32-bit layer, on test/x86asm/corpus.pl:
#  - the ELF build (gcc -m32, from `make tests`) runs under qemu-i386, and
#    so does the code of the macosx, coff, a.out (-fPIC) and win32n
#    flavours, retargeted to ELF with every instruction kept
#    (test/x86asm/flavour_to_elf.pl; no assembler here writes a.out);
#  - the Win32 programs (coff and win32n flavours) are linked i386 PE files;
#  - disassembly: coff, win32n and win32 (MASM, assembled by LLVM's llvm-ml:
#    there is no ml here) objects equal a non-PIC ELF build, macosx equals
#    the -fPIC ELF build, but for relocations and symbol decoration; the
#    three modules in win32 assemble, their exports and instructions those
#    of their win32n objects;
#    a.out's ELF twin equals ELF, with and without -fPIC, and has no CFI;
#  - elf-1 and android write elf's bytes, gaswin coff's (OpenSSL's
#    differences between them do not occur in this layer's output);
#  - the three 32-bit modules in a.out (-fPIC, OpenSSL's flags), their ELF
#    twins linked into test/module_kat.c, pass it under qemu-i386 and
#    natively where this kernel runs i386 programs;
#  - ELF notes (IBT/SHSTK, GNU-stack), endbr32 at every entry, one DWARF
#    FDE per function;
#  - every flavour generated twice is byte-identical;
#  - a typo in a module is an error naming the module's line, no file left;
#  - under OpenSSL's conventions &islabel finds a function by its name and
#    &push writes a label bare, as OpenSSL's layer does; elsewhere a bare
#    label pushed is an error.
# What needs a missing tool is a counted SKIP naming the tool.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib", "$FindBin::Bin/../../support/perl";
use Slurp qw(slurp spew);
use File::Temp qw(tempdir);
use ImplRuns qw(result run_child finish);
use Toolchain qw(tool missing);
use X86Disasm ();
use Capture qw(capture);

my $root   = "$FindBin::Bin/../..";
my $build  = $ENV{BUILD} // 'build';
$build = "$root/$build" unless $build =~ m{^/};
my $corpus = "$root/test/x86asm/corpus.pl";
my $dir    = tempdir(CLEANUP => 1);

sub have { my ($cmd) = @_; return !system("command -v $cmd >/dev/null 2>&1") }

# --- the ELF program under qemu-i386 ------------------------------------------
my $elf_bin = "$build/test/x86asm/corpus_elf";
if (my $why = missing('QEMU_I386', 'CC32')) {
    result(1, 'corpus_elf under qemu-i386', "SKIP $why");
} else {
    run_child('corpus_elf (32-bit ELF) under qemu-i386', {}, tool('QEMU_I386'), $elf_bin);
}
# The other flavours' code, retargeted to ELF (test/x86asm/flavour_to_elf.pl).
for my $fl (qw(macosx coff a.out win32n)) {
    my $bin = "$build/test/x86asm/corpus_$fl-elf";
    my $desc = "$fl code retargeted to ELF (corpus_$fl-elf) under qemu-i386";
    if (my $why = missing('QEMU_I386', 'CC32', $fl eq 'win32n' ? 'NASM' : ())) {
        result(1, $desc, "SKIP $why");
    } else {
        run_child($desc, {}, tool('QEMU_I386'), $bin);
    }
}

# --- the Win32 programs link ---------------------------------------------------
for my $fl (qw(coff win32n)) {
    my $exe = "$build/test/x86asm/corpus_$fl.exe";
    if (my $why = missing('MINGW32', $fl eq 'win32n' ? 'NASM' : ())) {
        result(1, "$fl: Win32 program links", "SKIP $why");
        next;
    }
    my (undef, $f) = have('llvm-objdump') ? capture('llvm-objdump', '-f', $exe) : (0, 'pei-i386');
    result(-s $exe && $f =~ /(coff|pei)-i386/, "$fl: corpus_$fl.exe is a linked i386 PE program (cannot run here)");
}

# --- disassembly against ELF ---------------------------------------------------
# LLVM's MASM assembler, under its versioned name where that is the one.
my ($LLVM_ML) = (grep({ have($_) } qw(llvm-ml llvm-ml-14)), 'llvm-ml');
my %ASM = (
    elf    => [ 'as',   sub { ('as', '--32', '--fatal-warnings', '-o', $_[1], $_[0]) } ],
    macosx => [ 'clang', sub { ('clang', '-target', 'i386-apple-macos10.13', '-Werror',
                                '-c', '-x', 'assembler', '-o', $_[1], $_[0]) } ],
    coff   => [ 'i686-w64-mingw32-as', sub { ('i686-w64-mingw32-as', '--fatal-warnings', '-o', $_[1], $_[0]) } ],
    win32n => [ 'nasm', sub { ('nasm', '-f', 'win32', '-Wall', '-Werror', '-o', $_[1], $_[0]) } ],
    win32  => [ $LLVM_ML, sub { ($LLVM_ML, '--m32', '--fatal-warnings', '/c', '/Fo', $_[1], $_[0]) } ],
);

sub generate {
    my ($flavour, $out, @flags) = @_;
    return capture($^X, $corpus, $flavour, @flags, $out);
}

# Instruction streams of the corpus functions (support/perl/X86Disasm.pm).
sub functions {
    my ($obj, $decorated) = @_;
    return X86Disasm::functions($obj, qr/^corpus_/, decorated => $decorated);
}

my %obj;
for my $v ([ 'elf', 'elf-pic', '-fPIC' ], [ 'elf', 'elf' ], [ 'macosx', 'macosx' ],
           [ 'coff', 'coff' ], [ 'win32n', 'win32n' ], [ 'win32', 'win32' ]) {
    my ($fl, $tag, @flags) = @$v;
    my $src = "$dir/corpus.$tag." . ($fl =~ /^win32/ ? 'asm' : 's');
    my ($st, $msg) = generate($fl, $src, @flags);
    my ($st2) = generate($fl, "$src.again", @flags);
    result(!$st && !$st2 && slurp($src) eq (slurp("$src.again") // ''),
           "$tag: corpus.pl generates, byte-identical twice") or print "#   $msg";
    my ($tool, $cmd) = @{ $ASM{$fl} };
    if (!have($tool)) { result(1, "$tag: assembles", "SKIP $tool not installed"); next }
    ($st, $msg) = capture($cmd->($src, "$dir/corpus.$tag.o"));
    result($st == 0 && $msg eq '', "$tag: $tool assembles it with no warnings")
        or print map { "#   $_\n" } split /\n/, $msg;
    $obj{$tag} = "$dir/corpus.$tag.o" unless $st;
}

# a.out, with and without -fPIC: its text retargeted to ELF (no assembler
# here writes a.out), which must keep every instruction.
for my $v ([ 'a.out', [] ], [ 'a.out-pic', ['-fPIC'] ]) {
    my ($tag, $flags) = @$v;
    my $src = "$dir/corpus.$tag.s";
    my ($st, $msg) = generate('a.out', $src, @$flags);
    my ($st2) = generate('a.out', "$src.again", @$flags);
    my $text = slurp($src) // '';
    result(!$st && !$st2 && $text eq (slurp("$src.again") // '')
           && $text =~ /^_corpus_sum:/m && $text !~ /\.(?:size|cfi_\w+|section|hidden)\b/
           && ($text =~ /\.type\b/ ? 1 : 0) == (@$flags ? 1 : 0),
           "$tag: generates, byte-identical twice; underscored names, no .size, CFI or sections,"
           . ' .type only with -fPIC') or print "#   $msg";
    next if $st;
    ($st, $msg) = capture($^X, "$root/test/x86asm/flavour_to_elf.pl", 'a.out', $src);
    spew("$dir/corpus.$tag-elf.s", $msg);
    if (!have('as')) { result(1, "$tag: ELF twin assembles", 'SKIP as not installed'); next }
    my ($ast, $amsg) = capture('as', '--32', '--fatal-warnings', '-o', "$dir/corpus.$tag.o", "$dir/corpus.$tag-elf.s");
    result(!$st && $ast == 0 && $amsg eq '', "$tag: its ELF twin assembles with no warnings")
        or print map { "#   $_\n" } split /\n/, "$msg$amsg";
    $obj{$tag} = "$dir/corpus.$tag.o" unless $st || $ast;
}

# OpenSSL's schemes that write another's text here.
for my $v ([ 'elf-1', 'elf' ], [ 'android', 'elf' ], [ 'gaswin', 'coff' ]) {
    my ($fl, $twin) = @$v;
    my @same;
    for my $flags ([], ['-fPIC']) {
        my ($st) = generate($fl, "$dir/corpus.$fl.s", @$flags);
        my ($st2) = generate($twin, "$dir/corpus.$fl-$twin.s", @$flags);
        push @same, 1 if !$st && !$st2 && slurp("$dir/corpus.$fl.s") eq slurp("$dir/corpus.$fl-$twin.s");
    }
    result(@same == 2, "$fl: the same bytes as $twin, with and without -fPIC");
}

# The modules in win32 (MASM): assembled, the same globals as win32n's and
# the same instructions, function by function (the constants that follow
# the last function in win32's code section may decode as more).
for my $m (qw(aes-586 aesni-x86 sha1-586)) {
    if (!have($LLVM_ML) || !have('nasm') || !have('llvm-nm') || !have('llvm-objdump')) {
        result(1, "$m: win32 assembles", 'SKIP llvm-ml, nasm, llvm-nm or llvm-objdump not installed');
        next;
    }
    my ($pl) = glob("$root/crypto/*/asm/$m.pl");
    my (%globals, @err);
    for my $fl (qw(win32 win32n)) {
        my $src = "$dir/$m.$fl.asm";
        my ($st, $msg) = capture($^X, $pl, $fl, '-DOPENSSL_IA32_SSE2', $src);
        ($st, $msg) = capture($ASM{$fl}[1]->($src, "$src.o")) unless $st;
        push @err, "$fl: $msg" if $st || $msg ne '';
        my (undef, $nm) = capture('llvm-nm', '-g', '--defined-only', "$src.o");
        $globals{$fl} = join ' ', sort $nm =~ /^[0-9a-f]+ T (\w+)$/mg;
    }
    my @fns;
    for my $fl (qw(win32n win32)) { push @fns, X86Disasm::functions("$dir/$m.$fl.asm.o", qr/./, decorated => 1) }
    my ($names, $n, $bad) = @err ? (0, 0, []) : X86Disasm::compare(@fns, 'win32n', 'win32');
    my @bad = grep { !/: win32n "\(none\)"/ } @$bad;
    result(!@err && $globals{win32} ne '' && $globals{win32} eq $globals{win32n} && $n > 1000 && !@bad,
           "$m: win32 (MASM) assembles with llvm-ml, no warnings, exporting win32n's "
           . scalar(split ' ', $globals{win32n} // '') . " functions, their $n instructions the same")
        or print map { "#   $_\n" } @err, @bad, "win32: $globals{win32}", "win32n: $globals{win32n}";
}

# The modules in a.out, run through their ELF twins.
{
    my @objs;
    for my $m (qw(aes-586 aesni-x86 sha1-586)) {
        my ($pl) = glob("$root/crypto/*/asm/$m.pl");
        my $src = "$dir/$m.a.out.s";
        my ($st, $msg) = capture($^X, $pl, 'a.out', '-fPIC', '-DOPENSSL_IA32_SSE2', $src);
        ($st, $msg) = capture($^X, "$root/test/x86asm/flavour_to_elf.pl", 'a.out', $src) unless $st;
        if (!$st) {
            spew("$src.elf.s", $msg);
            ($st, $msg) = capture('as', '--32', '--fatal-warnings', '-o', "$dir/$m.a.out.o", "$src.elf.s");
        }
        result($st == 0 && $msg eq '', "$m: a.out generated with -fPIC -DOPENSSL_IA32_SSE2, its ELF twin assembles")
            or print map { "#   $_\n" } split /\n/, $msg;
        push @objs, "$dir/$m.a.out.o" unless $st;
    }
    if (my $why = missing('CC32')) {
        result(1, 'the a.out modules pass module_kat', "SKIP $why");
    } elsif (@objs == 3) {
        my $kat = "$dir/module_kat.a.out";
        my ($st, $msg) = capture(split(' ', tool('CC32')), '-O2', '-Wall', '-Wextra', '-Werror', '-DWITH_AESNI',
                                 "-I$root/test", '-o', $kat, "$root/test/module_kat.c", "$root/test/lib/tap.c", @objs);
        result($st == 0 && $msg eq '', 'the a.out modules\' ELF twins link into module_kat (gcc -m32)')
            or print map { "#   $_\n" } split /\n/, $msg;
        for my $run ([ 'under qemu-i386', missing('QEMU_I386'), tool('QEMU_I386') ], [ 'natively', missing('RUN_I386') ]) {
            my ($how, $why_not, @prefix) = @$run;
            next if $st;
            if ($why_not) { result(1, "a.out modules $how: module_kat", "SKIP $why_not"); next }
            run_child("a.out modules (ELF twins) $how: module_kat", {}, @prefix, $kat);
        }
    }
}

# The GOT (ELF, a.out) and a non-lazy pointer (Mach-O) reach a C global by
# different instruction sequences, by design: that function is left out.
# a.out and win32 keep their constants in the code section: a table's
# address may then be a constant offset, not a relocation, and the function
# before the table runs into it in the disassembly; $in_text allows exactly
# those differences.
my @pairs = ([ 'macosx', 'elf-pic', { corpus_global => 1 } ],
             [ 'coff', 'elf', {} ], [ 'win32n', 'elf', {} ], [ 'win32', 'elf', {}, 1 ],
             [ 'a.out', 'elf', {}, 1 ], [ 'a.out-pic', 'elf-pic', {}, 1 ]);
for my $p (@pairs) {
    my ($tag, $ref, $skip, $in_text) = @$p;
    if (!have('llvm-objdump') || !$obj{$tag} || !$obj{$ref}) {
        result(1, "$tag: disassembly equals ${ref}'s", 'SKIP '
               . (have('llvm-objdump') ? "no $tag or $ref object" : 'llvm-objdump not installed'));
        next;
    }
    my ($ra, $rb) = (functions($obj{$ref}, 0), functions($obj{$tag}, 1));
    my @names = sort grep { !$skip->{$_} } keys %{ $ra // {} };
    my ($n, @bad) = (0);
    for my $f (@names) {
        my ($x, $y) = (join("\n", @{ $ra->{$f} }), join("\n", @{ $rb->{$f} // [] }));
        $n += @{ $ra->{$f} };
        next if $x eq $y;
        my @xa = @{ $ra->{$f} };
        my @ya = @{ $rb->{$f} // [] };
        if ($in_text) {
            splice(@ya, scalar @xa) if @ya > @xa;
            $ya[$_] =~ s/\b\d+(\(%e[a-d]x\))/REL$1/ for grep { ($xa[$_] // '') =~ /REL\(/ } 0 .. $#ya;
            next if join("\n", @xa) eq join("\n", @ya);
        }
        my ($i) = grep { ($xa[$_] // '') ne ($ya[$_] // '') } 0 .. ($#xa > $#ya ? $#xa : $#ya);
        push @bad, "$f insn $i: $ref \"" . ($xa[$i] // '(none)') . "\", $tag \"" . ($ya[$i] // '(none)') . '"';
    }
    result(!@bad && @names >= 5 && $n > 60,
           "$tag: disassembly of " . scalar(@names) . " functions ($n instructions) equals ${ref}'s but for relocations")
        or print map { "#   $_\n" } @bad;
}

# --- ELF: notes, endbr32, CFI ----------------------------------------------------
if ($obj{'elf-pic'} && have('readelf') && have('objdump')) {
    my $o = $obj{'elf-pic'};
    my (undef, $notes) = capture('readelf', '-n', $o);
    result($notes =~ /x86 feature: IBT, SHSTK/, 'elf: .note.gnu.property says IBT, SHSTK');
    my (undef, $sec) = capture('readelf', '-S', '-W', $o);
    result($sec =~ /\.note\.GNU-stack/ && $sec =~ /\.rodata/ && $sec =~ /\.eh_frame/,
           'elf: .note.GNU-stack, constants in .rodata, .eh_frame present');
    my (undef, $nm) = capture('nm', '-g', '--defined-only', $o);
    my (undef, $dis) = capture('objdump', '-d', $o);
    my @syms = $nm =~ /^[0-9a-f]+ T (\w+)$/mg;
    my @missing = grep { $dis !~ /<\Q$_\E>:\n\s+[0-9a-f]+:\s+f3 0f 1e fb\s/ } @syms;
    result(@syms >= 6 && !@missing, 'elf: all ' . scalar(@syms) . ' entries start with endbr32')
        or print "#   missing: @missing\n";
    my (undef, $fr) = capture('readelf', '--debug-dump=frames-interp', $o);
    my @fde = $fr =~ /FDE cie=/g;
    result(@fde == @syms, 'elf: one DWARF FDE per function (' . scalar(@fde) . ')');
    # corpus_sum's table: CFA esp+4 at entry, +20 after the four pushes, back
    # to +4 before ret, with ebx saved at cfa-12 in between.
    my ($sumfde) = $fr =~ /(FDE cie=\S+ pc=0+\.\.\S+\n(?:.*\n)*?)\n/;
    my @cfa = ($sumfde // '') =~ /^[0-9a-f]+\s+esp\+(\d+)/mg;
    result("@cfa" =~ /^4 8 12 16 20 24 32 20 16 12 8 4$/ && ($sumfde // '') =~ /c-12/,
           'elf: corpus_sum CFA steps 4..32..4 and ebx at cfa-12')
        or print "#   CFA offsets: @cfa\n";
} else {
    result(1, 'elf: notes, endbr32, CFI', 'SKIP no ELF object, readelf or objdump');
}
if ($obj{macosx} && have('llvm-objdump')) {
    my (undef, $t) = capture('llvm-objdump', '-t', '-h', $obj{macosx});
    result($t =~ /\b_corpus_sum\b/ && $t =~ /__const/ && $t =~ /__eh_frame|__compact_unwind/,
           'macosx: "_" names, constants in __TEXT,__const, unwind info present');
}

# --- VEX encodings ----------------------------------------------------------------
# The AVX forms of the layer (ymm0-7, VAES), each with the bytes the Intel
# SDM's VEX rules give for it (written out by hand: C4/C5, inverted R, X,
# B and vvvv, L = 1 for ymm, the map and the prefix), must come out of
# every flavour's assembler as exactly those bytes.
{
    my @vex = (
        [ '&vaesenc("ymm0", "ymm1", "ymm2")',                   'c4 e2 75 dc c2' ],
        [ '&vaesenclast("ymm3", "ymm4", &QWP(32, "esi"))',      'c4 e2 5d dd 5e 20' ],
        [ '&vaesdec("ymm5", "ymm6", "ymm7")',                   'c4 e2 4d de ef' ],
        [ '&vaesdeclast("ymm7", "ymm7", &QWP(0, "eax", "ecx"))', 'c4 e2 45 df 3c 08' ],
        [ '&vaesenc("xmm1", "xmm2", "xmm3")',                   'c4 e2 69 dc cb' ],
        [ '&vbroadcasti128("ymm6", &QWP(16, "edx"))',           'c4 e2 7d 5a 72 10' ],
        [ '&vmovdqu("ymm1", &QWP(0, "edi"))',                   'c5 fe 6f 0f' ],
        [ '&vmovdqu(&QWP(32, "edi"), "ymm2")',                  'c5 fe 7f 57 20' ],
        [ '&vpxor("ymm0", "ymm0", "ymm7")',                     'c5 fd ef c7' ],
        [ '&vpxor("ymm4", "ymm4", &QWP(-16, "esi"))',           'c5 dd ef 66 f0' ],
        [ '&vinserti128("ymm1", "ymm1", "xmm2", 1)',            'c4 e3 75 38 ca 01' ],
        [ '&vinserti128("ymm1", "ymm1", &QWP(0, "eax"), 1)',    'c4 e3 75 38 08 01' ],
        [ '&vextracti128("xmm3", "ymm4", 1)',                   'c4 e3 7d 39 e3 01' ],
        [ '&vperm2i128("ymm2", "ymm3", "ymm3", 0x11)',          'c4 e3 65 46 d3 11' ],
        [ '&vpshufb("ymm2", "ymm2", "ymm5")',                   'c4 e2 6d 00 d5' ],
        [ '&vpaddd("ymm1", "ymm1", &QWP(0, "ebx"))',            'c5 f5 fe 0b' ],
        [ '&vpaddq("ymm1", "ymm2", "ymm3")',                    'c5 ed d4 cb' ],
        [ '&vpsubd("ymm0", "ymm0", "ymm6")',                    'c5 fd fa c6' ],
        [ '&vpshufd("ymm3", "ymm2", 0x13)',                     'c5 fd 70 da 13' ],
        [ '&vpsrad("ymm3", "ymm3", 31)',                        'c5 e5 72 e3 1f' ],
        [ '&vpsllq("ymm1", "ymm1", 1)',                         'c5 f5 73 f1 01' ],
        [ '&vpand("ymm3", "ymm3", "ymm4")',                     'c5 e5 db dc' ],
        [ '&vmovd("xmm2", "ecx")',                              'c5 f9 6e d1' ],
        [ '&vpinsrd("xmm2", "xmm2", "ebx", 2)',                 'c4 e3 69 22 d3 02' ],
        [ '&vpermq("ymm4", "ymm2", 0x62)',                      'c4 e3 fd 00 e2 62' ],
        [ '&vzeroupper()',                                      'c5 f8 77' ],
        [ '&vzeroall()',                                        'c5 fc 77' ],
    );
    my $mod = "$dir/vex.pl";
    open(my $fh, '>', $mod) or die;
    print $fh "push(\@INC, '$root/perlasm'); require 'x86asm.pl';\n&asm_init(\$ARGV[0]);\n"
        . "&function_begin_B('vex_forms');\n" . join('', map { "$_->[0];\n" } @vex)
        . "&ret(); &function_end_B('vex_forms');\n&asm_finish();\n";
    close $fh;
    my @want = ('f3 0f 1e fb', (map { $_->[1] } @vex), 'c3');    # endbr32 first
    for my $fl (qw(elf macosx coff win32n win32)) {
        my $src = "$dir/vex.$fl." . ($fl =~ /^win32/ ? 'asm' : 's');
        my ($tool, $cmd) = @{ $ASM{$fl} };
        if (!have($tool) || !have('llvm-objdump')) {
            result(1, "$fl: VEX forms encode as the SDM says", 'SKIP ' . (have($tool) ? 'llvm-objdump' : $tool) . ' not installed');
            next;
        }
        my ($st, $msg) = capture($^X, $mod, $fl, $src);
        ($st, $msg) = capture($cmd->($src, "$src.o")) unless $st;
        my (undef, $dis) = $st ? (1, '') : capture('llvm-objdump', '-d', "$src.o");
        my @got;
        my $in = 0;
        for (split /\n/, $dis) {
            $in = /<_?vex_forms>:/ if /^[0-9a-f]+ </;
            next unless $in && /^\s+[0-9a-f]+:\s+((?:[0-9a-f]{2} )+)/;
            (my $b = $1) =~ s/ $//;
            push @got, $b;
            last if @got == @want;    # alignment padding may follow the ret
        }
        my ($i) = grep { ($got[$_] // '') ne $want[$_] } 0 .. $#want;
        result(!$st && !defined $i && @got == @want, "$fl: " . scalar(@vex) . ' VEX forms (ymm0-7, VAES) encode as the SDM says')
            or print "#   " . ($st ? $msg : defined $i ? "$vex[$i][0]: " . ($got[$i] // 'nothing') . ", want $want[$i]" : 'extra bytes') . "\n";
    }
}

# --- errors ---------------------------------------------------------------------
{
    my @src = split /\n/, slurp($corpus);
    my ($line) = grep { $src[$_ - 1] =~ /&frob/ } 1 .. @src;
    local $ENV{CORPUS_TYPO} = 1;
    for my $fl (qw(elf win32n)) {
        my $out = "$dir/typo.$fl.s";
        my ($st, $msg) = generate($fl, $out);
        result($st != 0 && $msg =~ /corpus\.pl:$line: unknown instruction "frob"/ && !glob("$out*"),
               "$fl: a typo in a module names the module's line ($line), no file left")
            or print "#   exit $st: $msg";
    }
}
my @bad = (
    [ '&mov("eax", &DWP(4, "exp"));', qr/:3: unknown register "exp"/, 'unknown register in a memory operand' ],
    [ '&mov("eax", "ebz");', qr/:3: unknown register "ebz"/, 'unknown register' ],
    [ '&mov("eax", &DWP(0, "esi", "ecx", 3));', qr/:3: bad scale 3/, 'bad scale' ],
    [ '&jmp(&label("nowhere"));', qr/:3: label "nowhere" is used but never set/, 'undefined label' ],
    [ '&push("eax"); &set_label("x"); &pop("eax"); &jmp(&label("x"));', qr/:3: stack depth differs/, 'a jump to a label at another stack depth' ],
    [ '&mov("esp", "eax");', qr/:3: mov changes esp in a way the CFI cannot follow/, 'an untrackable esp write' ],
    [ '&movdqu("xmm0", &QWP(0, "eax"));', qr/:3: movdqu: an MMX\/SSE (instruction|register) in a 386-only build/, 'SSE in a 386 build', '386' ],
    # stack switching (switch_stack/restore_stack)
    [ '&switch_stack("eax", 8);', qr/:4: ret while the stack is switched/, 'a return with esp switched' ],
    [ '&switch_stack("eax", 8); &mov("ecx", &wparam(0)); &restore_stack();', qr/:3: wparam after switch_stack/, 'an argument read with esp switched' ],
    [ '&switch_stack("esp", 8);', qr/:3: switch_stack: the new frame must be in a 32-bit general register other than esp/, 'switching to esp' ],
    [ '&restore_stack();', qr/:3: restore_stack without switch_stack/, 'restore_stack without switch_stack' ],
    [ '&switch_stack("eax", 8); &push("ebx"); &restore_stack();', qr/:3: restore_stack: 8 bytes are on the switched stack, 4 at switch_stack/, 'restore_stack with a push outstanding' ],
    [ '&set_label("x"); &switch_stack("eax", 8); &jmp(&label("x"));', qr/:3: stack switching differs at/, 'a jump between switched and unswitched code' ],
    [ '&lea("eax", &DWP(-64, "esp")); &and("eax", -16); &mov(&DWP(8, "eax"), "ebx"); &switch_stack("eax", 0); &restore_stack();',
      qr/:3: mov: a memory operand based on eax, which points below esp/, 'a store below esp before switch_stack' ],
    [ '&lea("ecx", &DWP(-64, "esp")); &movdqa("xmm0", &QWP(0, "esi", "ecx"));',
      qr/:3: movdqa: a memory operand based on ecx, which points below esp/, 'a read below esp (an index register)' ],
    # returns and frames
    [ '&push("eax");', qr/:4: ret with 4 bytes still on the stack/, 'a ret with bytes still pushed' ],
    [ '&ret(); &function_end_B("f"); &function_begin("g"); &push("eax"); &function_end_A();',
      qr/:3: function_end_A with 4 bytes still pushed/, 'function_end_A with extra bytes pushed' ],
    [ '&ret(); &function_end_B("f"); &function_begin("g"); &function_end_B("g");',
      qr/:3: function g runs off its end/, 'function_begin closed by function_end_B with no return' ],
    [ '&push("ebp"); &leave();', qr/:3: leave without an ebp frame/, 'leave with no ebp frame' ],
    [ '&push("ebp"); &mov("ebp", "esp"); &add("ebp", 4); &leave();', qr/:3: leave without an ebp frame/,
      'leave after ebp was changed' ],
    # a bare label pushed, which only OpenSSL's conventions write
    [ '&set_label("x"); &push(&label("x")); &pop("eax");',
      qr/:3: push\("\.L\d+x"\): a bare label is the word at it on GNU as and its address on nasm/,
      'push of a bare label outside OpenSSL\'s conventions' ],
);
for my $case (@bad) {
    my ($body, $want, $what, @extra) = @$case;
    my $mod = "$dir/bad.pl";
    open(my $fh, '>', $mod) or die;
    print $fh "push(\@INC, '$root/perlasm'); require 'x86asm.pl';\n"
        . "&asm_init(\$ARGV[0], \$ARGV[\$#ARGV] eq '386'); &function_begin_B('f');\n"
        . "$body\n&ret(); &function_end_B('f');\n&asm_finish();\n";
    close $fh;
    my $out = "$dir/bad.out.s";
    my ($st, $msg) = capture($^X, $mod, 'elf', $out, @extra);
    result($st != 0 && $msg =~ $want && !glob("$out*"), "$what: an error naming the line, no file")
        or print "#   exit $st: $msg\n";
}
# Under OpenSSL's conventions, as its layer: &islabel(NAME) is the label
# handed out for NAME (a private function's name is its symbol) and
# &push(LABEL) writes it bare (GNU as reads the word at it, nasm its
# address: e_padlock-x86's SEH handler); an unknown name is undef.
{
    my $mod = "$dir/bare.pl";
    open(my $fh, '>', $mod) or die;
    print $fh "push(\@INC, '$root/perlasm'); require 'x86asm.pl'; openssl_conventions();\n"
        . "&asm_init(\$ARGV[0]); &function_begin_B('_handler'); &ret(); &function_end_B('_handler');\n"
        . "&function_begin_B('f'); &push(&islabel(\$ENV{BARE_NAME} // '_handler')); &pop('eax'); &ret();\n"
        . "&function_end_B('f'); &asm_finish();\n";
    close $fh;
    my %want = (elf => qr/^\tpushl\t_handler$/m, coff => qr/^\tpushl\t__handler$/m, win32n => qr/^\tpush\t__handler$/m);
    for my $fl (sort keys %want) {
        my $out = "$dir/bare.$fl.s";
        my ($st, $msg) = capture($^X, $mod, $fl, $out);
        result(!$st && (slurp($out) // '') =~ $want{$fl},
               "$fl, OpenSSL's conventions: &push(&islabel(FUNCTION)) writes the function's symbol bare")
            or print "#   exit $st: $msg\n";
    }
    local $ENV{BARE_NAME} = 'nowhere';
    my ($st, $msg) = capture($^X, $mod, 'elf', "$dir/bare.none.s");
    result($st != 0 && $msg =~ /:3: an undefined operand/ && !glob("$dir/bare.none.s*"),
           "OpenSSL's conventions: &islabel of a name never handed out is undef (an undefined operand)")
        or print "#   exit $st: $msg\n";
}
{
    my ($st, $msg) = generate('vax', "$dir/x.s");
    result($st != 0 && $msg =~ /unknown flavour "vax"/ && !-e "$dir/x.s", 'an unknown flavour is an error, no file');
    ($st, $msg) = generate('elf', "$dir/no/such/dir/x.s");
    result($st != 0 && $msg =~ /cannot write/, 'an unwritable output is an error');
}

finish();
