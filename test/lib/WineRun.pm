# SPDX-License-Identifier: Apache-2.0
# Runs Win64 test programs under wine64 as TAP subtests (for test/t/*.t).
#
# wine runs headless with WINEDEBUG=-all and a private prefix,
# $BUILD/wineprefix, created by the first run (which gets a generous
# timeout).  Its console output has CRLF line endings: ChildTap strips
# them before the TAP is read.  Debian's wine64 is not on PATH: the
# loader is /usr/lib/wine/wine64 (make WINE64=... overrides it,
# mk/toolchain.mk).
package WineRun;

use strict;
use warnings;
use Exporter 'import';
use File::Spec;
use File::Temp qw(tempfile);
use Time::HiRes qw(time);
use ImplRuns qw(result);
use ChildTap;
use Toolchain qw(tool missing);

our @EXPORT_OK = qw(wine_missing wine_subtest wine_flavours);

# What is missing to build and run Win64 tests, in words (empty: nothing).
sub wine_missing {
    my $why = missing('MINGW64', 'NASM', 'WINE64');
    return defined $why ? ($why) : ();
}

sub prefix { File::Spec->rel2abs(($ENV{BUILD} // 'build') . '/wineprefix') }

# (exit status, stdout, stderr, timed out?); only our child is ever killed.
sub run_wine {
    my ($timeout, @cmd) = @_;
    my ($efh) = tempfile(UNLINK => 1);
    my $pid = open(my $fh, '-|');
    die "fork: $!\n" unless defined $pid;
    if ($pid == 0) {
        $ENV{WINEPREFIX} = prefix();
        $ENV{WINEDEBUG} = '-all';
        $ENV{WINEDLLOVERRIDES} = 'mscoree,mshtml=';  # no Mono/Gecko prompts
        delete @ENV{qw(DISPLAY WAYLAND_DISPLAY)};    # never open a window
        open(STDERR, '>&', $efh) or die "stderr: $!\n";
        exec(@cmd) or do { print STDERR "cannot run $cmd[0]: $!\n"; exit 127 };
    }
    my ($out, $timed_out) = ('', 0);
    eval {
        local $SIG{ALRM} = sub { die "timeout\n" };
        alarm $timeout;
        local $/;
        $out = <$fh> // '';
        alarm 0;
    };
    if ($@) {
        die $@ unless $@ eq "timeout\n";
        $timed_out = 1;
        kill 'TERM', $pid;
        sleep 2;
        kill 'KILL', $pid;
    }
    close $fh;
    my $status = $?;
    seek($efh, 0, 0);
    my $err = do { local $/; <$efh> } // '';
    return ($status, $out, $err, $timed_out);
}

# A program that steps many functions sets this: its wine run's timeout,
# in seconds, when the prefix exists already.
our $long_run_s;

# One subtest: runs EXE ARGS... under wine, shows its TAP indented and
# records one ok / not ok.  Returns (ok, number of output lines, of which
# ended in CRLF, the TAP text).
sub wine_subtest {
    my ($desc, $exe, @args) = @_;
    unless (-f $exe) {
        result(0, "$desc: $exe is missing (run make tests)");
        return (0, 0, 0, '');
    }
    # A new prefix takes 10-30 s to create; later runs a second or two.
    my $first   = !-f prefix() . '/system.reg';
    my $timeout = $first ? 300 : $long_run_s // 120;
    print "# creating the wine prefix ", prefix(), " (timeout ${timeout} s)\n" if $first;
    print "# Subtest: $desc\n";
    my $t0 = time;
    my ($status, $out, $err, $timed_out) = run_wine($timeout, tool('WINE64'), $exe, @args);
    my $tap = ChildTap->new;
    $tap->line($_) for split /\n/, $out;
    # wine's own messages (prefix creation, crashes) go to stderr.
    print "    # stderr: $_\n" for grep { /\S/ } split /\r?\n/, $err;
    printf "    # %.1f s%s\n", time - $t0, $first ? ' (including prefix creation)' : '';

    my ($ok, $name, $directive) =
        $tap->verdict($desc, $status, $timed_out ? "timed out after $timeout s" : undef);
    result($ok, $name, $directive);
    return ($ok, $tap->lines, $tap->crlf, $tap->text);
}

# One subtest per Win64 flavour (mingw64, nasm), each program given by
# $exe_of->(flavour) and its test names prefixed with the flavour; SKIPs
# with the reason when the tools are missing.
sub wine_flavours {
    my ($what, $exe_of) = @_;
    my @missing = wine_missing();
    for my $flavour (qw(mingw64 nasm)) {
        if (@missing) {
            result(1, "$flavour: $what under wine", 'SKIP missing ' . join(', ', @missing));
            next;
        }
        wine_subtest("$flavour: $what under wine", $exe_of->($flavour), "$flavour: ");
    }
}

1;
