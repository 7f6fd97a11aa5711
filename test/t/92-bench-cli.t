#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# What a user of the benchmark and its tools relies on:
#  - build/bench/bench: --help names every option and mode, --list names
#    the registry's implementations (the KAT programs' --list) and modes,
#    --impl NAME selects that name alone; an implementation this CPU
#    cannot run (AES-NI masked off) is named as skipped, with why;
#  - bad input to the benchmark, tools/perf-table.pl and
#    tools/openssl-lib.sh: the exit status each documents, one line naming
#    the bad word, no output file left behind (one table);
#  - real runs, one per option (--quick, --fastest, --seconds,
#    --placements, lists and repeated options, one or two --openssl
#    libraries, none usable): the header says what the option does, the
#    CSV has exactly the rows the options select, positive figures with
#    c/B x MB/s = the header's MHz, worst >= median (equal with one
#    placement), OpenSSL's rows naming their library's version, and the
#    bound only on rows of AES-NI or SHA-NI entries, of_bound = bound/c/B;
#  - --bound-only: every loop named, positive or skipped with why (the
#    ymm and zmm loops with VAES masked off);
#  - bench/code_size.pl lists every module's functions without warnings;
#  - tools/perf-table.pl: sample CSVs give their known table lines;
#  - tools/openssl-lib.sh on a stand-in source tree: Configure's
#    arguments, only the library kept, the source untouched, a second run
#    doing nothing, an interrupted build going on without Configure;
#  - `make bench`: what BENCH_ARGS selects at 16 placements, a line on how
#    to build OpenSSL 3.5's library, nothing fetched or written outside.
# Speed itself is never judged: only shapes and consistency.
use strict;
use warnings;
no warnings qw(qw);    # the argument lists below hold commas
use FindBin;
use lib "$FindBin::Bin/../lib", "$FindBin::Bin/../../perlasm/lib", "$FindBin::Bin/../../support/perl";
use Slurp qw(slurp spew);
use Common::IA32Cap;
use File::Temp qw(tempdir);
use File::Find qw(find);
use File::Path qw(make_path);
use File::Spec::Functions qw(rel2abs);
use Capture qw(capture);
use ImplRuns qw(result registry finish);

my $build = $ENV{BUILD} // 'build';
my $root  = "$FindBin::Bin/../..";
my $bench = "$build/bench/bench";
my $perf  = "$root/tools/perf-table.pl";
my $libsh = "$root/tools/openssl-lib.sh";
my $dir   = tempdir(CLEANUP => 1);
my @tiny  = ('--quick', '--mode', 'cbc-enc', '--size', '1024', '--keybits', '128');
my @tiny_c = (@tiny, '--impl', 'c');
finish() unless result(-x $bench, "$bench exists (make bench-bin)");
delete $ENV{OPENSSL_ia32cap};

sub show { print map { "#   $_\n" } map { split /\n/ } grep { defined } @_; return 0 }

# --- --help, --list, --impl ----------------------------------------------------
my ($rc, $help) = capture($bench, '--help');
my @missing = grep { $help !~ /\Q$_\E\b/ } qw(--list --impl --mode --size --keybits --seconds
    --quick --fastest --openssl --placements --csv --bound-only --help);
result($rc == 0 && !@missing, '--help exits 0 and names every option' . (@missing ? " (not @missing)" : ''));
my ($rc2, $list) = capture($bench, '--list');
my %listed;
/^impl (aes|sha1)\s+(\S+)\s+(.*)$/ and push @{ $listed{$1} }, [ $2, $3 ] for split /\n/, $list;
my @modes = $list =~ /^mode (?:aes|sha1)\s+(\S+)\s/mg;
my ($help_modes) = $help =~ /^Modes:\s*(.*)$/m;
result($rc2 == 0 && "@modes" eq ($help_modes // ''), "--list names every mode --help names (@modes)");
my (%needs, %table_of);
for my $table (qw(aes sha1)) {
    my @want = map { $_->[0] } registry("$build/test/kat_$table");
    my @got = map { $_->[0] } @{ $listed{$table} // [] };
    result("@got" eq "@want" && grep({ $_ eq 'c' } @got) == 1,
           "--list names the registry's $table implementations in order, C among them (@got)");
    push @{ $table_of{$_} }, $table for @got;
    for (split /\n/, (capture("$build/test/kat_$table", '--list'))[1]) {
        my ($name, undef, undef, $names) = split /\t/;
        $needs{$table}{$name} = { map { $_ => 1 } split /, /, $names // '' };
    }
}
for my $name (sort keys %table_of) {
    my ($rc, $out) = capture($bench, '--impl', $name, '--list');
    my @names = map { /^impl (\S+)\s+(\S+)/ ? "$1:$2" : () } split /\n/, $out;
    my @want = map { "$_:$name" } @{ $table_of{$name} };
    result($rc == 0 && "@names" eq "@want", "--impl $name is accepted and selects only @want");
}
{
    local $ENV{OPENSSL_ia32cap} = Common::IA32Cap::clear_mask('aesni');
    my %lacks = (capture($bench, '--list'))[1]
        =~ /^impl aes\s+(\S+)\s+skipped: this CPU lacks (.+)$/mg;
    my @names = sort keys %lacks;
    my ($rc, $out) = capture($bench, @tiny, '--impl', join(',', @names, 'c'));
    my @silent = grep { $out !~ /^  AES \Q$_\E: skipped, this CPU lacks \Q$lacks{$_}\E$/m } @names;
    result(!@names || ($rc == 0 && !@silent && $out =~ /^ c\s+128\s+1024 \|/m),
           "with AES-NI masked, (@names) are named as skipped and why; c still runs",
           @names ? undef : 'SKIP no AES entry needs AES-NI in this build') or show($out);
}

# --- bad input: exit status, one line naming the bad word, no output file -------------
my $fake = "$dir/fakessl/libcrypto.so.3";    # a shared object without OpenSSL's calls
make_path("$dir/fakessl");
my $have_fake = (capture($ENV{CC} // 'cc', '-shared', '-o', $fake, '-x', 'c', '/dev/null'))[0] == 0;
my $perf_head = "table,mode,bits,bytes,update,path,cycles_per_byte,mb_per_s,"
              . "bound_cycles_per_byte,of_bound\n";
spew("$dir/perf-short.csv", $perf_head, "aes,ecb-enc,128,16,16,c,1.5,100,\n");
spew("$dir/perf-nan.csv", $perf_head, "aes,ecb-enc,128,16,16,c,fast,100,,\n");
my $cache = "$dir/lib-cache";
make_path($cache);
my $ssl3 = 'libcrypto.so.3';
# [what, exit status, the word the line names, output file, command...]
my @bad = (map({ my ($what, $word, @args) = @$_;
                 [ $what, 2, $word, "$dir/bad.csv", $bench, '--csv', "$dir/bad.csv", @args ] }
    [ 'unknown implementation', 'nosuch_impl', '--impl', 'nosuch_impl' ],
    [ 'unknown implementation in a list', 'nosuch_impl', '--impl', 'c,nosuch_impl' ],
    [ 'unknown mode', 'nosuchmode', '--mode', 'nosuchmode' ],
    [ 'unknown option', '--nosuch-option', '--nosuch-option' ],
    [ 'stray argument', 'stray', 'stray' ],
    [ 'size not a multiple of 16', '17', '--size', '17' ],
    [ 'size not a number', '1k', '--size', '16,1k' ],
    [ 'size too large', '2097152', '--size', '2097152' ],
    [ 'size zero', "'0'", '--size', '0' ],
    [ 'unknown key size', '100', '--keybits', '100' ],
    [ 'key size in a list', '512', '--keybits', '128,512' ],
    [ 'seconds not positive', "'0'", '--seconds', '0' ],
    [ 'seconds not a number', 'soon', '--seconds', 'soon' ],
    [ 'missing value', '--size', '--size' ],
    [ 'no stack placement', "'0'", '--placements', '0' ],
    [ 'too many stack placements', '5000', '--placements', '5000' ],
    [ 'placements not a number', "'x'", '--placements', 'x' ],
    [ 'an --openssl library that does not exist', '/no/such/lib.so', '--openssl', '/no/such/lib.so' ],
    [ 'a third --openssl library', '--openssl', ('--openssl', $ssl3) x 3 ],
    [ 'one library twice', $ssl3, ('--openssl', $ssl3) x 2 ],
    $have_fake ? [ 'an --openssl library without OpenSSL\'s calls', qr/--openssl '\Q$fake\E': .*no symbol/,
                   @tiny_c, '--openssl', $fake ] : ()),
    [ 'bench: an unwritable --csv', 2, 'no/such/dir/x.csv', "$dir/no/such/dir/x.csv",
      $bench, '--csv', "$dir/no/such/dir/x.csv", @tiny_c ],
    (map { [ "perf-table.pl: $_->[0]", 1, "$dir/$_->[1]", "$dir/perf.md",
             'perl', $perf, '--output', "$dir/perf.md", $dir . '/' . $_->[1] =~ s/:.*//r ] }
     [ 'a field missing', 'perf-short.csv:2: 9 fields' ],
     [ 'a c/B that is no number', "perf-nan.csv:2: cycles_per_byte 'fast'" ]),
    [ 'openssl-lib.sh without the source', 2, 'make openssl-source OPENSSL_VERSION=3.5', undef,
      'env', "OPENSSL_SOURCE_CACHE=$cache", 'sh', $libsh, '3.5' ],
);
for my $case (@bad) {
    my ($what, $status, $word, $file, @cmd) = @$case;
    my ($rc, $out) = capture(@cmd);
    my @lines = split /\n/, $out;
    my $named = @lines && (ref $word ? $lines[0] =~ $word : index($lines[0], $word) >= 0);
    result($rc >> 8 == $status && @lines == 1 && $named && !(defined $file && -e $file),
           "$what: exit $status, one line naming $word, no output file") or show("exit " . ($rc >> 8), $out);
}

# --- real runs ------------------------------------------------------------------------------
my $tiny_out = (capture($bench, @tiny_c))[1];
my $ossl = $tiny_out =~ /^  OpenSSL: not measured/m ? 0 : 1;
my ($system) = $tiny_out =~ /^  CPU: .*; reference: (OpenSSL \d+\.\d+\.\d+) /m;
my $csv_head = $perf_head =~ s/\n/,openssl,worst_cycles_per_byte/r;
my %aes_entry = map { $_->[0] => $_ } registry("$build/test/kat_aes");
# Entries that need no CPU feature and are not already measured under the
# x86_64 entry's mask get an extra OpenSSL column on the table path.
sub table_column {
    my $e = $aes_entry{ $_[0] };
    my $table_mask = ($aes_entry{x86_64} // [])->[1] // '';
    return !grep({ $_ } @{ $e->[2] }) && ($e->[1] // '') ne $table_mask;
}
# The CSV rows for one key: ours and OpenSSL's under each path's mask, per
# library, and OpenSSL's best (SHA-1) or its table path (AES, when a path
# has that column).
sub rows_of {
    my ($libs, $key, @paths) = @_;
    my $sha = $key =~ /^sha1/;
    my $extra = $libs && ($sha || grep { table_column($_) } @paths) ? $libs : 0;
    return (map({ ("$key,$_", ("$key,openssl\@$_") x $libs) } @paths),
            ("$key," . ($sha ? 'openssl' : 'openssl@table')) x $extra);
}
sub is_number { return defined $_[0] && $_[0] =~ /^\d+(\.\d+)?(e[-+]?\d+)?$/i && $_[0] > 0 }

# Runs the benchmark with @args, checks its output against $says and its
# CSV; returns (output, rows).
sub run_ok {
    my ($what, $says, $placements, $args, @want) = @_;
    my $csv = "$dir/run.csv";
    unlink $csv;
    my ($rc, $out) = capture($bench, @$args, '--csv', $csv);
    result($rc == 0 && $out =~ $says, "$what: exits 0, the output matches $says") or show($out);
    return check_csv($what, $out, $csv, $placements, @want);
}
# The CSV of a run whose output is $out: exactly the rows @want, and
# figures consistent with each other and the header's MHz.
sub check_csv {
    my ($what, $out, $csv, $placements, @want) = @_;
    my ($mhz) = $out =~ /TSC (\d+\.\d) MHz/;
    open(my $fh, '<', $csv) or return result(0, "$what: no CSV $csv");
    chomp(my $head = <$fh> // '');
    my @cols = split /,/, $head;
    my @rows = map { chomp; my %r; @r{@cols} = split /,/, $_, -1; \%r } <$fh>;
    my @got = sort map { join ',', @$_{qw(table mode bits bytes update path)} } @rows;
    @want = sort @want;
    result($head eq $csv_head && "@got" eq "@want",
           "$what: the CSV's header and exactly its " . @want . ' rows')
        or show($head, "got @got", "want @want");
    my @odd = grep {
        my $need = $needs{ $_->{table} }{ $_->{path} };
        my $bound = $need && ($_->{table} eq 'sha1' ? $need->{SHA} : $need->{AESNI});
        !is_number($_->{cycles_per_byte}) || !is_number($_->{mb_per_s})
            || abs($_->{cycles_per_byte} * $_->{mb_per_s} / ($mhz // 1e99) - 1) > 1e-4
            || !is_number($_->{worst_cycles_per_byte})
            || $_->{worst_cycles_per_byte} < $_->{cycles_per_byte}
            || ($placements == 1 && $_->{worst_cycles_per_byte} != $_->{cycles_per_byte})
            || ($_->{path} =~ /^openssl/ ? $_->{openssl} !~ /^OpenSSL \d+\.\d+\.\d+/
                                         : $_->{openssl} ne '')
            || ($bound ? !is_number($_->{of_bound}) || abs($_->{of_bound} * $_->{cycles_per_byte}
                         / $_->{bound_cycles_per_byte} - 1) > 2e-5
                       : "$_->{bound_cycles_per_byte}$_->{of_bound}" ne '')
    } @rows;
    result(@rows && !@odd, "$what: figures positive, c/B x MB/s = " . ($mhz // '(no MHz)')
           . ' MHz, worst ' . ($placements == 1 ? '=' : '>=') . ' median, OpenSSL\'s rows name '
           . 'their version, the bound on AES-NI/SHA-NI rows only') or show(map { join ',', %$_ } @odd);
    return ($out, @rows);
}

my $cbc = 'aes,cbc-enc,128,1024,1024';
run_ok('tiny run (--quick)', qr/^  each figure: the median of \d+ runs/m, 1, \@tiny_c,
       rows_of($ossl, $cbc, 'c'));
spew("$dir/tiny.csv", slurp("$dir/run.csv"));
run_ok('--fastest', qr/^  each figure: the fastest of \d+ runs/m, 1, [ @tiny_c, '--fastest' ],
       rows_of($ossl, $cbc, 'c'));
run_ok('--seconds 0.002 on SHA-1', qr/2 ms of timing/, 1, [ qw(--seconds 0.002 --impl c --mode sha1 --size 64) ],
       rows_of($ossl, 'sha1,sha1,0,64,64', 'c'));
run_ok('--placements 4', qr/^  each figure at 4 stack placements (?s:.*)^ impl .*c\/B\s+MB\/s\s+worst \|/m, 4,
       [ qw(--quick --placements 4 --mode ecb-enc,xts-enc --size 4096 --keybits 128 --impl c) ],
       map { rows_of($ossl, "aes,$_,128,4096,4096", 'c') } qw(ecb-enc xts-enc));
{
    my %runs = map { my $t = $_; ($t => [ map { $_->[1] eq 'runs' ? $_->[0] : () } @{ $listed{$t} // [] } ]) }
        qw(aes sha1);
    my @aes = @{ $runs{aes} };
    run_ok("lists and repeated options (@aes)", qr/TSC/, 1,
           [ qw(--quick --mode ecb-enc --size 16,64 --keybits 128 --keybits 256), map({ ('--impl', $_) } @aes) ],
           map { my $b = $_; map { rows_of($ossl, "aes,ecb-enc,$b,$_,$_", @aes) } 16, 64 } 128, 256);
    my @sha = grep { $needs{sha1}{$_}{SHA} } @{ $runs{sha1} };
    run_ok("SHA-1 of @sha", qr/TSC/, 1, [ qw(--quick --mode sha1 --size 1024), map({ ('--impl', $_) } @sha) ],
           rows_of($ossl, 'sha1,sha1,0,1024,1024', @sha)) if @sha;
}
# A second library: a copy of the system's whose version text says 9 for
# its major version (another file of the same soname), and OpenSSL 3.5's
# when `make openssl-lib OPENSSL_VERSION=3.5` has built it.
{
    my ($path) = $tiny_out =~ /^  CPU: .*; reference: .*\((\/.*)\)$/m;
    my $bytes = defined $path ? slurp($path) : '';
    (my $nine = $system // '') =~ s/^OpenSSL \d/OpenSSL 9/;
    my $n = $ossl ? $bytes =~ s/\Q$system\E /$nine /g : 0;
    make_path("$dir/other");
    spew("$dir/other/libcrypto.so.3", $bytes);
    my $lib35 = `sh '$libsh' --cached 3.5 2>/dev/null`;
    chomp $lib35;
    my ($v35) = $lib35 =~ m{/lib-(3\.5\.\d+)/libcrypto\.so\.3$};
    for ([ 'a renamed copy', "$dir/other/libcrypto.so.3", $nine,
           $n == 1 ? undef : "the version text is not once in the system's library ($n)" ],
         [ 'OpenSSL 3.5', $lib35, 'OpenSSL ' . ($v35 // ''),
           $v35 ? undef : 'OpenSSL 3.5\'s library is not built (make openssl-lib OPENSSL_VERSION=3.5)' ]) {
        my ($what, $lib, $version, $skip) = @$_;
        $skip //= 'the system has no usable libcrypto.so.3' unless $ossl;
        if ($skip) { result(1, "the system's OpenSSL and $what", "SKIP $skip"); next }
        my ($out, @rows) = run_ok("the system's OpenSSL and $what",
            qr/^  CPU: .*; reference: \Q$system\E .*\n  second reference: \Q$version\E .*\(\Q$lib\E\)$/m, 1,
            [ qw(--quick --mode cbc-enc,xts-enc --size 1024 --keybits 128 --impl c --openssl), $ssl3,
              '--openssl', $lib ],
            map { rows_of(2, "aes,$_,128,1024,1024", 'c') } qw(cbc-enc xts-enc));
        my @heads = grep { /^ {29}\|/ } split /\n/, $out;
        my @libs = sort map { $_->{path} eq 'openssl@c' && $_->{mode} eq 'xts-enc' ? $_->{openssl} : () } @rows;
        result(@heads == 2 && !grep({ !/\|\s+\Q$system\E\s+\|\s+\Q$version\E\s+\|/ } @heads)
               && "@libs" eq join(' ', sort($system, $version)),
               "the system's OpenSSL and $what: a column group per library with its version, "
               . "each CSV row its own (@libs)")
            or show(@heads);
    }
}
if ($have_fake) {
    local $ENV{LD_LIBRARY_PATH} = "$dir/fakessl";
    my ($out) = run_ok('without a usable libcrypto.so.3', qr/cannot load/, 1, \@tiny_c, "$cbc,c");
    my @said = grep { /libcrypto\.so\.3/ } split /\n/, $out;
    result(@said == 1 && $out =~ /^ impl (?!.*ratio)/m, 'without OpenSSL: one line says so, no ratio column')
        or show($out);
} else {
    result(1, 'run without OpenSSL', 'SKIP cannot build a stand-in shared object');
}

# --- --bound-only ----------------------------------------------------------------------------
my $aesni_runs = grep { $_->[0] eq 'aesni' && $_->[1] eq 'runs' } @{ $listed{aes} // [] };
for my $masked (0, 1) {
    local %ENV = %ENV;
    $ENV{OPENSSL_ia32cap} = Common::IA32Cap::clear_mask('vaes') if $masked;
    my ($rc, $out) = capture($bench, '--bound-only');
    my @loops = map { /^bound (\S+)\s+(?:(\d+\.\d+) |- (skipped: this CPU lacks \S.*))/ ? [ $1, $2 // $3 ] : () }
        split /\n/, $out;
    my %got = map { @$_ } @loops;
    my $vaes_off = !$masked || (grep({ ($got{"aesenc-$_"} // '') =~ /^skipped: this CPU lacks VAES/ } qw(ymm zmm)) == 2
                                && ($got{'aesenc-xmm'} // '') =~ ($aesni_runs ? qr/^\d/ : qr/^skipped/));
    result($rc == 0 && $vaes_off && !grep({ !defined $_->[1] } @loops) && grep({ $_->[1] =~ /^\d/ } @loops)
           && join(' ', map { $_->[0] } @loops)
              eq 'aesenc-xmm aesenc-ymm aesenc-zmm aesenc-latency sha1rnds4 sha1rnds4-latency clock',
           '--bound-only' . ($masked ? ' with VAES masked off' : '') . ': every loop a positive figure or '
           . 'skipped with why' . ($masked ? ', the ymm and zmm loops skipped' : '')) or show($out);
}

# --- bench/code_size.pl -----------------------------------------------------------------------
{
    my @objs = glob("$build/obj/asm/*.o");
    my ($rc, $out) = @objs ? capture($^X, '-w', "$root/bench/code_size.pl", @objs) : (0, '');
    my @missing = grep { $out !~ /^  \Q$_\E\n    \S+\s+\d+$/m } map { m{([^/]+)\.o$} } @objs;
    result($rc == 0 && $out !~ / at \S+ line \d+/ && !@missing,
           'code_size.pl lists every module\'s functions without warnings',
           @objs ? undef : 'SKIP no assembly objects in this build (NO_ASM?)') or show($out);
}

# --- tools/perf-table.pl ----------------------------------------------------------------------
spew("$dir/perf-one.csv", $perf_head, map { "$_\n" }
    'aes,cbc-dec,128,4096,4096,aesni,0.25,8000,0.2,0.8', 'aes,cbc-dec,128,4096,4096,openssl@aesni,0.5,4000,,',
    'aes,cbc-dec,256,4096,4096,aesni,0.4,5000,0.3,0.75', 'aes,cbc-dec,256,4096,4096,openssl@aesni,0.3,6666.67,,',
    'aes,cbc-dec,128,4096,4096,c,8,250,,', 'aes,cbc-dec,128,4096,4096,openssl@c,4,500,,',
    'aes,cbc-dec,128,4096,4096,openssl@table,16,125,,', 'sha1,sha1,0,1024,64,shani,2,1000,,',
    'sha1,sha1,0,1024,64,openssl@shani,3,666.667,,', 'sha1,sha1,0,1024,1024,shani,1,2000,,',
    'sha1,sha1,0,1024,1024,openssl@shani,1.25,1600,,', 'sha1,sha1,0,1024,64,openssl,2.5,800,,',
    'sha1,sha1,0,1024,1024,openssl,1.5,1333.33,,');
spew("$dir/perf-two.csv", $perf_head =~ s/\n/,openssl,worst_cycles_per_byte\n/r, map { "$_\n" }
    'aes,xts-enc,128,16384,16384,aesni,0.25,8000,0.2,0.8,,0.5',
    'aes,xts-enc,128,16384,16384,openssl@aesni,0.5,4000,,,OpenSSL 3.0.1,0.5',
    'aes,xts-enc,128,16384,16384,openssl@aesni,0.125,16000,,,OpenSSL 3.5.1,0.25');
# [what, arguments, lines the output must have]; no row names openssl@.
for my $case (
    [ 'a sample CSV: its figures, ratios, ranges, date, CPU and command',
      [ '--date', '2026-01-02', '--cpu', 'Sample CPU, family 1 model 2', '--command', 'bench --sample',
        "$dir/perf-one.csv" ],
      '## 2026-01-02 — Sample CPU, family 1 model 2', 'bench --sample',
      '| cbc-dec | 128 | 4096 | aesni | 0.250 | 0.500 | 2.000 | 64.00 | 0.800 |',
      '| cbc-dec | 256 | 4096 | aesni | 0.400 | 0.300 | 0.750 | - | 0.750 |',
      '| cbc-dec | 128 | 4096 | c | 8.000 | 4.000 | 0.500 | 2.000 | - |',
      '| 1024 | 64 | shani | 2.000 | 3.000 | 1.500 | 1.250 | - |',
      '| 1024 | 1024 | shani | 1.000 | 1.250 | 1.250 | 1.500 | - |',
      '| aes aesni | 2 | 0.750-2.000 | 64.00-64.00 |', '| aes c | 1 | 0.500-0.500 | 2.000-2.000 |',
      '| sha1 shani | 2 | 1.250-1.500 | 1.250-1.500 |' ],
    [ 'a two-library CSV with placements: columns and a range per library, the worst',
      [ '--date', '2026-01-02', '--cpu', 'Sample CPU', "$dir/perf-two.csv" ],
      '| mode | bits | bytes | implementation | c/B | worst c/B | OpenSSL 3.0.1 c/B | ratio to OpenSSL 3.0.1 '
      . '| OpenSSL 3.5.1 c/B | ratio to OpenSSL 3.5.1 | ratio to OpenSSL\'s table path | of bound |',
      '| xts-enc | 128 | 16384 | aesni | 0.250 | 0.500 | 0.500 | 2.000 | 0.125 | 0.500 | - | 0.800 |',
      '| aes aesni | 1 | 2.000-2.000 | 0.500-0.500 | - |' ]) {
    my ($what, $args, @want) = @$case;
    my ($rc, $out) = capture('perl', $perf, @$args);
    my %line = map { $_ => 1 } split /\n/, $out;
    my @absent = grep { !$line{$_} } @want;
    result($rc == 0 && !@absent && $out !~ /^\|.*\bopenssl@/m, "perf-table.pl, $what") or show(@absent, $out);
}
{
    my ($rc, $out) = capture('perl', $perf, "$dir/tiny.csv");
    my @got = $out =~ /^(\| cbc-enc \| 128 \| 1024 \| c \| .*)$/mg;
    result($rc == 0 && @got == 1 && $out =~ /^## \d{4}-\d\d-\d\d — /m,
           "perf-table.pl reads the tiny run's CSV: one row of ours, today's section") or show($out);
}

# --- tools/openssl-lib.sh on a stand-in source tree --------------------------------------------
# Its Configure records its arguments and writes a Makefile that makes a
# stand-in libcrypto.so.3 (the real build takes minutes).
{
    my $tree = "$cache/openssl-3.5.99";
    make_path($tree);
    spew("$tree/VERSION.dat", "MAJOR=3\nMINOR=5\nPATCH=99\n");
    spew("$tree/.unpacked", '');
    my $makefile = "build_generated:\nlibcrypto.so.3:\n\tprintf 'stand-in' > libcrypto.so.3\n";
    local $ENV{OPENSSL_SOURCE_CACHE} = $cache;
    spew("$tree/Configure", "#!/usr/bin/perl\n",
         "open(my \$fh, '>', \$ENV{CONFIGURE_ARGS}) or die; print \$fh \"\@ARGV\\n\";\n",
         "open(\$fh, '>', 'configdata.pm') or die;\n",
         "open(\$fh, '>', 'Makefile') or die; print \$fh <<'END';\n${makefile}END\n");
    my $before = tree_listing($tree);
    my ($rc, $out) = capture('sh', $libsh, '--cached', '3.5');
    result($rc >> 8 == 2 && $out =~ /\A.*make openssl-lib OPENSSL_VERSION=3\.5.*\n\z/,
           'openssl-lib.sh --cached before the build: exit 2, one line naming make openssl-lib') or show($out);
    my $lib = "$cache/lib-3.5.99/libcrypto.so.3";
    local $ENV{CONFIGURE_ARGS} = "$dir/configure-args";
    ($rc, $out) = capture('sh', $libsh, '3.5');
    my $prefix = "$cache/lib-3.5.99";
    result((slurp($ENV{CONFIGURE_ARGS}) // '')
           =~ /^linux-x86_64 shared no-tests --prefix=\Q$prefix\E --openssldir=\Q$prefix\E\/ssl /,
           'openssl-lib.sh configures linux-x86_64, shared, no tests, its prefix and configuration in the cache');
    opendir(my $dh, $cache) or die;
    my @kept = grep { /\.build$/ } readdir $dh;
    result($rc == 0 && $out =~ /^\Q$lib\E$/m && $out =~ /built \Q$lib\E/ && (slurp($lib) // '') eq 'stand-in'
           && "@{[ glob(\"$prefix/*\") ]}" eq $lib && !@kept && tree_listing($tree) eq $before,
           'openssl-lib.sh builds out of tree: only lib-3.5.99/libcrypto.so.3 kept, the source untouched')
        or show($out, "@kept");
    ($rc, $out) = capture('sh', $libsh, '3.5');
    result($rc == 0 && $out =~ /already built; nothing to do/ && $out =~ /^\Q$lib\E$/m,
           'openssl-lib.sh run again: nothing to do, the same path') or show($out);
    unlink $lib, $ENV{CONFIGURE_ARGS};
    make_path("$cache/lib-3.5.99.build");
    spew("$cache/lib-3.5.99.build/configdata.pm", '');
    spew("$cache/lib-3.5.99.build/Makefile", $makefile =~ s/stand-in/resumed/r);
    ($rc, $out) = capture('sh', $libsh, '3.5');
    result($rc == 0 && $out =~ /going on with the interrupted build/ && (slurp($lib) // '') eq 'resumed'
           && !-e $ENV{CONFIGURE_ARGS} && !-e "$cache/lib-3.5.99.build",
           'openssl-lib.sh after an interrupted build: goes on in its tree without Configure, then removes it')
        or show($out);
    ($rc, $out) = capture('sh', $libsh, '--cached', '3.5');
    result($rc == 0 && $out eq "$lib\n", 'openssl-lib.sh --cached prints the library\'s path alone') or show($out);
}

# --- make bench ---------------------------------------------------------------------------------
# Each path under a tree with its mode, size and modification time.
sub tree_listing {
    my @list;
    my $note = sub { my @st = lstat $_ or return; push @list, "$_ @st[2, 7, 9]" };
    find({ no_chdir => 1, wanted => $note }, $_[0]) if -e $_[0];
    return join "\n", sort @list;
}
# HOME and TMPDIR empty, apt tools that leave a mark and fail first on
# PATH; the build's last CSV and plot put back afterwards.
{
    my ($home, $tmp, $stubs, $mark) = map { "$dir/make-$_" } qw(home tmp stubs apt-called);
    make_path($home, $tmp, $stubs);
    for my $tool (qw(apt-get apt-cache apt)) {
        spew("$stubs/$tool", "#!/bin/sh\necho \"$tool \$*\" >> '$mark'\nexit 99\n");
        chmod 0755, "$stubs/$tool";
    }
    my $abs = rel2abs($build);
    my @saved = grep { -e $_->[0] && rename $_->[0], $_->[1] }
        map { [ "$abs/bench/bench.$_", "$dir/saved.$_" ] } qw(csv png);
    my $apt_before = tree_listing('/etc/apt');
    my $args = "@tiny_c";
    my ($rc, $out) = do {
        local @ENV{qw(HOME TMPDIR PATH)} = ($home, $tmp, "$stubs:$ENV{PATH}");
        delete local @ENV{qw(OPENSSL_SOURCE_CACHE OPENSSL_SRC)};
        capture('make', '--no-print-directory', '-C', $root, "BUILD=$abs", 'bench', "BENCH_ARGS=$args");
    };
    my @lines = split /\n/, $out;
    my ($end) = grep { $lines[$_] =~ /^\d+ figures written to / } 0 .. $#lines;
    my @after = defined $end ? @lines[$end + 1 .. $#lines] : ();
    result($rc == 0 && @after == 2
           && ($lines[0] // '') =~ /^OpenSSL 3\.5 not compared: .*`make openssl-lib OPENSSL_VERSION=3\.5`/
           && ($lines[1] // '') =~ m{bench/bench --csv \S+ --fastest --placements 16 \Q$args\E$}
           && $after[0] =~ /^plot(?: skipped)?:/
           && $after[1] =~ /^more \(make TARGET\): bench-code-size, .*bench-x86mca, bench-dmcrypt32, bench-sha1-586$/,
           'make bench: a line on building OpenSSL 3.5, the benchmark\'s command at 16 placements with BENCH_ARGS, '
           . 'its output, the plot line and one naming the other targets') or show($out);
    check_csv('make bench', $out, "$abs/bench/bench.csv", 16, rows_of($ossl, $cbc, 'c'));
    opendir(my $hd, $home) or die;
    opendir(my $td, $tmp) or die;
    my @left = grep { !/^\.\.?$/ } readdir($hd), readdir($td);
    result(!-e $mark && !@left && tree_listing('/etc/apt') eq $apt_before,
           'make bench calls no apt tool and leaves HOME, TMPDIR and /etc/apt as they were') or show(@left);
    unlink "$abs/bench/bench.csv", "$abs/bench/bench.png";
    rename $_->[1], $_->[0] for @saved;
}

finish();
