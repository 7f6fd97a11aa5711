# SPDX-License-Identifier: Apache-2.0
# qemu 7.2's ymm VAES lane fault (test/README.md, "Emulator faults") for
# the scripts that check results under qemu (each keeps its own policy):
#   lane_faults(COMMAND...) -> ([instructions], wait status, [output lines])
# runs a vaes_lanes program (test/vaes_lanes.c) and names the VEX.256 AES
# rounds it reported wrong in a lane;
#   i386_prefix(QEMU, BUILD) -> ([prefix...], skip reason or undef)
# runs BUILD/m32/small/vaes_lanes under QEMU (its default CPU, max); when
# qemu computes a VEX.256 AES round wrongly, the prefix is QEMU -cpu
# max,-vaes (aesni-x86 then takes its xmm code) and the reason names the
# instructions, for the caller's SKIP line; otherwise QEMU alone.  The ymm
# code's results are checked natively by test/t/85-dmcrypt-replay.t.
package QemuVaes;

use strict;
use warnings;
use Exporter 'import';

our @EXPORT_OK = qw(lane_faults i386_prefix);

sub lane_faults {
    my @command = @_;
    my @out = `@command 2>&1`;
    my $status = $?;
    return ([ map { /^not ok \d+ - (v\w+) ymm/ ? $1 : () } @out ], $status, \@out);
}

sub i386_prefix {
    my ($qemu, $build) = @_;
    my $lanes = "$build/m32/small/vaes_lanes";
    my ($bad) = lane_faults($qemu, $lanes);
    my @bad = @$bad;
    return ([$qemu], undef) unless @bad;
    (my $version = `$qemu --version`) =~ s/\n.*//s;
    return ([$qemu, '-cpu', 'max,-vaes'],
            "$version computes @bad on ymm wrongly in lane 1 ($lanes; test/README.md): "
            . 'run under -cpu max,-vaes; the ymm code is checked natively by 85-dmcrypt-replay.t');
}

1;
