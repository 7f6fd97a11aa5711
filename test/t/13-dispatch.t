#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# The CPU-model matrix: every test program with an implementation registry
# (kat_sha1, kat_aes, kat_modes) natively, natively with AVX-512F masked
# and with each registry entry's force mask, and under qemu-x86_64 -cpu
# MODEL for the models of @MODELS.  For each run
# the capability words the library sees (build/test/capdump, run the same
# way) decide
#   - which registry entry each program's dispatcher must choose (the
#     first whose needs are met): PROG --impl THAT --expect-dispatch checks
#     the choice and passes every vector through it;
#   - which path each assembly entry point must take inside itself
#     (aesni-x86_64's zmm, ymm or xmm sections; sha1_block_data_order's
#     variant), by the rules docs/modules.md gives, written here from the
#     capability names: build/test/cpu_paths makes one call of each under
#     gdb (test/lib/PathTrace.pm) and the path it entered is compared.
# The matrix is written to build/test/cpu-matrix.txt and printed.
#
# qemu-x86_64 7.2 computes vaesenc/vaesdec on ymm wrongly (lane 1 from
# lane 0's state; build/test/vaes_lanes shows it in four instructions).
# When `-cpu max` fails that check, the known answers for max run under
# max,-vaes, and a SKIP names the reason; the traced paths still run
# under max itself, since they do not depend on the arithmetic.  max has
# no VPCLMULQDQ and qemu faults on it there (the forced ymm XTS is the
# control), so its ymm ECB, CBC, CTR32 and OCB running through shows
# those sections need none, as their capability tests assume.
#
# SKIP: the models without qemu-x86_64 (qemu-user); the traced paths
# without gdb.  The 32-bit archive's matrix (qemu-i386) is
# test/t/87-dispatch32.t; the parts both share are test/lib/CpuMatrix.pm.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use lib "$FindBin::Bin/../../perlasm/lib";
use Common::IA32Cap;
use CpuMatrix qw(has run_kats words trace_row write_matrix);
use ImplRuns qw(result registry run_child finish);
use PathTrace;
use IntelBit qw(intel_flipped);
use QemuVaes qw(lane_faults);
use Toolchain qw(tool missing);

my $build = $ENV{BUILD} // 'build';
$ENV{VECTORS} //= 'test/vectors';
my $capdump = "$build/test/capdump";
my @PROGS = qw(kat_sha1 kat_aes kat_modes);
# Nehalem: SSSE3, no AES-NI.  Westmere: AES-NI.  SandyBridge: AVX.
# Haswell and Skylake-Client: AVX2 and BMI.  EPYC-Rome: the same under
# qemu 7.2's TCG (its SHA-NI is not emulated).  max: VAES without
# VPCLMULQDQ or AVX-512, a mix no real CPU has, which the width choice
# must handle.
my @MODELS = qw(Nehalem Westmere SandyBridge Haswell Skylake-Client EPYC-Rome max);

my %registry = map { $_ => [ registry("$build/test/$_") ] } @PROGS;

# What each cpu_paths call must enter: aesni-x86_64 takes zmm with VAES
# and AVX-512 F/BW/VL but for an Intel CPU (OpenSSL's Intel bit; the
# declaration's avoid=intel), else ymm with VAES and AVX2, else xmm; XTS
# also needs VPCLMULQDQ for a wide path; without AES-NI the calls are not
# made ('-').  sha1_block_data_order takes the first
# variant whose features are all present.
sub expected_paths {
    my ($caps) = @_;
    my $zmm = has($caps, qw(avx512f avx512bw avx512vl vaes)) && !has($caps, 'intel');
    my $ymm = has($caps, qw(avx2 vaes));
    my $clmul = has($caps, 'vpclmulqdq');
    my $block = $zmm ? 'zmm' : $ymm ? 'ymm' : 'xmm';
    my $xts = $clmul ? $block : 'xmm';
    my %p = (ecb_enc => $block, ecb_dec => $block, cbc_dec => $block, ctr32 => $block,
             xts_enc => $xts, xts_dec => $xts, ocb_enc => $block);
    $p{ocb_dec} = $p{ocb_enc};
    %p = map { $_ => '-' } keys %p unless has($caps, 'aesni');
    $p{sha1} = has($caps, qw(sha ssse3))                  ? 'shaext'
             : has($caps, qw(avx2 bmi1 bmi2 avx ssse3))   ? 'avx2'
             : has($caps, qw(avx ssse3))                  ? 'avx'
             : has($caps, 'ssse3')                        ? 'ssse3'
             :                                              'integer';
    return \%p;
}

sub caps_under { return (CpuMatrix::caps_under($capdump, @_))[0] }

# Whether the words $caps have every bit of the words $need.
sub has_words {
    my ($caps, $need) = @_;
    return !grep { ($caps->[$_] & $need->[$_]) != $need->[$_] } 0 .. $#$need;
}

my $qemu = tool('QEMU_X86_64');
my $gdb = tool('GDB');
my $unset = { OPENSSL_ia32cap => undef };
my @runs = ({ name => 'native', prefix => [], env => $unset });
my $native_caps = caps_under([], $unset);
if (has($native_caps, 'avx512f')) {
    my $m = Common::IA32Cap::clear_mask('avx512f');
    push @runs, { name => "native $m", prefix => [], env => { OPENSSL_ia32cap => $m } };
} else {
    result(1, 'native with AVX-512F masked', 'SKIP this CPU has no AVX-512F');
}
# The vendor flipped, natively: OpenSSL's Intel bit decides the width on
# a CPU with zmm VAES (avoid=intel), so both settings run here, whichever
if (defined(my $flip = intel_flipped($capdump, undef))) {
    push @runs, { name => "native $flip", prefix => [], env => { OPENSSL_ia32cap => $flip } };
} else {
    result(0, 'capdump gives the words for the run with the Intel bit flipped');
}
# Each registry entry's force mask, natively: the registry calls the
# variants' fixed paths, so these runs are what shows that OpenSSL's
# dispatching entries, steered by the mask as OpenSSL's callers steer
# them, still reach every variant this CPU has.
my %masked = map { $_->{name} => 1 } @runs;
for my $e (map { @{ $registry{$_} } } qw(kat_aes kat_sha1)) {
    my ($entry, $mask, $need) = @$e;
    next if !defined $mask || $masked{"native $mask"}++;
    if (!has_words($native_caps, $need)) {
        result(1, "native with the mask of ${entry}", "SKIP this CPU lacks what $entry needs");
        next;
    }
    push @runs, { name => "native $mask", prefix => [], env => { OPENSSL_ia32cap => $mask } };
}
push @runs, map { { name => $_, prefix => [ $qemu, '-cpu', $_ ], env => $unset } } @MODELS
    if $qemu;
result(1, 'CPU models ' . join(', ', @MODELS), 'SKIP ' . missing('QEMU_X86_64')) unless $qemu;

# The VEX.256 AES rounds natively (must hold on any VAES CPU) and under
# -cpu max; which of the latter fail decides how max's known answers run.
my $lanes = "$build/test/vaes_lanes";
run_child('native: vaesenc/vaesdec/...last on ymm work lane by lane', $unset, $lanes);
my ($max) = grep { $_->{name} eq 'max' } @runs;
if ($max) {
    my ($bad, $st, $out) = lane_faults($qemu, '-cpu', 'max', $lanes);
    my @bad = @$bad;
    my @out = @$out;
    if ($st == 0) {
        result(1, 'qemu -cpu max: the VEX.256 AES rounds work lane by lane');
    } elsif (($st & 127) == 0 && @bad && @bad == grep { /^not ok/ } @out) {
        (my $version = `$qemu --version`) =~ s/\n.*//s;
        print map { "# $_" } grep { /^(not ok|#)/ } @out;
        result(1, 'max: known answers with VAES',
               "SKIP $version computes @bad on ymm wrongly (build/test/vaes_lanes under "
               . '-cpu max; test/README.md): the known answers run under max,-vaes');
        $max->{kat_prefix} = [ $qemu, '-cpu', 'max,-vaes' ];
        $max->{kat_note} = 'max,-vaes';
    } else {
        result(0, "qemu -cpu max $lanes: an unexpected failure (status $st)");
        print map { "# $_" } @out;
    }
}

my ($where, $where_err);
if ($gdb) {
    ($where, $where_err) = PathTrace::sections("$build/test/cpu_paths");
    result(!defined $where_err, 'cpu_paths: every entry point\'s paths found in its code')
        or print "# $where_err\n";
} else {
    result(1, 'internal paths of the assembly entry points', 'SKIP ' . missing('GDB'));
}
my @calls = map { chomp; [ split /\t/ ] } `$build/test/cpu_paths --list`;
result(@calls > 0 || !-e "$build/obj/asm/aesni-x86_64.o", 'cpu_paths --list names its calls');
my $trace_dir = "$build/test/cpu-matrix.d";
mkdir $trace_dir;

# Every run's known answers, two or more at a time.
my (%picked, @rows, @plan);
for my $run (@runs) {
    my ($name, $prefix, $env) = @$run{qw(name prefix env)};
    my $caps = caps_under($prefix, $env);
    my $row = { run => $name, caps => $caps, run_spec => $run };
    push @rows, $row;
    next unless $row->{ok} = result(@$caps == 4, "$name: capability words read (" . words($caps) . ')');
    my $kat_prefix = $run->{kat_prefix} // $prefix;
    my $kat_caps = $run->{kat_prefix} ? caps_under($kat_prefix, $env) : $caps;
    push @plan, { row => $row, name => $run->{kat_note} // $name, caps => $kat_caps,
                  prefix => $kat_prefix, env => $env };
}
run_kats(\%registry, [ map { [ $_, "$build/test/$_" ] } @PROGS ], \%picked, @plan);
$_->{kats} .= " ($_->{run_spec}{kat_note})" for grep { $_->{kats} && $_->{run_spec}{kat_note} } @rows;

# The internal paths, one traced run of cpu_paths per row.
for my $row (grep { $_->{ok} && $where && @calls } @rows) {
    my ($name, $prefix, $env) = @{ $row->{run_spec} }{qw(name prefix env)};
    (my $file = $name) =~ s/\W+/_/g;
    $row->{paths} = trace_row(name => $name, label => 'the internal paths',
                              what => 'each entry point took the path the capability bits demand',
                              want => expected_paths($row->{caps}), env => $env,
                              prog => "$build/test/cpu_paths", where => $where, calls => \@calls,
                              prefix => $prefix, gdb => $gdb, out => "$trace_dir/$file");
}

# The control for max's row: qemu refuses VPCLMULQDQ there, so the ymm
# XTS forced must fault, and the ymm sections traced under max (ECB, CBC,
# CTR32, OCB) ran to completion without it.
if ($max && $where) {
    system("ulimit -c 0; exec $qemu -cpu max $build/test/cpu_paths --only xts_enc_vaes256 >/dev/null 2>&1");
    result(($? & 127) == 4, 'max: the ymm XTS forced faults (SIGILL: no VPCLMULQDQ), so the ymm '
           . "sections traced there need none (status $?)");
}

if ($qemu) {
    for my $prog (@PROGS) {
        my @seen = sort keys %{ $picked{$prog} // {} };
        result(@seen >= 3, "$prog: the runs exercised at least three implementations (@seen)");
    }
}

# The matrix: one row per run.
my @cols = (['run', sub { $_[0]{run} }], ['capability words', sub { words($_[0]{caps}) }],
            (map { my $p = $_; [ $p, sub { $_[0]{$p} // '?' } ] } @PROGS),
            (map { my $c = $_->[0]; [ $c, sub { $_[0]{paths} ? $_[0]{paths}{$c} : '?' } ] } @calls),
            ['known answers', sub { $_[0]{kats} // '?' }]);
my $text = write_matrix("$build/test/cpu-matrix.txt",
                        "# CPU-model matrix (test/t/13-dispatch.t): per run, the capability words,\n"
                        . "# the registry entry each program's dispatcher chose, and the path each\n"
                        . "# assembly entry point took inside itself ('-': not called, no AES-NI).\n",
                        \@cols, \@rows);
print map { "# $_\n" } split /\n/, $text;
finish();
