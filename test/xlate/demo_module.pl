#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# The smallest 64-bit module: shows how a module script drives the layer
# (perl demo_module.pl FLAVOUR OUTPUT), and lets the tests check that
# errors in a module's text name the module and line.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../../perlasm/lib";
use X64::Module;

X64::Module::pipe_output(@ARGV);
my $op = $ENV{DEMO_MNEMONIC} // 'add';   # the tests inject a typo here
print <<"EOT";
.text
.globl	demo_add
.function demo_add, args=2
	mov	%rdi,%rax
	$op	%rsi,%rax
	.return
.endfunction
EOT
X64::Module::finish();
