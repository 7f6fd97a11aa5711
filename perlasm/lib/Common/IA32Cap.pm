# SPDX-License-Identifier: Apache-2.0
# The bits of OPENSSL_ia32cap_P this project reads, written once.  The
# module scripts of both layers take their capability tests from here, and
# crypto/cpuid/gen_ia32cap_bits.pl writes the same table as the C header
# build/gen/ia32cap_bits.h, so C and assembly cannot disagree.
#
# OpenSSL's layout: four 32-bit words, each a CPUID output register.
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
);

my %BY_NAME = map { $_->[0] => $_ } @CAPS;

sub _cap {
    my ($name) = @_;
    return $BY_NAME{$name} // croak "unknown OPENSSL_ia32cap_P capability '$name'";
}

# The word (0-3) and the bit (0-31) of a named capability.
sub word { return _cap($_[0])->[1] }
sub bit  { return _cap($_[0])->[2] }

# The OPENSSL_ia32cap string that clears the named capabilities and keeps
# the rest: "~A:~B", A for words 0-1 and B for words 2-3, each a 64-bit
# value with the lower word in its low 32 bits.  An empty A leaves words
# 0-1 alone; B is always written, because without a ":" part OpenSSL's
# parser sets words 2-3 to zero.
sub clear_mask {
    my (@names) = @_;
    my @half = (0, 0);
    $half[ word($_) >> 1 ] |= 1 << (32 * (word($_) & 1) + bit($_)) for @names;
    return ($half[0] ? sprintf('~0x%x', $half[0]) : '') . sprintf(':~0x%x', $half[1]);
}

# name => [word, bit] for every capability, the shape the modules test with.
sub word_bit_pairs { return map { $_->[0] => [ $_->[1], $_->[2] ] } @CAPS }

1;
