# SPDX-License-Identifier: Apache-2.0
package Disasm32;
# A traced 32-bit program's instructions by address, for replaying its
# traces (bench/x86mca.pl, bench/x86mca/dmcrypt.pl).
use strict;
use warnings;
use Exporter 'import';

our @EXPORT_OK = qw(disassembly next_addresses);

# Address => instruction text, from the program's disassembly.
sub disassembly {
    my ($prog) = @_;
    my %text;
    open(my $fh, '-|', 'objdump', '-d', '--no-show-raw-insn', $prog)
        or die "Disasm32: objdump $prog: $!\n";
    while (<$fh>) {
        next unless /^\s*([0-9a-f]+):\s+(\S.*?)\s*$/;
        my ($addr, $insn) = (hex $1, $2);
        $insn =~ s/\s*<[^>]*>//;
        $insn =~ s/\s*#.*//;
        $insn =~ s/\s+/ /g;
        $text{$addr} = $insn;
    }
    close $fh or die "Disasm32: objdump $prog failed\n";
    return \%text;
}

# Address => the address of the instruction after it (a call's return
# address), from a program's disassembly.
sub next_addresses {
    my ($text) = @_;
    my @addr = sort { $a <=> $b } keys %$text;
    return { map { ($addr[$_] => $addr[$_ + 1]) } 0 .. $#addr - 1 };
}

1;
