# SPDX-License-Identifier: Apache-2.0
# aes-586's tables: one block in read-only data, aligned to 64 once, the
# tables in the order below.  Each table's offset is the sum of the sizes
# before it, so the code's displacements and the data cannot disagree.
package AES586::Tables;

use strict;
use warnings;
use AesMath qw(sbox inv_sbox te0 td0);
BEGIN { AES586::Perlasm->import(qw(rodata align set_label data_word data_byte)) }

# name, bytes per entry, entries.  te/td: the full path's T-tables, each
# column written twice (8-byte entries: rotation k is the dword at byte
# (4-k) mod 4).  sbox/isbox: the compact path's and the key schedule's.
# tl/itl: the full path's last round, S-box byte x at byte 3 of dword x,
# so the dword at byte 3-b of entry x is the byte already in row b (one
# lookup where a byte table needs movzbl, shl, xor).  Row b < 3 reads 3-b
# bytes past the entry: tl runs into itl, itl into the zero dwords.
# c1b: 0x1b in every byte of a quadword, the MMX xtime's reduction.
my @BLOCK = (
    [te    => 4, [map { my $t = te0($_); ($t, $t) } 0 .. 255]],
    [sbox  => 1, [sbox()]],
    [td    => 4, [map { my $t = td0($_); ($t, $t) } 0 .. 255]],
    [isbox => 1, [inv_sbox()]],
    [tl    => 4, [map { $_ << 24 } sbox()]],
    [itl   => 4, [map { $_ << 24 } inv_sbox()]],
    [zero  => 4, [0, 0]],
    [c1b   => 1, [(0x1b) x 8]],
);

my (%OFFSET, %SIZE);
{
    my $at = 0;
    for (@BLOCK) {
        my ($name, $width, $entries) = @$_;
        $OFFSET{$name} = $at;
        $SIZE{$name} = $width * @$entries;
        $at += $SIZE{$name};
    }
}

use constant LABEL => 'tables';    # the block's start, local to the module

# Byte offset of table $name from the block's start.
sub offset {
    my ($name) = @_;
    die "aes-586: no table $name\n" unless exists $OFFSET{$name};
    return $OFFSET{$name};
}

# Size in bytes of table $name.
sub size { my ($name) = @_; offset($name); return $SIZE{$name} }

# The block, in read-only data at LABEL.
sub emit {
    &rodata();
    &align(64);
    &set_label(LABEL);
    for (@BLOCK) {
        my (undef, $width, $entries) = @$_;
        $width == 4 ? &data_word(@$entries) : &data_byte(@$entries);
    }
}

1;
