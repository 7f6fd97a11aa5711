# SPDX-License-Identifier: Apache-2.0
# The bits of OPENSSL_ia32cap_P this project reads, written once.  The
# module scripts of both layers take their capability tests from here, and
# crypto/cpuid/gen_ia32cap_bits.pl writes the same table as the C header
# build/gen/ia32cap_bits.h, so C and assembly cannot disagree.
#
# OpenSSL 3.5's layout: ten 32-bit words, each a CPUID output register;
# the first four are OpenSSL 3.0's whole array.  The environment variable
# reads them as five 64-bit values, words 2k and 2k+1 (low, high).
package Common::IA32Cap;

use strict;
use warnings;
use Carp qw(croak);

# Word => the CPUID leaf and register it copies.
our @WORDS = (
    'CPUID.1:EDX',
    'CPUID.1:ECX',
    'CPUID.(EAX=7,ECX=0):EBX',
    'CPUID.(EAX=7,ECX=0):ECX',
    'CPUID.(EAX=7,ECX=0):EDX',
    'CPUID.(EAX=7,ECX=1):EAX',
    'CPUID.(EAX=7,ECX=1):EDX',
    'CPUID.(EAX=7,ECX=1):EBX',
    'CPUID.(EAX=7,ECX=1):ECX',
    'CPUID.(EAX=0x24,ECX=0):EBX (read only when word 6 has AVX10)',
);

# [name, word, bit, what]; names are the C macro suffixes in lower case.
our @CAPS = (
    [ fxsr       => 0, 24, 'FXSAVE/FXRSTOR (OpenSSL: clearing it clears the XMM users)' ],
    [ sse        => 0, 25, 'SSE' ],
    [ intel      => 0, 30, 'GenuineIntel (set by the detection, as OpenSSL does; a reserved CPUID bit)' ],
    [ pclmulqdq  => 1,  1, 'carry-less multiply' ],
    [ ssse3      => 1,  9, 'SSSE3' ],
    [ xop        => 1, 11, 'AMD XOP (OpenSSL keeps it in this word)' ],
    [ fma        => 1, 12, 'FMA3' ],
    [ movbe      => 1, 22, 'MOVBE' ],
    [ aesni      => 1, 25, 'AES-NI' ],
    [ osxsave    => 1, 27, 'XGETBV enabled by the OS' ],
    [ avx        => 1, 28, 'AVX' ],
    [ bmi1       => 2,  3, 'BMI1' ],
    [ avx2       => 2,  5, 'AVX2' ],
    [ bmi2       => 2,  8, 'BMI2' ],
    [ avx512f    => 2, 16, 'AVX-512 Foundation' ],
    [ adx        => 2, 19, 'ADX' ],
    [ avx512ifma => 2, 21, 'AVX-512 IFMA' ],
    [ sha        => 2, 29, 'SHA extensions' ],
    [ avx512bw   => 2, 30, 'AVX-512 byte and word' ],
    [ avx512vl   => 2, 31, 'AVX-512 vector length' ],
    [ vaes       => 3,  9, 'VAES' ],
    [ vpclmulqdq => 3, 10, 'VPCLMULQDQ' ],
    [ hybrid     => 4, 15, 'hybrid CPU (cores of more than one kind)' ],
    [ sha512     => 5,  0, 'SHA512 instructions' ],
    [ sm3        => 5,  1, 'SM3 instructions' ],
    [ sm4        => 5,  2, 'SM4 instructions' ],
    [ avxifma    => 5, 23, 'AVX-IFMA (VEX; cleared without YMM state)' ],
    [ avx10      => 6, 19, 'AVX10 (without it OpenSSL zeroes word 9 after the mask)' ],
    [ apxf       => 6, 21, 'APX_F' ],
    [ avx10xmm   => 9, 16, 'AVX10 at 128 bits (bits 0-7 hold the AVX10 version)' ],
    [ avx10ymm   => 9, 17, 'AVX10 at 256 bits' ],
    [ avx10zmm   => 9, 18, 'AVX10 at 512 bits' ],
);

my %BY_NAME = map { $_->[0] => $_ } @CAPS;

sub _cap {
    my ($name) = @_;
    return $BY_NAME{$name} // croak "unknown OPENSSL_ia32cap_P capability '$name'";
}

# The word (0-9) and the bit (0-31) of a named capability.
sub word { return _cap($_[0])->[1] }
sub bit  { return _cap($_[0])->[2] }

# The OPENSSL_ia32cap string that clears the named capabilities and keeps
# the rest: "A:~B:~C:~D:~E", one 64-bit value per pair of words with the
# lower word in its low 32 bits; A is "~value", or empty (words 0-1 kept)
# when nothing there is cleared.  The other four are always written: OpenSSL
# 3.5 zeroes the pairs a shorter string leaves out (3.0 reads two values and
# zeroes words 2-3 without the second).
sub clear_mask {
    my (@names) = @_;
    my @pair = (0) x (@WORDS / 2);
    $pair[ word($_) >> 1 ] |= 1 << (32 * (word($_) & 1) + bit($_)) for @names;
    return ($pair[0] ? sprintf('~0x%x', $pair[0]) : '')
        . join('', map { sprintf(':~0x%x', $_) } @pair[ 1 .. $#pair ]);
}

# name => [word, bit] for every capability, the shape the modules test with.
sub word_bit_pairs { return map { $_->[0] => [ $_->[1], $_->[2] ] } @CAPS }

1;
