# SPDX-License-Identifier: Apache-2.0
# aes-586's stack slots, declared once.  One frame serves all the block
# code: the CBC entry points move esp to an ALIGN-byte aligned frame of
# BYTES bytes; its bottom is the scratch of the private round functions,
# which see it at esp+4 (above their return address); the one-block entry
# points allocate only its bottom, up to the end of the SSE flag, without
# aligning it.
package AES586::Frame;

use strict;
use warnings;

use constant BYTES => 160;     # at least the slots' extent (checked below)
use constant ALIGN => 64;      # so that no slot straddles a cache line

# name => [offset, bytes]; why each exists.
my %SLOT = (
    # one-block rounds
    round_out    => [0,   16],  # output words 0..3 of a round, but the one in esi
    key_ptr      => [16,  4],   # the round key being added (edi is an index)
    key_end      => [20,  4],   # round key Nr-1: where the round loop stops
    sse_flag     => [24,  4],   # nonzero: compact path in MMX (the CPU has SSE)
    # two-block rounds (CBC decryption, full path: no SSE flag)
    pair_a       => [0,   16],  # block A's state between its rounds
    pair_b       => [16,  16],  # block B's
    pair_key_ptr => [32,  4],
    pair_key_end => [36,  4],
    # the CBC entry points
    spare        => [44,  4],   # ecx, while rep movsb counts in it
    in           => [48,  4],   # the arguments, advanced as blocks are done
    out          => [52,  4],
    len          => [56,  4],
    key          => [60,  4],
    ivec         => [64,  4],
    saved_esp    => [68,  4],   # the caller's esp (&switch_stack)
    block        => [80,  16],  # a partial block, zero-padded or whole
    chain        => [96,  16],  # CBC decryption's chaining value
    cipher1      => [112, 16],  # two-block decryption's ciphertexts (out may be in)
    cipher2      => [128, 16],
);

# Slots in use at the same time must not overlap: the CBC entry's with
# either round function's scratch (and the SSE flag, compact path only).
my @CBC = qw(spare in out len key ivec saved_esp block chain cipher1 cipher2);
for my $live ([@CBC, qw(round_out key_ptr key_end sse_flag)],
              [@CBC, qw(pair_a pair_b pair_key_ptr pair_key_end)]) {
    my @s = sort { $SLOT{$a}[0] <=> $SLOT{$b}[0] } @$live;
    for my $k (1 .. $#s) {
        die "aes-586: frame slots $s[$k-1] and $s[$k] overlap\n"
            if $SLOT{ $s[$k - 1] }[0] + $SLOT{ $s[$k - 1] }[1] > $SLOT{ $s[$k] }[0];
    }
    die "aes-586: frame slot $s[-1] beyond the frame\n" if $SLOT{ $s[-1] }[0] + $SLOT{ $s[-1] }[1] > BYTES;
}

# Byte offset of slot $name, or of its dword $word.
sub offset {
    my ($name, $word) = @_;
    die "aes-586: no frame slot $name\n" unless $SLOT{$name};
    die "aes-586: frame slot $name has no dword $word\n" if $word && 4 * $word >= $SLOT{$name}[1];
    return $SLOT{$name}[0] + 4 * ($word // 0);
}

# Where slot $name ends: what a frame holding it up to there allocates.
sub end { my ($name) = @_; return offset($name) + $SLOT{$name}[1] }

# AES_set_*_key's key expansion: its own 8 bytes below its return address.
use constant EXPAND_BYTES => 8;
my %EXPAND = (
    schedule_end => 0,          # the schedule's end: the expansion stops there
    rcon         => 4,          # the round constant, doubled in GF(2^8) per use
);
sub expand_offset {
    my ($name) = @_;
    die "aes-586: no key expansion slot $name\n" unless exists $EXPAND{$name};
    return $EXPAND{$name};
}

1;
