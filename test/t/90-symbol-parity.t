#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# Symbol parity with OpenSSL 3.0 and 3.5, for every module of
# modules.txt: its symbols file (tools/openssl-symbols/MODULE.txt) lists
# what OpenSSL's C code (and its other modules) need from the generated
# module, what only one series needs tagged with it; our script is run for
# the elf flavour into a temporary directory, assembled for its arch, and
# its defined global symbols (nm) are compared with the list of every
# series together:
#  - a listed symbol we do not export is not ok, naming its users;
#    a line tagged "missing:" is a known gap, reported as TODO (prove does
#    not count it; when it passes, remove the tag);
#  - a symbol we export that is not listed is shown, and must be hidden
#    (STV_HIDDEN in readelf) so it cannot clash with OpenSSL's own names;
#  - the reader keeps a [3.5]-tagged symbol or user for 3.5 alone and
#    refuses a tag naming an unknown series, naming the line;
#  - modules.txt parses (a malformed row is an error naming its line),
#    each row names an existing script and symbols file, every symbols
#    file and every crypto/*/asm/*-x86_64.pl and *-586.pl script has a
#    row, and the module tables of README.md and docs/openssl-fork.md are
#    the table's (tools/module-table.pl --check-readme);
#  - with the system's static libcrypto.a present, the list equals the
#    globals its member libcrypto-lib-MODULE.o defines (else SKIP).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib", "$FindBin::Bin/../../support/perl";
use Slurp qw(spew);
use Capture ();
use File::Temp qw(tempdir);
use ImplRuns qw(result finish);
use lib "$FindBin::Bin/../../tools/lib";
use ModuleTable qw(read_table table_path);
use SymbolList qw(SERIES read_symbols);

my $root = "$FindBin::Bin/../..";
my $data = "$root/tools/openssl-symbols";
my $dir  = tempdir(CLEANUP => 1);
my $todo = 'TODO not implemented yet';

# Runs a command; returns (exit status, stdout+stderr).
sub run { return Capture::capture(@_) }

# Global symbols defined in an object: name => visibility (readelf).
sub defined_globals {
    my ($obj) = @_;
    my ($st, $out) = run('nm', '-g', '--defined-only', $obj);
    return undef if $st;
    my %sym = map { (split ' ')[-1] => 'DEFAULT' } grep { /\S/ } split /\n/, $out;
    ($st, $out) = run('readelf', '-sW', $obj);
    return undef if $st;
    for (split /\n/, $out) {
        # Num: Value Size Type Bind Vis Ndx Name
        my @f = split ' ';
        next unless @f >= 8 && $f[0] =~ /^\d+:$/ && $f[6] ne 'UND';
        $sym{$f[7]} = $f[5] if exists $sym{$f[7]};
    }
    return \%sym;
}

my @modules = eval { read_table(table_path($root)) };
result(@modules > 0, 'modules.txt parses' . ($@ ? " ($@)" : ''));
my %row_of = map { $_->{name} => $_ } @modules;

# The reader refuses a malformed row, naming the file and line.
my $good = 'm1 x86_64 a.pl - elf - - CASM_M1_ASM s.txt r.s';
for my $case (['m1 x86_64 a.pl', qr/:2: want 10 columns/, 'a short row'],
              ["$good\n$good", qr/:3: module m1 appears twice/, 'a name twice'],
              ['m2 arm a.pl - elf - - - s.txt r.s', qr/:2: m2: arch 'arm'/, 'an unknown arch'],
              ['m3 x86 - - elf - - - s.txt r.s', qr/:2: m3: the script column is required/, 'no script'],
              ['m4 x86 a.pl - elf - - casm_m4 s.txt r.s', qr/:2: m4: define 'casm_m4' is not a C macro/,
               'a define that is no macro name']) {
    my ($text, $want, $what) = @$case;
    spew("$dir/table.txt", "# a table\n$text\n");
    eval { read_table("$dir/table.txt") };
    result($@ =~ /^\Q$dir\E\/table\.txt$want/, "modules.txt reader: $what is an error naming the line")
        or print "# got: $@";
}

# Series tags: what a tag names is kept for that series only; without a
# series asked for, everything; an unknown series is an error.
{
    my $f = "$dir/tagged.txt";
    spew($f, "# tagged\nall_sym  a.c:f, b.c:g [3.5]\nnew_sym [3.5]  c.c:h\n");
    my %got = map { my $s = $_; $s => join(' ', map { "$_->{symbol}(@{ $_->{users} })" }
                                               read_symbols($f, $s)) } SERIES;
    my $all = join ' ', map { "$_->{symbol}(@{ $_->{users} })" } read_symbols($f);
    result($got{'3.0'} eq 'all_sym(a.c:f)' && $got{'3.5'} eq 'all_sym(a.c:f b.c:g) new_sym(c.c:h)'
           && $all eq $got{'3.5'},
           'symbols reader: [3.5] keeps a symbol and a user for 3.5 only, all without a series')
        or print "# 3.0: $got{'3.0'}; 3.5: $got{'3.5'}; all: $all\n";
    spew($f, "ok_sym  a.c:f\nodd_sym  a.c:f [3.1]\n");
    eval { read_symbols($f) };
    result($@ =~ /^\Q$f\E:2: unknown OpenSSL series '3\.1'/,
           'symbols reader: a tag naming an unknown series is an error naming the line') or print "# got: $@";
    eval { read_symbols("$root/tools/openssl-symbols/sha1-x86_64.txt", '2.9') };
    result($@ =~ /unknown OpenSSL series '2\.9'/, 'symbols reader: asked for an unknown series, refuses');
}

# The table is complete: every symbols file and module script has a row.
my %listed_file = map { $_->{symbols} => 1 } @modules;
for my $txt (sort glob("$data/*.txt")) {
    (my $rel = $txt) =~ s{^\Q$root\E/}{};
    result($listed_file{$rel}, "$rel is the symbols file of a module of modules.txt");
}
for my $pl (sort glob("$root/crypto/*/asm/*-x86_64.pl $root/crypto/*/asm/*-586.pl")) {
    my ($mod) = $pl =~ m{([^/]+)\.pl$};
    result($row_of{$mod}, "$mod: crypto/*/asm/$mod.pl has a row in modules.txt");
}

my ($rst, $rout) = run($^X, "$root/tools/module-table.pl", '--check-readme');
result($rst == 0, "the module tables of README.md and docs/openssl-fork.md are modules.txt's") or print "# $rout";

my $libcrypto = '/usr/lib/x86_64-linux-gnu/libcrypto.a';
my $ossl_defs;    # member => {symbol => 1}, from the system's libcrypto.a
if (-r $libcrypto) {
    my ($st, $out) = run('nm', '-g', '--defined-only', $libcrypto);
    if (!$st) {
        my $member;
        for (split /\n/, $out) {
            if (/^(\S+\.o):$/) { $member = $1; next }
            $ossl_defs->{$member}{$1} = 1 if defined $member && /^\S*\s+[TDRBVW]\s+(\S+)$/;
        }
    }
}

for my $module (@modules) {
    my ($mod, $rel, $list) = ($module->{name}, $module->{script}, "$root/$module->{symbols}");
    my $x86 = $module->{arch} eq 'x86';
    next unless result(-f "$root/$rel", "$mod: module script $rel exists");
    next unless result(-f $list, "$mod: symbols file $module->{symbols} exists");
    my @rows = eval { map { read_symbols($list, $_) } SERIES; read_symbols($list) };
    next unless result(!$@ && @rows > 0, "$mod: $module->{symbols} parses for "
                                         . join(' and ', SERIES) . ($@ ? " ($@)" : ''));

    # Our elf output, generated from the script as the Makefile does (the
    # 32-bit ones with OpenSSL's default flags, as their symbols files).
    my @flags = $x86 ? qw(-fPIC -DOPENSSL_IA32_SSE2) : ();
    my ($st, $out) = run($^X, "$root/$rel", 'elf', @flags, "$dir/$mod.s");
    if (!result($st == 0, "$mod: perl $rel elf @flags generates")) {
        print "# $_\n" for split /\n/, $out;
        next;
    }
    # x86 modules are assembled as i386 objects.
    my @as = $x86 ? ('as', '--32') : ($ENV{CC} // 'cc', '-c');
    ($st, $out) = run(@as, '-o', "$dir/$mod.o", "$dir/$mod.s");
    if (!result($st == 0, "$mod: generated $mod.s assembles")) {
        print "# $_\n" for split /\n/, $out;
        next;
    }
    my $ours = defined_globals("$dir/$mod.o");
    next unless result(defined $ours, "$mod: nm and readelf read $mod.o");

    my %listed;
    for my $row (@rows) {
        my $sym = $row->{symbol};
        $listed{$sym} = 1;
        my $ok = exists $ours->{$sym};
        my $desc = $ok ? "$mod exports $sym"
                       : "$mod does not export $sym, used by " . join(', ', @{ $row->{users} });
        result($ok, $desc, $row->{missing} ? $todo : undef);
    }

    my @extra = sort grep { !$listed{$_} } keys %$ours;
    print "# $mod: ", scalar(keys %$ours), " global symbols, ",
          scalar(@rows), " listed, ", scalar(@extra), " extra\n";
    for my $sym (@extra) {
        my $vis = $ours->{$sym};
        print "# $mod: extra symbol $sym ($vis)\n";
        result($vis eq 'HIDDEN', "$mod: extra symbol $sym is hidden"
                                 . ($vis eq 'HIDDEN' ? '' : " (visibility $vis)"));
    }

    # The list against OpenSSL's own object of the same name.
    my $member = "libcrypto-lib-$mod.o";
    if ($x86 || !$ossl_defs || !$ossl_defs->{$member}) {
        result(1, "$mod: list equals the globals of OpenSSL's $member",
               'SKIP ' . ($x86 ? "a 32-bit module, and no 32-bit libcrypto.a here"
                          : $ossl_defs ? "no member $member in $libcrypto"
                                     : "no readable $libcrypto (libssl-dev)"));
        next;
    }
    my $theirs = $ossl_defs->{$member};
    my @unlisted = sort grep { !$listed{$_} } keys %$theirs;
    my @stale    = sort grep { !$theirs->{$_} } keys %listed;
    print "# $mod: OpenSSL's $member defines but the list lacks: @unlisted\n" if @unlisted;
    print "# $mod: listed but not defined by OpenSSL's $member: @stale\n" if @stale;
    result(!@unlisted && !@stale, "$mod: list equals the globals of OpenSSL's $member");
}

finish();
