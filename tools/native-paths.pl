#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# Which SIMD paths this host executes natively, for the last lines of
# `make test`: a path whose capabilities the CPU lacks was never run on
# hardware here, whatever the suite's pass says (qemu-x86_64 has no
# AVX-512 at all, so without it the zmm code runs nowhere).
#
#   perl tools/native-paths.pl [BUILD]      (default: build)
#
# The paths are the registry's entries (BUILD/test/kat_aes and kat_sha1
# --list, with the capability words each needs), the host's words those
# of BUILD/test/capdump, which applies OPENSSL_ia32cap as the library
# does: setting it shows what another CPU would report.  Entries that
# need nothing (table AES, integer SHA-1, C) are left out.
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use lib dirname(abs_path($0)) . '/../perlasm/lib';
use Common::IA32Cap;

my $build = @ARGV ? $ARGV[0] : 'build';
die "usage: $0 [BUILD]\n" if @ARGV > 1;

# A reader's name for the entries the registry has today.
my %LABEL = (aesni_vaes512 => 'zmm VAES', aesni_vaes256 => 'ymm VAES', aesni => 'AES-NI',
             shani => 'SHA-NI', avx2 => 'AVX2', avx => 'AVX', ssse3 => 'SSSE3');

sub run_lines {
    my ($prog, @args) = @_;
    -x $prog or die "$0: $prog is missing (run make tests)\n";
    open(my $fh, '-|', $prog, @args) or die "$0: cannot run $prog: $!\n";
    chomp(my @lines = <$fh>);
    close $fh;
    die "$0: $prog @args failed (status $?)\n" if $?;
    return @lines;
}

my @have = map { hex } split ' ', (run_lines("$build/test/capdump"))[0] // '';
die "$0: $build/test/capdump printed no four capability words\n" unless @have == 4;

my (@native, @not);
for my $alg ([ 'AES', 'kat_aes' ], [ 'SHA-1', 'kat_sha1' ]) {
    for my $line (run_lines("$build/test/$alg->[1]", '--list')) {
        my ($name, undef, $need) = split /\t/, $line;
        my @need = map { hex } split ' ', $need // '';
        next unless grep { $_ } @need;
        # Entries need only words 0-3, the words capdump prints.
        my @lacks = map { uc $_->[0] }
                    grep { $_->[1] < @have && ($need[ $_->[1] ] >> $_->[2] & 1)
                           && !($have[ $_->[1] ] >> $_->[2] & 1) }
                    @Common::IA32Cap::CAPS;
        my $what = "$alg->[0] " . ($LABEL{$name} // $name) . " ($name";
        if (@lacks) { push @not, "$what: lacks " . join(' ', @lacks) . ')' }
        else        { push @native, "$what)" }
    }
}

my $env = defined $ENV{OPENSSL_ia32cap} ? " with OPENSSL_ia32cap=$ENV{OPENSSL_ia32cap}" : '';
printf "native SIMD paths (capability words %s%s):\n", join(' ', map { sprintf '%08x', $_ } @have), $env;
if (!@native && !@not) {
    print "  this build has no SIMD paths (NO_ASM)\n";
    exit 0;
}
print '  executed natively on this host: ', (@native ? join(', ', @native) : 'none'), "\n";
if (@not) {
    print '  *** NOT EXECUTED NATIVELY on this host: ', join(', ', @not), "\n",
          "  *** no test here ran these paths on hardware; their pass says nothing about them\n";
} else {
    print "  not executed natively: none\n";
}
