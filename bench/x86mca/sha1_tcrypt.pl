#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# Linux tcrypt's SHA-1 speed table for the 32-bit module sha1-586: for
# each (bytes per block, bytes per update) row, TSC cycles per byte of the
# 32-bit C compression, each of our paths, and OpenSSL 3.0's own sha1-586
# forced onto the same path, with the change in percent as tcrypt's
# reports give it (how much less time: 100 * (ref - ours) / ref).
#
#   perl bench/x86mca/sha1_tcrypt.pl SHA1_TCRYPT32 [SHA1_TCRYPT64]
#
# Every process is run ROUNDS times (SHA1_TCRYPT_ROUNDS, default 3), the
# paths in turn, and each figure is the fastest of all its samples, so that
# a round in which another process shared the core does not decide a ratio.
#
# Each path runs in its own process of SHA1_TCRYPT32 (bench/x86mca/
# sha1_tcrypt.c built -m32) with OPENSSL_ia32cap set to the path's force
# mask, so OpenSSL's dispatcher takes the same path; within a process the
# C, our path and OpenSSL's are timed in turn, sample after sample.
# SHA1_TCRYPT64, the same program built 64-bit, gives sha1-x86_64's SHA-NI
# figures beside the 32-bit ones.  The 32-bit program runs directly
# (make runs this only where the kernel runs i386 programs); a program
# that does not list its paths is an error.
use strict;
use warnings;

my ($prog32, $prog64) = @ARGV;
die "usage: $0 SHA1_TCRYPT32 [SHA1_TCRYPT64]\n" unless defined $prog32 && @ARGV <= 2;
die "$0: $prog32 is not an executable\n" unless -x $prog32;

my @PATHS = qw(x86 ssse3 avx shani);
my $ROUNDS = $ENV{SHA1_TCRYPT_ROUNDS} // 3;
die "$0: SHA1_TCRYPT_ROUNDS must be a positive number\n" unless $ROUNDS =~ /^[1-9]\d*$/;       # the integer path first: its C column is the table's

# name => force mask (undef: none) from --list.
sub masks {
    my ($prog) = @_;
    my %m;
    for (`$prog --list 2>/dev/null`) {
        chomp;
        my ($name, $mask) = split /\t/;
        $m{$name} = defined $mask && $mask ne '' ? $mask : undef;
    }
    return ($? == 0) ? %m : ();
}

# "block update" => [columns] for one path (or a skip reason).
sub run_path {
    my ($prog, $name, $mask) = @_;
    local %ENV = %ENV;
    if (defined $mask) { $ENV{OPENSSL_ia32cap} = $mask } else { delete $ENV{OPENSSL_ia32cap} }
    my @out = `$prog $name`;
    die "$0: $prog $name failed (exit " . ($? >> 8) . ")\n" if $?;
    return $1 if @out && $out[0] =~ /^skipped: (.*)/;
    my %rows;
    for (@out) {
        my ($b, $u, @c) = split;
        $rows{"$b $u"} = \@c;
    }
    return \%rows;
}

my %mask = masks($prog32);
die "$0: $prog32 --list failed (exit status " . ($? >> 8) . "): no paths to time\n" unless %mask;
my $cpu = (grep { /^model name/ } `cat /proc/cpuinfo`)[0] // 'model name : unknown';
$cpu =~ s/^model name\s*:\s*//;
chomp $cpu;

# The element-wise minimum of two runs' rows.
sub fastest {
    my ($old, $new) = @_;
    return $new unless $old;
    for my $row (keys %$new) {
        my $o = $old->{$row} or next;
        $new->{$row}[$_] = $o->[$_] < $new->{$row}[$_] ? $o->[$_] : $new->{$row}[$_] for 0 .. $#{ $new->{$row} };
    }
    return $new;
}

my (%r, %skip, @order, $r64);
for (1 .. $ROUNDS) {
    for my $p (@PATHS) {
        my $res = run_path($prog32, $p, $mask{$p});
        if (ref $res) { $r{$p} = fastest($r{$p}, $res) } else { $skip{$p} = $res }
    }
    if (defined $prog64 && -x $prog64) {
        my $res = run_path($prog64, 'shani', undef);
        $r64 = fastest($r64, $res) if ref $res;
    }
}
my ($first) = grep { $r{$_} } @PATHS or die "$0: no path ran\n";
@order = sort { my @x = split ' ', $a; my @y = split ' ', $b; $x[0] <=> $y[0] || $x[1] <=> $y[1] }
         keys %{ $r{$first} };

sub pct { my ($ref, $v) = @_; return sprintf('%+4.0f%%', 100 * ($ref - $v) / $ref) }

print "SHA-1, Linux tcrypt's sha1 speed template, 32-bit (sha1-586), $cpu\n";
print "TSC cycles per byte of the block (fastest of $ROUNDS x 101 samples); \"less\" = how much less time\n";
print "than the reference, as tcrypt's reports give it; OpenSSL = OpenSSL 3.0's own sha1-586\n";
print "on the same path (same OPENSSL_ia32cap mask, same process, same harness).\n";
printf "%s\n", join '  ', map { "$_: skipped ($skip{$_})" } grep { $skip{$_} } @PATHS if %skip;
my @cols = grep { $r{$_} } @PATHS;
printf "%6s %6s %6s", 'block', 'update', 'C';
printf " | %-6s %6s %6s %6s", $_, 'OpenSSL', 'less', $_ eq 'x86' ? 'vs C' : '' for @cols;
printf " | %s", 'x86_64 shani' if $r64;
print "\n";
for my $row (@order) {
    my ($b, $u) = split ' ', $row;
    my $c = $r{$first}{$row}[0];
    printf "%6d %6d %6.2f", $b, $u, $c;
    for my $p (@cols) {
        my ($pc, $ours, $ossl) = @{ $r{$p}{$row} };
        printf " | %6.2f %7.2f %6s %6s", $ours, $ossl, pct($ossl, $ours), $p eq 'x86' ? pct($pc, $ours) : '';
    }
    if ($r64) {
        my $v = $r64->{$row}[1];
        printf " | %6.2f (32-bit %+.1f%%)", $v, 100 * ($r{shani} ? $r{shani}{$row}[1] - $v : 0) / $v;
    }
    print "\n";
}
for my $p (@cols) {
    my ($pc, $ours, $ossl) = @{ $r{$p}{'8192 8192'} };
    printf "8 KiB: %-5s %.2f c/B, OpenSSL %.2f: %.3fx OpenSSL's speed%s\n", $p, $ours, $ossl, $ossl / $ours,
        $p eq 'x86' ? sprintf(', %.2fx the C (%.2f c/B)', $pc / $ours, $pc) : '';
}
if ($r64 && $r{shani}) {
    my ($v32, $v64) = ($r{shani}{'8192 8192'}[1], $r64->{'8192 8192'}[1]);
    printf "8 KiB: SHA-NI 32-bit %.2f c/B against sha1-x86_64's %.2f: %+.1f%%\n", $v32, $v64,
        100 * ($v32 - $v64) / $v64;
}
