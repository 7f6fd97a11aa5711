#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# No legacy-SSE instruction runs while the upper halves of the vector
# registers are dirty, in any generated 64-bit module (build/gen/asm/*.s).
# On this machine (Zen 3 under its hypervisor) each such instruction costs
# about 300 cycles, a state transition, so one in a short-message path
# makes it an order of magnitude slower without changing a byte of output.
#
# The check reads each file in order, as the modules lay their wide code
# out: straight-line set-up, loops, then vzeroupper before any jump back
# to the xmm code.  An instruction naming a ymm or zmm register makes the
# state dirty; vzeroupper, vzeroall or ret make it clean; a non-VEX
# instruction naming an xmm register in between is reported with its line.
use strict;
use warnings;
use Test::More;

my $build = $ENV{BUILD} // 'build';
my @files = sort glob("$build/gen/asm/*.s");
plan skip_all => "no generated modules in $build/gen/asm (run make)" unless @files;

for my $file (@files) {
    open my $fh, '<', $file or die "$file: $!";
    my ($dirty_since, @bad);
    while (my $line = <$fh>) {
        next if $line =~ /^\s*(?:[.#]|$)/ || $line =~ /^\S+:\s*$/;
        my ($op) = $line =~ /^\s*(\S+)/ or next;
        if ($op =~ /^(?:vzeroupper|vzeroall|ret)$/) {
            undef $dirty_since;
        } elsif ($line =~ /%[yz]mm\d/) {
            $dirty_since = $.;
        } elsif (defined $dirty_since && $op !~ /^v/ && $line =~ /%xmm\d/) {
            chomp $line;
            push @bad, "line $.: $line (upper state dirty since line $dirty_since)";
        }
    }
    close $fh;
    ok(!@bad, "$file: no legacy SSE between wide code and vzeroupper")
        or diag(join "\n", @bad[0 .. ($#bad < 9 ? $#bad : 9)]);
}
done_testing();
