#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# The constant-time report: every AES and SHA-1 path of the registry run
# under valgrind memcheck with its key and data marked undefined (the
# ctgrind method; test/ctgrind/ct_check.c), each path in its own run so
# that an instruction valgrind cannot decode ends only that run.
#
#   perl tools/ct-report.pl [--build DIR] [--tsv FILE] [--only REGEX] [--keep DIR]
#
# Programs (make ct-report builds them): DIR/test/ctgrind/ct_check (the
# archive as configured), DIR/test/ctgrind/ct_check_ct (the constant-time
# C core; only its "c" entry differs) and DIR/m32/ctgrind/ct_check (the
# 32-bit archive, static, for valgrind's x86 tools).  Path names are
# ARCH:KIND/NAME, the C AES entry as c.table or c.ct by its core.
#
# For each path, runs until every operation was tried (--from after a
# death):
#  1. natively, for the outputs' digests;
#  2. under valgrind --tool=memcheck --track-origins=no, reading the log
#     between each operation's ct-begin and ct-end markers: "Conditional
#     jump or move depends on uninitialised value(s)" is a branch (or
#     cmov) on the secret, "Use of uninitialised value of size N" an
#     address computed from it, anything else "other"; an unrecognised
#     instruction ends the operation as not covered;
#  3. only when step 2 found errors, again with --track-origins=yes, so
#     that errors whose undefined value does not come from the client
#     request that marked the secret (a stack slot written below the
#     stack pointer and read back, say) are counted apart.
# Counts are distinct code locations (the top frame's address).
#
# Verdict per path: "exposed" when any secret-dependent branch, address or
# other error was found; else "not covered: ..." when an operation could
# not run (the instruction valgrind cannot decode, disassembled); else
# "clean", unless an operation failed as evidence: "untainted" (an output
# did not depend on the secret: the function did not compute it) or
# "wrong output" (its digest differs from the native run's).  Exit status
# 0 when every path has a verdict of clean, exposed or not covered.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../support/perl";
use File::Temp qw(tempdir);
use Getopt::Long qw(GetOptions);
use Slurp qw(slurp);

my ($build, $tsv, $only, $keep) = ('build');
GetOptions('build=s' => \$build, 'tsv=s' => \$tsv, 'only=s' => \$only, 'keep=s' => \$keep)
    && !@ARGV or die "usage: $0 [--build DIR] [--tsv FILE] [--only REGEX] [--keep DIR]\n";
my $work = $keep // tempdir(CLEANUP => 1);
mkdir $work;

# The tool as the build probed it (mk/toolchain.mk).
my %tool;
for (split /\n/, slurp("$build/toolchain.txt") // '') {
    my ($name, $have, $cmd, $pkg) = split /\t/;
    $tool{$name} = { have => $have, cmd => $cmd, pkg => $pkg } if defined $pkg;
}
my $core = (slurp("$build/gen/config") // '') =~ /\bAES_CORE=(\w+)/ ? $1 : 'table';

# In report order: the architecture, the program, which of its paths to
# run, the C AES core it has, objdump's name for the architecture.
my @PROGRAMS = (
    [ 'x86_64', "$build/test/ctgrind/ct_check", sub { 1 }, $core, 'amd64' ],
    [ 'x86_64', "$build/test/ctgrind/ct_check_ct", sub { $_[0] eq 'aes/c' && $core ne 'ct' }, 'ct', 'amd64' ],
    [ 'i386', "$build/m32/ctgrind/ct_check", sub { 1 }, 'table', 'i386' ],
);

my @rows;           # { path, verdict, branch, address, other, notsecret, has, detail[] }
my @probes;         # [arch, name, what, decodes (yes/no), native (yes/no)]
my @digests;        # [path, op index, op name, digest]

sub capture {
    my ($env, @cmd) = @_;
    local %ENV = %ENV;
    for (keys %$env) { if (defined $env->{$_}) { $ENV{$_} = $env->{$_} } else { delete $ENV{$_} } }
    my $pid = open(my $fh, '-|') // die "fork: $!\n";
    if (!$pid) {
        open STDERR, '>', '/dev/null';
        exec @cmd or exit 127;
    }
    local $/;
    my $out = <$fh> // '';
    close $fh;
    return ($?, $out);
}

# "op N NAME digest HEX" / "op N NAME untainted HEX" / "op N NAME n/a" /
# "op N NAME sigill".
sub op_lines {
    my ($out) = @_;
    my %ops;
    for (split /\n/, $out) {
        next unless /^op (\d+) (\S+) (digest|untainted|n\/a|sigill)(?: ([0-9a-f]+))?$/;
        $ops{$1} = { name => $2, state => $3, digest => $4 };
    }
    return %ops;
}

# The first instruction of the bytes valgrind printed (padded with zeros,
# since the x86 front end prints only four): its mnemonic, and the widest
# vector register it names when the bytes printed hold all of it.
sub disassemble {
    my ($bytes, $mode) = @_;
    my @b = map { hex } @$bytes;
    my $bin = "$work/insn.bin";
    open(my $fh, '>:raw', $bin) or die "$bin: $!\n";
    print $fh pack('C*', @b, (0) x 16);
    close $fh;
    my ($st, $out) = capture({}, 'objdump', '-D', '--insn-width=16', '-b', 'binary', '-m',
                             $mode eq 'i386' ? 'i386' : 'i386:x86-64', $bin);
    return join(' ', map { sprintf '%02x', $_ } @b) . ' (bytes)'
        unless $st == 0 && $out =~ /^\s+0:\s+((?:[0-9a-f]{2} )+)\s*(\S+)\s*(\S*)/m;
    my ($len, $mn, $ops) = (scalar(split ' ', $1), $2, $3);
    my ($reg) = $len <= @b ? (grep { $ops =~ /%$_/ } qw(zmm ymm xmm)) : ();
    return $reg ? "$mn ($reg)" : $mn;
}

# One valgrind log: what each operation window held.  The x86 and amd64
# front ends print an undecodable instruction's bytes once, then only
# "Unrecognised instruction at address A": %INSN keeps A's disassembly.
my %INSN;
sub parse_log {
    my ($text, $mode, $prog) = @_;
    my (%res, $cur, $bytes);
    my @lines = split /\n/, $text;
    for (my $i = 0; $i < @lines; $i++) {
        my $l = $lines[$i];
        if ($l =~ /^\*\*\d+\*\* ct-begin (\d+) (\S+)/) {
            $cur = $1;
            $res{$cur} = { name => $2, errors => [] };
            next;
        }
        if ($l =~ /^\*\*\d+\*\* ct-(end|sigill)/) {
            undef $cur;
            next;
        }
        if ($l =~ /^vex \S+->IR: unhandled instruction bytes: (.*)$/) {
            $bytes = [ $1 =~ /0x([0-9A-Fa-f]+)/g ];
            next;
        }
        if ($l =~ /^==\d+== valgrind: Unrecognised instruction at address (0x[0-9a-fA-F]+)/) {
            my $key = "$prog " . lc $1;
            $INSN{$key} //= disassemble($bytes, $mode) if $bytes;
            undef $bytes;
            my $where = $i + 1 < @lines && $lines[$i + 1] =~ /^==\d+==\s+at 0x[0-9A-Fa-f]+: (\S+)/ ? " in $1" : '';
            $res{$cur}{undecodable} = ($INSN{$key} // "the instruction at $1") . $where if defined $cur;
            next;
        }
        next unless defined $cur;
        next unless $l =~ /^==\d+== (\S.*)$/;
        my $kind_text = $1;
        next if $kind_text =~ /^(valgrind: Unrecognised|Your program|did not|Either way|probably kill|Process terminating|\d\. )/;
        next unless $i + 1 < @lines && $lines[$i + 1] =~ /^==\d+==\s+at (0x[0-9A-Fa-f]+): (.*)$/;
        my ($addr, $frame) = (lc $1, $2);
        my $kind = $kind_text =~ /^Conditional jump or move depends on uninitialised/ ? 'branch'
                 : $kind_text =~ /^Use of uninitialised value of size/ ? 'address'
                 : $kind_text =~ /uninitialised/i ? 'other' : 'memory';
        my $origin;
        for (my $j = $i + 2; $j < @lines && $lines[$j] =~ /^==\d+==\s+\S/; $j++) {
            if ($lines[$j] =~ /Uninitialised value was created by (.*)$/) {
                $origin = $1;
                $origin .= " at $1" if $j + 1 < @lines && $lines[$j + 1] =~ /^==\d+==\s+at 0x[0-9A-Fa-f]+: (\S+)/;
                last;
            }
        }
        push @{ $res{$cur}{errors} }, { kind => $kind, addr => $addr, frame => $frame,
                                         text => $kind_text, origin => $origin };
    }
    return %res;
}

# Runs PROG --path PATH from operation 0 to the end, restarting after an
# operation that killed the run; returns (ops from stdout, windows from the log).
sub run_all {
    my ($how, $prog, $name, $path, $mask, $nops, $mode, @valgrind) = @_;
    my (%ops, %win);
    my $from = 0;
    for (my $round = 0; $round < 200; $round++) {
        my $log = "$work/" . ($name =~ s{[/:]}{_}gr) . ".$how.$round.log";
        my @cmd = (@valgrind ? (@valgrind, "--log-file=$log") : (), $prog, '--path', $path,
                   $from ? ('--from', $from) : ());
        my ($st, $out) = capture({ OPENSSL_ia32cap => $mask }, @cmd);
        my %o = op_lines($out);
        %ops = (%ops, %o);
        my %w = @valgrind ? parse_log(slurp($log) // '', $mode, $prog) : ();
        %win = (%win, %w);
        for my $i (grep { $o{$_}{state} eq 'sigill' } keys %o) {
            $ops{$i}{state} = 'died';
            $ops{$i}{why} = $w{$i} && $w{$i}{undecodable} ? "valgrind cannot decode $w{$i}{undecodable}" : 'SIGILL';
        }
        # The first operation at or after $from that did not finish.
        my ($dead) = grep { !exists $o{$_} } $from .. $nops - 1;
        last unless defined $dead;
        $ops{$dead} //= { name => ($w{$dead} ? $w{$dead}{name} : "op$dead"), state => 'died' };
        $ops{$dead}{state} = 'died';
        $ops{$dead}{why} = sprintf('exit status %d', $st >> 8) . ($st & 127 ? sprintf(', signal %d', $st & 127) : '');
        $from = $dead + 1;
        last if $from >= $nops;
    }
    return (\%ops, \%win);
}

my $valgrind_cmd = $tool{VALGRIND} && $tool{VALGRIND}{have} eq 'yes' ? $tool{VALGRIND}{cmd} : undef;
my @VG = (split(' ', $valgrind_cmd // 'valgrind'), '--tool=memcheck', '--error-exitcode=99',
          '--error-limit=no', '--num-callers=4');

for my $p (@PROGRAMS) {
    my ($arch, $prog, $want, $pcore, $mode) = @$p;
    my $why_not;
    if (!$valgrind_cmd) {
        $why_not = $tool{VALGRIND} ? "$tool{VALGRIND}{cmd} not usable ($tool{VALGRIND}{pkg})"
                                   : "no $build/toolchain.txt (run make first)";
    } elsif ($arch eq 'i386' && ($tool{CC32}{have} // '') ne 'yes') {
        $why_not = "$tool{CC32}{cmd} not usable ($tool{CC32}{pkg})";
    } elsif ($arch eq 'i386' && ($tool{RUN_I386}{have} // '') ne 'yes') {
        # valgrind's x86 tools run the program on this kernel, as it does
        $why_not = 'this kernel does not run i386 programs (no IA32 emulation)';
    } elsif (!-x $prog) {
        $why_not = "$prog is missing (make ct-report builds it)";
    }
    my @list;
    if (!$why_not) {
        my ($st, $out) = capture({ OPENSSL_ia32cap => undef }, $prog, '--list');
        @list = map { [ split /\t/, $_, -1 ] } grep { /\S/ } split /\n/, $out;
        $why_not = "$prog --list failed (exit $st)" if $st != 0 || !@list;
    }
    if ($why_not) {
        next if $prog =~ /_ct$/ && $core eq 'ct';
        push @rows, { path => "$arch:*", verdict => "not covered: $why_not", detail => [] };
        next;
    }
    # Which instruction classes valgrind's decoder handles (the tool
    # does not matter: --tool=none), once per architecture.
    unless (grep { $_->[0] eq $arch } @probes) {
        my (undef, $nout) = capture({}, $prog, '--probes');
        my (undef, $vout) = capture({}, split(' ', $valgrind_cmd), '--tool=none', '-q', $prog, '--probes');
        my %vg = map { (split /\t/)[0, 2] } grep { /\t/ } split /\n/, $vout;
        for (grep { /\t/ } split /\n/, $nout) {
            my ($probe, $what, $native) = split /\t/;
            push @probes, [ $arch, $probe, $what, ($vg{$probe} // '') eq 'ran' ? 'yes' : 'no',
                            $native eq 'ran' ? 'yes' : 'no' ];
        }
    }
    for my $e (@list) {
        my ($path, $mask, $has, $nops) = @$e;
        next unless $want->($path);
        my $name = "$arch:" . ($path eq 'aes/c' ? "aes/c.$pcore" : $path);
        next if defined $only && $name !~ /$only/;
        $mask = undef if defined $mask && $mask eq '';
        my ($native) = run_all('native', $prog, $name, $path, $mask, $nops, $mode);
        my ($ops, $win) = run_all('memcheck', $prog, $name, $path, $mask, $nops, $mode, @VG, '--track-origins=no');
        my $errors = grep { @{ $_->{errors} } } values %$win;
        my $origins = 0;
        if ($errors) {
            ($ops, $win) = run_all('origins', $prog, $name, $path, $mask, $nops, $mode, @VG, '--track-origins=yes');
            $origins = 1;
        }
        my (%loc, %notsecret, @died, @untainted, @wrong, @uncompared, @na, @detail);
        my $ran = 0;
        for my $i (0 .. $nops - 1) {
            my $o = $ops->{$i} // { name => "op$i", state => 'died', why => 'no output' };
            my $w = $win->{$i} // { errors => [] };
            my $secret = 0;
            for my $err (@{ $w->{errors} }) {
                # Not the secret's doing: an error about memory rather than
                # undefined values, or an undefined value created elsewhere.
                # Without an origin (memcheck loses some) it counts as the secret's.
                if ($err->{kind} eq 'memory') {
                    $notsecret{$err->{addr}} //= "$err->{frame}: $err->{text}";
                    next;
                }
                if ($origins && defined $err->{origin} && $err->{origin} !~ /^a client request/) {
                    $notsecret{$err->{addr}} //= "$err->{frame}: undefined value created by $err->{origin}";
                    next;
                }
                $loc{$err->{kind}}{$err->{addr}} //= $err->{frame};
                $secret++;
            }
            if ($o->{state} eq 'n/a') { push @na, $o->{name}; next }
            if ($o->{state} eq 'died') { push @died, [ $o->{name}, $o->{why} // 'died' ]; next }
            $ran++;
            push @untainted, $o->{name} if $o->{state} eq 'untainted' && !$secret;
            # A CPU without the instruction cannot give the native digest.
            my $n = $native->{$i};
            if ($n && defined $n->{digest}) {
                push @wrong, $o->{name} if $n->{digest} ne ($o->{digest} // '');
            } else {
                push @uncompared, $o->{name};
            }
            push @digests, [ $name, $i, $o->{name}, $o->{digest} ];
        }
        my %count = map { $_ => scalar keys %{ $loc{$_} // {} } } qw(branch address other);
        my $verdict;
        if ($count{branch} + $count{address} + $count{other}) {
            $verdict = 'exposed';
        } elsif (@died) {
            my %insn;
            my @other = grep { $_->[1] !~ /^valgrind cannot decode (.*?)(?: in \S+)?$/ || !($insn{$1} = 1) } @died;
            $verdict = 'not covered: ' . join('; ', (%insn ? 'valgrind cannot decode ' . join(', ', sort keys %insn) : ()),
                                                     map { $_->[1] } @other)
                     . ' (' . scalar(@died) . " of $nops ops)";
        } elsif (@untainted) {
            $verdict = 'untainted: ' . join(' ', @untainted);
        } elsif (@wrong) {
            $verdict = 'wrong output: ' . join(' ', @wrong);
        } else {
            $verdict = 'clean';
        }
        push @detail, sprintf('%d of %d operations ran under memcheck%s', $ran, $nops,
                              @na ? ', ' . scalar(@na) . ' not in this path' : '');
        if (@died && $verdict !~ /^not covered/) {
            my %why;
            push @{ $why{$_->[1]} }, $_->[0] for @died;
            push @detail, map { "not covered: $_ (" . join(' ', @{ $why{$_} }) . ')' } sort keys %why;
        } elsif (@died) {
            my %why;
            push @{ $why{$_->[1]} }, $_->[0] for @died;
            push @detail, map { "ops not covered ($_): " . join(' ', @{ $why{$_} }) } sort keys %why;
        }
        push @detail, 'untainted outputs (errors found): ' . join(' ', @untainted) if @untainted && $verdict !~ /^untainted/;
        push @detail, 'differs from the native run: ' . join(' ', @wrong) if @wrong && $verdict !~ /^wrong/;
        push @detail, 'no native run to compare with: ' . join(' ', @uncompared) if @uncompared;
        for my $kind (qw(branch address other)) {
            my %fn;
            $fn{ $loc{$kind}{$_} =~ s/ \(.*//r }++ for keys %{ $loc{$kind} // {} };
            push @detail, "$kind: " . join(', ', map { "$_ x$fn{$_}" } sort keys %fn) if %fn;
        }
        if (%notsecret) {
            my %o;
            $o{ ($notsecret{$_} =~ /^(\S+)/)[0] . ': ' . ($notsecret{$_} =~ s/^[^:]*: //r) }++ for keys %notsecret;
            push @detail, map { "not from the secret: $_ (x$o{$_})" } sort keys %o;
        }
        push @rows, { path => $name, verdict => $verdict, branch => $count{branch},
                      address => $count{address}, other => $count{other},
                      notsecret => scalar(keys %notsecret), has => $has, detail => \@detail };
    }
}

if (@probes) {
    print "valgrind decodes (its x86 and amd64 front ends; native: this CPU runs it):\n";
    for my $arch (grep { my $a = $_; grep { $_->[0] eq $a } @probes } qw(x86_64 i386)) {
        printf "  %-7s %s\n", $arch, join(', ', map { "$_->[1] $_->[3]" . ($_->[4] eq 'yes' ? '' : ' (not native)') }
                                           grep { $_->[0] eq $arch } @probes);
    }
    print "\n";
}
printf "%-24s %-12s %8s %9s %5s %10s\n", 'path', 'verdict', 'branches', 'addresses', 'other', 'not secret';
for my $r (@rows) {
    my ($v, $rest) = $r->{verdict} =~ /^([^:]*)(?::\s*(.*))?$/;
    printf "%-24s %-12s %8s %9s %5s %10s\n", $r->{path}, $v,
           map { $r->{$_} // '-' } qw(branch address other notsecret);
    print "    $v: $rest\n" if defined $rest;
    print "    $_\n" for @{ $r->{detail} };
}

if (defined $tsv) {
    open(my $fh, '>', $tsv) or die "$tsv: $!\n";
    print $fh join("\t", 'path', $_->{path}, $_->{verdict}, map { $_ // '-' } @$_{qw(branch address other notsecret has)}), "\n"
        for @rows;
    print $fh join("\t", 'op', @$_), "\n" for @digests;
    print $fh join("\t", 'probe', @$_), "\n" for @probes;
    close $fh or die "$tsv: $!\n";
}
# The controls' verdicts are the test's business (52-constant-time.t).
exit((grep { $_->{path} !~ /:control\// && $_->{verdict} !~ /^(clean|exposed|not covered)/ } @rows) ? 1 : 0);
