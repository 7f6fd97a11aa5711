# SPDX-License-Identifier: Apache-2.0
package PerlasmPairs;
# What the two comparisons of OpenSSL's own perlasm modules with ours
# share (tools/openssl-xlate.pl for x86_64, tools/openssl-x86.pl for the
# 32-bit modules): running a command, the cached source tree and its
# release, a shadow tree whose layer file is a shim to ours, the first
# differing line of two instruction lists, and pairs checked in parallel.
use strict;
use warnings;
use Exporter qw(import);
use File::Path qw(remove_tree);
use File::Spec;
use File::Basename ();
use Cwd ();
use lib File::Basename::dirname(Cwd::abs_path(__FILE__)) . '/../../support/perl';
use Slurp qw(slurp);

our @EXPORT_OK = qw(run_capture in_path slurp usage_error openssl_tree
                    make_shadow first_difference check_all modules_using build_one
                    module_name pick_modules work_dir disassembly xlate_shim);

# The tool's name for its error lines (set by the tool).
our $TOOL = 'openssl-compare';

sub usage_error {
    print STDERR "$TOOL: $_[0]\n";
    exit 2;
}

sub in_path {
    my ($cmd) = @_;
    return grep { -x "$_/$cmd" } split /:/, ($ENV{PATH} // '');
}


# Runs a command with %$env added, in $dir if given, stdin from /dev/null;
# returns (status, combined stdout+stderr).
sub run_capture {
    my ($env, $dir, @cmd) = @_;
    my $pid = open(my $fh, '-|');
    die "fork: $!" unless defined $pid;
    if ($pid == 0) {
        open(STDERR, '>&', \*STDOUT);
        open(STDIN, '<', '/dev/null');
        chdir $dir or die "chdir $dir: $!" if defined $dir;
        @ENV{ keys %$env } = values %$env;
        exec { $cmd[0] } @cmd or die "exec $cmd[0]: $!\n";
    }
    local $/;
    my $out = <$fh> // '';
    close $fh;
    return ($?, $out);
}

# The cached tree of OpenSSL $version, as tools/openssl-source.sh --cached
# names it ($here: the tools directory): (path) or (undef, how to fetch it).
sub cached_tree {
    my ($here, $version) = @_;
    my ($st, $out) = run_capture({}, undef, 'sh', "$here/openssl-source.sh", '--cached', $version);
    chomp $out;
    return $out unless $st;
    usage_error("tools/openssl-source.sh --cached $version failed (exit " . ($st >> 8) . "): $out")
        if $st >> 8 != 2;
    return (undef, $out =~ s/^openssl-source: //r);
}

# MAJOR.MINOR.PATCH from a tree's VERSION.dat, or undef.
sub tree_version {
    my $text = slurp("$_[0]/VERSION.dat") // return undef;
    my %v = $text =~ /^(MAJOR|MINOR|PATCH)=(\d+)$/mg;
    return 3 == grep({ defined } @v{qw(MAJOR MINOR PATCH)}) ? "$v{MAJOR}.$v{MINOR}.$v{PATCH}" : undef;
}

# The OpenSSL tree a comparison works on and its release: $arg{src} (the
# tool's --src) if given, else the cached tree of $arg{series} ($arg{here}:
# the tools directory).  With neither: under $arg{tap}, the TAP that
# $arg{skip} makes of the reason is printed and () returned, so that the
# tool ends as a SKIP; otherwise a usage error saying how to fetch it (and,
# with $arg{src_option}, that --src is the other way).  A tree of another
# series is a usage error ($arg{series_option}: the tool's --version chose
# the series).
sub openssl_tree {
    my (%arg) = @_;
    my $src = $arg{src};
    if (!defined $src) {
        my ($tree, $why) = cached_tree($arg{here}, $arg{series});
        if (!defined $tree) {
            usage_error($arg{src_option} ? "$why; or give --src DIR" : $why) unless $arg{tap};
            print $arg{skip}->($why);
            return;
        }
        $src = $tree;
    }
    my $dir = Cwd::abs_path($src) // usage_error("--src $src: no such directory");
    my $release = tree_version($dir) // usage_error("$dir is not an OpenSSL tree (no VERSION.dat)");
    usage_error("$dir holds OpenSSL $release, not $arg{series}"
                . ($arg{series_option} ? ' (see --version)' : ''))
        unless $release =~ /^\Q$arg{series}\E\./;
    return ($dir, $release);
}

# A symlink mirror of $src at $shadow in which the file $layer (relative
# to the root) is replaced by $text; the source tree is never written.
sub make_shadow {
    my ($src, $shadow, $layer, $text) = @_;
    remove_tree($shadow);
    my ($st, $out) = run_capture({}, undef, 'cp', '-rs', $src, $shadow);
    usage_error("cannot mirror $src into $shadow: $out") if $st;
    my $shim = "$shadow/$layer";
    unlink $shim;
    open(my $fh, '>', $shim) or usage_error("cannot write $shim: $!");
    print $fh $text;
    close $fh or usage_error("cannot write $shim: $!");
}

# The text of a crypto/perlasm/x86_64-xlate.pl that execs our translator $ours.
sub xlate_shim {
    my ($ours) = @_;
    return "#!/usr/bin/env perl\nexec(\$^X, '$ours', \@ARGV) or die \"exec $ours: \$!\\n\";\n";
}

# Every .pl under crypto/ and engines/ of $src whose text matches $re
# (but $skip, the layer's own files), relative to $src, sorted.
sub modules_using {
    my ($src, $re, $skip) = @_;
    my @found;
    for my $top (qw(crypto engines)) {
        my @stack = ("$src/$top");
        while (my $d = shift @stack) {
            opendir(my $dh, $d) or next;
            for my $e (sort readdir $dh) {
                next if $e =~ /^\./;
                my $p = "$d/$e";
                if (-d $p && !-l $p) { push @stack, $p; next }
                next unless $e =~ /\.pl$/ && $e !~ $skip;
                my $text = slurp($p) // next;
                push @found, File::Spec->abs2rel($p, $src) if $text =~ $re;
            }
        }
    }
    return sort @found;
}

# Generates one module x flavour in $root (perl MODULE ARGS... OUTPUT, CC=gcc
# in the environment), assembles it with $t->{as} and lists its code with
# $listing->(OBJECT) -> (lines, error).  $verb names the first stage in an
# error ("translate", "generate").  Returns (lines, error, stages passed:
# 0 none, 1 generated, 2 assembled too).
sub build_one {
    my ($root, $args, $t, $out_base, $listing, $verb) = @_;
    my $asm = "$out_base.$t->{ext}";
    my $obj = "$out_base.o";
    unlink $asm, $obj;
    my ($st, $log) = run_capture({ CC => 'gcc' }, $root, $^X, @$args, $asm);
    if ($st || !-s $asm) {
        my ($first) = grep { /\S/ } split /\n/, $log;
        return (undef, "$verb: " . ($first // "exit status " . ($st >> 8)), 0);
    }
    return (undef, "$verb: warning: " . (split /\n/, $log)[0], 0) if $log =~ /\S/;
    ($st, $log) = run_capture({}, undef, $t->{as}->($asm, $obj));
    if ($st || $log =~ /\S/) {
        my ($first) = grep { /\S/ } split /\n/, $log;
        return (undef, 'assemble: ' . ($first // 'failed'), 1);
    }
    return ($listing->($obj), 2);
}

# The disassembly @$cmd prints, without its file header and blank lines,
# the symbol lines that match $drop, or the "<symbol+offset>" notes after
# operands: (lines) or (undef, error).
sub disassembly {
    my ($cmd, $drop) = @_;
    my ($st, $out) = run_capture({}, undef, @$cmd);
    return (undef, "disassembly failed: $out") if $st;
    my @lines = grep { !/file format/ && /\S/ && !(/^[0-9a-f]+ <[^<>]*>:$/ && $_ =~ $drop) }
                split /\n/, $out;
    s/^(\s+[0-9a-f]+:.*?)\s*<[^<>]*>/$1/ for @lines;
    return (\@lines, '');
}

sub module_name { my $n = File::Basename::basename($_[0]); $n =~ s/\.pl$//; return $n }

# The modules a comma list names (by name or path) out of @$all; all of
# them without a list.
sub pick_modules {
    my ($all, $list) = @_;
    return @$all unless defined $list;
    my %by_name = map { (module_name($_) => $_, $_ => $_) } @$all;
    return map { $by_name{$_} // usage_error("unknown module '$_'") } split /,/, $list;
}

# The scratch directory, made, as an absolute path.
sub work_dir {
    my ($work) = @_;
    File::Path::make_path($work);
    return Cwd::abs_path($work);
}

sub first_difference {
    my ($a, $b) = @_;
    my $n = @$a > @$b ? @$a : @$b;
    for my $i (0 .. $n - 1) {
        my ($x, $y) = ($a->[$i] // '<end>', $b->[$i] // '<end>');
        next if $x eq $y;
        return "code differs at line " . ($i + 1) . ": OpenSSL '$x', ours '$y'";
    }
    return undef;
}

# $check->(@$pair) for every pair, spread over $jobs processes; it returns
# (stages, why-or-undef, skip-or-undef).  Returns [pair..., why, stages,
# skip] in the pairs' order.
sub check_all {
    my ($jobs, $pairs, $check) = @_;
    my @slots = map { [] } 1 .. $jobs;
    push @{ $slots[$_ % $jobs] }, $_ for 0 .. $#$pairs;
    my %result;
    my @kids;
    for my $slot (grep { @$_ } @slots) {
        my $pid = open(my $fh, '-|') // die "fork: $!";
        if (!$pid) {
            for my $i (@$slot) {
                my ($stages, $why, $skip) = $check->(@{ $pairs->[$i] });
                print join("\t", $i, $stages, map { defined $_ ? s/\s+/ /gr : '' } $why, $skip), "\n";
            }
            exit 0;
        }
        push @kids, $fh;
    }
    for my $fh (@kids) {
        while (my $l = <$fh>) {
            chomp $l;
            my ($i, $stages, $why, $skip) = split /\t/, $l, 4;
            $result{$i} = [ length $why ? $why : undef, $stages, length $skip ? $skip : undef ];
        }
        close $fh;
    }
    return map { [ @{ $pairs->[$_] }, @{ $result{$_} // [ 'no result (a worker died)', 0 ] } ] }
           0 .. $#$pairs;
}

1;
