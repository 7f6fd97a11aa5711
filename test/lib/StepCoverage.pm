# SPDX-License-Identifier: Apache-2.0
# Which instructions of a 32-bit object's functions a checker program never
# single-stepped (test/t/82-x86-abi.t, 84-aesni-x86.t):
#   unstepped(OBJECT, PROGRAM, COVERAGE_FILE...) -> (total, [missed, ...])
# PROGRAM is linked -no-pie, so the addresses in the coverage files (one hex
# address a line, from abi_cdecl.c's --coverage) are its objdump addresses.
package StepCoverage;

use strict;
use warnings;
use Exporter 'import';

our @EXPORT_OK = qw(unstepped);

# Alignment padding is never executed and does not count.
sub unstepped {
    my ($obj, $prog, @cover) = @_;
    my %fn = map { /^[0-9a-f]+ [Tt] (\w+)$/ ? ($1 => 1) : () } `nm --defined-only $obj`;
    my %hit;
    for my $file (@cover) {
        open(my $fh, '<', $file) or return (0, ["no coverage file $file"]);
        while (<$fh>) { $hit{ hex $1 } = 1 if /^([0-9a-f]+)$/ }
    }
    my ($cur, $total, @missed) = (undef, 0);
    for (`objdump -d --no-show-raw-insn $prog`) {
        if (/^[0-9a-f]+ <([^>]+)>:/) { $cur = $fn{$1} ? $1 : undef; next }
        next unless $cur && /^\s*([0-9a-f]+):\s+(\S.*?)\s*$/;
        my ($addr, $insn) = (hex $1, $2);
        next if $insn =~ /^(nop|xchg\s+%ax,%ax|data16|cs nop|int3)/
             || $insn =~ /^lea\s+0x0\((%e\w\w)(,%eiz,1)?\),\1$/;
        $total++;
        push @missed, sprintf('%s+0x%x: %s', $cur, $addr, $insn) unless $hit{$addr};
    }
    return ($total, \@missed);
}

1;
