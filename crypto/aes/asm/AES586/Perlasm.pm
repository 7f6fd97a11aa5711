# SPDX-License-Identifier: Apache-2.0
# The 32-bit perlasm API (perlasm/x86asm.pl, loaded by aes-586.pl) inside
# aes-586's helper packages: the layer defines its functions, and takes
# every instruction through AUTOLOAD, in package main only, so a helper
# names what it calls and gets main's functions under those names:
#
#   use AES586::Perlasm qw(mov xor DWP);   ... &mov("eax", ...)
package AES586::Perlasm;

use strict;
use warnings;

sub import {
    my (undef, @names) = @_;
    my $into = caller;
    no strict 'refs';
    # An instruction has no body in main: the call reaches main's AUTOLOAD.
    *{"${into}::$_"} = \&{"main::$_"} for @names;
}

1;
