#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# OPENSSL_ia32cap: our capability words against OpenSSL 3.0's and 3.5's.
#
#  1. test/capmask (unit tests of casm_ia32cap_apply and the environment
#     path), shown as an indented subtest under one ok/not ok line.
#  2. For a list of OPENSSL_ia32cap values, build/test/capdump (ours) and
#     build/test/ossl_capdump (OpenSSL's real parser and CPUID code, from the
#     system's static libcrypto.a) must print the same four words.  SKIP
#     when libcrypto.a (libssl-dev) is not installed.
#  3. The same under qemu-x86_64 -cpu MODEL for a list of CPU models
#     (Intel ones exercise the synthesised bits 28 and 30 and the
#     XGETBV-driven clearing; AMD and Hygon ones the other vendor paths).
#     SKIP when qemu-x86_64 (qemu-user) is missing.
#  4. All ten words against OpenSSL 3.5's: its crypto/cpuid.c (the parser)
#     and crypto/x86_64cpuid.pl's output (the detection), built here from
#     the cached 3.5 tree (tools/openssl-source.sh --cached 3.5) with a
#     few stand-in headers, for the values of 2 and more of 3.5's syntax,
#     natively and under some qemu CPU models; the same natively for the
#     32-bit library (build/m32) against 3.5's x86cpuid.pl.  SKIP when no
#     3.5 tree is cached.  Parts 2-3 compare the first four words, OpenSSL 3.0's array.
#
# Environment: BUILD (default "build"), CC (to locate libcrypto.a; to build
# OpenSSL 3.5's code).
use strict;
use warnings;
use File::Temp qw(tempfile tempdir);
use FindBin;
use lib "$FindBin::Bin/../lib", "$FindBin::Bin/../../support/perl";
use Slurp qw(spew);
use ImplRuns qw(result run_child mask_env finish);
use Toolchain qw(tool missing);

my $build = $ENV{BUILD} // 'build';
my $capmask = "$build/test/capmask";
my $ours = "$build/test/capdump";
my $ossl = "$build/test/ossl_capdump";
my $root = "$FindBin::Bin/../..";

sub diag { print "#   $_\n" for @_ }

# run(ENV_VALUE, CMD...): runs CMD with OPENSSL_ia32cap = ENV_VALUE (undef:
# unset).  Returns (exit status, stdout, stderr).
sub run {
    my ($value, @cmd) = @_;
    my ($efh, $efile) = tempfile(UNLINK => 1);
    my $pid = open(my $fh, '-|');
    die "fork: $!\n" unless defined $pid;
    if ($pid == 0) {
        if (defined $value) { $ENV{OPENSSL_ia32cap} = $value }
        else                { delete $ENV{OPENSSL_ia32cap} }
        open(STDERR, '>&', $efh) or die "stderr: $!\n";
        exec(@cmd) or do { print STDERR "cannot run $cmd[0]: $!\n"; exit 127 };
    }
    local $/;
    my $out = <$fh> // '';
    close $fh;
    my $status = $?;
    seek($efh, 0, 0);
    my $err = <$efh> // '';
    return ($status, $out, $err);
}

sub describe {
    my ($value) = @_;
    return defined $value ? "OPENSSL_ia32cap=\"$value\"" : 'OPENSSL_ia32cap unset';
}

# --- 1. unit tests ----------------------------------------------------------

run_child("casm_ia32cap_apply unit tests ($capmask)", mask_env(undef), $capmask);

# --- 2. ours against OpenSSL's -----------------------------------------------

# Names of the bits worth naming in a failure report.
my %bit_name = (
    '0.10' => 'initialised (synth)', '0.20' => 'Pentium 4 (synth)',
    '0.24' => 'FXSR', '0.25' => 'SSE', '0.26' => 'SSE2',
    '0.28' => 'HTT / shared L1 (synth)', '0.30' => 'Intel (synth)',
    '1.0' => 'SSE3', '1.1' => 'PCLMULQDQ', '1.9' => 'SSSE3',
    '1.11' => 'AMD XOP (synth)', '1.12' => 'FMA', '1.19' => 'SSE4.1',
    '1.20' => 'SSE4.2', '1.22' => 'MOVBE', '1.25' => 'AES-NI',
    '1.26' => 'XSAVE', '1.27' => 'OSXSAVE', '1.28' => 'AVX', '1.30' => 'RDRAND',
    '2.3' => 'BMI1', '2.5' => 'AVX2', '2.8' => 'BMI2', '2.16' => 'AVX512F',
    '2.17' => 'AVX512DQ', '2.18' => 'RDSEED', '2.19' => 'ADX',
    '2.21' => 'AVX512IFMA', '2.29' => 'SHA', '2.30' => 'AVX512BW',
    '2.31' => 'AVX512VL', '3.1' => 'AVX512VBMI', '3.9' => 'VAES',
    '3.10' => 'VPCLMULQDQ', '4.15' => 'hybrid', '5.0' => 'SHA512',
    '5.1' => 'SM3', '5.2' => 'SM4', '5.23' => 'AVX-IFMA', '6.19' => 'AVX10',
    '6.21' => 'APX_F', '9.16' => 'AVX10/128', '9.17' => 'AVX10/256',
    '9.18' => 'AVX10/512',
);

# The hex words of a dumper's one line of output.
sub words {
    my ($out) = @_;
    my ($line) = $out =~ /^((?:[0-9a-f]{8} )*[0-9a-f]{8})$/m;
    return defined $line ? map { hex } split / /, $line : ();
}

# What each comparison runs: ours and OpenSSL's dumper, and how many words.
my %against = (
    '3.0' => { ours => [$ours], theirs => [$ossl], n => 4, label => "OpenSSL's" },
    '3.5' => { ours => [$ours, '--all'], n => 10, label => "OpenSSL 3.5's" },
);

# compare(VERSION, NAME, ENV_VALUE, PREFIX...): runs both dumpers (behind
# PREFIX, e.g. a qemu command) and reports one test line.
sub compare {
    my ($version, $name, $value, @prefix) = @_;
    my $c = $against{$version};
    my $n = $c->{n};
    my ($s1, $o1, $e1) = run($value, @prefix, @{ $c->{ours} });
    my ($s2, $o2, $e2) = run($value, @prefix, @{ $c->{theirs} });
    my @a = words($o1);
    my @b = words($o2);
    if ($s1 != 0 || $s2 != 0 || @a != $n || @b != $n) {
        result(0, "$name: both dumpers ran, $n words each");
        diag("ours (status $s1):    $o1$e1", "OpenSSL (status $s2): $o2$e2");
        return;
    }
    my $same = !grep { $a[$_] != $b[$_] } 0 .. $n - 1;
    return if result($same, "$name: ours equals $c->{label}");
    my $fmt = join(' ', ('%08x') x $n);
    diag(sprintf("ours:    $fmt", @a), sprintf("OpenSSL: $fmt", @b));
    for my $w (0 .. $n - 1) {
        my $x = $a[$w] ^ $b[$w];
        for my $bit (0 .. 31) {
            next unless $x & (1 << $bit);
            my $label = $bit_name{"$w.$bit"} // '';
            diag(sprintf('word %d bit %2d %-24s ours %d, OpenSSL %d', $w, $bit,
                         $label, ($a[$w] >> $bit) & 1, ($b[$w] >> $bit) & 1));
        }
    }
}

# compare_each(VERSION, TITLE, WHY, VALUES, PREFIX...): compare() for each
# value, or a counted SKIP each when WHY says why it cannot run.
sub compare_each {
    my ($version, $title, $why, $values, @prefix) = @_;
    for my $value (@$values) {
        my $name = $title . describe($value);
        if (defined $why) {
            result(1, "$name: ours equals $against{$version}{label}", "SKIP $why");
        } else {
            compare($version, $name, $value, @prefix);
        }
    }
}

my @values = (
    undef,                          # detection alone
    '~0x200000000000000',           # no AES-NI; words 2-3 zero
    '~0x200020200000000:~0',        # no AES-NI, SSSE3, bit 49; words 2-3 kept
    ':~0x20000000',                 # no SHA-NI
    ':~0x20',                       # no AVX2
    '0x1234',                       # replace words 0-1
    '0x1234:~0x20',                 # bare V0: words 2-3 stay 0
    '0x1234:0x5600000078',          # bare V1 replaces words 2-3
    '~0x1000000',                   # FXSR off clears PCLMULQDQ, XOP, AES-NI, AVX
    '~0x1000000:~0',
    '',                             # everything off
    'garbage', '12abc', '0xzz', ' 0x10', '-1',
    '~0:~0', '~', ':', '~:~0x20', '~~0x10', '0:~0', '0x10:0x20:0x30',
    '~0x4000000000000000:0x20',     # no RDRAND, word 2 = 0x20
    '~0x0123456789abcdef:~0xfedcba9876543210',
    '0xfedcba9876543210:0x0123456789abcdef',
    '4660', '011064', '0129', '09', '0x', '0XaBcDeF', '0xABCDEF',
    '18446744073709551617',         # wraps to 1
    '0x1ffffffffffffffff',          # wraps to all ones
    '~0x400:~0',                    # bit 10 comes back
    ':0xffffffff00000000',
);

my $skip_ossl = missing('LIBCRYPTO_A');
if (defined $skip_ossl) {
} elsif (!-x $ossl || !-x $ours) {
    result(0, "$ossl and $ours are built (run make tests)");
    $skip_ossl = 'dumpers not built';
}

compare_each('3.0', '', $skip_ossl, \@values);

# --- 3. the same under qemu CPU models --------------------------------------

my @models = (
    'Westmere', 'Nehalem', 'Haswell',          # the Intel models first
    'SandyBridge', 'Broadwell', 'Skylake-Server', 'Icelake-Server',
    'KnightsMill',                             # XSAVE hidden, ADX cleared
    'Denverton', 'Conroe', 'core2duo',
    'Haswell,family=15',                       # Intel family 15: bit 20
    'Haswell,model=0x57',                      # Knights Landing signature
    'Haswell,-xsave',                          # no XSAVE: AVX off
    'Broadwell,-xsave',                        # no XSAVE: ADX cleared too
    'Haswell,level=6',                         # no leaf 7: words 2-3 zero
    'EPYC', 'EPYC-Milan', 'Opteron_G4', 'qemu64',
    'EPYC,xlevel=0x80000001',                  # AMD without leaf 0x80000008
    'Dhyana',                                  # Hygon: neither vendor path
    'max',
);
my @qemu_values = (undef, '~0x1000000:~0x20');

my $qemu = tool('QEMU_X86_64');
my $skip_qemu = !defined $qemu ? missing('QEMU_X86_64')
              : defined $skip_ossl ? $skip_ossl
              : undef;
for my $model (@models) {
    my $skip_model = $skip_qemu;
    if (!defined $skip_model) {
        my ($s, $o, $e) = run(undef, $qemu, '-cpu', $model, $ours, '--detect');
        if ($s != 0) {
            my ($first) = split /\n/, $e;
            $skip_model = "qemu-x86_64 cannot run -cpu $model: "
                        . ($first // "status $s");
        }
    }
    compare_each('3.0', "qemu -cpu $model, ", $skip_model, \@qemu_values, $qemu, '-cpu', $model);
}

# --- 4. all ten words against OpenSSL 3.5's --------------------------------

my $tree35 = `sh '$root/tools/openssl-source.sh' --cached 3.5 2>&1`;
chomp $tree35;
my $no_tree35 = $? ? "no OpenSSL 3.5 source: $tree35" : undef;
my $tmp35 = tempdir(CLEANUP => 1);

# Stand-ins for the three headers crypto/cpuid.c includes, which need a
# configured tree: the C library covers what its parser uses.  Then a
# main() printing the words.
sub write_shims {
    my ($max) = @_;
    my %text = (
        'inc/internal/e_os.h' => "#include <stddef.h>\n#include <stdint.h>\n#include <stdlib.h>\n",
        'inc/crypto/cryptlib.h' => "#include <stdint.h>\n",
        'inc/crypto/ctype.h' => "#include <ctype.h>\n"
            . "#define ossl_isdigit(c) isdigit((unsigned char)(c))\n"
            . "#define ossl_isxdigit(c) isxdigit((unsigned char)(c))\n"
            . "#define ossl_tolower(c) tolower((unsigned char)(c))\n",
        'dump.c' => "#include <stdio.h>\nextern unsigned int OPENSSL_ia32cap_P[];\n"
            . "int main(void)\n{\n    for (int i = 0; i < $max; i++)\n"
            . "        printf(\"%08x%c\", OPENSSL_ia32cap_P[i], i == $max - 1 ? '\\n' : ' ');\n"
            . "    return 0;\n}\n",
    );
    for my $f (sort keys %text) {
        my $dir = $tmp35;
        my @parts = split m{/}, $f;
        pop @parts;
        for my $part (@parts) {
            $dir .= "/$part";
            mkdir $dir;
        }
        spew("$tmp35/$f", $text{$f});
    }
}

# build_ossl35(ARCH, CC, SCRIPT): OpenSSL 3.5's dumper for ARCH from the
# cached tree, its detection SCRIPT's output and crypto/cpuid.c compiled
# with CC; (path) or (undef, why).
my $max35;
sub build_ossl35 {
    my ($arch, $cc, $script) = @_;
    return (undef, $no_tree35) if defined $no_tree35;
    if (!defined $max35) {
        open(my $h, '<', "$tree35/include/internal/cryptlib.h")
            or return (undef, "$tree35: no include/internal/cryptlib.h");
        ($max35) = join('', <$h>) =~ /^#\s*define\s+OPENSSL_IA32CAP_P_MAX_INDEXES\s+(\d+)/m;
        close $h;
        result(($max35 // 0) == 10, "OpenSSL 3.5 ($tree35) has ten capability words "
               . '(OPENSSL_IA32CAP_P_MAX_INDEXES ' . ($max35 // 'missing') . ')');
        return (undef, 'OpenSSL 3.5 has no OPENSSL_IA32CAP_P_MAX_INDEXES') unless $max35;
        write_shims($max35);
    }
    my $out = "$tmp35/ossl35_capdump_$arch";
    # Its x86_64-xlate.pl asks $CC which assembler it drives.
    my $ok = system("CC='$cc' '$^X' '$tree35/crypto/$script' elf -DOPENSSL_IA32_SSE2 "
                    . "'$tmp35/$arch.s' >'$tmp35/$arch.log' 2>&1") == 0
        && system("$cc -O1 -I'$tmp35/inc' -DOPENSSL_CPUID_OBJ "
                  . "-DOPENSSL_IA32CAP_P_MAX_INDEXES=$max35 -Wl,-z,noexecstack -o '$out' "
                  . "'$tmp35/dump.c' '$tree35/crypto/cpuid.c' '$tmp35/$arch.s' "
                  . ">>'$tmp35/$arch.log' 2>&1") == 0;
    return ($out) if result($ok, "OpenSSL 3.5's $arch cpuid code builds from $tree35");
    open(my $l, '<', "$tmp35/$arch.log");
    diag(<$l>);
    return (undef, "OpenSSL 3.5's $arch dumper did not build");
}

my @values35 = (@values,
    '~0:~0:~0:~0:~0', '::0', ':0::::', '::::', ':::::', ':::::0x99',
    '~0x200000000000000::~0x400:', '~0:~0:~0x80000000008000:~0:~0',
    ':~0:~0:~0x80000:~0', ':~0:~0:~0:0x1234500000067', ':~0:~0:0x80000:0x70002',
    '0x1234::~0:0x77:~0', '~0:~0:', '~0x1000000::::', '0x10:0x20:0x30:0x40:0x50',
    ':::~0x200000', ':~0x20:~0xffffffffffffffff',
);

# 64-bit: natively and under qemu CPU models.
my ($ossl35, $skip35) = build_ossl35('x86_64', $ENV{CC} // 'cc', 'x86_64cpuid.pl');
$against{'3.5'}{theirs} = [$ossl35];
compare_each('3.5', '3.5: ', $skip35, \@values35);
my @qemu35 = ('Haswell', 'Skylake-Server', 'Haswell,-xsave', 'Haswell,level=6', 'EPYC', 'max');
for my $model (@qemu35) {
    my $why = $skip35 // (defined $qemu ? undef : missing('QEMU_X86_64'));
    compare_each('3.5', "3.5: qemu -cpu $model, ", $why, [ @qemu_values, '~0:~0:~0:~0:~0' ],
                 $qemu, '-cpu', $model);
}

# 32-bit, natively: the m32 library against 3.5's x86cpuid.pl.
my $why32 = $no_tree35 // missing('CC32') // missing('RUN_I386');
my $ossl35_32;
($ossl35_32, $why32) = build_ossl35('x86', tool('CC32'), 'x86cpuid.pl') unless defined $why32;
$against{'3.5-32'} = { ours => [ "$build/m32/small/capdump", '--all' ], theirs => [$ossl35_32],
                       n => 10, label => "OpenSSL 3.5's" };
compare_each('3.5-32', '3.5, 32-bit: ', $why32, \@values35);

finish();
