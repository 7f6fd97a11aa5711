#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# Code size of crypto/aes/asm/aes-586.pl per generated variant, in bytes,
# from the ELF symbol sizes (private functions included): each round
# function (full T-tables, compact integer, compact MMX/SSE), the entry
# points, the key schedule, and the paths they add up to.  `make
# bench-code-size` prints it after the x86_64 modules' sizes.
#
#   perl bench/code_size_586.pl small=OBJ unrolled=OBJ small-386=OBJ ...
use strict;
use warnings;

die "usage: $0 VARIANT=OBJECT...\n" unless @ARGV;
my (@variants, %size);
for my $arg (@ARGV) {
    my ($v, $obj) = $arg =~ /^([\w-]+)=(.+)$/ or die "$0: want VARIANT=OBJECT, not $arg\n";
    push @variants, $v;
    my @syms = `nm -S --defined-only "$obj"`;
    die "$0: nm failed on $obj\n" if $?;
    for (@syms) {
        my ($addr, $sz, $type, $name) = split;
        $size{$v}{$name} = hex $sz if defined $name && $type =~ /^[Tt]$/;
    }
    for (`readelf -S -W "$obj"`) {
        $size{$v}{'.rodata'} = hex $1 if /\.rodata\s+PROGBITS\s+\S+\s+\S+\s+(\S+)/;
    }
}

my @rows = (
    [ 'full rounds, encrypt',         '_aes586_encrypt_full' ],
    [ 'full rounds, decrypt',         '_aes586_decrypt_full' ],
    [ 'full rounds, two-block decrypt', '_aes586_decrypt2_full' ],
    [ 'compact integer, encrypt',     '_aes586_encrypt_compact' ],
    [ 'compact integer, decrypt',     '_aes586_decrypt_compact' ],
    [ 'compact MMX/SSE, encrypt',     '_aes586_encrypt_sse' ],
    [ 'compact MMX/SSE, decrypt',     '_aes586_decrypt_sse' ],
    [ 'AES_encrypt + AES_decrypt',    'AES_encrypt', 'AES_decrypt' ],
    [ 'CBC full (aes586_cbc_encrypt_full)', 'aes586_cbc_encrypt_full' ],
    [ 'CBC compact',                  'aes586_cbc_encrypt_compact' ],
    [ 'AES_cbc_encrypt (dispatch)',   'AES_cbc_encrypt' ],
    [ 'key schedule (both)',          '_aes586_expand_key', 'AES_set_encrypt_key', 'AES_set_decrypt_key' ],
    [ 'tables (.rodata)',             '.rodata' ],
);
my %path = (
    'full path (CBC, both ways)'    => [ qw(_aes586_encrypt_full _aes586_decrypt_full _aes586_decrypt2_full
                                            aes586_cbc_encrypt_full) ],
    'compact path (blocks and CBC)' => [ qw(_aes586_encrypt_compact _aes586_decrypt_compact _aes586_encrypt_sse
                                            _aes586_decrypt_sse AES_encrypt AES_decrypt aes586_cbc_encrypt_compact) ],
);
sub total { my ($v, @names) = @_; my $t = 0; $t += $size{$v}{$_} // 0 for @names; return $t }

print "\naes-586 code size (bytes, ELF -m32), per variant\n";
printf "  %-36s" . (" %14s" x @variants) . "\n", 'part', @variants;
for my $r (@rows, map { [ $_, @{ $path{$_} } ] } sort keys %path) {
    my ($what, @names) = @$r;
    printf "  %-36s" . (" %14d" x @variants) . "\n", $what, map { total($_, @names) } @variants;
}
my @text = map { my $v = $_; total($v, grep { $_ ne '.rodata' } keys %{ $size{$v} }) } @variants;
printf "  %-36s" . (" %14d" x @variants) . "\n", 'all code', @text;
