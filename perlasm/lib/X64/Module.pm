# SPDX-License-Identifier: Apache-2.0
# For 64-bit module scripts: `perl module.pl FLAVOUR [FLAGS...] OUTPUT` prints
# perlasm text on STDOUT, which this sends through x86_64-xlate.pl.
#
#   use lib "$dir/../../../perlasm/lib";
#   use X64::Module;
#   X64::Module::pipe_output(@ARGV);   # exits with usage or an error line on bad arguments
#   print ".text\n...";
#   X64::Module::finish();             # exit status of the translator
package X64::Module;

use strict;
use warnings;
use File::Basename qw(dirname);
use File::Spec;
use Common::CommandLine ();
use Common::Output ();
use X64::CommandLine ();

my $xlate = File::Spec->catfile(dirname(dirname(dirname(__FILE__))), 'x86_64-xlate.pl');
my ($piped, $xlate_pid);
# The last line of the text, written by finish() only: a module that dies,
# exits or is killed before it leaves the translator text without it, and
# the translator writes nothing (the line itself is not translated).
my $END_MARK = '# end of the perlasm text (X64::Module::finish)';

# The command line is X64::CommandLine's (flavour, compiler flags, output),
# checked here, before the translator starts, so that a bad one is one
# error line and exit 2, with no file written.
sub pipe_output {
    my (@args) = @_;
    my ($flavour, $output) = X64::CommandLine::parse(\@args, 'Writes the '
        . Common::CommandLine::module_name() . " module ($0) as assembly for one flavour.");
    my @cmd = ($^X, $xlate, $flavour, defined $output ? $output : '-');
    $ENV{PERLASM_SOURCE} //= $0;
    # The translator's environment only: nothing else the module runs.
    local $ENV{PERLASM_END_MARK} = $END_MARK;
    $xlate_pid = open(my $pipe, '|-', @cmd) or die "$0: cannot run $xlate: $!\n";
    # Should the translator stop at an error, the module's later prints
    # fail quietly and finish() returns its status, instead of SIGPIPE
    # killing the module.  Set after the fork: the translator keeps the
    # default.
    $SIG{PIPE} = 'IGNORE';
    select $pipe;
    $piped = $pipe;
}

# Ends the text and exits with the translator's status; a translator
# ended by a signal (an interrupted write) ends the module by it too.
sub finish {
    return 0 unless $piped;
    print $piped "$END_MARK\n";
    my $ok = close $piped;
    undef $piped;
    select STDOUT;
    exit 0 if $ok;
    Common::Output::die_by_signal(Common::Output::signal_name($? & 127)) if $? & 127;
    exit($? >> 8 || 1);
}

# A module that ends without finish(): the translator, given no end mark,
# writes nothing.  A module that failed (its own error already printed)
# stops the translator quietly; one that would exit 0 exits 1 after the
# translator's line saying the text is incomplete.
END {
    if ($piped) {
        my $status = $?;
        kill 'TERM', $xlate_pid if $status;
        close $piped;
        undef $piped;
        $? = $status || 1;
    }
}

1;
