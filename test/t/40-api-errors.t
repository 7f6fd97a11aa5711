#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# Return codes of the public API on bad arguments (test/api_errors.c): one
# TAP line per check, straight from the program.  Runs through the
# dispatcher under whatever OPENSSL_ia32cap the caller set.
#
# Environment: BUILD (default "build").
use strict;
use warnings;

my $build = $ENV{BUILD} // 'build';
my $bin = "$build/test/api_errors";

unless (-x $bin) {
    print "1..1\nnot ok 1 - $bin is missing (run make tests)\n";
    exit 0;
}
exec($bin) or do {
    print "1..1\nnot ok 1 - cannot run $bin: $!\n";
    exit 0;
};
