#!/usr/bin/perl
# Symbol parity with OpenSSL 3.0 (issue 9): each tools/openssl-symbols/
# MODULE.txt lists what OpenSSL's C code (and its other modules) need from
# the generated module MODULE; our script crypto/*/asm/MODULE.pl is run for
# the elf flavour into a temporary directory, assembled, and its defined
# global symbols (nm) are compared with the list:
#  - a listed symbol we do not export is not ok, naming its users;
#    a line tagged "missing:" is a known gap, reported as TODO (prove does
#    not count it; when it passes, remove the tag);
#  - a symbol we export that is not listed is shown, and must be hidden
#    (STV_HIDDEN in readelf) so it cannot clash with OpenSSL's own names;
#  - each data file names an existing module script, and each x86_64
#    module script has a data file;
#  - with the system's static libcrypto.a present, the list equals the
#    globals its member libcrypto-lib-MODULE.o defines (else SKIP).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Capture ();
use File::Temp qw(tempdir);
use ImplRuns qw(result finish);

my $root = "$FindBin::Bin/../..";
my $data = "$root/tools/openssl-symbols";
my $dir  = tempdir(CLEANUP => 1);
my $todo = 'TODO not implemented yet (issue 9)';

# Runs a command; returns (exit status, stdout+stderr).
sub run { return Capture::capture(@_) }

# A data file: ([symbol, users, missing-tag], ...) in file order.
sub read_list {
    my ($file) = @_;
    open(my $fh, '<', $file) or die "$file: $!\n";
    my @rows;
    while (my $line = <$fh>) {
        next if $line =~ /^\s*(#|$)/;
        chomp $line;
        my $missing = $line =~ s/^missing:\s*//;
        my ($sym, $users) = $line =~ /^(\w+)\s+(\S.*)$/
            or die "$file:$.: want 'SYMBOL  USER, ...' or 'missing: SYMBOL  USER, ...'\n";
        push @rows, [ $sym, $users, $missing ];
    }
    return @rows;
}

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

my @lists = sort glob("$data/*.txt");
result(@lists > 0, "data files in tools/openssl-symbols");
my %have = map { m{([^/]+)\.txt$} ? ($1 => 1) : () } @lists;

# Every x86_64 module script has a list.
for my $pl (sort glob("$root/crypto/*/asm/*-x86_64.pl $root/crypto/*/asm/*-586.pl")) {
    my ($mod) = $pl =~ m{([^/]+)\.pl$};
    result($have{$mod}, "$mod: crypto/*/asm/$mod.pl has a list tools/openssl-symbols/$mod.txt");
}

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

for my $list (@lists) {
    my ($mod) = $list =~ m{([^/]+)\.txt$};
    my @pl = glob("$root/crypto/*/asm/$mod.pl");
    next unless result(@pl == 1, "$mod: module script crypto/*/asm/$mod.pl exists");
    my @rows = eval { read_list($list) };
    next unless result(!$@ && @rows > 0, "$mod: tools/openssl-symbols/$mod.txt parses"
                                         . ($@ ? " ($@)" : ''));
    chomp(my $rel = $pl[0]);
    $rel =~ s{^\Q$root\E/}{};

    # Our elf output, generated from the script as the Makefile does.
    my ($st, $out) = run($^X, $pl[0], 'elf', "$dir/$mod.s");
    if (!result($st == 0, "$mod: perl $rel elf generates")) {
        print "# $_\n" for split /\n/, $out;
        next;
    }
    # 32-bit modules (-586) are assembled as i386 objects.
    my @as = $mod =~ /-586$/ ? ('as', '--32') : ($ENV{CC} // 'cc', '-c');
    ($st, $out) = run(@as, '-o', "$dir/$mod.o", "$dir/$mod.s");
    if (!result($st == 0, "$mod: generated $mod.s assembles")) {
        print "# $_\n" for split /\n/, $out;
        next;
    }
    my $ours = defined_globals("$dir/$mod.o");
    next unless result(defined $ours, "$mod: nm and readelf read $mod.o");

    my %listed;
    for my $row (@rows) {
        my ($sym, $users, $missing) = @$row;
        $listed{$sym} = 1;
        my $ok = exists $ours->{$sym};
        my $desc = $ok ? "$mod exports $sym"
                       : "$mod does not export $sym, used by $users";
        result($ok, $desc, $missing ? $todo : undef);
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
    if ($mod =~ /-586$/ || !$ossl_defs || !$ossl_defs->{$member}) {
        result(1, "$mod: list equals the globals of OpenSSL's $member",
               'SKIP ' . ($mod =~ /-586$/ ? "a 32-bit module, and no 32-bit libcrypto.a here"
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
