#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# The benchmark's command line (build/bench/bench) and bench/code_size.pl:
#  - --help exits 0 and names every option;
#  - --list names exactly the registry's implementations (as the KAT
#    programs list them), C included, and every mode; each name it lists
#    is accepted by --impl, which then selects that name only;
#  - an unknown implementation, mode, option, a bad size, key size,
#    --seconds or --placements (0, 5000, x), a missing value, an --openssl
#    library that cannot be loaded or a third one: exit 2, one line naming
#    the bad word, no CSV file left behind;
#  - an implementation this CPU cannot run (AES-NI masked off) is named
#    as skipped, with the feature it lacks;
#  - tiny real runs: the table row has c/B and MB/s whose product is the
#    TSC frequency in the header (within the printed rounding); the CSV
#    has the header and exactly the rows the options select, positive
#    figures, c/B x MB/s = MHz, the worst placement's c/B no lower than
#    the median (equal with one placement), OpenSSL's rows naming its
#    version and ours none; comma lists and repeated options give the
#    cross product for every implementation this CPU runs;
#  - --placements 4: the header says so, each row's worst cell is the
#    CSV's worst (which is >= the median), and a placement summary line
#    per family gives the lowest median/worst of the CSV's rows;
#  - two libraries (--openssl the system's and a copy of it whose version
#    text is changed, another file of the same soname; and the system's
#    and OpenSSL 3.5's, when `make openssl-lib OPENSSL_VERSION=3.5` has
#    built it, else a SKIP): both named in the header, a column group each
#    labelled with its version, CSV rows for each library with the version
#    of its own file (the system's as a single-library run reports it);
#  - without a usable libcrypto.so.3 (a stand-in without its symbols on
#    LD_LIBRARY_PATH): one line says so, our figures come without ratios;
#    the same stand-in named by --openssl: exit 2, one line;
#  - bench/code_size.pl prints every module's functions with no warning;
#  - the bound loops (--bound-only): every loop the CPU has gives a positive
#    figure, stable within a factor of two over three runs; with VAES
#    masked off the ymm and zmm loops say they are skipped and why;
#  - the bound column: every row of ours with AES-NI or SHA-NI has the
#    bound the formulas give from the header's loop figures (parallel
#    modes at the entry's width, CBC encryption at the aesenc latency,
#    SHA-NI at the sha1rnds4 latency), and of_bound = bound / c/B; other
#    rows leave both empty; the table's cell is the CSV's fraction;
#  - the summary: one line per family, whose lowest ratio and lowest
#    fraction of the bound are the CSV's minima over that family's rows,
#    naming the row they come from;
#  - tools/perf-table.pl, which turns the CSV into docs/performance.md's
#    tables: on a sample whose ratios are known, each row's figures,
#    ratios (same path, and the reference path) and the per-implementation
#    ranges, the date, CPU and command; the tiny run's own CSV read back
#    row for row; a malformed CSV is one line naming file and line, exit 1
#    and no output file;
#  - tools/perf-table.pl on a two-library CSV with placements: a column
#    pair per library, the worst column, the ranges per library;
#  - tools/openssl-lib.sh (make openssl-lib) on a stand-in source tree:
#    the messages without the source and before the build, Configure's
#    arguments, the build out of tree keeping only the library, the second
#    run doing nothing, an interrupted build going on without Configure;
#  - `make bench` runs only what BENCH_ARGS selects, over 16 placements,
#    says in one line how to build OpenSSL 3.5's library when it is not
#    built, fetches nothing and writes nothing outside the build (below).
# Speed itself is never judged: only shapes and consistency.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib", "$FindBin::Bin/../../perlasm/lib", "$FindBin::Bin/../../support/perl";
use Slurp qw(spew);
use Common::IA32Cap;
use File::Temp qw(tempdir);
use File::Find qw(find);
use File::Path qw(make_path);
use File::Basename qw(basename);
use File::Spec::Functions qw(rel2abs);
use Capture qw(capture);
use ImplRuns qw(result registry finish);

my $build = $ENV{BUILD} // 'build';
my $root  = "$FindBin::Bin/../..";
my $bench = "$build/bench/bench";
my $dir   = tempdir(CLEANUP => 1);
# Clears AES-NI for the skip check.
my $no_aesni = Common::IA32Cap::clear_mask('aesni');
my @tiny = ('--quick', '--mode', 'cbc-enc', '--size', '1024', '--keybits', '128');

unless (result(-x $bench, "$bench exists (make bench-bin)")) {
    finish();
}
delete $ENV{OPENSSL_ia32cap};

# --- --help ------------------------------------------------------------------
{
    my ($rc, $out) = capture($bench, '--help');
    result($rc == 0, '--help exits 0');
    my @missing = grep { $out !~ /\Q$_\E\b/ }
        qw(--list --impl --mode --size --keybits --seconds --quick --fastest --openssl --placements --csv
           --bound-only --help);
    result(!@missing, '--help names every option' . (@missing ? " (not @missing)" : ''));
}

# --- --list against the registry --------------------------------------------------
my (%listed, @modes);
{
    my ($rc, $out) = capture($bench, '--list');
    result($rc == 0, '--list exits 0');
    for (split /\n/, $out) {
        push @{ $listed{$1} }, [ $2, $3 ] if /^impl (aes|sha1)\s+(\S+)\s+(.*)$/;
        push @modes, $1 if /^mode (?:aes|sha1)\s+(\S+)\s/;
    }
}
my %registry = (aes => [ registry("$build/test/kat_aes") ],
                sha1 => [ registry("$build/test/kat_sha1") ]);
for my $table (qw(aes sha1)) {
    my @want = map { $_->[0] } @{ $registry{$table} };
    my @got  = map { $_->[0] } @{ $listed{$table} // [] };
    result("@got" eq "@want" && @want > 0,
           "--list names the registry's $table implementations in order (@got)");
    result((grep { $_ eq 'c' } @got) == 1, "--list names the C reference for $table");
}
{
    my ($rc, $help) = capture($bench, '--help');
    my ($modes) = $help =~ /^Modes:\s*(.*)$/m;
    result(defined $modes && "@modes" eq $modes, "--list names every mode --help names (@modes)");
}

my %table_of;
for my $table (qw(aes sha1)) {
    push @{ $table_of{ $_->[0] } }, $table for @{ $listed{$table} // [] };
}
for my $name (sort keys %table_of) {
    my ($rc, $out) = capture($bench, '--impl', $name, '--list');
    my @names = map { /^impl (\S+)\s+(\S+)/ ? "$1:$2" : () } split /\n/, $out;
    my @want  = map { "$_:$name" } @{ $table_of{$name} };
    result($rc == 0 && "@names" eq "@want", "--impl $name is accepted and selects only @want");
}

# --- bad input ---------------------------------------------------------------------
my @bad = (
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
    [ 'an --openssl library that does not exist', '/no/such/libcrypto.so.3', '--openssl',
      '/no/such/libcrypto.so.3' ],
    [ 'a third --openssl library', '--openssl', ('--openssl', 'libcrypto.so.3') x 3 ],
    [ 'one library twice (nothing to tell apart)', 'libcrypto.so.3', ('--openssl', 'libcrypto.so.3') x 2 ],
);
for my $case (@bad) {
    my ($what, $word, @args) = @$case;
    my $csv = "$dir/bad.csv";
    my ($rc, $out) = capture($bench, '--csv', $csv, @args);
    my @lines = split /\n/, $out;
    result($rc >> 8 == 2 && @lines == 1 && index($lines[0], $word) >= 0 && !-e $csv,
           "$what (@args): exit 2, one line naming $word, no CSV")
        or print map { "#   $_\n" } "exit " . ($rc >> 8), @lines;
}
{
    my ($rc, $out) = capture($bench, '--csv', "$dir/no/such/dir/x.csv", @tiny, '--impl', 'c');
    my @lines = split /\n/, $out;
    result($rc >> 8 == 2 && @lines == 1 && $out =~ m{no/such/dir/x\.csv},
           'an unwritable --csv fails at once: exit 2, one line naming it');
}

# --- an implementation this CPU cannot run ----------------------------------------------
{
    local $ENV{OPENSSL_ia32cap} = $no_aesni;
    my ($rc, $out) = capture($bench, '--list');
    my %lacks = map { /^impl aes\s+(\S+)\s+skipped: this CPU lacks (.+)$/ ? ($1 => $2) : () }
        split /\n/, $out;
    if (!%lacks) {
        result(1, 'skipped implementations', 'SKIP no AES entry needs AES-NI in this build');
    } else {
        my @names = sort keys %lacks;
        ($rc, $out) = capture($bench, @tiny, '--impl', join(',', @names, 'c'));
        my @silent = grep { $out !~ /^  AES \Q$_\E: skipped, this CPU lacks \Q$lacks{$_}\E$/m } @names;
        result($rc == 0 && !@silent && $out =~ /^ c\s+128\s+1024 \|/m,
               "with AES-NI masked, @names are each named as skipped and why; c still runs")
            or print map { "#   $_\n" } split /\n/, $out;
    }
}

# --- real runs ---------------------------------------------------------------------------
# Reads a CSV: (header line, rows as hashes).
sub read_csv {
    my ($file) = @_;
    open(my $fh, '<', $file) or return ('', ());
    chomp(my $head = <$fh> // '');
    my @cols = split /,/, $head;
    my @rows;
    while (my $line = <$fh>) {
        chomp $line;
        my %r;
        @r{@cols} = split /,/, $line, -1;
        push @rows, \%r;
    }
    return ($head, @rows);
}

# Half a unit in the last printed digit of a number, relative to it.
sub rounding {
    my ($text) = @_;
    my $decimals = $text =~ /\.(\d+)$/ ? length $1 : 0;
    return 0.5 * 10**-$decimals / $text;
}

sub mhz_of {
    my ($out) = @_;
    return $out =~ /TSC (\d+\.\d) MHz/ ? $1 : undef;
}

sub is_number { return defined $_[0] && $_[0] =~ /^\d+(\.\d+)?(e[-+]?\d+)?$/i && $_[0] > 0 }

# The --placements of the run check_csv reads (set with local).
our $placements = 1;

# CSV rows are as expected and consistent with the TSC frequency.
sub check_csv {
    my ($what, $file, $mhz, @want) = @_;
    my ($head, @rows) = read_csv($file);
    result($head eq 'table,mode,bits,bytes,update,path,cycles_per_byte,mb_per_s,'
                    . 'bound_cycles_per_byte,of_bound,openssl,worst_cycles_per_byte',
           "$what: CSV header");
    # The worst placement is never faster than the median; with one
    # placement it is the median.  OpenSSL's rows name their library.
    my $one = $placements == 1;
    my @odd = grep {
        !is_number($_->{worst_cycles_per_byte}) || $_->{worst_cycles_per_byte} < $_->{cycles_per_byte}
            || ($one && $_->{worst_cycles_per_byte} != $_->{cycles_per_byte})
            || ($_->{path} =~ /^openssl/ ? $_->{openssl} !~ /^OpenSSL \d+\.\d+\.\d+/ : $_->{openssl} ne '')
    } @rows;
    result(@rows && !@odd, "$what: worst c/B " . ($one ? '= the median (one placement)' : '>= the median')
           . ', OpenSSL\'s rows name its version, ours none')
        or print map { '#   odd  ' . join(',', %$_) . "\n" } @odd;
    my @got = sort map { join ',', @$_{qw(table mode bits bytes update path)} } @rows;
    @want = sort @want;
    result("@got" eq "@want", "$what: CSV has exactly the " . scalar(@want) . ' expected rows')
        or print map { "#   got  $_\n" } @got;
    my @bad = grep {
        !is_number($_->{cycles_per_byte}) || !is_number($_->{mb_per_s})
            || abs($_->{cycles_per_byte} * $_->{mb_per_s} / $mhz - 1) > 1e-4
    } @rows;
    result(@rows && !@bad && defined $mhz,
           "$what: every figure positive, c/B x MB/s = " . ($mhz // '(no MHz)') . ' MHz')
        or print map { "#   bad  " . join(',', %$_) . "\n" } @bad;
    return @rows;
}

# --- the bound: a model of bench/bound.c's formulas -----------------------------------
# Each entry's needs, by name, from the KAT programs' --list (fourth field).
my %needs;
for my $table (qw(aes sha1)) {
    my ($rc, $out) = capture("$build/test/kat_$table", '--list');
    for (split /\n/, $out) {
        my ($name, undef, undef, $names) = split /\t/;
        $needs{$table}{$name} = { map { $_ => 1 } split /, /, $names // '' };
    }
}

# The header's loop figures: name => the text printed.
sub bound_loops {
    my ($out) = @_;
    my ($line) = $out =~ /^  bound loops, .*?\): (.*)$/m;
    return map { /^(\S+) (\d+\.\d+)$/ ? ($1 => $2) : () } ($line // '') =~ /(\S+ \S+)/g;
}

# (the bound a CSV row should have, the loop figure it comes from), or ().
sub expected_bound {
    my ($r, $loops) = @_;
    my $need = $needs{ $r->{table} }{ $r->{path} } or return ();   # OpenSSL's rows
    if ($r->{table} eq 'sha1') {
        return () unless $need->{SHA};
        my $t = $loops->{'sha1rnds4-latency'} // return ();
        return (20 * $t / 64, $t);
    }
    return () unless $need->{AESNI};
    my $rounds = $r->{bits} / 32 + 6;
    my ($loop, $blocks) = $r->{mode} =~ /^(?:cbc-enc|ccm-)/ ? ('aesenc-latency', 1)
                        : $need->{VAES} && $need->{AVX512F} ? ('aesenc-zmm', 4)
                        : $need->{VAES} ? ('aesenc-ymm', 2) : ('aesenc-xmm', 1);
    my $t = $loops->{$loop} // return ();
    return ($rounds * $t / (16 * $blocks), $t);
}

# Every row's bound columns against the model: (faults, rows with a bound).
sub bound_faults {
    my ($loops, @rows) = @_;
    my (@bad, @with);
    for my $r (@rows) {
        my ($want, $t) = expected_bound($r, $loops);
        my $label = join ',', @$r{qw(mode bits bytes update path)};
        if (!defined $want) {
            push @bad, "$label: bound '$r->{bound_cycles_per_byte}' of_bound '$r->{of_bound}', want none"
                if $r->{bound_cycles_per_byte} ne '' || $r->{of_bound} ne '';
            next;
        }
        push @with, $r;
        my $ok = is_number($r->{bound_cycles_per_byte}) && is_number($r->{of_bound})
            && abs($r->{bound_cycles_per_byte} / $want - 1) <= rounding($t) * 1.01 + 1e-5
            && abs($r->{of_bound} * $r->{cycles_per_byte} / $r->{bound_cycles_per_byte} - 1) <= 2e-5;
        push @bad, "$label: bound '$r->{bound_cycles_per_byte}' of_bound '$r->{of_bound}', want $want"
            unless $ok;
    }
    return (\@bad, @with);
}

# The same as a test; returns the rows with a bound.
sub check_bounds {
    my ($what, $out, @rows) = @_;
    my %loops = bound_loops($out);
    my ($bad, @with) = bound_faults(\%loops, @rows);
    result(%loops && !@$bad, "$what: " . scalar(@with) . ' rows have the bound the formulas give from '
           . 'the header\'s loops (' . join(' ', map { "$_ $loops{$_}" } sort keys %loops)
           . '), of_bound = bound / c/B; the other ' . (@rows - @with) . ' none')
        or print map { "#   $_\n" } @$bad, grep { /bound loops/ } split /\n/, $out;
    return @with;
}

my %aes_entry = map { $_->[0] => $_ } @{ $registry{aes} };
# OpenSSL's table-based path is the mask of the registry's x86_64 entry;
# entries that need no CPU feature and are not already measured under it
# get an extra OpenSSL column on that path.
my $table_mask = ($aes_entry{x86_64} // [])->[1] // '';
sub table_column {
    my ($name) = @_;
    my $e = $aes_entry{$name};
    return !grep({ $_ } @{ $e->[2] }) && ($e->[1] // '') ne $table_mask;
}

my $have_ossl;
# The CSV rows of @tiny with --impl c: ours, and OpenSSL's where it loads.
sub tiny_rows {
    my $row = 'aes,cbc-enc,128,1024,1024';
    return ("$row,c", $have_ossl ? "$row,openssl\@c" : (),
            $have_ossl && table_column('c') ? "$row,openssl\@table" : ());
}
{
    my $csv = "$dir/tiny.csv";
    my ($rc, $out) = capture($bench, @tiny, '--impl', 'c', '--csv', $csv);
    result($rc == 0, 'tiny run (c, cbc-enc, 1024 bytes, AES-128) exits 0')
        or print map { "#   $_\n" } split /\n/, $out;
    $have_ossl = $out !~ /^  OpenSSL: not measured/m;
    my $mhz = mhz_of($out);
    my ($cpb, $mbps) = $out =~ /^ c\s+128\s+1024 \|\s+(\S+)\s+(\S+)/m;
    my $ok = defined $mhz && is_number($cpb) && is_number($mbps);
    my $tolerance = $ok ? rounding($cpb) + rounding($mbps) + rounding($mhz) : 0;
    result($ok && abs($cpb * $mbps / $mhz - 1) <= $tolerance * 1.01,
           'the table row has c/B and MB/s, c/B x MB/s = the header\'s TSC MHz'
           . ($ok ? " ($cpb x $mbps vs $mhz)" : ''))
        or print map { "#   $_\n" } split /\n/, $out;
    check_csv('tiny run', $csv, $mhz, tiny_rows());
    result($out =~ /^  each figure: the median of \d+ runs/m, 'without --fastest a figure is the median of its runs')
        or print map { "#   $_\n" } grep { /each figure/ } split /\n/, $out;
    my ($frc, $fout) = capture($bench, @tiny, '--impl', 'c', '--fastest');
    my ($fcpb) = $fout =~ /^ c\s+128\s+1024 \|\s+(\S+)/m;
    result($frc == 0 && is_number($fcpb) && $fout =~ /^  each figure: the fastest of \d+ runs/m,
           '--fastest: the header says each figure is the fastest run, and the row has its figure')
        or print map { "#   $_\n" } split /\n/, $fout;
}

# --- stack placements ------------------------------------------------------------------------
# --placements 4 on ECB and XTS: the header, the worst cell of each row
# against the CSV, and the placement summary against the CSV's rows.
{
    my $csv = "$dir/placements.csv";
    my @args = ('--quick', '--placements', '4', '--mode', 'ecb-enc,xts-enc', '--size', '4096',
                '--keybits', '128', '--impl', 'c', '--csv', $csv);
    my ($rc, $out) = capture($bench, @args);
    result($rc == 0 && $out =~ /^  each figure at 4 stack placements /m,
           '--placements 4 exits 0 and the header says each figure is taken at 4 placements')
        or print map { "#   $_\n" } split /\n/, $out;
    my @rows;
    {
        local $placements = 4;
        @rows = check_csv('placements run', $csv, mhz_of($out),
                          map { my $k = "aes,$_,128,4096,4096"; ("$k,c", $have_ossl ? "$k,openssl\@c" : (),
                                 $have_ossl && table_column('c') ? "$k,openssl\@table" : ()) } qw(ecb-enc xts-enc));
    }
    # The table's ours group: c/B, MB/s, worst.
    my @cells = map { / \|\s+\S+\s+\S+\s+(\S+) \|/ ? $1 : () } grep { /^ c\s+128\s+4096 \|/ } split /\n/, $out;
    my @ours = grep { $_->{path} eq 'c' } @rows;
    my @want = map { $_->{worst_cycles_per_byte} } sort { $a->{mode} cmp $b->{mode} } @ours;
    my $ok = @cells == 2 && @want == 2
        && !grep { abs($cells[$_] - $want[$_]) > $want[$_] * rounding($cells[$_]) * 1.01 + 1e-9 } 0 .. 1;
    result($ok && $out =~ /^ impl .*c\/B\s+MB\/s\s+worst \|/m,
           "each row's worst cell is the CSV's worst_cycles_per_byte (@cells vs @want)")
        or print map { "#   $_\n" } grep { /^ (c|impl) / } split /\n/, $out;
    my ($line) = $out =~ /^ C AES\s+(lowest worst\/median .*)$/m;
    my ($v, $row) = ($line // '') =~ /^lowest worst\/median\s+(\S+) (\(.*\))$/;
    my @pairs = map { [ $_->{cycles_per_byte} / $_->{worst_cycles_per_byte},
                        "(c $_->{mode} AES-128 4096 B)" ] } @ours;
    result(defined $row && lowest_named($v, $row, @pairs) && $v <= 1,
           'the placement summary line of C AES gives the lowest median/worst of its rows, with its row'
           . ($line ? " ($line)" : ''))
        or print map { "#   $_\n" } ($line // 'no line'), map { "$_->[0] $_->[1]" } @pairs;
}

# --- two OpenSSL libraries ----------------------------------------------------------------------
# A run with --openssl libcrypto.so.3 --openssl $lib, whose version should
# read $version: the header names both, every table has a column group per
# library labelled with its version, and the CSV has rows of each library
# with the version of its own file.
sub two_libraries {
    my ($what, $system, $lib, $version) = @_;
    my $csv = "$dir/two.csv";
    unlink $csv;
    my ($rc, $out) = capture($bench, @tiny, '--impl', 'c', '--mode', 'xts-enc',
                             '--openssl', 'libcrypto.so.3', '--openssl', $lib, '--csv', $csv);
    result($rc == 0 && $out =~ /^  CPU: .*; reference: \Q$system\E /m
           && $out =~ /^  second reference: \Q$version\E .*\(\Q$lib\E\)$/m,
           "$what: the header names $system and $version ($lib)")
        or print map { "#   $_\n" } split /\n/, $out;
    my @heads = grep { /^ {29}\|/ } split /\n/, $out;
    result(@heads == 2 && (grep { /\|\s+\Q$system\E\s+\|\s+\Q$version\E\s+\|/ } @heads) == @heads,
           "$what: each table has a column group per library, labelled with its version")
        or print map { "#   $_\n" } @heads;
    my @want;
    for my $mode (qw(cbc-enc xts-enc)) {
        my $k = "aes,$mode,128,1024,1024";
        push @want, "$k,c", ("$k,openssl\@c") x 2, table_column('c') ? ("$k,openssl\@table") x 2 : ();
    }
    my @rows = check_csv($what, $csv, mhz_of($out), @want);
    my @libs = sort map { $_->{openssl} } grep { $_->{path} eq 'openssl@c' && $_->{mode} eq 'xts-enc' } @rows;
    result("@libs" eq join(' ', sort($system, $version)),
           "$what: the CSV gives each OpenSSL row its own library's version (@libs)");
}
{
    my ($rc, $one) = capture($bench, @tiny, '--impl', 'c');
    my ($system) = $one =~ /^  CPU: .*; reference: (OpenSSL \d+\.\d+\.\d+) /m;
    my ($path) = $one =~ /^  CPU: .*; reference: .*\((\/.*)\)$/m;
    # A copy of the system's library whose version text says 9 where it
    # says the major version: another file of the same soname, loaded
    # beside the system's, must answer with its own text.
    my $copy = "$dir/other/libcrypto.so.3";
    my $version;
    if (!$have_ossl || !defined $system || !defined $path) {
        result(1, 'two OpenSSL libraries', 'SKIP the system has no usable libcrypto.so.3');
    } else {
        mkdir "$dir/other";
        open(my $in, '<:raw', $path) or die "$path: $!\n";
        my $bytes = do { local $/; <$in> };
        close $in;
        ($version = $system) =~ s/^OpenSSL \d/OpenSSL 9/;
        my $n = $bytes =~ s/\Q$system\E /$version /g;
        open(my $outf, '>:raw', $copy) or die "$copy: $!\n";
        print $outf $bytes;
        close $outf;
        if ($n != 1) {
            result(1, 'two OpenSSL libraries', "SKIP the version text \"$system \" is not once in $path ($n)");
        } else {
            two_libraries('two libraries (the system\'s and a renamed copy)', $system, $copy, $version);
        }
    }
    # The system's and OpenSSL 3.5's, built by make openssl-lib into the cache.
    my $lib35 = `sh '$root/tools/openssl-lib.sh' --cached 3.5 2>/dev/null`;
    chomp $lib35;
    my ($src35) = $lib35 =~ m{/lib-(3\.5\.\d+)/libcrypto\.so\.3$};
    if (!$have_ossl || !defined $system || !defined $src35) {
        result(1, 'OpenSSL 3.5 beside the system\'s', 'SKIP ' . (!defined $src35
               ? 'OpenSSL 3.5\'s library is not built (make openssl-lib OPENSSL_VERSION=3.5)'
               : 'the system has no usable libcrypto.so.3'));
    } else {
        two_libraries('OpenSSL 3.5 beside the system\'s', $system, $lib35, "OpenSSL $src35");
    }
}

# --- tools/perf-table.pl: the CSV as docs/performance.md's tables ---------------------------
{
    my $perf = "$root/tools/perf-table.pl";
    my $sample = "$dir/perf-sample.csv";
    open(my $fh, '>', $sample) or die "$sample: $!\n";
    # Ratios chosen to be exact: a key size, length or path taken for
    # another changes a cell.
    print $fh map { "$_\n" }
        'table,mode,bits,bytes,update,path,cycles_per_byte,mb_per_s,bound_cycles_per_byte,of_bound',
        'aes,cbc-dec,128,4096,4096,aesni,0.25,8000,0.2,0.8',
        'aes,cbc-dec,128,4096,4096,openssl@aesni,0.5,4000,,',
        'aes,cbc-dec,256,4096,4096,aesni,0.4,5000,0.3,0.75',
        'aes,cbc-dec,256,4096,4096,openssl@aesni,0.3,6666.67,,',
        'aes,cbc-dec,128,4096,4096,c,8,250,,',
        'aes,cbc-dec,128,4096,4096,openssl@c,4,500,,',
        'aes,cbc-dec,128,4096,4096,openssl@table,16,125,,',
        'sha1,sha1,0,1024,64,shani,2,1000,,',
        'sha1,sha1,0,1024,64,openssl@shani,3,666.667,,',
        'sha1,sha1,0,1024,1024,shani,1,2000,,',
        'sha1,sha1,0,1024,1024,openssl@shani,1.25,1600,,',
        'sha1,sha1,0,1024,64,openssl,2.5,800,,',
        'sha1,sha1,0,1024,1024,openssl,1.5,1333.33,,';
    close $fh;
    my ($rc, $out) = capture('perl', $perf, '--date', '2026-01-02', '--cpu', 'Sample CPU, family 1 model 2',
                             '--command', 'bench --sample', $sample);
    my @want = ('## 2026-01-02 — Sample CPU, family 1 model 2', 'bench --sample',
                '| cbc-dec | 128 | 4096 | aesni | 0.250 | 0.500 | 2.000 | 64.00 | 0.800 |',
                '| cbc-dec | 256 | 4096 | aesni | 0.400 | 0.300 | 0.750 | - | 0.750 |',
                '| cbc-dec | 128 | 4096 | c | 8.000 | 4.000 | 0.500 | 2.000 | - |',
                '| 1024 | 64 | shani | 2.000 | 3.000 | 1.500 | 1.250 | - |',
                '| 1024 | 1024 | shani | 1.000 | 1.250 | 1.250 | 1.500 | - |',
                '| aes aesni | 2 | 0.750-2.000 | 64.00-64.00 |', '| aes c | 1 | 0.500-0.500 | 2.000-2.000 |',
                '| sha1 shani | 2 | 1.250-1.500 | 1.250-1.500 |');
    my %line = map { $_ => 1 } split /\n/, $out;
    my @missing = grep { !$line{$_} } @want;
    result($rc == 0 && !@missing && !grep({ /^\|.*\bopenssl@/ } split /\n/, $out),
           'perf-table.pl: a sample CSV gives its known figures, ratios, ranges, date, CPU and command')
        or print map { "#   $_\n" } "exit $rc", (map { "missing: $_" } @missing), split /\n/, $out;

    # Two libraries and placements: a c/B and ratio column per library, the
    # worst column, the ranges per library.
    my $two = "$dir/perf-two.csv";
    open($fh, '>', $two) or die "$two: $!\n";
    print $fh map { "$_\n" }
        'table,mode,bits,bytes,update,path,cycles_per_byte,mb_per_s,bound_cycles_per_byte,of_bound,openssl,worst_cycles_per_byte',
        'aes,xts-enc,128,16384,16384,aesni,0.25,8000,0.2,0.8,,0.5',
        'aes,xts-enc,128,16384,16384,openssl@aesni,0.5,4000,,,OpenSSL 3.0.1,0.5',
        'aes,xts-enc,128,16384,16384,openssl@aesni,0.125,16000,,,OpenSSL 3.5.1,0.25';
    close $fh;
    ($rc, $out) = capture('perl', $perf, '--date', '2026-01-02', '--cpu', 'Sample CPU', $two);
    @want = ('| mode | bits | bytes | implementation | c/B | worst c/B | OpenSSL 3.0.1 c/B | ratio to OpenSSL 3.0.1 '
             . '| OpenSSL 3.5.1 c/B | ratio to OpenSSL 3.5.1 | ratio to OpenSSL\'s table path | of bound |',
             '| xts-enc | 128 | 16384 | aesni | 0.250 | 0.500 | 0.500 | 2.000 | 0.125 | 0.500 | - | 0.800 |',
             '| aes aesni | 1 | 2.000-2.000 | 0.500-0.500 | - |');
    %line = map { $_ => 1 } split /\n/, $out;
    @missing = grep { !$line{$_} } @want;
    result($rc == 0 && !@missing,
           'perf-table.pl: a two-library CSV with placements gives each library its columns and range, and the worst')
        or print map { "#   $_\n" } "exit $rc", (map { "missing: $_" } @missing), split /\n/, $out;

    open(my $tiny, '<', "$dir/tiny.csv") or die "$dir/tiny.csv: $!\n";
    my (undef, @rows) = <$tiny>;
    close $tiny;
    @rows = grep { !/,openssl@/ } @rows;
    ($rc, $out) = capture('perl', $perf, "$dir/tiny.csv");
    my @got = grep { /^\| cbc-enc \| 128 \| 1024 \| c \| / } split /\n/, $out;
    result($rc == 0 && @rows == 1 && @got == 1 && $out =~ /^## \d{4}-\d\d-\d\d — /m,
           "perf-table.pl reads the tiny run's CSV: one row of ours, today's section")
        or print map { "#   $_\n" } "exit $rc", split /\n/, $out;

    for my $bad (['a field missing', "aes,ecb-enc,128,16,16,c,1.5,100,\n", ':2: 9 fields'],
                 ['a c/B that is no number', "aes,ecb-enc,128,16,16,c,fast,100,,\n", ":2: cycles_per_byte 'fast'"]) {
        my ($what, $row, $says) = @$bad;
        my $file = "$dir/perf-bad.csv";
        spew($file, "table,mode,bits,bytes,update,path,cycles_per_byte,mb_per_s,bound_cycles_per_byte,of_bound\n", $row);
        unlink "$dir/perf.md";
        ($rc, $out) = capture('perl', $perf, '--output', "$dir/perf.md", $file);
        my @lines = split /\n/, $out;
        result(($rc >> 8) == 1 && @lines == 1 && index($lines[0], "$file$says") >= 0 && !-e "$dir/perf.md",
               "perf-table.pl, $what: exit 1, one line naming file and line, no output file")
            or print map { "#   $_\n" } "exit " . ($rc >> 8), @lines;
    }
}

# --- tools/openssl-lib.sh: OpenSSL's library built into the cache -------------------------------
# Against a stand-in cache: an unpacked tree whose Configure writes a
# Makefile that makes a stand-in libcrypto.so.3 (the real build takes
# minutes).  Without the tree: exit 2, one line naming make openssl-source;
# --cached before the build: exit 2, one line naming make openssl-lib; the
# build: out of tree, the library in lib-3.5.N/ and nothing else kept, the
# source untouched, Configure given linux-x86_64 shared no-tests and a
# prefix in the cache; a second run: nothing to do, the same path.
{
    my $tool = "$root/tools/openssl-lib.sh";
    my $cache = "$dir/lib-cache";
    make_path($cache);
    local $ENV{OPENSSL_SOURCE_CACHE} = $cache;
    my ($rc, $out) = capture('sh', $tool, '3.5');
    my @lines = split /\n/, $out;
    result($rc >> 8 == 2 && @lines == 1 && $lines[0] =~ /make openssl-source OPENSSL_VERSION=3\.5/,
           'openssl-lib.sh without the source: exit 2, one line naming make openssl-source')
        or print map { "#   $_\n" } @lines;
    my $tree = "$cache/openssl-3.5.99";
    make_path($tree);
    for ([ 'VERSION.dat', "MAJOR=3\nMINOR=5\nPATCH=99\n" ], [ '.unpacked', '' ],
         [ 'Configure', <<'CONFIGURE' ]) {
#!/usr/bin/perl
# Stand-in: records its arguments in $CONFIGURE_ARGS, writes what
# Configure leaves (configdata.pm, a Makefile with the two targets used).
open(my $fh, '>', $ENV{CONFIGURE_ARGS}) or die; print $fh "@ARGV\n"; close $fh;
open($fh, '>', 'configdata.pm') or die; close $fh;
open($fh, '>', 'Makefile') or die;
print $fh "build_generated:\nlibcrypto.so.3:\n\tprintf 'stand-in' > libcrypto.so.3\n";
close $fh;
CONFIGURE
        open(my $fh, '>', "$tree/$_->[0]") or die "$tree/$_->[0]: $!\n";
        print $fh $_->[1];
        close $fh;
    }
    my $before = tree_listing($tree);
    ($rc, $out) = capture('sh', $tool, '--cached', '3.5');
    @lines = split /\n/, $out;
    result($rc >> 8 == 2 && @lines == 1 && $lines[0] =~ /make openssl-lib OPENSSL_VERSION=3\.5/,
           'openssl-lib.sh --cached before the build: exit 2, one line naming make openssl-lib')
        or print map { "#   $_\n" } @lines;
    my $lib = "$cache/lib-3.5.99/libcrypto.so.3";
    local $ENV{CONFIGURE_ARGS} = "$dir/configure-args";
    ($rc, $out) = capture('sh', $tool, '3.5');
    my $args = -e $ENV{CONFIGURE_ARGS} ? do { open(my $fh, '<', $ENV{CONFIGURE_ARGS}) or die; <$fh> } : '';
    result($args =~ /^linux-x86_64 shared no-tests --prefix=\Q$cache\E\/lib-3\.5\.99 --openssldir=\Q$cache\E\/lib-3\.5\.99\/ssl /,
           'openssl-lib.sh configures linux-x86_64, shared, no tests, its prefix and configuration in the cache')
        or print "#   Configure $args\n";
    opendir(my $dh, $cache) or die;
    my @kept = sort grep { !/^\.\.?$/ } readdir $dh;
    opendir($dh, "$cache/lib-3.5.99") or die;
    my @in_lib = sort grep { !/^\.\.?$/ } readdir $dh;
    my $made = -s $lib ? do { open(my $fh, '<', $lib) or die; local $/; <$fh> } : '';
    result($rc == 0 && $out =~ /^\Q$lib\E$/m && $out =~ /built \Q$lib\E/ && $made eq 'stand-in'
           && "@in_lib" eq 'libcrypto.so.3' && !grep({ /\.build$/ } @kept)
           && tree_listing($tree) eq $before,
           'openssl-lib.sh builds out of tree: only lib-3.5.99/libcrypto.so.3 kept, the source untouched')
        or print map { "#   $_\n" } "exit $rc", split(/\n/, $out), "kept: @kept", "in lib: @in_lib";
    ($rc, $out) = capture('sh', $tool, '3.5');
    result($rc == 0 && $out =~ /already built; nothing to do/ && $out =~ /^\Q$lib\E$/m,
           'openssl-lib.sh run again: nothing to do, the same path')
        or print map { "#   $_\n" } split /\n/, $out;
    # An interrupted build (Configure done, no library yet) goes on without
    # configuring again.
    unlink $lib, $ENV{CONFIGURE_ARGS};
    make_path("$cache/lib-3.5.99.build");
    for my $f ('configdata.pm', 'Makefile') {
        open(my $fh, '>', "$cache/lib-3.5.99.build/$f") or die;
        print $fh "build_generated:\nlibcrypto.so.3:\n\tprintf 'resumed' > libcrypto.so.3\n" if $f eq 'Makefile';
        close $fh;
    }
    ($rc, $out) = capture('sh', $tool, '3.5');
    $made = -s $lib ? do { open(my $fh, '<', $lib) or die; local $/; <$fh> } : '';
    result($rc == 0 && $out =~ /going on with the interrupted build/ && $made eq 'resumed'
           && !-e $ENV{CONFIGURE_ARGS} && !-e "$cache/lib-3.5.99.build",
           'openssl-lib.sh after an interrupted build: goes on in its tree without Configure, then removes it')
        or print map { "#   $_\n" } "exit $rc", split /\n/, $out;
    ($rc, $out) = capture('sh', $tool, '--cached', '3.5');
    result($rc == 0 && $out eq "$lib\n", 'openssl-lib.sh --cached prints the library\'s path alone')
        or print "#   $out\n";
}

# --- make bench: the selection only, nothing written outside the build ---------------------
# A listing of a directory tree: each path with its type, mode, size and
# modification time (the contents need not be readable).
sub tree_listing {
    my ($top) = @_;
    my @list;
    find({ no_chdir => 1, wanted => sub {
        my @st = lstat $_ or return;
        push @list, join ' ', $_, @st[2, 7, 9];
    } }, $top) if -e $top;
    return join "\n", sort @list;
}

# `make bench` with a tiny selection in BENCH_ARGS, HOME and TMPDIR empty
# directories and apt-get, apt-cache and apt stubs first on PATH that
# leave a mark and fail: it exits 0; its output is the benchmark's
# command, the benchmark's own output, the plot's line and one line naming
# the other benchmark targets, nothing else (no 32-bit or code-size part);
# the CSV holds exactly the selected rows; no apt tool was called; HOME,
# TMPDIR and /etc/apt are as they were.  The build's last CSV and plot
# are put back afterwards.
{
    my ($home, $tmp, $stubs, $mark) = map { "$dir/make-$_" } qw(home tmp stubs apt-called);
    make_path($home, $tmp, $stubs);
    for my $tool (qw(apt-get apt-cache apt)) {
        spew("$stubs/$tool", "#!/bin/sh\necho \"$tool \$*\" >> '$mark'\necho '$tool called' >&2\nexit 99\n");
        chmod 0755, "$stubs/$tool";
    }
    my $abs_build = rel2abs($build);
    my %saved;
    for my $f ("$abs_build/bench/bench.csv", "$abs_build/bench/bench.png") {
        next unless -e $f;
        $saved{$f} = "$dir/saved-" . basename($f);
        rename $f, $saved{$f} or die "cannot move $f aside: $!\n";
    }
    my $apt_before = tree_listing('/etc/apt');
    my $args = join ' ', @tiny, '--impl', 'c';
    my ($rc, $out);
    {
        local $ENV{HOME} = $home;
        local $ENV{TMPDIR} = $tmp;
        local $ENV{PATH} = "$stubs:$ENV{PATH}";
        delete local $ENV{OPENSSL_SOURCE_CACHE};
        delete local $ENV{OPENSSL_SRC};
        ($rc, $out) = capture('make', '--no-print-directory', '-C', $root, "BUILD=$abs_build",
                              'bench', "BENCH_ARGS=$args");
    }
    my @lines = split /\n/, $out;
    result($rc == 0, "make bench BENCH_ARGS=\"$args\" exits 0")
        or print map { "#   $_\n" } @lines;
    my ($end) = grep { $lines[$_] =~ /^\d+ figures written to / } 0 .. $#lines;
    # HOME is empty, so no OpenSSL 3.5 library is cached: one line says how to build it.
    result(@lines && $lines[0] =~ /^OpenSSL 3\.5 not compared: .*`make openssl-lib OPENSSL_VERSION=3\.5`/,
           'make bench without OpenSSL 3.5\'s library: the first line says how to build it')
        or print "#   $lines[0]\n";
    result(@lines > 1 && $lines[1] =~ m{bench/bench --csv \S+ --fastest --placements 16 \Q$args\E$},
           'make bench: then the benchmark\'s command, 16 placements, the system\'s OpenSSL only, BENCH_ARGS')
        or print "#   $lines[1]\n";
    my @after = defined $end ? @lines[$end + 1 .. $#lines] : @lines;
    result(defined $end && @after == 2 && $after[0] =~ /^plot(?: skipped)?:/
           && $after[1] =~ /^more \(make TARGET\): bench-code-size, .*bench-x86mca, bench-dmcrypt32, bench-sha1-586$/,
           'make bench: after the benchmark\'s output only the plot line and one line naming the other targets')
        or print map { "#   $_\n" } @after;
    {
        local $placements = 16;
        check_csv('make bench', "$abs_build/bench/bench.csv", mhz_of($out), tiny_rows());
    }
    my @called = -e $mark ? do { open(my $fh, '<', $mark) or die; <$fh> } : ();
    result(!@called, 'make bench calls no apt tool (nothing fetched)') or print map { "#   $_" } @called;
    opendir(my $hd, $home) or die;
    my @in_home = grep { !/^\.\.?$/ } readdir $hd;
    opendir(my $td, $tmp) or die;
    my @in_tmp = grep { !/^\.\.?$/ } readdir $td;
    result(!@in_home && !@in_tmp, 'make bench leaves HOME and TMPDIR empty')
        or print map { "#   left: $_\n" } @in_home, @in_tmp;
    result(tree_listing('/etc/apt') eq $apt_before, 'make bench leaves /etc/apt as it was');
    unlink "$abs_build/bench/bench.csv", "$abs_build/bench/bench.png";
    rename $saved{$_}, $_ for keys %saved;
}

# Every AES entry this CPU runs, two sizes and two key sizes given both ways.
{
    my @runs = map { $_->[0] } grep { $_->[1] eq 'runs' } @{ $listed{aes} // [] };
    my $csv = "$dir/lists.csv";
    my ($rc, $out) = capture($bench, '--quick', '--mode', 'ecb-enc', '--size', '16,64',
                             '--keybits', '128', '--keybits', '256',
                             map({ ('--impl', $_) } @runs), '--csv', $csv);
    result($rc == 0, "ECB run of @runs exits 0") or print map { "#   $_\n" } split /\n/, $out;
    my @want;
    for my $bits (128, 256) {
        for my $bytes (16, 64) {
            my $key = "aes,ecb-enc,$bits,$bytes,$bytes";
            push @want, map { ("$key,$_", $have_ossl ? "$key,openssl\@$_" : ()) } @runs;
            push @want, "$key,openssl\@table" if $have_ossl && grep { table_column($_) } @runs;
        }
    }
    my @rows = check_csv('lists run', $csv, mhz_of($out), @want);
    check_bounds('lists run', $out, @rows);
}

# SHA-1 under --seconds: ours, OpenSSL under the same mask, OpenSSL's best.
{
    my $csv = "$dir/sha1.csv";
    my ($rc, $out) = capture($bench, '--seconds', '0.002', '--impl', 'c', '--mode', 'sha1',
                             '--size', '64', '--csv', $csv);
    result($rc == 0 && $out =~ /2 ms of timing/, 'SHA-1 run with --seconds 0.002 exits 0 and says so')
        or print map { "#   $_\n" } split /\n/, $out;
    check_csv('SHA-1 run', $csv, mhz_of($out), 'sha1,sha1,0,64,64,c',
              $have_ossl ? ('sha1,sha1,0,64,64,openssl@c', 'sha1,sha1,0,64,64,openssl') : ());
}

# --- without OpenSSL --------------------------------------------------------------------
{
    my $cc = $ENV{CC} // 'cc';
    my $fake = "$dir/fakessl";
    mkdir $fake;
    my ($rc) = capture($cc, '-shared', '-o', "$fake/libcrypto.so.3", '-x', 'c', '/dev/null');
    if ($rc != 0) {
        result(1, 'run without OpenSSL', "SKIP $cc cannot build a stand-in shared object");
    } else {
        local $ENV{LD_LIBRARY_PATH} = $fake;
        my $csv = "$dir/no-ossl.csv";
        ($rc, my $out) = capture($bench, @tiny, '--impl', 'c', '--csv', $csv);
        my @said = grep { /libcrypto\.so\.3/ } split /\n/, $out;
        my ($columns) = $out =~ /^( impl .*)$/m;
        result($rc == 0 && @said == 1 && $said[0] =~ /cannot load/
               && defined $columns && $columns !~ /ratio/,
               'without a usable libcrypto.so.3: exit 0, one line says so, no ratios')
            or print map { "#   $_\n" } split /\n/, $out;
        check_csv('run without OpenSSL', $csv, mhz_of($out), 'aes,cbc-enc,128,1024,1024,c');
        delete local $ENV{LD_LIBRARY_PATH};
        my $bad = "$dir/fake.csv";
        ($rc, $out) = capture($bench, @tiny, '--impl', 'c', '--openssl', "$fake/libcrypto.so.3", '--csv', $bad);
        my @lines = split /\n/, $out;
        result($rc >> 8 == 2 && @lines == 1 && $lines[0] =~ /--openssl '\Q$fake\E\/libcrypto\.so\.3': .*no symbol/
               && !-e $bad, '--openssl naming a library without OpenSSL\'s calls: exit 2, one line, no CSV')
            or print map { "#   $_\n" } "exit " . ($rc >> 8), @lines;
    }
}

# --- the bound loops -------------------------------------------------------------------
# Whether every series of positive figures stays within a factor of two.
sub within_two { my @v = sort { $a <=> $b } @_; return @v && $v[0] > 0 && $v[-1] <= 2 * $v[0] }

# --bound-only: (loop => figure or "skipped: ..."), in order.
sub bound_only {
    my ($rc, $out) = capture($bench, '--bound-only');
    my @loops = map { /^bound (\S+)\s+(?:(\d+\.\d+) |- (skipped: .*))/ ? ([ $1, $2 // $3 ]) : () }
        split /\n/, $out;
    return ($rc, $out, @loops);
}
{
    my (%runs, @order, $fail);
    for my $run (1 .. 3) {
        my ($rc, $out, @loops) = bound_only();
        $fail = $out if $rc != 0 || !@loops;
        @order = map { $_->[0] } @loops if $run == 1;
        push @{ $runs{ $_->[0] } }, $_->[1] for @loops;
    }
    my @measured = grep { $runs{$_}[0] !~ /^skipped/ } @order;
    my @unstable = grep { @{ $runs{$_} } != 3 || !within_two(@{ $runs{$_} }) } @measured;
    my @odd = grep { "@{ $runs{$_} }" !~ /^(skipped: this CPU lacks \S.*)( \1){2}$/ }
        grep { $runs{$_}[0] =~ /^skipped/ } @order;
    result(!defined $fail && "@order" eq 'aesenc-xmm aesenc-ymm aesenc-zmm aesenc-latency '
           . 'sha1rnds4 sha1rnds4-latency clock' && @measured && !@unstable && !@odd,
           'three --bound-only runs: every loop this CPU has positive and within a factor of two ('
           . join('; ', map { "$_ @{ $runs{$_} }" } @measured) . ')'
           . (@measured < @order ? ', the others named as skipped with why' : ''))
        or print map { "#   $_\n" } (defined $fail ? split(/\n/, $fail) : ()), @unstable, @odd;
}
{
    local $ENV{OPENSSL_ia32cap} = Common::IA32Cap::clear_mask('vaes');
    my ($rc, $out, @loops) = bound_only();
    my %got = map { @$_ } @loops;
    my $aesni_runs = grep { $_->[0] eq 'aesni' && $_->[1] eq 'runs' } @{ $listed{aes} // [] };
    my $xmm_ok = ($got{'aesenc-xmm'} // '') =~ ($aesni_runs ? qr/^\d/ : qr/^skipped/);
    result($rc == 0 && ($got{'aesenc-ymm'} // '') =~ /^skipped: this CPU lacks VAES/
           && ($got{'aesenc-zmm'} // '') =~ /^skipped: this CPU lacks VAES/ && $xmm_ok,
           'with VAES masked off, the ymm and zmm loops are skipped naming VAES; xmm is still measured '
           . 'where AES-NI runs')
        or print map { "#   $_\n" } split /\n/, $out;
}

# Whether a summary's value (printed to 3 decimals) is the lowest of the
# [value, row] pairs and the row it names has that value.
sub lowest_named {
    my ($v, $row, @pairs) = @_;
    my ($low) = sort { $a <=> $b } map { $_->[0] } @pairs;
    my @named = grep { $_->[1] eq $row } @pairs;
    return defined $low && @named && abs($v - $low) <= 0.0005 + 1e-6
        && grep { abs($_->[0] - $low) <= 1e-9 } @named;
}

# CBC encryption (the latency bound) and SHA-NI, two sizes each: the bound
# columns, the table's cell, and the summary lines against the CSV.
{
    my %runs = map { $_->[0] => $_->[1] eq 'runs' } map { @{ $listed{$_} // [] } } qw(aes sha1);
    if (!$runs{aesni} || !$runs{shani}) {
        result(1, 'bound and summary run', 'SKIP this CPU runs no aesni or no shani entry');
    } else {
        my $csv = "$dir/bound.csv";
        my ($rc, $out) = capture($bench, '--quick', '--impl', 'aesni,shani', '--mode', 'cbc-enc,sha1',
                                 '--size', '64,1024', '--keybits', '192', '--csv', $csv);
        result($rc == 0, 'cbc-enc and SHA-1 run of aesni and shani exits 0')
            or print map { "#   $_\n" } split /\n/, $out;
        my ($head, @rows) = read_csv($csv);
        my @with = check_bounds('cbc-enc and SHA-1 run', $out, @rows);
        # The table's last cell is the CSV's fraction, rounded.
        my %cell = map { /^ (\S+)\s+(\d+)\s+(\d+) \|.*\|\s+(\S+)$/ ? ("$1,$2,$3" => $4) : () }
            split /\n/, $out;
        my @off = grep {
            my $key = $_->{table} eq 'aes' ? "$_->{path},$_->{bits},$_->{bytes}"
                                           : "$_->{path},$_->{bytes},$_->{update}";
            !defined $cell{$key} || abs($cell{$key} - $_->{of_bound}) > 0.005 + 1e-9
        } @with;
        result(@with == 5 && !@off, 'the table\'s "of bound" cell of each of the 5 rows is the CSV\'s '
               . 'fraction') or print map { "#   $_->{path} $_->{bytes} $_->{of_bound}\n" } @off;
        # The summary: each family's minima over its rows in the CSV.
        my %cpb = map { ("$_->{table},$_->{bits},$_->{bytes},$_->{update},$_->{path}" => $_->{cycles_per_byte}) } @rows;
        for my $family ([ 'AES-NI xmm', 'aesni' ], [ 'SHA-1 SHA-NI', 'shani' ]) {
            my ($name, $impl) = @$family;
            my (@ratio, @bound);
            for my $r (grep { $_->{path} eq $impl } @rows) {
                my $label = $r->{table} eq 'aes' ? "($impl $r->{mode} AES-$r->{bits} $r->{bytes} B)"
                                                 : "($impl $r->{bytes}/$r->{update})";
                my $ossl = $cpb{"$r->{table},$r->{bits},$r->{bytes},$r->{update},openssl\@$impl"};
                push @ratio, [ $ossl / $r->{cycles_per_byte}, $label ] if defined $ossl;
                push @bound, [ $r->{of_bound}, $label ];
            }
            my ($line) = $out =~ /^ \Q$name\E\s+(lowest ratio .*)$/m;
            my ($r, $rrow, $b, $brow) = ($line // '')
                =~ /^lowest ratio\s+(\S+) (\(.*?\))\s+lowest of bound\s+(\S+) (\(.*?\))$/;
            my $ok = defined $brow && lowest_named($b, $brow, @bound)
                && ($have_ossl ? lowest_named($r, $rrow, @ratio) : $r eq '-');
            result($ok, "summary line of $name: the lowest ratio and fraction of the bound over its "
                   . scalar(@bound) . ' rows, with their rows' . ($line ? " ($line)" : ''))
                or print map { "#   $_\n" } ($line // 'no line'),
                    map { "ratio $_->[0] $_->[1]" } @ratio, map { "bound $_->[0] $_->[1]" } @bound;
        }
    }
}

# --- bench/code_size.pl -----------------------------------------------------------------
{
    my @objs = glob("$build/obj/asm/*.o");
    if (!@objs) {
        result(1, 'code_size.pl', 'SKIP no assembly objects in this build (NO_ASM?)');
    } else {
        my ($rc, $out) = capture($^X, '-w', "$root/bench/code_size.pl", @objs);
        my @modules = map { m{([^/]+)\.o$} } @objs;
        my @missing = grep { $out !~ /^  \Q$_\E\n    \S+\s+\d+$/m } @modules;
        result($rc == 0 && $out !~ / at \S+ line \d+/ && !@missing,
               "code_size.pl lists the functions of @modules without warnings")
            or print map { "#   $_\n" } split /\n/, $out;
    }
}

finish();
