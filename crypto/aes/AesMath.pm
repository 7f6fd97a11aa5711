# SPDX-License-Identifier: Apache-2.0
# AES tables from the cipher's definition (FIPS-197 §5.1.1): inversion in
# GF(2^8) modulo x^8+x^4+x^3+x+1 followed by the affine map, and the
# MixColumns / InvMixColumns products of each S-box output.  Used by
# gen_aes_tables.pl (the C core's tables) and asm/aes-x86_64.pl, so no
# table is typed in by hand and both are derived the same way.
#
# Columns are little-endian words: row r in bits 8r..8r+7.
package AesMath;

use strict;
use warnings;
use Exporter 'import';

our @EXPORT_OK = qw(gf_mul sbox inv_sbox te0 td0);

sub gf_mul {
    my ($a, $b) = @_;
    my $r = 0;
    while ($b) {
        $r ^= $a if $b & 1;
        $a = (($a << 1) ^ ($a & 0x80 ? 0x11b : 0)) & 0xff;
        $b >>= 1;
    }
    return $r;
}

sub gf_inv {
    my ($x) = @_;
    return 0 if $x == 0;
    # x^254 = x^-1 in GF(2^8).
    my ($r, $p, $e) = (1, $x, 254);
    while ($e) {
        $r = gf_mul($r, $p) if $e & 1;
        $p = gf_mul($p, $p);
        $e >>= 1;
    }
    return $r;
}

sub rotl8 { my ($b, $n) = @_; return (($b << $n) | ($b >> (8 - $n))) & 0xff; }

my (@SBOX, @INV_SBOX);
for my $x (0 .. 255) {
    my $b = gf_inv($x);
    my $s = $b ^ rotl8($b, 1) ^ rotl8($b, 2) ^ rotl8($b, 3) ^ rotl8($b, 4) ^ 0x63;
    $SBOX[$x] = $s;
    $INV_SBOX[$s] = $x;
}
die "AesMath: S-box self-check failed\n"
    unless $SBOX[0] == 0x63 && $SBOX[1] == 0x7c && $SBOX[0x53] == 0xed;

sub sbox     { return @SBOX }
sub inv_sbox { return @INV_SBOX }

sub column { my @m = @_; return $m[0] | $m[1] << 8 | $m[2] << 16 | $m[3] << 24; }

# T-table column for input byte x: {02,01,01,03}·S[x] and {0e,09,0d,0b}·S⁻¹[x].
sub te0 { my ($x) = @_; return column(map { gf_mul($SBOX[$x], $_) } 2, 1, 1, 3); }
sub td0 { my ($x) = @_; return column(map { gf_mul($INV_SBOX[$x], $_) } 0x0e, 0x09, 0x0d, 0x0b); }

1;
