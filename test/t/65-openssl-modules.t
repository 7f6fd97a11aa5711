#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# OpenSSL's own x86_64 modules, 3.0's 31 and 3.5's 38, through our
# translator on elf, macosx, mingw64 and nasm (tools/openssl-xlate.pl --tap,
# once per version, renumbered into one plan): one result per module x
# flavour, each passing when
#  - our output assembles with the real assembler, warning-free, and its
#    disassembly equals that of OpenSSL's own translator's output (of the
#    same release);
#  - our translator says nothing on stderr (a warning is a failure) and a
#    second run gives the same bytes;
#  - on ELF the object carries .note.GNU-stack and the IBT/SHSTK note.
# Each version's source is the tree `make openssl-source
# [OPENSSL_VERSION=3.5]` cached; the test only looks there (it never
# fetches), and a version without one is one SKIP saying how to get it.
# After each version a comment counts its pairs: translated, assembled,
# equal.  A flavour whose tools the build found missing
# (test/lib/Toolchain.pm) SKIPs its results.
#
# Pairs listed in test/xlate/openssl-modules.txt are TAP TODO with their
# reason (work not finished; none today).  The file lists no intended
# difference.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Toolchain qw(missing);

my $root  = "$FindBin::Bin/../..";
my $build = $ENV{BUILD} // 'build';

# What each flavour needs beyond GNU binutils, as the build probed it.
my %needs = (macosx => [qw(CLANG LLVM_OBJDUMP)], mingw64 => ['MINGW64'], nasm => ['NASM']);
my @skip = map { my $why = missing(@{ $needs{$_} }); defined $why ? ('--skip', "$_=$why") : () }
           sort keys %needs;

STDOUT->autoflush(1);
my $n = 0;
for my $version (qw(3.0 3.5)) {
    my @cmd = ($^X, "$root/tools/openssl-xlate.pl", '--tap', '--version', $version, '--jobs', 2,
               '--work', "$build/openssl-xlate-test/$version",
               '--expect', "$root/test/xlate/openssl-modules.txt", @skip);
    open(my $fh, '-|', @cmd) or die "cannot run tools/openssl-xlate.pl: $!\n";
    while (my $line = <$fh>) {
        next if $line =~ /^1\.\.\d+$/;
        # Each result numbered in this plan, its name led by the version.
        if ($line =~ s/^(ok|not ok) \d+/"$1 " . ++$n/e) {
            $line =~ s/^(\w+(?: \w+)? \d+ - )/$1$version /;
        }
        print $line;
    }
    close $fh;
    die "tools/openssl-xlate.pl --version $version failed (exit " . ($? >> 8) . ")\n" if $?;
}
print "1..$n\n";
