# SPDX-License-Identifier: Apache-2.0
package Dropin::Elf;
# What tools/openssl-dropin.pl reads from ELF objects and libraries
# (readelf, nm, objcopy).
use strict;
use warnings;
use Exporter qw(import);

our @EXPORT_OK = qw(globals imports func_sizes text_of);

# Defined global symbols of an object: name => visibility.  Common
# symbols are not definitions to match: OpenSSL's 32-bit modules each
# declare OPENSSL_ia32cap_P that way (.comm), which crypto/cpuid.c defines.
sub globals {
    my ($obj) = @_;
    my %sym;
    for (`readelf -sW '$obj'`) {
        my @f = split ' ';    # Num: Value Size Type Bind Vis Ndx Name
        next unless @f >= 8 && $f[0] =~ /^\d+:$/ && $f[6] ne 'UND' && $f[6] ne 'COM';
        $sym{$f[7]} = $f[5] if $f[4] eq 'GLOBAL' || $f[4] eq 'WEAK';
    }
    return \%sym;
}

sub imports {
    my ($obj) = @_;
    return map { /^\s*U\s+(\S+)/ ? $1 : () } `nm -u '$obj'`;
}

# Function symbols of an ELF file (both symbol tables): name => [sizes].
sub func_sizes {
    my ($obj) = @_;
    my %size;
    for (`readelf -sW '$obj'`) {
        my @f = split ' ';
        next unless @f >= 8 && $f[0] =~ /^\d+:$/ && $f[3] eq 'FUNC' && $f[6] ne 'UND';
        (my $name = $f[7]) =~ s/@.*//;
        push @{ $size{$name} }, $f[2] =~ /^0x/ ? hex $f[2] : $f[2];
    }
    return %size;
}

# The bytes of an object's .text, through the scratch file BIN; undef if
# objcopy cannot read it.
sub text_of {
    my ($obj, $bin) = @_;
    unlink $bin;
    system('objcopy', '-O', 'binary', '--only-section=.text', $obj, $bin) == 0 or return undef;
    open(my $fh, '<:raw', $bin) or return undef;
    local $/;
    return scalar <$fh>;
}

1;
