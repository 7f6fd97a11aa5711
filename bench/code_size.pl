#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# Code size of every assembly path, in bytes: each global function of each
# module object (from its ELF symbol sizes) and the module's read-only
# tables.  `make bench-code-size` prints it.
#
#   perl bench/code_size.pl build/obj/asm/*.o
use strict;
use warnings;

die "usage: $0 OBJECT...\n" unless @ARGV;
print "\nCode size (bytes, ELF)\n";
for my $obj (@ARGV) {
    my @syms = `nm -S --defined-only "$obj"`;
    die "$0: nm failed on $obj\n" if $?;
    my ($module) = $obj =~ m{([^/]+)\.o$};
    print "  $module\n";
    # "ADDRESS SIZE T NAME"; aliases such as asm_AES_encrypt have no size
    # (three fields) and are left out.
    my %size = map { /^\S+\s+(\S+)\s+T\s+(\S+)$/ ? ($2 => hex $1) : () } @syms;
    printf "    %-36s %6d\n", $_, $size{$_} for sort keys %size;
    for (`readelf -S -W "$obj"`) {
        printf "    %-36s %6d\n", "tables (.rodata)", hex $1
            if /\.rodata\s+PROGBITS\s+\S+\s+\S+\s+(\S+)/;
    }
}
