# SPDX-License-Identifier: Apache-2.0
# Where the perlasm text came from, for error messages a maintainer can act
# on.  Our module scripts say who they are (PERLASM_SOURCE, set by
# X64::Module); OpenSSL's open a pipe into the translator themselves, so
# the script is read from the parent process's command line (through a
# `sh -c` if the pipe went through a shell).  Where the offending line is
# literal text in the script, its line there is found too.
package X64::Origin;

use strict;
use warnings;
use Exporter 'import';

our @EXPORT_OK = qw(module_script module_argv source_line);

# The script that printed our input: (name as it was run, readable path),
# or () when it cannot be told (no /proc, input from a file).
sub module_script {
    return ($ENV{PERLASM_SOURCE}, $ENV{PERLASM_SOURCE}) if defined $ENV{PERLASM_SOURCE};
    my ($pid, $script, @argv) = module_process() or return ();
    my $path = $script =~ m{^/} ? $script : (readlink("/proc/$pid/cwd") // '.') . "/$script";
    return ($script, $path);
}

# The command line the module script was run with (OpenSSL's build puts
# its compiler flags there; the script passes us only flavour and
# output), or () when it cannot be told.
sub module_argv {
    my (undef, undef, @argv) = module_process() or return ();
    return @argv;
}

# (pid, script, argv) of the process that runs the module script: our
# parent, or its parent where the pipe went through a shell.
sub module_process {
    my $pid = getppid();
    for (1 .. 2) {
        my @argv = proc_cmdline($pid) or return ();
        my ($script) = grep { /\.pl$/ && !/x86_64-xlate\.pl$/ } @argv;
        return ($pid, $script, @argv) if defined $script;
        # A shell between the script and us: look at its parent.
        last unless $argv[0] =~ m{(^|/)(ba|da)?sh$};
        $pid = proc_ppid($pid) or return ();
    }
    return ();
}

sub proc_cmdline {
    my ($pid) = @_;
    open(my $fh, '<', "/proc/$pid/cmdline") or return ();
    local $/;
    my $raw = <$fh> // '';
    return split /\0/, $raw;
}

sub proc_ppid {
    my ($pid) = @_;
    open(my $fh, '<', "/proc/$pid/stat") or return undef;
    my $stat = <$fh> // '';
    # pid (comm) state ppid ...; comm may hold spaces and parentheses.
    return $stat =~ /\)\s+\S+\s+(\d+)/ ? $1 : undef;
}

# The line of $path whose text is $line (ignoring spacing), if exactly
# one is; a line built from Perl variables matches none.
sub source_line {
    my ($path, $line) = @_;
    my $want = squeeze($line);
    return undef unless length $want && defined $path && open(my $fh, '<', $path);
    my @found;
    while (my $l = <$fh>) {
        push @found, $. if squeeze($l) eq $want;
    }
    return @found == 1 ? $found[0] : undef;
}

sub squeeze { my ($t) = @_; $t =~ s/\s+/ /g; $t =~ s/^ | $//g; return $t }

1;
