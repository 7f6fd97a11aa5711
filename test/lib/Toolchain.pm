# SPDX-License-Identifier: Apache-2.0
# The optional tools as the build probed them.  mk/toolchain.mk writes
# $BUILD/toolchain.txt (NAME, yes|no, command, Debian package per line),
# so a test skips for exactly the reason the build skipped, in the same
# words, and runs the same command the build used.
#
#   use Toolchain qw(tool missing);
#   if (my $why = missing('QEMU_I386')) { ... "SKIP $why" ... }
#   system(tool('QEMU_I386'), $prog);
package Toolchain;

use strict;
use warnings;
use Exporter 'import';
use ImplRuns qw(in_path);

our @EXPORT_OK = qw(tool missing);

my %tools;

sub load {
    return if %tools;
    my $file = ($ENV{BUILD} // 'build') . '/toolchain.txt';
    open(my $fh, '<', $file) or die "Toolchain: cannot read $file ($!): run make first\n";
    while (my $line = <$fh>) {
        chomp $line;
        my ($name, $have, $cmd, $pkg) = split /\t/, $line;
        next unless defined $pkg;
        $tools{$name} = { have => $have eq 'yes', cmd => $cmd, pkg => $pkg };
    }
    die "Toolchain: $file lists no tools\n" unless %tools;
}

sub entry {
    my ($name) = @_;
    load();
    return $tools{$name} // die "Toolchain: no tool $name in the probe list (mk/toolchain.mk)\n";
}

# undef when NAME is usable, else why not, e.g. "gcc -m32 not usable (gcc-multilib)".
# RUN_I386 is a fact about the kernel, not a package (its package is "-";
# it is probed only where CC32 works).
sub missing {
    my @why = map {
        my $t = entry($_);
        $t->{have}       ? ()
        : $_ eq 'RUN_I386' ? missing('CC32') // 'this kernel does not run i386 programs (no IA32 emulation)'
        :                  "$t->{cmd} not usable ($t->{pkg})"
    } @_;
    return @why ? join(', ', @why) : undef;
}

# The command for NAME as make ran it, its program found on PATH (callers
# check and exec it as a file), or undef when it is not usable.
sub tool {
    my ($name) = @_;
    my $t = entry($name);
    return undef unless $t->{have};
    my ($prog, @args) = split ' ', $t->{cmd};
    $prog = in_path($prog) // return undef if $prog !~ m{/};
    return join ' ', $prog, @args;
}

1;
