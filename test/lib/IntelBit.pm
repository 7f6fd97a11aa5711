# SPDX-License-Identifier: Apache-2.0
# The VAES XTS code keeps two forms of its zmm tweak loop and picks one by
# OpenSSL's Intel bit (word 0 bit 30, which the detection sets for
# GenuineIntel): the scripts that check XTS run each VAES entry once more
# with that bit inverted, so one machine runs both forms.
package IntelBit;

use strict;
use warnings;
use Exporter 'import';
use Common::IA32Cap;
use ImplRuns qw(result run_child set_env describe_mask);

our @EXPORT_OK = qw(intel_flipped is_vaes run_flipped);

# The entries whose XTS has the two forms (the zmm one; ymm has one).
sub is_vaes { return $_[0] eq 'aesni_vaes512' }

# The OPENSSL_ia32cap value under which the library sees the words it sees
# under $mask (undef: unset) with the Intel bit inverted, or undef when
# $capdump cannot say.  Only a bare value can set a bit; it gives all four
# words ("W1W0:W3W2").
sub intel_flipped {
    my ($capdump, $mask) = @_;
    local %ENV = %ENV;
    set_env({ OPENSSL_ia32cap => $mask });
    my @w = map { hex } split ' ', (`$capdump` // '');
    return undef unless $? == 0 && @w == 4;
    $w[ Common::IA32Cap::word('intel') ] ^= 1 << Common::IA32Cap::bit('intel');
    return sprintf('0x%08x%08x:0x%08x%08x', @w[1, 0, 3, 2]);
}

# For entry $name run under $mask: when it is a VAES entry, run_child
# "$what, Intel bit ..." of @cmd once more with the Intel bit inverted (a
# failed test when $capdump cannot give the words).
sub run_flipped {
    my ($name, $what, $capdump, $mask, @cmd) = @_;
    return unless is_vaes($name);
    my $flipped = intel_flipped($capdump, $mask);
    return unless result(defined $flipped, "$name: capdump gives the words under " . describe_mask($mask));
    run_child("$what, " . describe($flipped) . " (OPENSSL_ia32cap=$flipped)",
              { OPENSSL_ia32cap => $flipped }, @cmd);
}

# "Intel bit set" or "clear" under the value intel_flipped returned.
sub describe {
    my ($flipped) = @_;
    my ($w0) = $flipped =~ /^0x[0-9a-f]{8}([0-9a-f]{8}):/;
    return (hex($w0) >> Common::IA32Cap::bit('intel') & 1) ? 'Intel bit set' : 'Intel bit clear';
}

1;
