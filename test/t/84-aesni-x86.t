#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# crypto/aes/asm/aesni-x86.pl, 32-bit AES-NI, under qemu-i386 (which
# emulates AES-NI, on any kernel, i386-capable or not):
#  - the -m32 library (build/m32/small, aes-586 and aesni-x86): the
#    dispatcher picks "aesni_ymm" (the ymm fixed paths) where the CPU
#    has VAES and AVX2 and qemu computes them right, else "aesni" (the xmm
#    ones), and every AES, CTR, XTS and LRW
#    vector file passes through it (kat_aes, kat_modes); the CCM vectors
#    and the ccm64 bulk functions against a C model (ccm); RFC 7253 and the
#    OCB bulk functions against a C model (ocb); every length 0..1024,
#    unaligned and in place, against the C AES (every_length); a random
#    workload of every mode, lengths 0..4 KiB, unaligned and in place,
#    decrypted back (aesni86_diff);
#  - forced paths: with the x86 entry's OPENSSL_ia32cap mask (AES-NI off
#    as OpenSSL reads it) the dispatcher picks aes-586 and the vectors pass
#    there; the code qemu translates (-d in_asm) holds aesenc by default
#    and none under the mask;
#  - the random workload's digest equals the 64-bit build's (aesni-x86_64);
#  - the macosx, coff and win32n code retargeted to ELF with every
#    instruction kept (test/x86asm/flavour_to_elf.pl) passes the vectors
#    and the random workload;
#  - every export, each variant's fixed path included, through the cdecl
#    ABI checker (results as a direct call's) and the per-instruction CFI
#    checker, from the ELF and the macosx code, every instruction of the
#    module single-stepped; the functions checked are the object's globals;
#  - each flavour generated twice is byte-identical and assembles without
#    warnings; the macosx, coff and win32n disassembly equals ELF's but for
#    decoration and the order of an xchg's registers (support/perl/X86Disasm.pm);
#    ELF has endbr32 at each export, the IBT/SHSTK note, one FDE per
#    function and no relocation in its code (nothing to make PIC);
#  - a 386 build, or one without -DOPENSSL_IA32_SSE2 (OpenSSL's no-sse2
#    build, which leaves the module out), is refused: one line, no file.
# What needs a missing tool is a counted SKIP naming the tool.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib", "$FindBin::Bin/../../support/perl";
use Slurp qw(slurp);
use File::Temp qw(tempdir);
use ImplRuns qw(result run_child finish in_path);
use Toolchain qw(tool missing);
use X86Disasm qw(functions);
use StepCoverage qw(unstepped);
use Capture qw(capture);
use QemuVaes qw(lane_faults);
use lib "$FindBin::Bin/../../perlasm/lib";
use Common::IA32Cap;
use Common::Dispatch;

my $root    = "$FindBin::Bin/../..";
my $build   = $ENV{BUILD} // 'build';
$build = "$root/$build" unless $build =~ m{^/};
my $vectors = $ENV{VECTORS} // "$root/test/vectors";
my $module  = "$root/crypto/aes/asm/aesni-x86.pl";
my $m32     = "$build/m32";
my $dir     = tempdir(CLEANUP => 1);
my $qemu    = tool('QEMU_I386');
# OpenSSL's 13 exports and each entry's fixed paths (aesni-x86.dispatch),
# and one private function (the key expansion).
my $decl    = Common::Dispatch::for_script($module);
my $EXPORTS = 13 + scalar(map { @{ $_->{variants} } } $decl->entries);
my $FNS     = $EXPORTS + 1;

# --- under qemu-i386 --------------------------------------------------------------
if (my $why = missing('QEMU_I386', 'CC32')) {
    result(1, 'aesni-x86 under qemu-i386', "SKIP $why");
} else {
    local $ENV{VECTORS} = $vectors;
    my $lib = "$m32/small";
    # qemu 7.2's VAES lane fault (test/README.md): where qemu-i386 fails
    # build/m32/small/vaes_lanes, the programs that check results run with
    # VAES masked (the xmm code); the ymm path's results are checked
    # natively through the replay (test/t/85-dmcrypt-replay.t), and the
    # ABI and CFI checkers below step it unmasked (its control flow and
    # registers do not depend on the lane qemu gets wrong).
    my %default = (OPENSSL_ia32cap => undef);
    my $best = 'aesni';                   # the dispatcher's choice under %default
    my ($wrong, undef, $lanes) = lane_faults($qemu, "$lib/vaes_lanes");
    my @wrong = @$wrong;
    if (@wrong) {
        my $vaes_off = Common::IA32Cap::clear_mask('vaes');
        %default = (OPENSSL_ia32cap => $vaes_off);
        result(1, 'the ymm (VAES) path\'s known answers under qemu-i386',
               "SKIP qemu-i386 computes @wrong on ymm wrongly in lane 1 ($lib/vaes_lanes; test/README.md):"
               . " the known answers run with OPENSSL_ia32cap=$vaes_off, the ymm path is checked natively by 85-dmcrypt-replay.t");
    } elsif (grep { /^ok 1 / } @$lanes) {
        $best = 'aesni_ymm';
        result(1, 'qemu-i386 computes the VEX.256 AES rounds lane by lane: the known answers run the ymm path');
    } else {
        result(1, 'the ymm (VAES) path\'s known answers under qemu-i386', 'SKIP the emulated CPU has no VAES with AVX2');
    }
    for my $p (qw(kat_aes kat_modes)) {
        run_child("$p: every vector file through aesni-x86 ($best), chosen by the dispatcher", \%default,
                  $qemu, "$lib/$p", "--impl", $best, "--expect-dispatch");
    }
    run_child('CCM vectors, ccm64 bulk functions against the C model', \%default, $qemu, "$lib/ccm");
    run_child('OCB: RFC 7253 and the bulk functions against the C model',
              { %default, OCB_CASES => 200 }, $qemu, "$lib/ocb");
    run_child('every length 0..1024 through every entry, aesni included', \%default,
              $qemu, "$lib/every_length");
    run_child('300 random cases of every mode, 0..4 KiB, unaligned and in place', \%default,
              $qemu, "$lib/aesni86_diff", 300);

    # The fallback, forced by the x86 entry's mask.
    my ($lst, $list) = capture($qemu, "$lib/kat_aes", '--list');
    my ($mask) = $list =~ /^x86\t(\S+)\t/m;
    if (!$mask) {
        result(0, 'kat_aes --list names the x86 entry and its mask') or print "#   $list\n";
    } else {
        for my $p (qw(kat_aes kat_modes)) {
            run_child("$p with OPENSSL_ia32cap=$mask: the dispatcher picks aes-586, vectors pass",
                      { OPENSSL_ia32cap => $mask }, $qemu, "$lib/$p", '--impl', 'x86', '--expect-dispatch');
        }
        # Seen in the code qemu translates: aesenc runs by default, and
        # never under the mask.
        for my $run ([$default{OPENSSL_ia32cap}, $best], [$mask, 'x86']) {
            my ($m, $impl) = @$run;
            my $log = "$dir/in_asm.$impl";
            local %ENV = %ENV;
            if (defined $m) { $ENV{OPENSSL_ia32cap} = $m } else { delete $ENV{OPENSSL_ia32cap} }
            my ($st, $out) = capture($qemu, '-d', 'in_asm', '-D', $log, "$lib/kat_modes",
                                     '--impl', $impl, '--expect-dispatch');
            my $n = () = (slurp($log) // '') =~ /\baesenc\b/g;
            result($st == 0 && $out !~ /^not ok/m && ($impl eq 'x86' ? $n == 0 : $n > 0),
                   "run-time choice: kat_modes through the dispatcher's $impl "
                   . ($impl eq 'x86' ? "with $m translates no aesenc" : "with OPENSSL_ia32cap=" . ($m // '(unset)') . " translates aesenc ($n times)"))
                or print "#   exit $st, aesenc $n\n";
        }
    }

    # 32-bit against 64-bit.
    my $diff64 = "$build/test/aesni86/aesni86_diff64";
    my ($s32, $o32) = do {
        local %ENV = %ENV;
        $ENV{OPENSSL_ia32cap} = $default{OPENSSL_ia32cap} if defined $default{OPENSSL_ia32cap};
        capture($qemu, "$lib/aesni86_diff", 1500, 0x5eed);
    };
    my ($s64, $o64) = capture($diff64, 1500, 0x5eed);
    my ($d32) = $o32 =~ /^# digest ([0-9a-f]{40})$/m;
    my ($d64) = $o64 =~ /^# digest ([0-9a-f]{40})$/m;
    result(!$s32 && !$s64 && $d32 && $d64 && $d32 eq $d64,
           'digest of 1500 random cases of every mode (up to 4 KiB): aesni-x86 (-m32) equals aesni-x86_64')
        or print "#   32-bit: exit $s32, " . ($d32 // 'no digest') . "; 64-bit: exit $s64, " . ($d64 // 'no digest') . "\n";

    # The other flavours' code, retargeted to ELF.
    for my $fl (qw(macosx coff win32n)) {
        if ($fl eq 'win32n' and my $why = missing('NASM')) {
            result(1, "$fl (retargeted to ELF): vectors and random cases", "SKIP $why");
            next;
        }
        my $bin = "$m32/aesni86-$fl";
        for my $p (qw(kat_aes kat_modes)) {
            run_child("$fl (retargeted to ELF): $p through aesni-x86 ($best)", \%default,
                      $qemu, "$bin/$p", '--impl', $best, '--expect-dispatch');
        }
        run_child("$fl (retargeted to ELF): 200 random cases of every mode", \%default,
                  $qemu, "$bin/aesni86_diff", 200);
    }

    # The checkers, and every instruction stepped.
    for my $v (['elf', 'aesni86_abi', "$m32/gen/aesni-x86-small.o"],
               ['macosx', 'aesni86_abi_macosx', "$m32/gen/aesni-x86-macosx.o"]) {
        my ($fl, $name, $obj) = @$v;
        my $prog = "$build/test/abi32/$name";
        # Unmasked (the ymm path where the emulated CPU has VAES), then
        # with VAES masked (the xmm code those lengths then take).
        my @cover;
        for my $run ([ 'the ymm path where the CPU has VAES', undef ],
                     [ 'VAES masked', Common::IA32Cap::clear_mask('vaes') ]) {
            my ($what, $m) = @$run;
            push @cover, "$dir/cover.$fl." . scalar(@cover);
            run_child("$fl: every export through the ABI and CFI checkers ($what)", { OPENSSL_ia32cap => $m },
                      $qemu, $prog, '--coverage', $cover[-1]);
        }
        my @globals = sort map { /^[0-9a-f]+ T (\w+)$/ ? $1 : () } `nm -g --defined-only $obj 2>&1`;
        my @checked = sort map { chomp; $_ } `$qemu $prog --list 2>&1`;
        result(@globals == $EXPORTS && "@globals" eq "@checked",
               "$fl: the " . scalar(@globals) . ' global functions are the ones checked')
            or print "#   $obj: @globals\n#   --list: @checked\n";
        my ($total, $missed) = unstepped($obj, $prog, @cover);
        result($total > 1000 && !@$missed,
               "$fl: all $total instructions of aesni-x86 single-stepped, CFI checked at each")
            or print map { "#   never stepped: $_\n" } @$missed[0 .. ($#$missed < 9 ? $#$missed : 9)];
    }
}

# --- generated text --------------------------------------------------------------
# flavour => [extension, assembler tool, its command (source, object)]
my %ASM = (
    elf    => [ 's', 'as', sub { ('as', '--32', '--fatal-warnings', '-o', $_[1], $_[0]) } ],
    macosx => [ 's', 'clang', sub { ('clang', '-target', 'i386-apple-macos10.13', '-Werror',
                                     '-c', '-x', 'assembler', '-o', $_[1], $_[0]) } ],
    coff   => [ 's', 'i686-w64-mingw32-as', sub { ('i686-w64-mingw32-as', '--fatal-warnings', '-o', $_[1], $_[0]) } ],
    win32n => [ 'asm', 'nasm', sub { ('nasm', '-f', 'win32', '-Wall', '-Werror', '-o', $_[1], $_[0]) } ],
);
my %obj;
for my $fl (sort keys %ASM) {
    my ($ext, $tool, $cmd) = @{ $ASM{$fl} };
    my $src = "$dir/aesni.$fl.$ext";
    my ($st, $msg) = capture($^X, $module, $fl, '-fPIC', '-DOPENSSL_IA32_SSE2', $src);
    my ($st2) = capture($^X, $module, $fl, '-fPIC', '-DOPENSSL_IA32_SSE2', "$src.again");
    my $same = !$st && !$st2 && slurp($src) eq (slurp("$src.again") // '');
    if (!in_path($tool)) {
        result($same, "$fl: generated twice, byte-identical (not assembled: $tool not installed)")
            or print "#   $msg\n";
        next;
    }
    my ($ast, $amsg) = $st ? (1, $msg) : capture($cmd->($src, "$dir/aesni.$fl.o"));
    $obj{$fl} = "$dir/aesni.$fl.o" unless $ast || $amsg ne '';
    result($same && $obj{$fl}, "$fl: generated twice, byte-identical, assembled by $tool with no warnings")
        or print "#   $msg $amsg\n";
}
# Mach-O against the PIC ELF, COFF against ELF without -fPIC: the code
# reaches OPENSSL_ia32cap_P through the GOT, a non-lazy pointer or
# directly (the instruction against _GLOBAL_OFFSET_TABLE_ is left out).
if ($obj{elf}) {
    my ($st, $msg) = capture($^X, $module, 'elf', '-DOPENSSL_IA32_SSE2', "$dir/aesni.elf-nopic.s");
    ($st, $msg) = capture($ASM{elf}[2]->("$dir/aesni.elf-nopic.s", "$dir/aesni.elf-nopic.o")) unless $st;
    $obj{'elf-nopic'} = "$dir/aesni.elf-nopic.o" unless $st || $msg ne '';
}
for my $fl (qw(macosx coff win32n)) {
    my $ref = $fl eq 'macosx' ? 'elf' : 'elf-nopic';
    if (!in_path('llvm-objdump') || !$obj{$fl} || !$obj{$ref}) {
        result(1, "$fl disassembly equals elf's", 'SKIP ' . (in_path('llvm-objdump') ? "no $fl or $ref object" : missing('LLVM_OBJDUMP')));
        next;
    }
    my $want = functions($obj{$ref}, qr/^_?aesni_/, got_base => 1);
    my $got  = functions($obj{$fl}, qr/^_?aesni_/, decorated => 1, got_base => 1);
    my @names = sort keys %{ $want // {} };
    my ($n, @bad) = (0);
    for my $f (@names) {
        $n += @{ $want->{$f} };
        push @bad, $f if join("\n", @{ $want->{$f} }) ne join("\n", @{ $got->{$f} // [] });
    }
    result(@names == $FNS && !@bad && $n > 1000,
           "$fl disassembly of " . scalar(@names) . " functions ($n instructions) equals ${ref}'s but for relocations")
        or print "#   differ: @bad\n";
}
if ($obj{elf} && in_path('readelf') && in_path('objdump')) {
    my $o = $obj{elf};
    my (undef, $nm) = capture('nm', '--defined-only', $o);
    my @fns = $nm =~ /^[0-9a-f]+ [Tt] (\w+)$/mg;
    my @exports = $nm =~ /^[0-9a-f]+ T (\w+)$/mg;
    my (undef, $fr) = capture('readelf', '--debug-dump=frames', $o);
    my @fde = $fr =~ /FDE cie=/g;
    result(@fde == @fns && @fns == $FNS, 'elf: one DWARF FDE for each of the ' . scalar(@fns) . ' functions (' . scalar(@fde) . ')');
    my (undef, $dis) = capture('objdump', '-d', '--no-show-raw-insn', $o);
    my @endbr = grep { $dis =~ /<\Q$_\E>:\n\s*[0-9a-f]+:\s*endbr32/ } @exports;
    result(@exports == $EXPORTS && @endbr == @exports, 'elf: each of the ' . scalar(@exports) . ' exports starts with endbr32');
    my (undef, $notes) = capture('readelf', '-n', $o);
    result($notes =~ /IBT, SHSTK/, 'elf: the GNU property note marks IBT and SHSTK');
    my (undef, $rel) = capture('readelf', '-r', $o);
    my ($text_rel) = $rel =~ /\.rel\.text.*?\n\s*Offset.*?\n(.*?)(?:\n\n|\z)/s;
    my @syms = map { /\s(\S+)$/ ? $1 : () } split /\n/, $text_rel // '';
    my %kind = map { $_ => 1 } @syms;
    result(@syms && !grep({ !/^(OPENSSL_ia32cap_P|_GLOBAL_OFFSET_TABLE_)$/ } @syms) && $kind{OPENSSL_ia32cap_P}
           && $rel =~ /\.rel\.eh_frame/,
           'elf: the code\'s only relocations reach OPENSSL_ia32cap_P through the GOT (the ymm path\'s test; '
           . scalar(@syms) . '), the others are in .eh_frame')
        or print "#   .rel.text: @syms\n";
} else {
    result(1, 'elf: FDEs, endbr32, notes, relocations', 'SKIP readelf, objdump or the ELF object missing');
}

# --- errors ----------------------------------------------------------------------
{
    my ($st, $msg) = capture($^X, $module, 'elf', '-DOPENSSL_IA32_SSE2', '386', "$dir/bad.s");
    result($st != 0 && $msg =~ /386 build has no AES-NI/ && !-e "$dir/bad.s",
           'a 386 build (no SSE) is refused with a message, no file');
    ($st, $msg) = capture($^X, $module, 'elf', '-fPIC', "$dir/bad.s");
    result($st != 0 && $msg =~ /\A[^\n]*needs SSE2: add -DOPENSSL_IA32_SSE2[^\n]*\n\z/ && !-e "$dir/bad.s",
           'without -DOPENSSL_IA32_SSE2 (OpenSSL\'s no-sse2 build) the module is refused: one line, no file')
        or print "#   exit $st: $msg";
}

finish();
