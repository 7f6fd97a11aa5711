# SPDX-License-Identifier: Apache-2.0
# Shared runner for test/t/*.t scripts that run a C test program once per
# implementation in the registry, each run shown as an indented TAP subtest
# under one ok / not ok line of the script's own plan.
package ImplRuns;

use strict;
use warnings;
use Exporter 'import';
use File::Temp ();
use POSIX ();
use Time::HiRes qw(time);
use ChildTap;

our @EXPORT_OK = qw(result registry run_child run_children set_env mask_env describe_mask finish in_path);

my ($count, $failed) = (0, 0);

# The prototype puts the condition in scalar context: a failed match in a
# list would vanish and shift the description into its place.
sub result($$;$) {
    my ($ok, $desc, $directive) = @_;
    $count++;
    # A TODO test that fails is expected (TAP): it does not fail the script.
    $failed++ unless $ok || (defined $directive && $directive =~ /^TODO\b/);
    print(($ok ? 'ok' : 'not ok'), " $count - $desc",
          (defined $directive ? " # $directive" : ''), "\n");
    return $ok;
}

# The implementations a test program knows, from `PROG --list`:
# NAME<TAB>FORCE_MASK[<TAB>NEED[<TAB>NEED_NAME[<TAB>AVOID]]] lines, an
# empty or "-" mask meaning none, NEED the four capability words the
# entry needs, AVOID those whose joint presence makes the dispatcher pass
# it over, in hex (NEED_NAME, their names, is checked by 31-captable.t).
# Returns ([name, mask-or-undef, [need words], [avoid words]], ...) in
# priority order;
# fails a test when that goes wrong.  @prefix runs PROG under a command
# (qemu-i386 for a 32-bit program on a kernel that does not run it).
sub registry {
    my ($bin, @prefix) = @_;
    return () unless result(-x $bin, "$bin exists");
    local %ENV = %ENV;
    delete $ENV{OPENSSL_ia32cap};
    my @entries;
    open(my $fh, '-|', @prefix, $bin, '--list') or die "cannot run $bin: $!\n";
    while (my $line = <$fh>) {
        chomp $line;
        my ($name, $mask, $need, undef, $avoid) = split /\t/, $line;
        $mask = undef if defined $mask && ($mask eq '' || $mask eq '-');
        push @entries, [ $name, $mask, [ map { hex } split ' ', $need // '' ],
                         [ map { hex } split ' ', $avoid // '' ] ];
    }
    close $fh;
    result($? == 0 && @entries > 0, "$bin --list names the implementations");
    return @entries;
}

# Environment for running with OPENSSL_ia32cap = $mask; undef deletes the
# variable.  Never set it empty: that turns every capability off.
sub mask_env { return { OPENSSL_ia32cap => $_[0] } }

sub describe_mask {
    my ($mask) = @_;
    return defined $mask ? "OPENSSL_ia32cap=$mask" : 'OPENSSL_ia32cap unset';
}

# run_child(DESC, {VAR => value-or-undef}, CMD...): one subtest, its
# stdout and stderr read as TAP by ChildTap.
sub run_child {
    my ($desc, $env, @cmd) = @_;
    return result(0, "$desc: $cmd[0] is missing (run make tests)")
        unless -x $cmd[0];
    print "# Subtest: $desc\n";
    my $t0 = time;
    my $tap = ChildTap->new;
    {
        local %ENV = %ENV;
        set_env($env);
        my $pid = open(my $fh, '-|');
        die "fork: $!\n" unless defined $pid;
        if (!$pid) {
            open STDERR, '>&', \*STDOUT or die "dup: $!\n";
            exec @cmd or die "exec $cmd[0]: $!\n";
        }
        $tap->line($_) while <$fh>;
        close $fh;
    }
    my $status = $?;
    printf "    # %.1f s\n", time - $t0;
    my ($ok, $name, $directive) = $tap->verdict($desc, $status);
    return result($ok, $name, $directive);
}

# {VAR => value-or-undef} applied to %ENV (undef deletes VAR).
sub set_env {
    my ($env) = @_;
    for my $k (keys %$env) {
        if (defined $env->{$k}) { $ENV{$k} = $env->{$k} }
        else                    { delete $ENV{$k} }
    }
}

# run_children(JOBS, [DESC, {env}, CMD...], ...): run_child for each, with
# up to JOBS of them running at once, each one's output kept in a file
# until it is shown; they are shown, and counted, in the order given.
# Returns their results (true for a pass) in that order.
sub run_children {
    my ($jobs, @specs) = @_;
    my $dir = File::Temp::tempdir(CLEANUP => 1);
    my (%running, @state);
    my ($next, $shown) = (0, 0);
    my @ok;
    while ($shown < @specs) {
        while ($next < @specs && keys(%running) < $jobs) {
            my ($desc, $env, @cmd) = @{ $specs[$next] };
            if (!-x $cmd[0]) {
                $state[$next++] = { missing => 1, status => -1 };
                next;
            }
            my $log = "$dir/$next";
            my $pid = fork() // die "fork: $!\n";
            if (!$pid) {
                set_env($env);
                open STDOUT, '>', $log or POSIX::_exit(126);
                open STDERR, '>&', \*STDOUT or POSIX::_exit(126);
                { exec @cmd }
                print STDERR "exec $cmd[0]: $!\n";
                POSIX::_exit(127);
            }
            $state[$next] = { log => $log, t0 => time };
            $running{$pid} = $next++;
        }
        while (defined $state[$shown] && defined $state[$shown]{status}) {
            my ($desc, undef, @cmd) = @{ $specs[$shown] };
            my $s = $state[$shown++];
            if ($s->{missing}) {
                push @ok, result(0, "$desc: $cmd[0] is missing (run make tests)");
                next;
            }
            print "# Subtest: $desc\n";
            my $tap = ChildTap->new;
            open(my $fh, '<', $s->{log}) or die "$s->{log}: $!\n";
            $tap->line($_) while <$fh>;
            close $fh;
            printf "    # %.1f s\n", $s->{t1} - $s->{t0};
            my ($ok, $name, $directive) = $tap->verdict($desc, $s->{status});
            push @ok, result($ok, $name, $directive);
        }
        last if $shown >= @specs;
        my $pid = wait;
        die "run_children: no child to wait for\n" if $pid < 0;
        my $i = delete $running{$pid} // next;
        @{ $state[$i] }{qw(status t1)} = ($?, time);
    }
    return @ok;
}

# The full path of a command on PATH, or undef.
sub in_path {
    my ($cmd) = @_;
    for my $dir (split /:/, $ENV{PATH} // '') {
        return "$dir/$cmd" if $dir ne '' && -x "$dir/$cmd";
    }
    return undef;
}

# Prints the plan; the exit status tells prove whether anything failed.
sub finish {
    print "1..$count\n";
    exit($failed ? 1 : 0);
}

1;
