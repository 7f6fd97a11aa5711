# SPDX-License-Identifier: Apache-2.0
# aes-586's tables: one block in read-only data, aligned to 64 once, the
# tables in the order below.  Each table's offset is the sum of the sizes
# before it, so the code's displacements and the data cannot disagree.
package AES586::Tables;

use strict;
use warnings;
use AesMath qw(sbox inv_sbox te0 td0);
use AES586::Perlasm qw(rodata align set_label data_word data_byte);

# name, bytes per entry, entries; or [undef, N]: zero bytes up to the next
# multiple of N.  te/td: the full path's T-tables, each column written
# twice (8-byte entries: rotation k is the dword at byte (4-k) mod 4).
# sbox/isbox: the compact path's and the key schedule's, 64-byte aligned
# (the compact path touches each of their lines).  tl/itl: the full path's
# last round, S-box byte x at byte 3 of dword x, so the dword at byte 3-b
# of entry x is the byte already in row b, its other bytes zero (one
# lookup where a byte table needs movzbl, shl, xor).  Row b < 3 reads 3-b
# bytes past the entry, so each is followed by zero dwords.  c1b: 0x1b in
# every byte of a quadword, the MMX xtime's reduction.
# td and itl lie 4096 bytes after te and tl: each direction's full path
# reads the same 3 KiB of page offsets, and full_cold() names the 1 KiB
# it never reads, where the CBC frame is put so that its stores do not
# 4K-alias the table loads.
my @BLOCK = (
    [te     => 4, [map { my $t = te0($_); ($t, $t) } 0 .. 255]],
    [tl     => 4, [map { $_ << 24 } sbox()]],
    [tl_end => 4, [0, 0]],
    [c1b    => 1, [(0x1b) x 8]],
    [undef, 64],
    [sbox   => 1, [sbox()]],
    [isbox  => 1, [inv_sbox()]],
    [undef, 4096],
    [td     => 4, [map { my $t = td0($_); ($t, $t) } 0 .. 255]],
    [itl    => 4, [map { $_ << 24 } inv_sbox()]],
    [itl_end => 4, [0, 0]],
);
my (%OFFSET, %SIZE);
{
    my $at = 0;
    for (@BLOCK) {
        my ($name, $width, $entries) = @$_;
        if (!defined $name) {
            push @$_, [(0) x (-$at % $width)];
            $at += @{ $_->[2] };
            next;
        }
        $OFFSET{$name} = $at;
        $SIZE{$name} = $width * @$entries;
        $at += $SIZE{$name};
    }
}
die "aes-586: td and itl must lie 4096 bytes after te and tl\n"
    unless $OFFSET{td} - $OFFSET{te} == 4096 && $OFFSET{itl} - $OFFSET{tl} == 4096
        && $OFFSET{tl} == $OFFSET{te} + $SIZE{te};
use constant LABEL => 'tables';    # the block's start, local to the module

# Byte offset of table $name from the block's start.
sub offset {
    my ($name) = @_;
    die "aes-586: no table $name\n" unless exists $OFFSET{$name};
    return $OFFSET{$name};
}

# Size in bytes of table $name.
sub size { my ($name) = @_; offset($name); return $SIZE{$name} }

# The page offsets (from the block's start, modulo 4096) that neither
# direction's full path reads: [start, end).
sub full_cold { return ($OFFSET{tl} + $SIZE{tl}, $OFFSET{te} + 4096) }

# The block, in read-only data at LABEL.
sub emit {
    &rodata();
    &align(64);
    &set_label(LABEL);
    for (@BLOCK) {
        my ($name, $width, $entries) = @$_;
        defined $name && $width == 4 ? &data_word(@$entries) : &data_byte(@$entries);
    }
}

1;
