#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# Guard pages around every assembly entry point (test/guard_pages.c over
# the allocator of test/lib/guard.c): every non-NULL function of every
# AES and SHA-1 registry entry the CPU has, each buffer it is given flush
# against a PROT_NONE page at its end and then at its start (offsets 0,
# 1, 7, 15), every length 0..4096 it accepts, each call also compared
# with the C reference:
#  - the 64-bit program natively (build/test/guard_pages);
#  - the -m32 program (build/m32/guard/guard_pages: aesni-x86, aes-586,
#    sha1-586) under qemu-i386, which keeps page protections, with
#    --quick (every block count 0..40 and every fifth to 256, XTS every
#    byte length 16..400 then three per fifth block count: aesni-x86's
#    six-block loops with every remainder, every stealing tail, aes-586's
#    512-byte CBC switch; SHA-1 every block count); natively with every
#    length when the kernel runs i386 programs (SHA-NI, which qemu lacks,
#    included);
#  - negative controls, in each build: a planted ECB that reads one byte
#    past its input, writes one past its output, reads one before its
#    input, writes 64 bytes before its output (mapped memory, seen by the
#    slack check), or hands the table assembly's AES_encrypt the block past
#    its input (the fault inside a .s function) fails its line, and the
#    handler's report names the function, the length, the layout, the
#    buffer and the end; one that flips an output bit fails the
#    differential, naming length and layout.
# A path that needs a missing tool is a counted SKIP naming it.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use ImplRuns qw(result run_child finish);
use Toolchain qw(tool missing);
use Capture qw(capture);
use QemuVaes qw(i386_prefix);

my $build = $ENV{BUILD} // 'build';
my $g64 = "$build/test/guard_pages";
my $g32 = "$build/m32/guard/guard_pages";
my %unset = (OPENSSL_ia32cap => undef);

# [plant, the report it must give]
my $ecb = qr/in planted\.ecb \(encrypt\), AES-\d+/;
my $over_read = qr/read at offset 272 of the 272-byte buffer in \(1 byte\(s\) past its end, in: 272 bytes flush at the end, start at 48 mod 64\)/;
my @PLANTS = (
    [ 'over-read', qr/^# guard page fault: $over_read, $ecb, length 272, layout end$/m ],
    [ 'asm-over-read', qr/^# guard page fault: $over_read, in planted-asm\.ecb \(encrypt\), AES-\d+, length 272, layout end$/m ],
    [ 'over-write', qr/^# guard page fault: write at offset 1040 of the 1040-byte buffer out \(1 byte\(s\) past its end, out: 1040 bytes flush at the end, start at 48 mod 64\), $ecb, length 1040, layout end$/m ],
    [ 'under-read', qr/^# guard page fault: read at offset -1 of the 528-byte buffer in \(1 byte\(s\) before its start, in: 528 bytes flush at the start \+ 0, start at 0 mod 64\), $ecb, length 528, layout start\+0\/\+0$/m ],
    [ 'wrong-byte', qr/^# the output differs from the C reference \(length 400, layout end\)$/m ],
    [ 'stray-write', qr/^# a write at offset -64 of the 784-byte buffer out, outside it but not on a guard page \(length 784, layout end\)$/m ],
);

sub plants {
    my ($how, @run) = @_;
    for my $p (@PLANTS) {
        my ($name, $want) = @$p;
        my ($st, $out) = capture(@run, '--plant', $name);
        my @not_ok = $out =~ /^not ok \d+ - planted(?:-asm)? ecb encrypt/mg;
        my @ok = $out =~ /^ok /mg;
        result($st != 0 && @not_ok == 1 && !@ok && $out =~ $want,
               "$how: the planted $name is caught, its report naming " . ($name eq 'wrong-byte'
               ? 'length and layout' : 'function, length, layout, buffer and end'))
            or print map { "#   $_\n" } "exit status $st", split /\n/, $out;
    }
}

my ($lst, $list) = -x $g64 ? capture($g64, '--list') : (-1, '');
my @fns = grep { /\t/ } split /\n/, $list;
result($lst == 0 && (grep { $_ eq "x86_64\tcbc decrypt" } @fns) && (grep { $_ eq "integer\tblock" } @fns),
       '64-bit: --list names ' . scalar(@fns) . ' functions to test, the table AES and integer SHA-1 (which need nothing) among them')
    or print "#   exit $lst: $list\n";
run_child('64-bit, natively: every entry point, every length, each buffer guarded at each end',
          \%unset, $g64);
plants('64-bit, natively', $g64);

my $why32 = missing('QEMU_I386', 'CC32');
if ($why32) {
    result(1, '-m32 under qemu-i386', "SKIP $why32");
    result(1, '-m32 under qemu-i386: planted faults', "SKIP $why32");
} else {
    my ($qemu, $lane_fault) = i386_prefix(tool('QEMU_I386'), $build);
    result(1, '-m32 under qemu-i386: aesni-x86\'s ymm (VAES) code', "SKIP $lane_fault") if $lane_fault;
    run_child('-m32 under qemu-i386 (--quick lengths): every entry point, each buffer guarded at each end',
              \%unset, @$qemu, $g32, '--quick');
    plants('-m32 under qemu-i386', @$qemu, $g32);
}

if (my $why = missing('RUN_I386')) {
    result(1, '-m32 natively (every length, and the paths qemu-i386 lacks)', "SKIP $why");
} else {
    run_child('-m32 natively: every entry point, every length, each buffer guarded at each end',
              \%unset, $g32);
}
finish();
