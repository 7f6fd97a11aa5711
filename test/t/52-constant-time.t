#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# The constant-time report (tools/ct-report.pl, make ct-report): every AES
# and SHA-1 path of the registry, 64-bit and 32-bit, run under valgrind
# memcheck with its key and data undefined (test/ctgrind/ct_check.c):
#  - each path's verdict (clean, exposed, not covered) is the one the
#    table of docs/constant-time.md claims for it, and the two
#    list the same paths, so neither can drift from the other;
#  - the instruction classes valgrind decodes are those of that page's
#    decoder table;
#  - the negative controls: a function with two secret-indexed loads and
#    one secret-dependent branch is exposed with exactly those counts, one
#    with neither is clean, and one whose output ignores the secret is
#    caught as "untainted" rather than passing as clean;
#  - no path has an error memcheck does not trace to the secret (a store
#    below esp, say: its value is undefined once read back);
#  - the outputs every path computed under valgrind, operation by
#    operation, equal each other and the native run's.
# The page's claims are valgrind 3.19's on an x86 CPU with AVX2, BMI,
# AES-NI, SHA-NI and AVX-512: another valgrind, or a CPU without what a
# path needs, makes a differing claim a counted SKIP naming why.
# Environment: BUILD.  Without valgrind (or gcc -m32 for the 32-bit
# paths) the checks SKIP with the package to install.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib", "$FindBin::Bin/../../support/perl";
use Slurp qw(slurp);
use File::Temp qw(tempdir);
use ImplRuns qw(result finish);
use Toolchain qw(tool missing);
use Capture qw(capture);

my $root  = "$FindBin::Bin/../..";
my $build = $ENV{BUILD} // 'build';
$build = "$root/$build" unless $build =~ m{^/};
my $dir = tempdir(CLEANUP => 1);

if (my $why = missing('VALGRIND')) {
    result(1, 'constant-time report', "SKIP $why");
    finish();
}

# --- the page's claims --------------------------------------------------------
my $page = slurp("$root/docs/constant-time.md") // '';
my ($section) = $page =~ /^# Constant-time evidence\n(.*)/ms;
result(defined $section, 'docs/constant-time.md is the "Constant-time evidence" page');
$section //= '';
my (%claim, @order, %decodes);
for (split /\n/, $section) {
    if (/^\| `([\w.]+:[\w.\/]+)` \| [^|]+ \| (clean|exposed|not covered|untainted)\b[^|]* \|$/) {
        push @order, $1 unless exists $claim{$1};
        $claim{$1} = $2;
    } elsif (/^\| `([\w.]+)` \| [^|]+ \| (yes|no) \| (yes|no) \|$/) {
        $decodes{x86_64}{$1} = $2;
        $decodes{i386}{$1} = $3;
    }
}
result(@order >= 20 && keys %{ $decodes{x86_64} // {} } >= 10,
       'docs/constant-time.md: ' . scalar(@order) . ' paths claimed, ' . scalar(keys %{ $decodes{x86_64} // {} })
       . ' instruction classes');

# --- the report ---------------------------------------------------------------
my $tsv = "$dir/report.tsv";
my ($st, $out) = capture('perl', "$root/tools/ct-report.pl", '--build', $build, '--tsv', $tsv);
print map { "#   $_\n" } split /\n/, $out;
result($st == 0, 'tools/ct-report.pl: every path has a verdict (exit 0)') or print "#   exit $st\n";
my (%row, @ops, %probe);
for (split /\n/, slurp($tsv) // '') {
    my ($type, @f) = split /\t/;
    if ($type eq 'path') {
        my ($path, $verdict, $b, $a, $o, $n, $has) = @f;
        $row{$path} = { verdict => $verdict, branch => $b, address => $a, other => $o,
                        notsecret => $n, has => $has };
    } elsif ($type eq 'op') {
        push @ops, [@f];
    } elsif ($type eq 'probe') {
        $probe{ $f[0] }{ $f[1] } = { decodes => $f[3], native => $f[4] };
    }
}
result(%row > 0, "the report lists " . scalar(keys %row) . ' paths');

my ($vst, $vout) = capture(split(' ', tool('VALGRIND')), '--version');
my $version = $vout =~ /valgrind-(\d+\.\d+)/ ? $1 : 'unknown';
my $same_valgrind = $version eq '3.19';
my $core = (slurp("$build/gen/config") // '') =~ /\bAES_CORE=(\w+)/ ? $1 : 'table';
my $why32 = missing('RUN_I386');    # CC32's reason first, then the kernel's

# --- each claim ------------------------------------------------------------------
for my $path (@order) {
    my $want = $claim{$path};
    my $r = $row{$path};
    if (!$r) {
        my $why = $path =~ /^i386:/ && $why32 ? $why32
                : $path eq 'x86_64:aes/c.table' && $core eq 'ct' ? 'this build has AES_CORE=ct'
                : undef;
        if ($why) {
            result(1, "$path: claimed $want", "SKIP $why");
        } else {
            result(0, "$path: claimed $want, but the report has no such path");
        }
        next;
    }
    my ($got) = $r->{verdict} =~ /^([^:]*)/;
    my $ok = $got eq $want;
    my $skip;
    if (!$ok && !$same_valgrind) {
        $skip = "the page's claims are valgrind 3.19's, this is $version";
    } elsif (!$ok && $got eq 'not covered' && $r->{has} eq '0') {
        $skip = 'this CPU lacks what the path needs';
    }
    result($ok || defined $skip, "$path: $want" . ($ok ? '' : " (report: $r->{verdict})"),
           defined $skip ? "SKIP $skip" : undef);
}
# A program that could not run is one row, ARCH:*: for i386 that is
# the reason its claims were skipped above.
my @unclaimed = grep { !exists $claim{$_} && !($_ eq 'i386:*' && $why32) } sort keys %row;
result(!@unclaimed, 'every path of the report has its claim in docs/constant-time.md')
    or print "#   not in docs/constant-time.md: @unclaimed\n";

# --- the decoder ---------------------------------------------------------------------
for my $arch (qw(x86_64 i386)) {
    if (!$probe{$arch}) {
        result(1, "$arch: the instruction classes valgrind decodes",
               'SKIP ' . ($arch eq 'i386' && $why32 ? $why32 : 'no probe ran'));
        next;
    }
    my @diff = grep { ($decodes{$arch}{$_} // '?') ne $probe{$arch}{$_}{decodes} } sort keys %{ $probe{$arch} };
    my @unlisted = grep { !exists $probe{$arch}{$_} } sort keys %{ $decodes{$arch} // {} };
    result((!@diff && !@unlisted) || !$same_valgrind,
           "$arch: valgrind decodes exactly the page's instruction classes ("
           . scalar(grep { $probe{$arch}{$_}{decodes} eq 'yes' } keys %{ $probe{$arch} }) . ' of '
           . scalar(keys %{ $probe{$arch} }) . ')',
           $same_valgrind ? undef : "SKIP the page's table is valgrind 3.19's, this is $version")
        or print "#   differ: @diff; in the page only: @unlisted\n";
}

# --- the negative controls ------------------------------------------------------------
for my $arch (qw(x86_64 i386)) {
    my ($leak, $clean, $inert) = map { $row{"$arch:control/$_"} } qw(leak clean inert);
    if (!$leak) {
        result(1, "$arch: the controls", 'SKIP ' . ($arch eq 'i386' && $why32 ? $why32 : 'not in the report'));
        next;
    }
    result($leak->{verdict} eq 'exposed' && $leak->{branch} == 1 && $leak->{address} == 2
           && $leak->{other} == 0,
           "$arch: the planted leak is exposed: 1 secret-dependent branch, 2 secret-dependent addresses")
        or print "#   $leak->{verdict}: $leak->{branch} branches, $leak->{address} addresses, $leak->{other} other\n";
    result($clean && $clean->{verdict} eq 'clean' && $clean->{branch} == 0 && $clean->{address} == 0,
           "$arch: the arithmetic control is clean, nothing counted");
    result($inert && $inert->{verdict} =~ /^untainted/,
           "$arch: a function whose output ignores the secret is not passed as clean (untainted)");
}

# --- nothing but the secret ------------------------------------------------------------
# An error whose undefined value memcheck does not trace to the secret is
# the program's own fault: a store below esp that a signal could overwrite
# was one (the 32-bit stack switch once wrote its frame before moving esp).
my @foreign = grep { ($row{$_}{notsecret} // '') =~ /^[1-9]/ } sort keys %row;
result(%row && !@foreign, 'no path has an error memcheck does not trace to the secret ('
       . scalar(keys %row) . ' paths)')
    or print map { "#   $_: $row{$_}{notsecret} not from the secret\n" } @foreign;

# --- outputs -------------------------------------------------------------------------
# Every AES path runs the same operations on the same key and data, every
# SHA-1 path the same messages: their digests must agree, operation by
# operation (the report has already compared each with its native run).
# Not the key schedules: AES-NI's round keys are laid out as its registers
# hold them, the table code's as 32-bit words.
my %by;
for (@ops) {
    my ($path, $i, $name, $digest) = @$_;
    my ($kind) = $path =~ /:(aes|sha1|control)\//;
    next if $kind eq 'control' || $name =~ /\.setkey_/;
    $by{$kind}{"$i $name"}{$digest}{$path} = 1;
}
for my $kind (qw(aes sha1)) {
    my @ops_seen = sort keys %{ $by{$kind} // {} };
    my @split = grep { keys %{ $by{$kind}{$_} } > 1 } @ops_seen;
    my %paths = map { my $o = $_; map { %$_ } values %{ $by{$kind}{$o} } } @ops_seen;
    result(@ops_seen && !@split,
           "$kind: under valgrind, " . scalar(keys %paths) . ' paths computed the same outputs in each of '
           . scalar(@ops_seen) . ' operations' . ($kind eq 'aes' ? ' (the key schedules apart)' : ''))
        or print map { my $o = $_; "#   $o: " . join('; ', map { "$_: " . join(' ', sort keys %{ $by{$kind}{$o}{$_} }) }
                                                  sort keys %{ $by{$kind}{$o} }) . "\n" } @split;
}

finish();
