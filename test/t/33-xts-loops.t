#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# OpenSSL's Intel bit (word 0 bit 30) picks the zmm VAES XTS tweak loop
# (crypto/aes/asm/AESNI/VAES.pm): the two-chain loop on Intel, the
# eight-chain one elsewhere, from one group (512 bytes) on.  In each of
# aesni_xts_encrypt_body and aesni_xts_decrypt_body (disassembled from
# build/test/cpu_paths) the choice is the only "test $BIT,%eax; jne I;
# cmp $0x200,LEN; jb I" sequence, the eight-chain loop's set-up following
# it.  Under gdb, `cpu_paths --only xts_enc_vaes512` (and xts_dec, the
# zmm width's fixed paths, 71 blocks: OpenSSL's entries take ymm on
# Intel) must reach exactly one of the two, the one the bit as the
# library sees it names: as detected and with the bit inverted
# (IntelBit.pm), so this machine checks both.
#
# SKIP: without gdb; on a CPU without the zmm XTS path's capabilities.
use strict;
use warnings;
use FindBin;
use File::Temp ();
use lib "$FindBin::Bin/../lib";
use lib "$FindBin::Bin/../../perlasm/lib";
use Common::IA32Cap;
use ImplRuns qw(result finish set_env);
use IntelBit qw(intel_flipped);
use Toolchain qw(tool missing);

my $build = $ENV{BUILD} // 'build';
my $prog = "$build/test/cpu_paths";
my $capdump = "$build/test/capdump";
my $bit = 1 << Common::IA32Cap::bit('intel');
my $iword = Common::IA32Cap::word('intel');

sub words_under {
    my ($mask) = @_;
    local %ENV = %ENV;
    set_env({ OPENSSL_ia32cap => $mask });
    return [ map { hex } split ' ', (`$capdump` // '') ];
}

my $gdb = tool('GDB');
my $caps = words_under(undef);
my @need = grep { !($caps->[ Common::IA32Cap::word($_) ] >> Common::IA32Cap::bit($_) & 1) }
           qw(avx512f avx512bw avx512vl vaes vpclmulqdq aesni);
if (!result(-x $prog && @$caps == 4, "$prog and $capdump run")) {
    finish();
} elsif (!$gdb) {
    result(1, 'the zmm XTS loop follows the Intel bit', 'SKIP ' . missing('GDB'));
    finish();
} elsif (@need) {
    result(1, 'the zmm XTS loop follows the Intel bit', "SKIP this CPU lacks @need");
    finish();
}

# {body => [eight-chain start, Intel loop start]} as gdb locations.
my %where;
{
    open(my $fh, '-|', 'objdump', '-d', '--no-show-raw-insn', $prog) or die "objdump: $!\n";
    my ($func, @i, %insns);
    while (my $line = <$fh>) {
        if ($line =~ /^[0-9a-f]+ <(\w+)>:$/) { $func = $1; next }
        next unless defined $func && $line =~ /^\s*([0-9a-f]+):\s+(\S+)\s*(.*?)\s*$/;
        push @{ $insns{$func} }, [ hex $1, $2, $3 ];
    }
    close $fh;
    my $test = sprintf('$0x%x,%%eax', $bit);
    for my $body (qw(aesni_xts_encrypt_body aesni_xts_decrypt_body)) {
        my @i = @{ $insns{$body} // [] };
        my @found;
        for my $k (0 .. $#i - 4) {
            next unless $i[$k][1] eq 'test' && $i[$k][2] eq $test
                && $i[$k + 1][1] eq 'jne' && $i[$k + 2][1] eq 'cmp' && $i[$k + 2][2] =~ /^\$0x200,/
                && $i[$k + 3][1] eq 'jb';
            my ($t1) = $i[$k + 1][2] =~ /^([0-9a-f]+)/;
            my ($t2) = $i[$k + 3][2] =~ /^([0-9a-f]+)/;
            next unless $t1 eq $t2;
            push @found, [ map { sprintf('*(%s+0x%x)', $body, $_ - $i[0][0]) } $i[$k + 4][0], hex $t1 ];
        }
        $where{$body} = $found[0] if result(@found == 1, "$body: one Intel-bit choice of the zmm XTS loop ("
                                                         . scalar(@found) . ' found)');
    }
}

# Hits of each location while `$prog --only $call` runs under $mask.
sub hits {
    my ($call, $mask, @loc) = @_;
    my $script = File::Temp->new(SUFFIX => '.gdb');
    print $script "set pagination off\nset confirm off\n";
    for my $n (0 .. $#loc) {
        print $script "break $loc[$n]\ncommands\nsilent\nprintf \"HIT $n\\n\"\ncontinue\nend\n";
    }
    print $script "run\nquit\n";
    close $script;
    local %ENV = %ENV;
    set_env({ OPENSSL_ia32cap => $mask });
    my @out = `$gdb -nx -batch -x $script --args $prog --only $call 2>&1`;
    my @hits = (0) x @loc;
    /^HIT (\d+)$/ and $hits[$1]++ for @out;
    return @hits;
}

my $flipped = intel_flipped($capdump, undef);
result(defined $flipped, 'capdump gives the words with OPENSSL_ia32cap unset');
for my $mask (undef, $flipped // ()) {
    my $intel = words_under($mask)->[$iword] & $bit ? 1 : 0;
    my $what = defined $mask ? IntelBit::describe($mask) . " (OPENSSL_ia32cap=$mask)"
                             : 'as detected (Intel bit ' . ($intel ? 'set' : 'clear') . ')';
    for my $call (qw(xts_enc xts_dec)) {
        my $body = $call eq 'xts_enc' ? 'aesni_xts_encrypt_body' : 'aesni_xts_decrypt_body';
        next unless $where{$body};
        my ($eight, $two) = hits("${call}_vaes512", $mask, @{ $where{$body} });
        my $want = $intel ? 'the two-chain (Intel) loop' : 'the eight-chain loop';
        result(($intel ? $two && !$eight : $eight && !$two),
               "$call, $what: reaches $want (eight-chain set-up $eight, Intel loop $two hits)");
    }
}
finish();
