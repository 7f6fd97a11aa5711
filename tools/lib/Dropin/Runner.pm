# SPDX-License-Identifier: Apache-2.0
package Dropin::Runner;
# Runs the long commands (Configure, make) with their output to a log,
# and remembers the running one, so that a signal handler can stop it and
# wait for it before the tree is restored.
use strict;
use warnings;
use Dropin::Report qw(ME fail);

sub new { return bless { child => undef }, shift }

# run(LOG, [{dir => DIR, tee => 1},] CMD...): stdout and stderr to LOG
# (with tee, to our stdout too); true if CMD exits 0.  A signal that kills
# it stops us.
sub run {
    my $self = shift;
    my $log  = shift;
    my $o    = ref $_[0] ? shift : {};
    my @cmd  = @_;
    open(my $out, '>>', $log) or fail("$log: $!");
    print $out "\$ @cmd\n";
    close $out;
    my $pid = open(my $fh, '-|') // fail("fork: $!");
    if (!$pid) {
        open STDERR, '>&', \*STDOUT;
        chdir $o->{dir} or do { print "cannot chdir to $o->{dir}: $!\n"; exit 127 }
            if $o->{dir};
        exec @cmd or do { print "cannot run $cmd[0]: $!\n"; exit 127 };
    }
    $self->{child} = $pid;
    open($out, '>>', $log) or fail("$log: $!");
    $out->autoflush(1);
    while (my $line = <$fh>) {
        print $out $line;
        print $line if $o->{tee};
    }
    close $fh;
    my $status = $?;
    $self->{child} = undef;
    close $out;
    fail("interrupted (signal " . ($status & 127) . ") while running $cmd[0]", 130)
        if $status & 127;
    return $status == 0;
}

# Passes SIG on to the running command and waits for it, so that nothing
# it still runs writes into the tree afterwards.
sub stop {
    my ($self, $sig) = @_;
    my $pid = $self->{child} or return;
    kill $sig, $pid;
    waitpid $pid, 0;
    $self->{child} = undef;
}

# fail() with the last 40 lines of LOG.
sub fail_with_log {
    my ($msg, $log) = @_;
    open(my $fh, '<', $log);
    my @lines = $fh ? <$fh> : ();
    my $n = @lines < 40 ? @lines : 40;
    print STDERR ME, ": last lines of $log:\n", map { "  $_" } @lines[ @lines - $n .. $#lines ];
    fail("$msg; see $log");
}

1;
