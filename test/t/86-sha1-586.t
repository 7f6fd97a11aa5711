#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# crypto/sha/asm/sha1-586.pl (32-bit SHA-1: integer, SSSE3, AVX, SHA-NI):
#  - under qemu-i386, every registry entry of the -m32 build passes the
#    SHA-1 vector files (kat_sha1, under its force mask, with the
#    dispatcher's choice checked) and the differential against the C
#    compression (sha1_586_diff: every length 0..4096 at moving offsets,
#    whole and in random updates, and direct calls of 1..64 blocks); a path
#    qemu's CPU model lacks (SHA-NI) is a counted SKIP there;
#  - the code qemu translates (-d in_asm) under each force mask holds the
#    forced path's function and no other path's: the run-time choice;
#  - natively, when this kernel runs 32-bit programs, the same programs for
#    every path the CPU has, SHA-NI included (else a counted SKIP);
#  - the cdecl ABI and per-instruction CFI checkers (sha1_586_abi) over the
#    dispatcher and every path, under qemu with the dispatcher forced onto
#    each path, and natively for the paths qemu cannot run; the functions
#    checked are the object's globals;
#  - every flavour generated twice is byte-identical and assembles without
#    warnings; macosx, coff and win32n disassembly equals ELF's but for
#    relocations and decoration; ELF: endbr32 and an FDE for each function;
#    the 386 build holds no xmm register and only the integer path;
#  - without -DOPENSSL_IA32_SSE2 (OpenSSL's no-sse2 build) sha1-586 is the
#    386 build's text: no SSE2-or-later instruction in its object (with
#    the flag, the SIMD paths have hundreds); aes-586 is the same with and
#    without it, with none (its SSE path is MMX and SSE's pshufw, as
#    OpenSSL's); the two no-SSE2 objects pass module_kat under qemu-i386
#    and natively where this kernel runs i386 programs.
# Environment: BUILD, VECTORS.  What needs a missing tool is a counted SKIP.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib", "$FindBin::Bin/../../support/perl";
use Slurp qw(slurp);
use File::Temp qw(tempdir);
use ImplRuns qw(result run_child finish in_path);
use Toolchain qw(tool missing);
use X86Disasm qw(functions compare sse2_or_later);
use Capture qw(capture);

my $root  = "$FindBin::Bin/../..";
my $build = $ENV{BUILD} // 'build';
$build = "$root/$build" unless $build =~ m{^/};
my $module = "$root/crypto/sha/asm/sha1-586.pl";
my $m32    = "$build/m32";
my ($kat, $diff, $abi) = ("$m32/sha1/kat_sha1", "$m32/sha1/sha1_586_diff", "$build/test/abi32/sha1_586_abi");
my $dir    = tempdir(CLEANUP => 1);
$ENV{VECTORS} //= "$root/test/vectors";
my @PATHS = qw(shaext avx ssse3 integer);    # sha1_block_data_order_NAME
my %ENTRY = (shaext => 'shani', avx => 'avx', ssse3 => 'ssse3', integer => 'integer');

# name => force mask (undef: none) from the program's --list, run by @run.
sub entries {
    my (@run) = @_;
    my ($st, $out) = capture(@run, $kat, '--list');
    my @e = map { my ($n, $m) = split /\t/; [ $n, (defined $m && $m ne '') ? $m : undef ] }
            grep { /\S/ } split /\n/, $out;
    result($st == 0 && (grep { $_->[0] eq 'integer' } @e), "kat_sha1 --list (@run) names the entries, integer among them")
        or print "#   exit $st: $out\n";
    return @e;
}

# Both test programs for every entry, under its force mask.
sub every_entry {
    my ($how, @run) = @_;
    for my $e (entries(@run)) {
        my ($name, $mask) = @$e;
        my $env = { OPENSSL_ia32cap => $mask };
        my $m = defined $mask ? "OPENSSL_ia32cap=$mask" : 'OPENSSL_ia32cap unset';
        run_child("$how: kat_sha1 --impl $name, $m", $env, @run, $kat, '--impl', $name,
                  defined $mask ? '--expect-dispatch' : ());
        run_child("$how: sha1_586_diff --impl $name against the C compression", $env,
                  @run, $diff, '--impl', $name);
    }
}

my $qemu = tool('QEMU_I386');
my $why_qemu = missing('QEMU_I386', 'CC32');
if ($why_qemu) {
    result(1, 'sha1-586 under qemu-i386', "SKIP $why_qemu");
} else {
    every_entry('qemu-i386', $qemu);

    # The run-time choice: the functions qemu translated under each mask.
    for my $e (entries($qemu)) {
        my ($name, $mask) = @$e;
        my ($path) = grep { $ENTRY{$_} eq $name } @PATHS or next;
        next unless defined $mask;      # SHA-NI: its default is qemu's AVX
        my $log = "$dir/in_asm.$name";
        local $ENV{OPENSSL_ia32cap} = $mask;
        my ($st) = capture($qemu, '-d', 'in_asm', '-D', $log, $kat, '--impl', $name);
        my %ran = map { $_ => 1 } (slurp($log) // '') =~ /^IN: sha1_block_data_order_(\w+)$/mg;
        my @ran = sort grep { $ran{$_} } @PATHS;
        result($st == 0 && "@ran" eq $path,
               "run-time choice: with OPENSSL_ia32cap=$mask only sha1_block_data_order_$path runs (ran: @ran)");
    }
    {
        my $log = "$dir/in_asm.default";
        local %ENV = %ENV;
        delete $ENV{OPENSSL_ia32cap};
        my ($st) = capture($qemu, '-d', 'in_asm', '-D', $log, $kat, '--impl', 'avx');
        my %ran = map { $_ => 1 } (slurp($log) // '') =~ /^IN: sha1_block_data_order_(\w+)$/mg;
        result($st == 0 && $ran{avx} && !$ran{shaext},
               'run-time choice: qemu has no SHA-NI, so by default the dispatcher takes AVX, never SHA-NI')
            or print "#   ran: @{[ sort keys %ran ]}\n";
    }

    # The ABI and CFI checkers, the dispatcher forced onto each path.
    for my $e (entries($qemu)) {
        my ($name, $mask) = @$e;
        next if $name eq 'c';
        run_child("qemu-i386: sha1-586 through the ABI and CFI checkers, dispatcher on $name",
                  { OPENSSL_ia32cap => $mask }, $qemu, $abi);
    }
    my $obj = "$m32/gen/sha1-586-small.o";
    my @globals = sort map { /^[0-9a-f]+ T (\w+)$/ ? $1 : () } `nm -g --defined-only $obj 2>&1`;
    my ($st, $out) = capture($qemu, $abi, '--list');
    my @checked = sort split /\n/, $out;
    result($st == 0 && @globals == 5 && "@globals" eq "@checked",
           'the ABI checker covers the object\'s ' . scalar(@globals) . ' global functions')
        or print "#   $obj: @globals\n#   --list: @checked\n";
}

# --- natively, when the kernel runs i386 programs ------------------------------
{
    if ($why_qemu) {
        result(1, 'sha1-586 natively', "SKIP $why_qemu");
    } elsif (my $why = missing('RUN_I386')) {
        result(1, 'sha1-586 natively (the paths qemu-i386 cannot execute)', "SKIP $why");
    } else {
        every_entry('native');
        run_child('native: sha1-586 through the ABI and CFI checkers (SHA-NI included where the CPU has it)',
                  { OPENSSL_ia32cap => undef }, $abi);
    }
}

# --- generated text -------------------------------------------------------------
my $SSE2 = '-DOPENSSL_IA32_SSE2';
my $GAS32 = sub { ('as', '--32', '--fatal-warnings', '-o', $_[1], $_[0]) };
my %FLAVOUR = (
    'elf'        => [ [$SSE2], 's', 'as', $GAS32 ],
    'elf-pic'    => [ ['-fPIC', $SSE2], 's', 'as', $GAS32 ],
    'elf-386'    => [ ['-fPIC', $SSE2, '386'], 's', 'as', $GAS32 ],
    'elf-nosse2' => [ ['-fPIC'], 's', 'as', $GAS32 ],
    'macosx'     => [ [$SSE2], 's', 'clang', sub { ('clang', '-target', 'i386-apple-macos10.13', '-Werror',
                                                    '-c', '-x', 'assembler', '-o', $_[1], $_[0]) } ],
    'coff'       => [ [$SSE2], 's', 'i686-w64-mingw32-as',
                      sub { ('i686-w64-mingw32-as', '--fatal-warnings', '-o', $_[1], $_[0]) } ],
    'win32n'     => [ [$SSE2], 'asm', 'nasm', sub { ('nasm', '-f', 'win32', '-Wall', '-Werror', '-o', $_[1], $_[0]) } ],
);
my (%obj, @failed);
my ($same, $total) = (0, 0);
for my $tag (sort keys %FLAVOUR) {
    my ($flags, $ext, $tool, $asm) = @{ $FLAVOUR{$tag} };
    (my $fl = $tag) =~ s/-(pic|386|nosse2)$//;
    my $src = "$dir/$tag.$ext";
    my ($st, $msg) = capture($^X, $module, $fl, @$flags, $src);
    my ($st2) = capture($^X, $module, $fl, @$flags, "$src.again");
    $total++;
    if (!$st && !$st2 && slurp($src) eq (slurp("$src.again") // '')) { $same++ } else { push @failed, "$tag: $msg" }
    if ($st) { next }
    if (!in_path($tool)) { result(1, "$tag: assembled", "SKIP $tool not installed"); next }
    my ($ast, $amsg) = capture($asm->($src, "$dir/$tag.o"));
    if ($ast || $amsg ne '') { push @failed, "$tag: $tool: $amsg"; next }
    $obj{$tag} = "$dir/$tag.o";
}
result($same == $total && !@failed, "$total flavours generated twice, byte-identical, assembled with no warnings")
    or print map { "#   $_\n" } @failed;

my $NAME_RE = qr/^sha1_block_data_order/;
for my $p ([ 'macosx', 'elf-pic' ], [ 'coff', 'elf' ], [ 'win32n', 'elf' ]) {
    my ($tag, $ref) = @$p;
    if (!in_path('llvm-objdump') || !$obj{$tag} || !$obj{$ref}) {
        result(1, "$tag disassembly equals ${ref}'s", 'SKIP '
               . (in_path('llvm-objdump') ? "no $tag or $ref object" : 'llvm-objdump not installed'));
        next;
    }
    my $ra = functions($obj{$ref}, $NAME_RE, got_base => 1);
    my $rb = functions($obj{$tag}, $NAME_RE, decorated => 1, got_base => 1);
    my ($names, $n, $bad) = compare($ra, $rb, $ref, $tag);
    result(!@$bad && $names == 5 && $n > 3000,
           "$tag disassembly of $names functions ($n instructions) equals ${ref}'s but for relocations")
        or print map { "#   $_\n" } @$bad;
}

if (in_path('objdump') && in_path('readelf') && $obj{'elf-pic'} && $obj{'elf-386'}) {
    my $o = $obj{'elf-pic'};
    my (undef, $nm) = capture('nm', '--defined-only', $o);
    my @fns = $nm =~ /^[0-9a-f]+ [Tt] (\w+)$/mg;
    my (undef, $d) = capture('objdump', '-d', $o);
    my @endbr = grep { $d =~ /^[0-9a-f]+ <\Q$_\E>:\n\s*0:?[^\n]*endbr32|<\Q$_\E>:\n[^\n]*endbr32/m } @fns;
    my (undef, $fr) = capture('readelf', '--debug-dump=frames-interp', $o);
    my @fde = $fr =~ /FDE cie=/g;
    result(@fns == 5 && @endbr == 5 && @fde == 5,
           'elf: each of the ' . scalar(@fns) . ' functions starts with endbr32 (' . scalar(@endbr)
           . ') and has an FDE (' . scalar(@fde) . ')');
    my (undef, $d386) = capture('objdump', '-d', $obj{'elf-386'});
    my (undef, $nm386) = capture('nm', '--defined-only', $obj{'elf-386'});
    my @f386 = sort $nm386 =~ /^[0-9a-f]+ [Tt] (\w+)$/mg;
    my @vec = $d386 =~ /(%[xy]mm\d)/g;
    my @vec_pic = $d =~ /(%xmm\d)/g;
    result(!@vec && "@f386" eq 'sha1_block_data_order sha1_block_data_order_integer' && @vec_pic > 500,
           '386 build: only the dispatcher and the integer path, no xmm register (the default build has '
           . scalar(@vec_pic) . ' xmm operands)')
        or print "#   functions: @f386; xmm operands: " . scalar(@vec) . "\n";
} else {
    result(1, 'elf: endbr32, FDEs and the 386 build', 'SKIP objdump, readelf or the ELF objects missing');
}

# --- OpenSSL's no-sse2 build: no -DOPENSSL_IA32_SSE2 -----------------------------
if (!$obj{'elf-nosse2'} || !$obj{'elf-pic'} || !in_path('objdump')) {
    result(1, 'the no-SSE2 build', 'SKIP objdump or the ELF objects missing');
} else {
    my $same386 = slurp("$dir/elf-nosse2.s") eq (slurp("$dir/elf-386.s") // '');
    my ($n, $found) = sse2_or_later($obj{'elf-nosse2'});
    my ($n_with, $found_with) = sse2_or_later($obj{'elf-pic'});
    result($same386 && $n && $n > 500 && !@$found && $n_with && @$found_with > 500,
           "sha1-586 without $SSE2: the 386 build's text, no SSE2-or-later instruction among $n "
           . '(with it: ' . scalar(@{ $found_with // [] }) . ')')
        or print map { "#   $_\n" } "same as the 386 build: " . ($same386 ? 'yes' : 'no'), @{ $found // [] }[0 .. 4];

    my $aes = "$root/crypto/aes/asm/aes-586.pl";
    my ($st, $msg) = capture($^X, $aes, 'elf', '-fPIC', "$dir/aes.nosse2.s");
    my ($st2, $msg2) = capture($^X, $aes, 'elf', '-fPIC', $SSE2, "$dir/aes.sse2.s");
    ($st, $msg) = capture($GAS32->("$dir/aes.nosse2.s", "$dir/aes.nosse2.o")) unless $st || $st2;
    my ($an, $afound) = $st ? () : sse2_or_later("$dir/aes.nosse2.o");
    result(!$st && !$st2 && slurp("$dir/aes.nosse2.s") eq slurp("$dir/aes.sse2.s") && $an && $an > 500 && !@$afound,
           "aes-586: the same text with and without $SSE2, no SSE2-or-later instruction among " . ($an // 0))
        or print map { "#   $_\n" } grep { defined } "$msg$msg2", @{ $afound // [] }[0 .. 4];

    # The two no-SSE2 objects run: module_kat (4-byte pointers, SHA-1 "abc",
    # AES-128 both ways).
    if (my $why = missing('CC32')) {
        result(1, 'the no-SSE2 objects pass module_kat', "SKIP $why");
    } elsif (!$st) {
        my $kat = "$dir/module_kat32";
        ($st, $msg) = capture(split(' ', tool('CC32')), '-O2', '-Wall', '-Wextra', '-Werror', "-I$root/test",
                              '-o', $kat, "$root/test/module_kat.c", "$root/test/lib/tap.c",
                              $obj{'elf-nosse2'}, "$dir/aes.nosse2.o");
        result($st == 0 && $msg eq '', 'the no-SSE2 sha1-586 and aes-586 objects link into module_kat (gcc -m32)')
            or print map { "#   $_\n" } split /\n/, $msg;
        my $why_native = missing('RUN_I386');
        for my $run ([ 'under qemu-i386', $why_qemu, $qemu ], [ 'natively', $why_native ]) {
            my ($how, $why, @prefix) = @$run;
            next if $st;
            if ($why) { result(1, "no-SSE2 module_kat $how", "SKIP $why"); next }
            run_child("no-SSE2 sha1-586 and aes-586 $how: module_kat", {}, @prefix, $kat);
        }
    }
}

finish();
