#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# SHA-1 known-answer tests (NIST SHAVS files, FIPS 180 examples) for every
# SHA-1 implementation in the registry.
use strict;
use warnings;
use FindBin;
require "$FindBin::Bin/kat_runs.pl";
kat_runs('kat_sha1', 0);
