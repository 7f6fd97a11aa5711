#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# The CPU-model matrix of the 32-bit library (build/m32/small: aes-586,
# aesni-x86 and sha1-586 in the -m32 C library), as test/t/13-dispatch.t
# has it for the 64-bit one: natively when this kernel runs i386
# programs, natively with SHA masked, and under qemu-i386 -cpu MODEL for
# the models of @MODELS.  For each run the capability words the -m32
# library sees (build/m32/small/capdump, run the same way) decide
#   - which registry entry each -m32 program's dispatcher must choose (the
#     first whose needs are met): PROG --impl THAT --expect-dispatch checks
#     the choice and passes every vector through it;
#   - which fixed path CBC through the public API runs, the key scheduled
#     by the registry's choice: aesni-x86's aesni_cbc_encrypt_ymm or _xmm,
#     aes-586's AES_cbc_encrypt_mmx or _integer (build/m32/small/cpu_paths
#     --only route_cbc under gdb); every one in some run;
#   - which path each assembly entry point that reads the capability bits
#     takes inside itself: aes-586's AES_encrypt, AES_decrypt and short
#     AES_cbc_encrypt their compact rounds in MMX/SSE ('sse', with SSE) or
#     in integer registers ('int'); a long AES_cbc_encrypt the T-tables
#     ('full', whatever the CPU); sha1_block_data_order the first of
#     SHA-NI, AVX, SSSE3 and integer whose bits are set
#     (build/m32/small/cpu_paths under gdb, test/lib/PathTrace.pm); the
#     control: one row traced again with SSE and SSSE3 masked must be
#     flagged at every call those bits decide against its unmasked words.
# aesni-x86 reads the capability bits only to choose its ymm (VAES)
# sections in OpenSSL's entries: the archive's assembly members that reference
# OPENSSL_ia32cap_P must be exactly those defining the traced entry
# points, and aesni-x86's.  Every path found in the code must be taken in
# some run.
#
# pentium2 (MMX, neither SSE nor SSSE3) is the model beside 13's list:
# the only one with aes-586's integer rounds and the integer SHA-1.
#
# qemu 7.2's TCG cannot execute SHA-NI: EPYC-Rome's definition has it,
# and qemu drops it with a warning (max leaves it out), so the capability
# words under those models have no SHA bit and the SHA-NI path is a
# counted SKIP there, run in the native row instead; the control: SHA
# forced on through OPENSSL_ia32cap under that model, sha1 dies of SIGILL.
# qemu's VAES lane fault (test/README.md) concerns ymm registers only,
# and qemu-i386 has it as qemu-x86_64 does (build/m32/small/vaes_lanes):
# the 32-bit archive's ymm operands and vaes* instructions must all lie in
# the functions of @YMM_ENTRIES (aesni-x86's ymm sections, in OpenSSL's
# entries and their ymm fixed paths; the scan's
# control is build/test/vaes_lanes, which has both), and where qemu-i386
# -cpu max fails vaes_lanes, max's known answers run under max,-vaes with
# the reason named (those sections' results are checked natively by
# test/t/85-dmcrypt-replay.t).
#
# The matrix is written to build/test/cpu-matrix32.txt and printed.
# SKIP: everything without gcc -m32; the models without qemu-i386; the
# native rows when the kernel does not run i386 programs; the traced paths
# without gdb.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use lib "$FindBin::Bin/../../perlasm/lib";
use Common::IA32Cap;
use CpuMatrix qw(has first_entry caps_under run_kats words trace_row write_matrix);
use ImplRuns qw(result registry finish);
use QemuVaes qw(lane_faults);
use PathTrace;
use Toolchain qw(tool missing);
use Capture qw(capture);

my $build = $ENV{BUILD} // 'build';
$ENV{VECTORS} //= 'test/vectors';
my $m32 = "$build/m32/small";
my $capdump = "$m32/capdump";
my $paths_prog = "$m32/cpu_paths";
my @PROGS = qw(kat_sha1 kat_aes kat_modes);
my @MODELS = qw(Nehalem Westmere SandyBridge Haswell Skylake-Client EPYC-Rome max pentium2);
# The public API's CBC reaches these functions for these registry entries.
my %ROUTE = (aesni_ymm => ['aesni_cbc_encrypt_ymm'], aesni => ['aesni_cbc_encrypt_xmm'],
             x86_mmx => ['AES_cbc_encrypt_mmx'], x86 => ['AES_cbc_encrypt_integer']);
# The functions with a ymm (VAES) section (crypto/aes/asm/aesni-x86.pl):
# OpenSSL's entries and their ymm fixed paths.
my @YMM_ENTRIES = sort map { ($_, "${_}_ymm") }
    qw(aesni_cbc_encrypt aesni_ctr32_encrypt_blocks aesni_ecb_encrypt aesni_ocb_decrypt
       aesni_ocb_encrypt aesni_xts_decrypt aesni_xts_encrypt);

if (my $why = missing('CC32') // (missing('RUN_I386') && missing('QEMU_I386'))) {
    result(1, 'the 32-bit CPU-model matrix', "SKIP $why");
    finish();
    exit 0;
}

# What each cpu_paths call must enter.
sub expected_paths {
    my ($caps) = @_;
    my $compact = has($caps, 'sse') ? 'sse' : 'int';
    my %p = map { $_ => $compact } qw(aes_enc aes_dec cbc_enc cbc_dec);
    $p{cbc_dec_long} = 'full';
    $p{sha1} = has($caps, qw(sha ssse3)) ? 'shaext'
             : has($caps, qw(avx ssse3)) ? 'avx'
             : has($caps, 'ssse3')       ? 'ssse3'
             :                             'integer';
    return \%p;
}

my $qemu = tool('QEMU_I386');
my $gdb = tool('GDB');
my $unset = { OPENSSL_ia32cap => undef };
# The lists the programs print run natively where the kernel runs i386
# programs, else under qemu-i386 (the rows below choose their own way).
my @list32 = missing('RUN_I386') && $qemu ? ($qemu) : ();
my %registry = map { $_ => [ registry("$m32/$_", @list32) ] } @PROGS;

# --- the code: who reads the capability bits, and no ymm ----------------------
my @calls = map { chomp; [ split /\t/ ] } `@list32 $paths_prog --list`;
result(@calls > 0, "$paths_prog --list names its calls");
{
    my $lib = "$build/m32/libcrypto-asm.a";
    my (%reads, %defines);
    for (`nm -A $lib 2>/dev/null`) {
        my ($member, $type, $sym) = /^[^:]+:([^:]+-small\.o):\s*(?:[0-9a-f]+\s+)?(\w) (\w+)$/ or next;
        $reads{$member} = 1 if $type eq 'U' && $sym eq 'OPENSSL_ia32cap_P';
        $defines{$sym} = $member if $type eq 'T';
    }
    my %traced = map { ($defines{ $_->[1] } // "?$_->[1]") => 1 } @calls;
    my @reads = sort keys %reads;
    my @traced = sort keys %traced;
    my $aesni = $defines{aesni_cbc_encrypt} // '?';
    my @want = sort keys %{ { %traced, $aesni => 1 } };
    result("@reads" eq "@want" && !$traced{$aesni},
           "the assembly members reading OPENSSL_ia32cap_P are those cpu_paths traces and $aesni (@reads); "
           . 'aesni-x86 reads them only for its ymm (VAES) sections')
        or print "#   read the bits: @reads; traced: @traced\n";

    # ymm operands and vaes* (VEX/EVEX AES) instructions in the code, by function.
    my %vec;
    for my $a ([ m32 => $lib ], [ control => "$build/test/vaes_lanes" ]) {
        my ($st, $dis) = capture('objdump', '-d', '--no-show-raw-insn', $a->[1]);
        my $fn = '';
        for (split /\n/, $st ? '' : $dis) {
            $fn = $1, next if /^[0-9a-f]+ <(\w+)>:/;
            $vec{ $a->[0] }{$fn}[0]++ if /%ymm\d/;
            $vec{ $a->[0] }{$fn}[1]++ if /\tvaes\w+/;
        }
    }
    my @found = sort keys %{ $vec{m32} // {} };
    my @vaes = grep { $vec{m32}{$_}[1] } @found;
    my $control = join(' ', map { @{ $vec{control}{$_} // [] } } keys %{ $vec{control} // {} });
    result("@found" eq "@YMM_ENTRIES" && "@vaes" eq "@YMM_ENTRIES" && $control,
           'the 32-bit archive\'s ymm operands and vaes* instructions are in '
           . join(', ', map { "$_ (" . join('/', map { $_ // 0 } @{ $vec{m32}{$_} }) . ')' } @found)
           . ' only (the scan finds them in build/test/vaes_lanes too, which shows the fault)')
        or print "#   m32: @found (vaes* in @vaes); want @YMM_ENTRIES\n";
}

# --- the runs -----------------------------------------------------------------
my @runs;
my ($native_caps) = missing('RUN_I386') ? ([]) : caps_under($capdump, [], $unset);
my $native_sha = @$native_caps == 4 && has($native_caps, 'sha');
if (my $why = missing('RUN_I386')) {
    result(1, 'native rows', "SKIP $why");
} elsif (@$native_caps != 4) {
    result(0, "native rows: $capdump printed no capability words");
} else {
    push @runs, { name => 'native', prefix => [], env => $unset };
    if ($native_sha) {
        my $m = Common::IA32Cap::clear_mask('sha');
        push @runs, { name => "native $m", prefix => [], env => { OPENSSL_ia32cap => $m } };
    } else {
        result(1, 'native with SHA masked', 'SKIP this CPU has no SHA extensions');
    }
}
push @runs, map { { name => $_, prefix => [ $qemu, '-cpu', $_ ], env => $unset, model => $_ } } @MODELS
    if $qemu;
result(1, 'CPU models ' . join(', ', @MODELS), 'SKIP ' . missing('QEMU_I386')) unless $qemu;
(my $qemu_version = $qemu ? `$qemu --version` : '') =~ s/\n.*//s;

my ($where, $where_err);
if ($gdb) {
    ($where, $where_err) = PathTrace::sections($paths_prog);
    result(!defined $where_err, 'cpu_paths (-m32): every entry point\'s paths found in its code')
        or print "# $where_err\n";
} else {
    result(1, 'internal paths of the assembly entry points', 'SKIP ' . missing('GDB'));
}
my $trace_dir = "$build/test/cpu-matrix32.d";
mkdir $trace_dir;

# Every run's capability words and known answers, two or more at a time.
my (%picked, @rows, @plan, $sha_dropped);
for my $run (@runs) {
    my ($name, $prefix, $env) = @$run{qw(name prefix env)};
    my ($caps, $stderr) = caps_under($capdump, $prefix, $env);
    my $row = { run => $name, caps => $caps, run_spec => $run };
    push @rows, $row;
    next unless $row->{ok} = result(@$caps == 4, "$name: capability words read (" . words($caps) . ')');
    my $dropped = $run->{model} && $stderr =~ /requested feature: \S+\.sha-ni\b/;
    if ($dropped || (($run->{model} // '') eq 'max' && !has($caps, 'sha'))) {
        $sha_dropped //= $run if $dropped;
        result(1, "$name: the SHA-NI path",
               "SKIP $qemu_version: TCG cannot execute SHA-NI "
               . ($dropped ? 'and drops sha-ni from the model (its warning)' : 'and max, all TCG offers, lacks it')
               . '; ' . ($native_sha ? 'the native row runs it' : 'no row here runs it'));
    }
    push @plan, { row => $row, name => $name, caps => $caps, prefix => $prefix, env => $env };
}
# qemu's ymm lane fault under max: its known answers without VAES.
for my $p (grep { ($_->{row}{run_spec}{model} // '') eq 'max' } @plan) {
    my ($bad) = lane_faults(@{ $p->{prefix} }, "$m32/vaes_lanes");
    my @bad = @$bad;
    next unless @bad;
    result(1, 'max: known answers with VAES (the ymm sections of ' . join(', ', @YMM_ENTRIES) . ')',
           "SKIP $qemu_version computes @bad on ymm wrongly ($m32/vaes_lanes under -cpu max; "
           . 'test/README.md): the known answers run under max,-vaes; 85-dmcrypt-replay.t checks the ymm code natively');
    $p->{prefix} = [ $qemu, '-cpu', 'max,-vaes' ];
    ($p->{caps}) = caps_under($capdump, $p->{prefix}, $p->{env});
}
run_kats(\%registry, [ map { [ $_, "$m32/$_" ] } @PROGS ], \%picked, @plan);

# The registry's route and the internal paths, two traced runs per row.
my %taken;
for my $row (grep { $_->{ok} && $where && @calls } @rows) {
    my ($name, $prefix, $env) = @{ $row->{run_spec} }{qw(name prefix env)};
    (my $file = $name) =~ s/\W+/_/g;
    my %common = (name => $name, env => $env, prog => $paths_prog, prefix => $prefix, gdb => $gdb);
    # The registry's choice under this run's own words (max's known
    # answers may have run without VAES).
    my $choice = first_entry($registry{kat_aes}, $row->{caps});
    my $route = trace_row(%common, label => 'CBC through the public API',
                          what => 'CBC through the public API ran the code of the registry\'s choice ('
                                  . ($choice // '?') . ')',
                          want => { route_cbc => $choice }, args => [ '--only', 'route_cbc' ],
                          where => { casm_aes_cbc => \%ROUTE }, calls => [ [ route_cbc => 'casm_aes_cbc' ] ],
                          out => "$trace_dir/$file.route");
    $row->{route} = $route->{route_cbc} if $route;
    $row->{paths} = trace_row(%common, label => 'the internal paths',
                              what => 'each entry point took the path the capability bits demand',
                              want => expected_paths($row->{caps}), where => $where, calls => \@calls,
                              out => "$trace_dir/$file");
    $taken{ $_->[1] }{ $row->{paths}{ $_->[0] } }++ for grep { $row->{paths} } @calls;
}

# The control that the comparison catches a path the bits do not demand:
# a traced row again with SSE and SSSE3 masked, its paths compared with
# what its unmasked words demand (each call those bits decide must be
# flagged) and with what the masked words demand (all must agree).
my ($ctl) = grep { $_->{paths} && has($_->{caps}, qw(sse ssse3)) } @rows;
if ($ctl) {
    my $m = Common::IA32Cap::clear_mask(qw(sse ssse3));
    my $prefix = $ctl->{run_spec}{prefix};
    my ($masked) = caps_under($capdump, $prefix, { OPENSSL_ia32cap => $m });
    my ($paths, $err);
    {
        local %ENV = %ENV;
        $ENV{OPENSSL_ia32cap} = $m;
        ($paths, $err) = PathTrace::trace(prog => $paths_prog, where => $where, calls => \@calls,
                                          prefix => $prefix, gdb => $gdb, out => "$trace_dir/control");
    }
    my ($was, $now) = (expected_paths($ctl->{caps}), expected_paths($masked));
    my @moved = map { $_->[0] } grep { $was->{ $_->[0] } ne $now->{ $_->[0] } } @calls;
    my @flagged = grep { $paths && $paths->{$_} ne $was->{$_} } @moved;
    my @agree = grep { $paths && $paths->{ $_->[0] } eq $now->{ $_->[0] } } @calls;
    result(@moved && @flagged == @moved && @agree == @calls,
           "control: $ctl->{run} with OPENSSL_ia32cap=$m: the comparison flags all " . scalar(@moved)
           . " calls those bits decide (@moved) against the unmasked words, none against the masked ones")
        or print map { "#   $_\n" } ($err // ()), map { "$_->[0]: " . ($paths ? $paths->{ $_->[0] } : '?')
                                                       . " (unmasked $was->{$_->[0]}, masked $now->{$_->[0]})" } @calls;
}

# Coverage: every path of every traced entry point ran somewhere (SHA-NI
# only where a row has SHA), every registry entry the CPUs here can reach.
if ($where && $qemu) {
    my $sha_row = grep { $_->{ok} && has($_->{caps}, 'sha') } @rows;
    my @missed;
    for my $sym (sort keys %$where) {
        next if $sym eq 'casm_aes_cbc';
        for my $path (sort keys %{ $where->{$sym} }) {
            next if $taken{$sym}{$path};
            if ($path eq 'shaext' && !$sha_row) {
                result(1, "$sym: the SHA-NI path taken in some run", 'SKIP no run here has SHA (qemu cannot execute it)');
                next;
            }
            push @missed, "$sym:$path";
        }
    }
    result(!@missed, 'every path found in the code was taken in some run')
        or print "#   never taken: @missed\n";
    my @routes = sort keys %{ { map { defined $_->{route} ? ($_->{route} => 1) : () } @rows } };
    my $want = join(' ', sort keys %ROUTE);
    result("@routes" eq $want, "CBC through the public API ran every fixed path of aesni-x86 and aes-586 (@routes; want $want)");
    for my $prog (@PROGS) {
        my @seen = sort keys %{ $picked{$prog} // {} };
        my $need = $prog eq 'kat_sha1' ? 3 : 2;
        result(@seen >= $need, "$prog: the runs exercised at least $need implementations (@seen)");
    }
}

# The control for the SHA-NI SKIP: SHA forced on under the model that
# dropped it, sha1_block_data_order takes SHA-NI and qemu faults.
if ($sha_dropped) {
    my $caps = (grep { $_->{run_spec} == $sha_dropped } @rows)[0]{caps};
    my @w = @$caps;
    $w[ Common::IA32Cap::word('sha') ] |= 1 << Common::IA32Cap::bit('sha');
    my $set = sprintf('0x%x:0x%x', $w[1] << 32 | $w[0], $w[3] << 32 | $w[2]);
    local $ENV{OPENSSL_ia32cap} = $set;
    my $forced = (caps_under($capdump, $sha_dropped->{prefix}, {}))[0];
    system("ulimit -c 0; exec @{ $sha_dropped->{prefix} } $paths_prog --only sha1 >/dev/null 2>&1");
    result(has($forced, 'sha') && ($? & 127) == 4,
           "$sha_dropped->{name} with OPENSSL_ia32cap=$set (SHA set): sha1 faults (SIGILL), the reason "
           . "its SHA-NI path is skipped (status $?)");
}

# The matrix: one row per run.
my @cols = (['run', sub { $_[0]{run} }], ['capability words', sub { words($_[0]{caps}) }],
            (map { my $p = $_; [ $p, sub { $_[0]{$p} // '?' } ] } @PROGS),
            ['api cbc', sub { $_[0]{route} // '?' }],
            (map { my $c = $_->[0]; [ $c, sub { $_[0]{paths} ? $_[0]{paths}{$c} : '?' } ] } @calls),
            ['known answers', sub { $_[0]{kats} // '?' }]);
my $text = write_matrix("$build/test/cpu-matrix32.txt",
                        "# CPU-model matrix of the -m32 library (test/t/87-dispatch32.t): per run,\n"
                        . "# the capability words, the registry entry each program's dispatcher chose,\n"
                        . "# the registry entry whose code CBC through the public API ran, and the path\n"
                        . "# each assembly entry point took inside itself (aes-586: sse or int compact\n"
                        . "# rounds, full tables; sha1-586: shaext, avx, ssse3, x86).\n",
                        \@cols, \@rows);
print map { "# $_\n" } split /\n/, $text;
finish();
