#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# crypto/aes/asm/aes-586.pl, every generated variant (small_footprint and
# unrolled; PIC and not; the 386 build without MMX/SSE):
#  - the -m32 builds (build/m32/VARIANT, from `make`) under qemu-i386: every
#    AES vector file (kat_aes) through each compact variant's fixed paths
#    (x86_mmx: MMX/SSE, x86: integer; the 386 build has only the latter),
#    each chosen by the dispatcher under its force mask, and the full
#    T-tables (x86_full); a random differential
#    workload against aes_core.c built -m32 (aes586_diff: keys, lengths with
#    partial blocks, offsets, in place), with the SSE bit forced off too;
#    every length 0..1024 (every_length);
#  - the code the macosx, coff and win32n flavours emit, retargeted to ELF
#    with every instruction kept (test/x86asm/flavour_to_elf.pl; Mach-O and
#    Win32 programs cannot run here): every AES vector file through both
#    paths, and random cases with SSE forced off;
#  - the run-time choice follows the SSE bit of OPENSSL_ia32cap_P: the code
#    qemu translates (-d in_asm) holds the SSE path's pshufw by default and
#    with only MMX and SSE set, and none with the bit forced off; so too
#    through Mach-O's non-lazy pointer and Win32's absolute address;
#  - a digest over a large random workload equals the 64-bit build's;
#  - ELF: the 386 objects hold no MMX/SSE instruction; every function has
#    an FDE and the switched frames describe the CFA by a DWARF expression;
#  - every variant x flavour generated twice is byte-identical; coff and
#    win32n objects link into a Win32 program (it cannot run here); the
#    macosx, coff and win32n disassembly equals ELF's but for relocations
#    and symbol decoration.
# What needs a missing tool is a counted SKIP naming the tool.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib", "$FindBin::Bin/../../support/perl";
use Slurp qw(slurp spew);
use File::Temp qw(tempdir);
use ImplRuns qw(result run_child finish in_path);
use Toolchain qw(tool missing);
use X86Disasm qw(functions compare);
use Capture qw(capture);
use QemuVaes qw(i386_prefix);

my $root  = "$FindBin::Bin/../..";
my $build = $ENV{BUILD} // 'build';
$build = "$root/$build" unless $build =~ m{^/};
my $vectors = $ENV{VECTORS} // "$root/test/vectors";
my $module = "$root/crypto/aes/asm/aes-586.pl";
my $m32    = "$build/m32";
my $dir    = tempdir(CLEANUP => 1);

my %VARIANT = (
    'small'          => [ '-fPIC' ],
    'unrolled'       => [ '-fPIC', '-DAES586_small_footprint=0' ],
    'small-nopic'    => [],
    'unrolled-nopic' => [ '-DAES586_small_footprint=0' ],
    'small-386'      => [ '-fPIC', '386' ],
    'unrolled-386'   => [ '-fPIC', '-DAES586_small_footprint=0', '386' ],
);
my @VARIANTS = sort keys %VARIANT;
# Flavours other than ELF, retargeted (test/aes586/aes586.mk).
my @RETARGETED = qw(small-macosx unrolled-macosx small-coff unrolled-win32n);
# The SSE bit (word 0 bit 25) cleared, words 2-3 kept.
my $NO_SSE = '~0x2000000:~0';
# The x86_mmx entry's force mask (AES-NI, SSSE3 and PCLMULQDQ cleared, as
# OpenSSL takes its table path): the dispatcher reaches aes-586 only when
# aesni-x86 is out of the way; and the x86 entry's, with SSE cleared too.
my $TABLE        = '~0x200020200000000:~0';
my $TABLE_NO_SSE = '~0x200020202000000:~0';

# --- the -m32 builds under qemu-i386 ----------------------------------------------
my $qemu = tool('QEMU_I386');
if (my $why = missing('QEMU_I386', 'CC32')) {
    result(1, 'aes-586 -m32 builds under qemu-i386', "SKIP $why");
} else {
    local $ENV{VECTORS} = $vectors;
    for my $v (@VARIANTS) {
        my $bin = "$m32/$v";
        # (the non-PIC builds differ only in how the tables are addressed:
        # the random cases below reach every table)
        run_child("$v: every AES vector file through the full T-tables (x86_full)",
                  { OPENSSL_ia32cap => undef }, $qemu, "$bin/kat_aes", '--impl', 'x86_full')
            unless $v =~ /nopic/;
        run_child("$v: 150 random cases against aes_core.c -m32, CPU's capabilities",
                  { OPENSSL_ia32cap => undef }, $qemu, "$bin/aes586_diff", 150);
        next if $v =~ /386/;
        run_child("$v: 150 random cases against aes_core.c -m32, SSE forced off ($NO_SSE)",
                  { OPENSSL_ia32cap => $NO_SSE }, $qemu, "$bin/aes586_diff", 150);
    }
    # The compact variants' fixed paths, each the dispatcher's choice: MMX/SSE
    # (x86_mmx) in the default builds, integer (x86) with SSE forced off and
    # in the 386 builds, which have no x86_mmx entry.
    # (qemu emulates MMX slowly: the unrolled MMX code gets every_length.)
    for my $run (['small', $TABLE, 'x86_mmx'], ['unrolled', $TABLE_NO_SSE, 'x86'], ['small-386', $TABLE, 'x86']) {
        my ($v, $mask, $impl) = @$run;
        my $how = $mask eq $TABLE_NO_SSE ? "SSE forced off ($mask)" : $v =~ /386/ ? "integer, $mask" : "MMX/SSE, $mask";
        run_child("$v: every AES vector file through the dispatcher's choice ($impl, $how)",
                  { OPENSSL_ia32cap => $mask }, $qemu, "$m32/$v/kat_aes", '--impl', $impl, '--expect-dispatch');
    }
    # every_length runs the aesni entry too: its ymm code as qemu allows.
    my ($lengths_qemu, $lane_fault) = i386_prefix($qemu, $build);
    result(1, 'every_length: aesni-x86\'s ymm (VAES) code', "SKIP $lane_fault") if $lane_fault;
    for my $v ('unrolled') {
        run_child("$v: every length 0..1024, unaligned and in place, against the C AES",
                  { OPENSSL_ia32cap => undef }, @$lengths_qemu, "$m32/$v/every_length");
    }

    # The other flavours' code: Mach-O's PIC through non-lazy pointers,
    # Win32's absolute addressing, nasm's encoding.
    for my $v (@RETARGETED) {
        my $bin = "$m32/$v";
        if ($v =~ /win32n/ and my $why = missing('NASM')) {
            result(1, "$v (retargeted to ELF): vectors and random cases", "SKIP $why");
            next;
        }
        run_child("$v (retargeted to ELF): every AES vector file through the full T-tables (x86_full)",
                  { OPENSSL_ia32cap => undef }, $qemu, "$bin/kat_aes", '--impl', 'x86_full');
        run_child("$v (retargeted to ELF): every AES vector file through the dispatcher's choice (x86_mmx, MMX/SSE, $TABLE)",
                  { OPENSSL_ia32cap => $TABLE }, $qemu, "$bin/kat_aes", '--impl', 'x86_mmx', '--expect-dispatch');
        run_child("$v (retargeted to ELF): every AES vector file through the integer compact rounds (x86)",
                  { OPENSSL_ia32cap => undef }, $qemu, "$bin/kat_aes", '--impl', 'x86');
        run_child("$v (retargeted to ELF): 150 random cases against aes_core.c -m32, SSE forced off ($NO_SSE)",
                  { OPENSSL_ia32cap => $NO_SSE }, $qemu, "$bin/aes586_diff", 150);
    }

    # The retargeting refuses what it does not know, and writes nothing.
    {
        my $in = "$dir/unknown.s";
        spew($in, "\t.text\n\t.zerofill __DATA,__bss,_x,4\n");
        my ($st, $out) = capture($^X, "$root/test/x86asm/flavour_to_elf.pl", 'macosx', $in);
        result($st != 0 && $out =~ /unknown\.s:2: no ELF translation for: \t\.zerofill/ && $out !~ /\.text/,
               'flavour_to_elf.pl: an unknown directive is an error at its line, with no output')
            or print "#   exit $st: $out\n";
    }

    # Run-time choice, seen in the code qemu translates (-d in_asm): the
    # SSE path's pshufw runs with the SSE bit, and never without it.
    my $ONLY_SSE = '0x2800000:0';    # MMX and SSE only, every other bit clear
    for my $run (['small', undef, 1], ['small', $ONLY_SSE, 1], ['small', $NO_SSE, 0],
                 map { ([$_, undef, 1], [$_, $NO_SSE, 0]) } qw(small-macosx small-coff)) {
        my ($v, $mask, $want) = @$run;
        my $log = "$dir/in_asm.$v." . ($mask // 'default');
        local %ENV = %ENV;
        if (defined $mask) { $ENV{OPENSSL_ia32cap} = $mask } else { delete $ENV{OPENSSL_ia32cap} }
        my ($st, $out) = capture($qemu, '-d', 'in_asm', '-D', $log, "$m32/$v/aes586_diff", 3);
        my $n = () = (slurp($log) // '') =~ /\bpshufw\b/g;
        my $passed = $out !~ /^not ok/m;
        result($st == 0 && $passed && ($want ? $n > 0 : $n == 0) && -s $log,
               "run-time choice ($v): " . ($want ? 'the SSE path runs ' . (defined $mask ? "with $mask" : 'by default')
                                                 . ", 3 cases pass (pshufw translated $n times)"
                                               : "with $NO_SSE no pshufw is ever translated ($n), 3 cases pass"))
            or print "#   exit $st\n";
    }

    # The same workload's digest, 32-bit and 64-bit.
    my $diff64 = "$build/test/aes586/aes586_diff64";
    if (-x $diff64) {
        my ($s32, $o32) = capture($qemu, "$m32/small/aes586_diff", 1500, 0x5eed);
        my ($s64, $o64) = capture($diff64, 1500, 0x5eed);
        my ($d32) = $o32 =~ /^# digest ([0-9a-f]{40})$/m;
        my ($d64) = $o64 =~ /^# digest ([0-9a-f]{40})$/m;
        result(!$s32 && !$s64 && $d32 && $d64 && $d32 eq $d64,
               'digest of 1500 random cases (up to 4 KiB each): aes-586 (-m32) equals aes-x86_64 (64-bit)')
            or print "#   32-bit: exit $s32, " . ($d32 // 'no digest') . "; 64-bit: exit $s64, " . ($d64 // 'no digest') . "\n";
    } else {
        result(0, "digest: $diff64 not built");
    }
}

# --- generated text: byte-identical, assembled, compared ------------------------
my %FLAVOUR = (
    'elf'     => [ [], 's', 'as',   sub { ('as', '--32', '--fatal-warnings', '-o', $_[1], $_[0]) } ],
    'elf-pic' => [ ['-fPIC'], 's', 'as', sub { ('as', '--32', '--fatal-warnings', '-o', $_[1], $_[0]) } ],
    'macosx'  => [ [], 's', 'clang', sub { ('clang', '-target', 'i386-apple-macos10.13', '-Werror',
                                            '-c', '-x', 'assembler', '-o', $_[1], $_[0]) } ],
    'coff'    => [ [], 's', 'i686-w64-mingw32-as', sub { ('i686-w64-mingw32-as', '--fatal-warnings', '-o', $_[1], $_[0]) } ],
    'win32n'  => [ [], 'asm', 'nasm', sub { ('nasm', '-f', 'win32', '-Wall', '-Werror', '-o', $_[1], $_[0]) } ],
);
my %GEN = (
    'small'        => [],
    'unrolled'     => [ '-DAES586_small_footprint=0' ],
    'small-386'    => [ '386' ],
    'unrolled-386' => [ '-DAES586_small_footprint=0', '386' ],
);
my %obj;
for my $g (sort keys %GEN) {
    my ($same, $total, @failed) = (0, 0);
    for my $tag (sort keys %FLAVOUR) {
        my ($flags, $ext, $tool, $asm) = @{ $FLAVOUR{$tag} };
        (my $fl = $tag) =~ s/-pic$//;
        my $src = "$dir/$g.$tag.$ext";
        my ($st, $msg) = capture($^X, $module, $fl, @$flags, @{ $GEN{$g} }, $src);
        my ($st2) = capture($^X, $module, $fl, @$flags, @{ $GEN{$g} }, "$src.again");
        $total++;
        if (!$st && !$st2 && slurp($src) eq (slurp("$src.again") // '')) { $same++ } else { push @failed, "$tag: $msg" }
        next if $st || !in_path($tool);
        my ($ast, $amsg) = capture($asm->($src, "$dir/$g.$tag.o"));
        if ($ast || $amsg ne '') { push @failed, "$tag: $tool: $amsg"; next }
        $obj{$g}{$tag} = "$dir/$g.$tag.o";
    }
    result($same == $total && !@failed, "$g: $total flavours generated twice, byte-identical, assembled with no warnings")
        or print map { "#   $_\n" } @failed;
}

my $ISA_RE = qr/^(AES_|aes586_|_aes586_)/;
my $mingw = tool('MINGW32');
for my $g (sort keys %GEN) {
    # Win32 programs: link only.
    for my $fl (qw(coff win32n)) {
        if (!$mingw || !$obj{$g}{$fl}) {
            result(1, "$g: $fl Win32 program links", 'SKIP ' . ($mingw ? "no $fl object (assembler missing)" : missing('MINGW32')));
            next;
        }
        my $exe = "$dir/$g.$fl.exe";
        my ($st, $msg) = capture($mingw, '-std=c11', '-Wall', '-Wextra', '-Werror', '-O2', "-I$root/include",
                             '-o', $exe, "$root/test/aes586/aes586_win32.c",
                             "$root/test/lib/tap.c", $obj{$g}{$fl});
        my (undef, $f) = capture('llvm-objdump', '-f', $exe);
        result(!$st && -s $exe && $f =~ /(coff|pei)-i386/, "$g: $fl object links into a Win32 program (cannot run here)")
            or print "#   $msg\n";
    }
    # Disassembly against ELF: Mach-O against the PIC build, COFF against the other.
    for my $p ([ 'macosx', 'elf-pic' ], [ 'coff', 'elf' ], [ 'win32n', 'elf' ]) {
        my ($tag, $ref) = @$p;
        if (!in_path('llvm-objdump') || !$obj{$g}{$tag} || !$obj{$g}{$ref}) {
            result(1, "$g: $tag disassembly equals ${ref}'s", 'SKIP '
                   . (in_path('llvm-objdump') ? "no $tag or $ref object" : 'llvm-objdump not installed'));
            next;
        }
        my $ra = functions($obj{$g}{$ref}, $ISA_RE, got_base => 1);
        my $rb = functions($obj{$g}{$tag}, $ISA_RE, decorated => 1, got_base => 1);
        my ($names, $n, $bad) = compare($ra, $rb, $ref, $tag);
        result(!@$bad && $names >= 12 && $n > 1000,
               "$g: $tag disassembly of $names functions ($n instructions) equals ${ref}'s but for relocations")
            or print map { "#   $_\n" } @$bad;
    }
}

# --- ELF: no MMX/SSE in 386 builds; CFI ---------------------------------------------
if (in_path('objdump') && in_path('readelf') && $obj{small}{'elf-pic'} && $obj{'small-386'}{'elf-pic'}) {
    my (undef, $d386) = capture('objdump', '-d', $obj{'small-386'}{'elf-pic'});
    my (undef, $dsse) = capture('objdump', '-d', $obj{small}{'elf-pic'});
    my @vec386 = $d386 =~ /(%x?mm\d|emms)/g;
    my @vecsse = $dsse =~ /(%mm\d)/g;
    result(!@vec386 && @vecsse > 50, '386 build: no MMX/SSE register or emms (the default build has ' . scalar(@vecsse) . ' MMX operands)');

    my $o = $obj{small}{'elf-pic'};
    my (undef, $nm) = capture('nm', '--defined-only', $o);
    my @fns = $nm =~ /^[0-9a-f]+ [Tt] (\w+)$/mg;
    my (undef, $fr) = capture('readelf', '--debug-dump=frames-interp', $o);
    my @fde = $fr =~ /FDE cie=/g;
    result(@fde == @fns && @fns >= 16, "elf: one DWARF FDE for each of the " . scalar(@fns) . ' functions (' . scalar(@fde) . ')');
    # The CFA rows of function $f, "esp+N" or "exp" (a DWARF expression).
    my $cfa_rows = sub {
        my ($f) = @_;
        my ($start) = $nm =~ /^([0-9a-f]+) T \Q$f\E$/m;
        return '' unless $start;
        my ($block) = $fr =~ /(FDE cie=\S+ pc=0*\Q$start\E\.\.\S+\n(?:.*\n)*?)\n/;
        return join ' ', ($block // '') =~ /^[0-9a-f]+\s+(esp\+\d+|exp)\b/mg;
    };
    # AES_encrypt: esp+4 to +20 (four pushes), +48 below them (the round
    # scratch and the SSE flag; +52 inside each PIC call), then 20..4.
    my $enc = $cfa_rows->('AES_encrypt');
    result($enc =~ /^esp\+4 esp\+8 esp\+12 esp\+16 esp\+20 esp\+48 (esp\+52 esp\+48 )+esp\+20 esp\+16 esp\+12 esp\+8 esp\+4$/,
           'elf: AES_encrypt CFA steps 4..20, 48 (52 in each PIC call), 20..4')
        or print "#   CFA rows: $enc\n";
    # CBC: a DWARF expression while esp is switched to the aligned frame,
    # and again after the mid-function return (the partial-block tail).
    my $cbc = $cfa_rows->('aes586_cbc_encrypt_compact');
    result($cbc =~ /^esp\+4 esp\+8 esp\+12 esp\+16 esp\+20 (exp )+esp\+20 esp\+16 esp\+12 esp\+8 esp\+4 exp$/,
           'elf: aes586_cbc_encrypt_compact CFA steps 4..20, a DWARF expression while esp is switched, 20..4')
        or print "#   CFA rows: $cbc\n";
} else {
    result(1, 'elf: MMX/SSE and CFI checks', 'SKIP objdump, readelf or the ELF objects missing');
}

# --- errors ----------------------------------------------------------------------
{
    my ($st, $msg) = capture($^X, $module, 'elf', '-DAES586_unrolled=1', "$dir/bad.s");
    result($st != 0 && $msg =~ /unknown switch -DAES586_unrolled \(valid: / && !-e "$dir/bad.s",
           'an unknown -DAES586_ option is an error, no file');
}

finish();
