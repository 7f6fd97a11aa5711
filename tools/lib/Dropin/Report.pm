# SPDX-License-Identifier: Apache-2.0
package Dropin::Report;
# How tools/openssl-dropin.pl speaks and stops: note() on stdout, fail() a
# line on stderr and then an exception carrying the exit status, so that
# the caller puts the OpenSSL tree back before it exits.
use strict;
use warnings;
use Exporter qw(import);

our @EXPORT_OK = qw(ME note complain fail exit_status);

use constant ME => 'openssl-dropin';

sub note     { print ME, ": $_[0]\n" }
sub complain { print STDERR ME, ": $_[0]\n" }

# fail(MESSAGE [, STATUS]): status 1 unless given (2: a bad command line
# or tree, nothing touched).
sub fail {
    my ($msg, $status) = @_;
    complain("error: $msg");
    die bless { status => $status // 1 }, 'Dropin::Report::Exit';
}

# The exit status for what an eval caught: fail()'s, or 255 and the
# message for a bug (as perl's own die).
sub exit_status {
    my ($err) = @_;
    return $err->{status} if ref $err && ref $err eq 'Dropin::Report::Exit';
    print STDERR $err;
    return 255;
}

1;
