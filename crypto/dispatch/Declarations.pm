# SPDX-License-Identifier: Apache-2.0
# The C side's view of the modules' dispatch declarations (each module
# script's .dispatch file, perlasm/lib/Common/Dispatch.pm): which symbols
# each module's registry rows call, with their C prototypes.  Read by
# gen_variants_h.pl and gen_registry_rows.pl.
package Declarations;

use strict;
use warnings;
use File::Basename qw(dirname);
use Exporter qw(import);
use Common::Dispatch;
use ModuleTable qw(read_table table_path);

our @EXPORT_OK = qw(declared_modules c_prototype row_slots module_symbols);

# Each slot's C function type, NAME standing for the symbol (the shapes of
# crypto/impl.h's typedefs; block128 is the AES_KEY entry a typed wrapper
# turns into OpenSSL's block128_f).
my %PROTOTYPE = (
    set_key  => 'int NAME(const unsigned char *key, int bits, AES_KEY *k)',
    block128 => 'void NAME(const unsigned char *in, unsigned char *out, const AES_KEY *k)',
    ecb      => 'void NAME(const unsigned char *in, unsigned char *out, size_t len, const AES_KEY *k, int enc)',
    cbc      => 'void NAME(const unsigned char *in, unsigned char *out, size_t len, const AES_KEY *k, '
              . 'unsigned char *ivec, int enc)',
    ctr32    => 'void NAME(const unsigned char *in, unsigned char *out, size_t blocks, const void *key, '
              . 'const unsigned char ivec[16])',
    xts      => 'void NAME(const unsigned char *in, unsigned char *out, size_t len, const void *key1, '
              . 'const void *key2, const unsigned char iv[16])',
    ccm64    => 'void NAME(const unsigned char *in, unsigned char *out, size_t blocks, const void *key, '
              . 'const unsigned char ivec[16], unsigned char cmac[16])',
    ocb      => 'void NAME(const unsigned char *in, unsigned char *out, size_t blocks, const void *key, '
              . 'size_t start_block_num, unsigned char offset_i[16], const unsigned char L_[][16], '
              . 'unsigned char checksum[16])',
    block    => 'void NAME(SHA_CTX *c, const void *p, size_t nblocks)',
);
my %SHAPE_OF_SLOT = (
    set_encrypt_key => 'set_key', set_decrypt_key => 'set_key',
    encrypt => 'block128', decrypt => 'block128', ecb => 'ecb', cbc => 'cbc', ctr32 => 'ctr32',
    xts_enc => 'xts', xts_dec => 'xts', ccm64_enc => 'ccm64', ccm64_dec => 'ccm64',
    ocb_enc => 'ocb', ocb_dec => 'ocb', block => 'block',
);

# The C prototype of SYMBOL in SLOT.
sub c_prototype {
    my ($slot, $symbol) = @_;
    my $shape = $SHAPE_OF_SLOT{$slot} // die "no C shape for slot '$slot'\n";
    return $PROTOTYPE{$shape} =~ s/NAME/$symbol/r;
}

# [module row of modules.txt, declaration] for every module whose script
# has a .dispatch file, in the table's order.
sub declared_modules {
    my ($root) = @_;
    my @out;
    for my $m (read_table(table_path($root))) {
        (my $file = "$root/$m->{script}") =~ s/\.pl$/.dispatch/;
        next unless -f $file;
        die "$file: module $m->{name} has no define column in modules.txt\n" unless $m->{define};
        push @out, [ $m, Common::Dispatch::read_file($file) ];
    }
    return @out;
}

# slot => [symbol, wrap] of VARIANT's row: the entries' fixed paths and
# the calls listed for it.
sub row_slots {
    my ($decl, $variant) = @_;
    my %slot;
    for my $e ($decl->entries) {
        next unless grep { $_ eq $variant } @{ $e->{variants} };
        $slot{ $e->{slot} } = [ $decl->fixed_symbol($e->{symbol}, $variant), $e->{wrap} ];
    }
    for my $c ($decl->calls) {
        next unless grep { $_ eq $variant } @{ $c->{variants} };
        die "$decl->{file}: variant $variant has slot $c->{slot} twice\n" if $slot{ $c->{slot} };
        $slot{ $c->{slot} } = [ $c->{symbol}, $c->{wrap} ];
    }
    return \%slot;
}

# [symbol, slot] for every function the module defines or calls through
# its declaration: each entry, its fixed paths, each call; once each.
sub module_symbols {
    my ($decl) = @_;
    my (@out, %seen);
    for my $e ($decl->entries) {
        push @out, map { [ $_, $e->{slot} ] }
            $e->{symbol}, map { $decl->fixed_symbol($e->{symbol}, $_) } @{ $e->{variants} };
    }
    push @out, map { [ $_->{symbol}, $_->{slot} ] } $decl->calls;
    return grep { !$seen{ $_->[0] }++ } @out;
}

1;
