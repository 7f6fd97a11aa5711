# SPDX-License-Identifier: Apache-2.0
# Pieces both perlasm layers need: writing a generated file so that a
# failure never leaves a partial one behind.
#
# A regular file (or a new one) is written to a temporary beside it,
# PATH.tmp.PID, renamed into place at the end.  While that temporary
# exists, SIGINT, SIGTERM, SIGHUP and SIGPIPE (unless ignored when the
# program started) remove it, print one line and end the process by the
# same signal (a shell sees 128 + its number): an interrupted run leaves
# neither the file nor the temporary.  An existing file that is not a
# regular one (a device such as /dev/null or /dev/full, a FIFO,
# /dev/stdout) is written in place, as a shell redirect would: renaming
# over it would replace the device.  "-" is standard output, flushed so
# that its errors (closed, full) are seen.
package Common::Output;

use strict;
use warnings;
use Exporter 'import';
use Config;
use IO::Handle ();
use POSIX ();

our @EXPORT_OK = qw(write_atomic write_output);

my @SIGNALS = qw(INT TERM HUP PIPE);

# What a message calls PATH.
sub describe { my ($path) = @_; return $path eq '-' ? 'standard output' : $path }

# write_output(PROG, PATH, TEXT): write_atomic; on failure one line
# "PROG: cannot write PATH: REASON" on stderr and exit 1.
sub write_output {
    my ($prog, $path, $text) = @_;
    my $why = write_atomic($path, $text, $prog) // return;
    print STDERR "$prog: cannot write " . describe($path) . ": $why\n";
    exit 1;
}

# write_atomic(PATH, TEXT[, PROG]): writes TEXT as above.  Returns undef on
# success, otherwise the reason (the temporary is removed).  PROG names the
# program in the line a signal prints.
sub write_atomic {
    my ($path, $text, $prog) = @_;
    $prog //= $0;
    # Standard output: nothing to remove, the signals keep their action.
    if ($path eq '-') {
        return (print(STDOUT $text) && STDOUT->flush) ? undef : "$!";
    }
    if (-d $path) {
        local $! = POSIX::EISDIR;
        return "$!";
    }
    return write_file($path, $text) if -e $path && !-f _;
    my $tmp = "$path.tmp.$$";
    # The handlers are in place before the temporary exists.  A signal
    # ignored from the start (nohup, a shell's background job) stays so.
    my @caught = grep { ($SIG{$_} // '') ne 'IGNORE' } @SIGNALS;
    local @SIG{@caught} = (interrupt_handler($prog, $path, $tmp)) x @caught;
    my $why = write_file($tmp, $text);
    $why = "$!" if !defined $why && !rename($tmp, $path);
    unlink $tmp if defined $why;
    return $why;
}

# write_file(PATH, TEXT): undef, or the first failure's reason; the file
# is closed either way.
sub write_file {
    my ($path, $text) = @_;
    open(my $fh, '>', $path) or return "$!";
    my $why = print($fh $text) ? undef : "$!";
    close($fh) or $why //= "$!";
    return $why;
}

# The handler for a signal during a write: remove TMP, say so in one
# line, then die of the same signal.
sub interrupt_handler {
    my ($prog, $path, $tmp) = @_;
    return sub {
        my ($name) = @_;
        unlink $tmp;
        print STDERR "$prog: interrupted by SIG$name while writing $path: nothing written\n";
        die_by_signal($name);
    };
}

# Ends the process by signal NAME, its default action; should that not end
# it, exit 128 + its number, the status a shell would show.
sub die_by_signal {
    my ($name) = @_;
    my $num = signal_number($name);
    $SIG{$name} = 'DEFAULT';
    # Perl blocks a signal while its handler runs: unblock it first.
    POSIX::sigprocmask(POSIX::SIG_UNBLOCK(), POSIX::SigSet->new($num));
    kill $name, $$;
    POSIX::_exit(128 + $num);
}

# Signal names (without SIG) and numbers, both ways.
my @SIG_NAME = split ' ', $Config{sig_name};
my @SIG_NUM  = split ' ', $Config{sig_num};
my %SIG_NUM_OF;
@SIG_NUM_OF{@SIG_NAME} = @SIG_NUM;

sub signal_number { my ($name) = @_; return $SIG_NUM_OF{$name} // die "unknown signal $name\n" }
sub signal_name {
    my ($num) = @_;
    my ($i) = grep { $SIG_NUM[$_] == $num } 0 .. $#SIG_NUM;
    return defined $i ? $SIG_NAME[$i] : die "unknown signal number $num\n";
}

1;
