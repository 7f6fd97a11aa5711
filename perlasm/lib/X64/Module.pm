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
use X64::CommandLine ();

my $xlate = File::Spec->catfile(dirname(dirname(dirname(__FILE__))), 'x86_64-xlate.pl');
my $piped;

# The command line is X64::CommandLine's (flavour, compiler flags, output),
# checked here, before the translator starts, so that a bad one is one
# error line and exit 2, with no file written.
sub pipe_output {
    my (@args) = @_;
    my ($flavour, $output) = X64::CommandLine::parse(\@args, 'Writes the '
        . Common::CommandLine::module_name() . " module ($0) as assembly for one flavour.");
    my @cmd = ($^X, $xlate, $flavour, defined $output ? $output : '-');
    $ENV{PERLASM_SOURCE} //= $0;
    open(my $pipe, '|-', @cmd) or die "$0: cannot run $xlate: $!\n";
    # Should the translator stop at an error, the module's later prints
    # fail quietly and finish() returns its status, instead of SIGPIPE
    # killing the module.  Set after the fork: the translator keeps the
    # default.
    $SIG{PIPE} = 'IGNORE';
    select $pipe;
    $piped = $pipe;
}

sub finish {
    return 0 unless $piped;
    my $ok = close $piped;
    select STDOUT;
    exit($ok ? 0 : ($? >> 8 || 1));
}

1;
