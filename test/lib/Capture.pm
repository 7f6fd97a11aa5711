# SPDX-License-Identifier: Apache-2.0
# capture(CMD...) -> (exit status, stdout+stderr): runs a command without a
# shell, for the test scripts that check a tool's output.
package Capture;

use strict;
use warnings;
use Exporter 'import';

our @EXPORT_OK = qw(capture);

sub capture {
    my (@cmd) = @_;
    my $pid = open(my $fh, '-|') // die "fork: $!\n";
    if (!$pid) {
        open STDERR, '>&', \*STDOUT or die;
        exec @cmd or do { print "cannot run $cmd[0]: $!\n"; exit 127 };
    }
    local $/;
    my $out = <$fh> // '';
    close $fh;
    return ($?, $out);
}

1;
