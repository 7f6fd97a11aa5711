#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# OpenSSL 3.0's 32-bit modules (the 28 scripts that require "x86asm.pl")
# through our perlasm/x86asm.pl on elf, macosx, coff and win32n
# (tools/openssl-x86.pl --tap): one result per module x flavour, passing
# when our output assembles warning-free with the real assembler and its
# disassembly equals that of OpenSSL's own layer's output.  A pair whose
# OpenSSL output does not assemble here is a SKIP (not counted).  Every
# pair is equal today, so a pair that differs fails, with its first
# difference; the closing comment counts the equal pairs.
# The source is the tree `make openssl-source` cached; without one the
# test is one SKIP saying how to get it.  A flavour whose tools the build
# found missing (test/lib/Toolchain.pm) SKIPs its results.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Toolchain qw(missing);

my $root  = "$FindBin::Bin/../..";
my $build = $ENV{BUILD} // 'build';

# What each flavour needs, as the build probed it.
my %needs = (elf => ['CC32'], macosx => [qw(CLANG LLVM_OBJDUMP)], coff => ['MINGW32'], win32n => ['NASM']);
my @skip = map { my $why = missing(@{ $needs{$_} }); defined $why ? ('--skip', "$_=$why") : () }
           sort keys %needs;

STDOUT->autoflush(1);
my @cmd = ($^X, "$root/tools/openssl-x86.pl", '--tap', '--jobs', 2,
           '--work', "$build/openssl-x86-test", @skip);
system(@cmd) == 0 or die "tools/openssl-x86.pl failed (exit " . ($? >> 8) . ")\n";
