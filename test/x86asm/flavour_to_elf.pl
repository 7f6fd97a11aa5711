#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# Retargets a 32-bit module's macosx, coff, a.out or win32n output to ELF,
# leaving every instruction as generated, so that the code those flavours
# emit can run here: linked into the -m32 test programs and run under
# qemu-i386 (Mach-O and Win32 programs cannot run on this machine at all,
# and no assembler here writes a.out).
#
#   perl test/x86asm/flavour_to_elf.pl macosx|coff|a.out IN.s > OUT.s (GNU as --32)
#   perl test/x86asm/flavour_to_elf.pl win32n      IN.asm > OUT.asm (nasm -f elf32)
#
# What changes is only what ELF spells differently:
#   - symbol decoration: the leading underscore of every symbol
#     (_AES_encrypt, _OPENSSL_ia32cap_P) is dropped, so the object links
#     with the ELF C library and test programs; a.out's local labels L...
#     become ELF's .L..., which stay out of the symbol table as they do
#     in a.out;
#   - sections: Mach-O __TEXT,__const and COFF .rdata become .rodata; the
#     Mach-O non-lazy symbol pointer section becomes .data, each pointer's
#     ".indirect_symbol S / .long 0" a ".long S": the address dyld would
#     store there at load time, so the code's load through the pointer runs
#     as on macOS;
#   - COFF symbol records (.def/.scl/.type/.endef) and the @feat.00 (SAFESEH)
#     marker are dropped; Mach-O .private_extern becomes .hidden;
#   - nasm: win32 section attributes become ELF ones.
# Any directive it does not know is an error, so a new one in the layer's
# output is noticed here rather than mistranslated.
use strict;
use warnings;

my ($flavour, $in) = @ARGV;
die "usage: $0 macosx|coff|a.out|win32n IN\n" unless defined $in && $flavour =~ /^(macosx|coff|a\.out|win32n)$/;
open(my $fh, '<', $in) or die "$0: $in: $!\n";
my @lines = <$fh>;
close $fh;

# Every C-level symbol of these flavours carries the underscore (locals
# are L...), declared or not: COFF leaves externals undeclared.
my $undecorate = qr/(?<![\w\$.@])_(\w+)/;

my @out;
my $lineno = 0;
my $after_indirect = 0;
for my $l (@lines) {
    $lineno++;
    local $_ = $l;
    s/(?<![\w\$.@])L(\d{3}\w*)/.L$1/g if $flavour eq 'a.out';
    s/$undecorate/$1/g unless /^\s*\.section\b/;
    my $bad = sub { die "$0: $in:$lineno: no ELF translation for: $_[0]" };
    if ($flavour eq 'win32n') {
        if (/^\s*\$\@feat\.00\s+equ\b/) { next }
        if (/^section\s+\.text\b/)  { push @out, "section .text progbits alloc exec nowrite align=64\n"; next }
        if (/^section\s+\.rdata\b/) { push @out, "section .rodata progbits alloc noexec nowrite align=64\n"; next }
        if (/^section\b/)           { $bad->($_) }
        if (/^\s*(?:\[|%|safeseh\b)/) { $bad->($_) }
        push @out, $_;
        next;
    }
    if ($after_indirect) {
        $after_indirect = 0;
        /^\s*\.long\s+0\s*$/ or $bad->("a non-lazy pointer without its .long 0: $_");
        next;
    }
    if (/^\s*\.(?:def|globl|set)\s+\@feat\.00\b/) { next }
    if (/^\s*\.def\s+\S+;\s*\.scl\s+\d+;\s*\.type\s+\d+;\s*\.endef\s*$/) { next }
    if (/^\s*\.private_extern\s+(\S+)/) { push @out, "\t.hidden\t$1\n"; next }
    if (/^\s*\.section\s+__TEXT,__const\s*$/ || /^\s*\.section\s+\.rdata,"dr"\s*$/) {
        push @out, "\t.section\t.rodata,\"a\",\@progbits\n";
        next;
    }
    if (/^\s*\.section\s+__IMPORT,__pointers,non_lazy_symbol_pointers\s*$/) {
        push @out, "\t.data\n";
        next;
    }
    if (/^\s*\.indirect_symbol\s+(\S+)\s*$/) {
        push @out, "\t.long\t$1\n";
        $after_indirect = 1;
        next;
    }
    if (/^\s*\.type\s+\w+,\@function\s*$/ && $flavour eq 'a.out') { push @out, $_; next }
    if (/^\s*\.(\w+)/ && $1 !~ /^(?:text|globl|p2align|byte|short|long|cfi_\w+|L\d{3}\w*)$/) { $bad->($_) }
    push @out, $_;
}
push @out, $flavour eq 'win32n' ? "section .note.GNU-stack noalloc noexec nowrite progbits\n"
                                : "\t.section\t.note.GNU-stack,\"\",\@progbits\n";
print @out;
