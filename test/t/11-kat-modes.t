#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# AES-CTR, XTS and LRW known-answer tests for every AES implementation in
# the registry and for the constant-time core; the VAES entries also
# with OpenSSL's Intel bit inverted, for their other XTS tweak loop.
use strict;
use warnings;
use FindBin;
require "$FindBin::Bin/kat_runs.pl";
kat_runs('kat_modes', 1, 1);
