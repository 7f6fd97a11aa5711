#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# The dm-crypt table's replays (bench/x86mca/dmcrypt.pl --verify-only, the
# checks `make bench-dmcrypt32` makes before it times): every mode of the
# table, traced through our aes-586 and our aesni-x86 under qemu-i386,
# rewritten for 64-bit mode and run natively over 4 KiB and 1 MiB in
# 512-byte calls (aesni-x86's own bulk functions also in place and on
# buffers off 16-byte alignment), must compute the 64-bit library's
# output and leave its state (CBC's ivec, CTR's counter, OCB's offset,
# checksum and block number); CTR and OCB replays with one instruction left out must each be
# caught as a wrong result (not a crash); a sector of an odd number of
# blocks must drop the OCB rows, whose replay could not follow OpenSSL's
# parity branch.
# The ymm (VAES) sections of aesni-x86 (traced under qemu-i386 -cpu max,
# which has VAES and AVX2; qemu computes their lane 1 wrongly, but the
# control flow and the instructions do not depend on it) are checked here
# natively, the only place their results are: each mode with a ymm
# section (ECB both ways, CBC decryption, CTR32, XTS both ways, OCB both
# ways) at sectors below its threshold (16 bytes: no ymm instruction
# traced), of single registers (64), of groups, a register and a last xmm
# block (496; not OCB, whose replay needs an even number of blocks), and
# the default 512, must compute the 64-bit library's result; so must XTS
# at sectors that steal after the ymm section (500 and 100 bytes: the
# decryption holds its last whole block back for the xmm code), and OCB
# from an even block number; a replay with a vaes* round of a group left
# out must be caught, and one without a checksum XOR of OCB's.
# A sector size or key size the table cannot take is refused with the
# reason. What needs a missing tool is a counted SKIP naming it.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use ImplRuns qw(result finish);
use Toolchain qw(missing);

my $build = $ENV{BUILD} // 'build';
my $b32 = "$build/bench32";
my $why = missing('QEMU_I386', 'CC32');
my @modes = qw(ecb ecb-dec cbc-enc cbc-dec xts xts-dec lrw ctr ocb-enc ocb-dec);
my $want = 3 * @modes * 2;      # columns (aes-586, aesni-x86, its xmm code) x modes x totals

sub dmcrypt {
    my (@opt) = @_;
    my $out = `$^X bench/x86mca/dmcrypt.pl --native $b32/native32_modes --list $build/test/kat_aes --verify-only @opt ours=$b32/trace32_modes_ours 2>&1`;
    return ($? >> 8, $out);
}

if ($why) {
    result(1, "native replays of the table's calls", "SKIP $why") for 1 .. 12;
} else {
    my ($rc, $out) = dmcrypt();
    my $layouts = 2 * 9 * 2;    # our aesni-x86 columns x its own bulk modes x totals
    result($rc == 0 && $out =~ /all (\d+) computed the 64-bit library's result and state \((\d+) of them also in place/
           && $1 == $want && $2 == $layouts,
           "native replays of every call of the table ($want) compute the 64-bit library's result;"
           . " aesni-x86's own bulk functions ($layouts) in place and on unaligned buffers too")
        or print map { "#   $_\n" } split /\n/, $out;
    ($rc, $out) = dmcrypt('--modes', 'ctr,ocb-enc', '--drop', 500);
    my $caught = () = $out =~ /^  FAILED our aes(?:-586|ni-x86|ni-x86 xmm) (?:ctr|ocb-enc) \d+: .*(?:computed a wrong result|left a wrong state)/mg;
    result($rc != 0 && $caught == 3 * 2 * 2,
           'CTR and OCB replays missing one instruction are caught, each column at each total (12)')
        or print map { "#   $_\n" } split /\n/, $out;
    # The ymm sections: trace shapes and the native check.
    # (the instruction numbered is a round of the first group in each;
    # XTS's first group comes after its tweaks)
    my %drop_at = (ecb => 140, 'ecb-dec' => 140, 'cbc-dec' => 140, ctr => 140,
                   'ocb-enc' => 200, 'ocb-dec' => 200, xts => 350, 'xts-dec' => 350);
    my @wide = sort keys %drop_at;
    for my $sec (16, 64, 496, 512) {
        my @here = ($sec / 16) % 2 ? grep { !/^ocb/ } @wide : @wide;
        ($rc, $out) = dmcrypt('--modes', join(',', @here), '--sector', $sec);
        my %n = $out =~ /^  our aesni-x86 (\S+): (\d+) ymm instructions traced/mg;
        my %x = $out =~ /^  our aesni-x86 xmm (\S+): (\d+) ymm instructions traced/mg;
        my @shape = grep { !defined $n{$_} || ($sec < 64 ? $n{$_} != 0 : $n{$_} == 0) || ($x{$_} // 1) } @here;
        result($rc == 0 && !@shape && $out =~ /all (\d+) computed.*\((\d+) of them also in place/
               && $1 == 3 * @here * 2 && $2 == 2 * @here * 2,
               "$sec-byte sectors: aesni-x86's @here " . ($sec < 64 ? 'below the ymm threshold (no ymm instruction)'
                   : 'through the ymm path (' . join(', ', map { "$_ $n{$_}" } @here) . ' ymm instructions)')
               . ', replayed natively, equal the 64-bit library, also in place and unaligned (the xmm column, VAES masked: no ymm)')
            or print map { "#   $_\n" } split /\n/, $out;
    }
    # XTS stealing after the ymm section (31 and 6 whole blocks and a tail)
    for my $sec (500, 100) {
        ($rc, $out) = dmcrypt('--modes', 'xts,xts-dec', '--sector', $sec);
        my %n = $out =~ /^  our aesni-x86 (\S+): (\d+) ymm instructions traced/mg;
        result($rc == 0 && ($n{xts} // 0) > 0 && ($n{'xts-dec'} // 0) > 0
               && $out =~ /all (\d+) computed.*\((\d+) of them also in place/ && $1 == 3 * 2 * 2 && $2 == 2 * 2 * 2,
               "$sec-byte sectors (stealing): aesni-x86's XTS both ways through the ymm path"
               . ' (' . join(', ', map { $n{$_} // 'no' } qw(xts xts-dec)) . ' ymm instructions) and the xmm'
               . " code's tail, replayed natively, equal the 64-bit library, also in place and unaligned")
            or print map { "#   $_\n" } split /\n/, $out;
    }
    my (@left, $wrong, $wide_caught);
    for my $at (sort { $a <=> $b } keys %{ { reverse %drop_at } }) {
        my @modes = grep { $drop_at{$_} == $at } @wide;
        ($rc, $out) = dmcrypt('--modes', join(',', @modes), '--drop', $at);
        $rc or $wrong .= $out;
        push @left, $out =~ /^  our aesni-x86 \S+: \d+ ymm instructions traced, dropped "(vaes\w+ [^"]*%ymm[^"]*)"/mg;
        $wide_caught += () = $out =~ /^  FAILED our aesni-x86 (?!xmm)\S+ \d+: .*computed a wrong result/mg;
    }
    result(!$wrong && @left == @wide && ($wide_caught // 0) == 2 * @wide,
           "a ymm instruction left out of each ymm replay is caught (@left)")
        or print map { "#   $_\n" } split /\n/, $wrong // '';
    # OCB from an even block number: a single xmm block first, then the ymm
    # groups and register, and the xmm code's last block after them.
    ($rc, $out) = dmcrypt('--modes', 'ocb-enc,ocb-dec', '--ocb-first', 2);
    my %even = $out =~ /^  our aesni-x86 (ocb-\w+): (\d+) ymm instructions traced/mg;
    result($rc == 0 && (grep { $_ } @even{qw(ocb-enc ocb-dec)}) == 2
           && $out =~ /all (\d+) computed.*\((\d+) of them also in place/ && $1 == 12 && $2 == 8,
           'OCB calls starting on an even block (ymm instructions: '
           . join(', ', map { "$_ " . ($even{$_} // 'none') } qw(ocb-enc ocb-dec))
           . ') replay natively to the 64-bit library\'s result and state, also in place and unaligned')
        or print map { "#   $_\n" } split /\n/, $out;
    # OCB's checksum only shows in the state: a replay without one of its
    # XORs (instruction 76 of the encryption's ymm trace, an input pair
    # summed) must leave a wrong one (native32_modes' input has no short
    # period, whose blocks would XOR to zero whatever was summed).
    ($rc, $out) = dmcrypt('--modes', 'ocb-enc', '--drop', 76);
    my ($sum_left) = $out =~ /^  our aesni-x86 ocb-enc: \d+ ymm instructions traced, dropped "(vpxor 0x\w+\(%esi\),%ymm7,%ymm7)"/m;
    $caught = () = $out =~ /^  FAILED our aesni-x86 ocb-enc \d+: .*left a wrong state/mg;
    result($rc != 0 && $sum_left && $caught == 2,
           'a ymm OCB replay missing a checksum XOR (' . ($sum_left // 'none') . ') leaves a wrong state, caught')
        or print map { "#   $_\n" } split /\n/, $out;

    ($rc, $out) = dmcrypt('--modes', 'ctr,ocb-dec', '--sector', 16);
    result($rc == 0 && $out =~ /OCB rows skipped: a 16-byte sector is an odd number of blocks/
           && $out =~ /all (\d+) computed/ && $1 == 3 * 2,
           '16-byte sectors: the OCB rows dropped, CTR still checked')
        or print map { "#   $_\n" } split /\n/, $out;
}
# Bad arguments are named (checked before anything runs: no tool needed).
for my $bad ([['--sector', 576], qr/--sector 576: the table needs a sector size that divides 4096/],
             [['--sector', 20, '--modes', 'ecb'], qr/--sector 20: not whole 16-byte blocks/],
             [['--bits', 100], qr/--bits 100: AES takes 128, 192 or 256/]) {
    my ($opt, $says) = @$bad;
    my $out = `$^X bench/x86mca/dmcrypt.pl --native x --list x @$opt ours=x 2>&1`;
    result($? >> 8 && $out =~ $says, "dmcrypt.pl @$opt: refused, saying why")
        or print map { "#   $_\n" } split /\n/, $out;
}
finish();
