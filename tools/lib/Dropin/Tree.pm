# SPDX-License-Identifier: Apache-2.0
package Dropin::Tree;
# What tools/openssl-dropin.pl reads from an OpenSSL 3.x tree: its
# version, its configuration, and from its Makefile how a generated file
# is made and which objects are compiled from it.
use strict;
use warnings;
use Exporter qw(import);
use Dropin::Report qw(fail);

our @EXPORT_OK = qw(read_version configured_target unextracted_test_data objects_from generator_flags);

# VERSION.dat's NAME=VALUE lines.
sub read_version {
    my ($file) = @_;
    open(my $fh, '<', $file) or fail("$file: $!", 2);
    return map { /^(\w+)=(.*)$/ ? ($1 => $2) : () } <$fh>;
}

# The Configure target a build directory was configured for, or undef.
sub configured_target {
    my ($dir) = @_;
    open(my $fh, '<', "$dir/configdata.pm") or return undef;
    while (<$fh>) { return $1 if /^\s*"target"\s*=>\s*"([^"]+)"/ }
    fail("$dir/configdata.pm names no target: not an OpenSSL 3.x configuration", 2);
}

# Debian's source package keeps its binary test data in debian/binary.tar,
# which its build (debian/rules) extracts first: the files of it the tree
# still lacks.
sub unextracted_test_data {
    my ($src) = @_;
    return () unless -f "$src/debian/binary.tar";
    return grep { !-e "$src/$_" } map { chomp; $_ } grep { !m{/$} } `tar tf '$src/debian/binary.tar'`;
}

# The objects OpenSSL's Makefile compiles from a generated file.
sub objects_from {
    my ($build, $file) = @_;
    open(my $fh, '<', "$build/Makefile") or fail("$build/Makefile: $!");
    return map { /^(\S+\.o):\s*\Q$file\E\s*$/ ? $1 : () } <$fh>;
}

# The flags among OpenSSL's generator arguments that change what a 32-bit
# module generates (the rest are compiler flags its x86asm.pl ignores),
# read from the Makefile's expanded recipe (make -n, the generator
# pretended new).
sub generator_flags {
    my ($build, $file, $script) = @_;
    # The generator as the Makefile names it (relative to an out-of-tree
    # build), the first prerequisite of the file's rule.
    open(my $mk, '<', "$build/Makefile") or fail("$build/Makefile: $!");
    my ($gen) = map { /^\Q$file\E:\s*(\S+)/ ? $1 : () } <$mk>;
    close $mk;
    fail("$build/Makefile has no rule for $file") unless defined $gen;
    my @out = `make -s -n -C '$build' -W '$gen' '$file' 2>&1`;
    my ($cmd) = grep { /\Q$script\E/ && /\Q$file\E\s*$/ } @out
        or fail("cannot find how OpenSSL's Makefile generates $file (make -n)");
    my %seen;
    return [ grep { /^(-fPIC|-DOPENSSL_IA32_SSE2|386)$/ && !$seen{$_}++ } split ' ', $cmd ];
}

1;
