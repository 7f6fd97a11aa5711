#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# AES-ECB/CBC known-answer tests (NIST AESAVS KAT, MMT, MCT files) for every
# AES implementation in the registry and for the constant-time core.
use strict;
use warnings;
use FindBin;
require "$FindBin::Bin/kat_runs.pl";
kat_runs('kat_aes', 1);
