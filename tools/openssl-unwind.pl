#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# Translates OpenSSL's own x86_64 modules with Win64 unwind data from CFI
# alone (-DPERLASM_WIN64_UNWIND_FROM_CFI: the modules' .pdata/.xdata and
# their handler references dropped), assembles them, and counts per module
# the functions whose every region unwind codes describe, those where the
# layer's generated handler describes some region, those with no CFI
# (unwound as leaves) and those that cannot be described.
#
#   perl tools/openssl-unwind.pl [--version 3.0|3.5] [--flavours mingw64,nasm]
#                                [--modules LIST] [--work DIR] [--verbose] [--tap]
#                                [--compare]
#
# --version  which cached OpenSSL (tools/openssl-source.sh --cached): 3.0
#            (default) or 3.5
# --flavours comma list of mingw64, nasm, masm (default mingw64,nasm); masm
#            is translated only (no assembler here)
# --modules  comma list of module names (default: every x86_64 module)
# --verbose  each function and how it is described
# --tap      TAP: one result per module x flavour (translated, assembled,
#            no function undescribed, .xdata names no handler but ours);
#            a SKIP when the source is not cached or an assembler missing
# --compare  also translate each module with OpenSSL's own translator
#            (mingw64, in the cached tree, output under --work) and print
#            a Markdown table: per module, how OpenSSL's own .pdata/.xdata
#            describes each function (a handler routine of the module's,
#            unwind codes alone, or no entry: unwound as a leaf, wrongly
#            where the function has a frame) beside how
#            this mode does (codes alone, the generated handler in some
#            regions, no CFI: a leaf)
#
# The assembled object's .xdata relocations are checked too: the only
# symbol they may name, besides .xdata itself, is the generated handler
# (on nasm a local label's relocation names its section, so there the
# check is that no relocation names another symbol of .text by name).
# Exit 0 when every pair passed, 1 otherwise, 2 on a usage error.
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use File::Path qw(make_path);
use Getopt::Long qw(GetOptionsFromArray);
use lib dirname(abs_path(__FILE__)) . '/lib';
use PerlasmPairs qw(openssl_tree modules_using module_name make_shadow xlate_shim
                    usage_error in_path run_capture);
$PerlasmPairs::TOOL = 'openssl-unwind';

my $MACRO = 'PERLASM_WIN64_UNWIND_FROM_CFI';
my $HANDLER = 'perlasm_win64_cfi_handler';
my %ASSEMBLE = (
    mingw64 => { ext => 's', tool => 'x86_64-w64-mingw32-as',
                 cmd => sub { ('x86_64-w64-mingw32-as', '--fatal-warnings', '-o', $_[1], $_[0]) } },
    nasm    => { ext => 'asm', tool => 'nasm',
                 cmd => sub { ('nasm', '-f', 'win64', '-Werror', '-o', $_[1], $_[0]) } },
    masm    => { ext => 'asm' },
);

# One module x flavour: { codes, handler, leaf, failed => [...], error,
# functions => [[name, how]] }.
sub check_one {
    my ($shadow, $work, $module, $flavour) = @_;
    my $a = $ASSEMBLE{$flavour};
    my $name = module_name($module);
    my $asm = "$work/$flavour/$name.$a->{ext}";
    my $obj = "$work/$flavour/$name.o";
    unlink $asm, $obj;
    my %r = (codes => 0, handler => 0, leaf => 0, failed => [], functions => []);
    my ($st, $log) = run_capture({ CC => 'gcc' }, $shadow, $^X, $module, $flavour, "-D$MACRO", $asm);
    if ($st) {
        if ($log =~ /Win64 unwind from CFI: \d+ of \d+ functions cannot be described: (.*)/) {
            $r{failed} = [ split /; /, $1 ];
        }
        $r{error} = 'translate: ' . ((grep { /\S/ } split /\n/, $log)[0] // 'failed');
        return \%r;
    }
    open(my $fh, '<', $asm) or return { %r, error => "no output: $!" };
    while (my $l = <$fh>) {
        next unless $l =~ /^[#;] Win64 unwind from CFI: (\S+): (.*)$/;
        my ($f, $how) = ($1, $2);
        push @{ $r{functions} }, [ $f, $how ];
        $r{ $how eq 'codes' ? 'codes' : $how =~ /^handler/ ? 'handler' : 'leaf' }++;
    }
    close $fh;
    return \%r unless $a->{cmd};
    ($st, $log) = run_capture({ CC => 'gcc' }, undef, $a->{cmd}->($asm, $obj));
    return { %r, error => 'assemble: ' . ((grep { /\S/ } split /\n/, $log)[0] // 'failed') }
        if $st || $log =~ /\S/;
    my $foreign = foreign_handler($obj, $asm);
    $r{error} = ".xdata names $foreign" if defined $foreign;
    return \%r;
}

# A symbol other than the generated handler that the object's .xdata
# relocations name (a handler of the module's own), or undef.
sub foreign_handler {
    my ($obj) = @_;
    my (undef, $out) = run_capture({ CC => 'gcc' }, undef, 'objdump', '-r', '-j', '.xdata', $obj);
    for my $l (split /\n/, $out) {
        next unless $l =~ /^[0-9a-f]+\s+IMAGE_REL_AMD64_\w+\s+(\S+)/;
        my $sym = $1 =~ s/[+-]0x[0-9a-f]+$//r;
        return $sym unless $sym eq $HANDLER || $sym eq '.xdata' || $sym eq '.text';
    }
    return undef;
}

# How OpenSSL's own mingw64 output describes each of @$functions (the
# module's functions, in our translation's order): { NAME => 'handler' |
# 'codes' | 'none' | 'wrong' }.  A .pdata entry belongs to the function
# whose label comes last before its first address; its .xdata entry names
# a handler when the flags of its first byte say so (UNW_FLAG_EHANDLER or
# UHANDLER).  A function without an entry is unwound as a leaf, which is
# wrong ('wrong') where it moves rsp, pushes, or keeps the caller's rdi
# and rsi in its shadow space while it uses them (the Win64 argument
# shuffle of a `.type NAME,@function,N`).
sub own_unwind {
    my ($asm, $functions) = @_;
    my %is_function = map { ($_ => 1) } @$functions;
    my (%owner, %flags, %frame, $current, $section, $info);
    open(my $fh, '<', $asm) or return undef;
    my @begins;
    while (my $l = <$fh>) {
        $l =~ s/#.*//;
        if ($l =~ /^\s*\.(text|data|bss)\b/ || $l =~ /^\s*\.section\s+([.\w]+)/) {
            $section = $1 =~ s/^\.//r;
            next;
        }
        if ($l =~ /^\s*([.\w\$]+):/) {
            my $label = $1;
            if (($section // 'text') eq 'text') {
                $current = $label if $is_function{$label};
                $owner{$label} = $current;
            } elsif ($section eq 'xdata') {
                $info = $label;
            }
        }
        $frame{$current} = 1
            if defined $current && ($section // 'text') eq 'text'
               && $l =~ /^\s*(?:push\w*\s|(?:sub|add|lea|and|mov)q?\s+[^,]+,\s*%rsp\s*$|movq?\s+%rdi,\s*8\(%rsp\))/;
        if (($section // '') eq 'pdata' && $l =~ /^\s*\.rva\s+(\S+)/) {
            push @begins, $1;
        } elsif (($section // '') eq 'xdata' && defined $info && $l =~ /^\s*\.byte\s+(\w+)/) {
            my $first = $1;
            $flags{$info} //= (($first =~ /^0x/i ? hex $first : $first) >> 3) & 3;
        }
    }
    close $fh;
    my %how = map { ($_ => $frame{$_} ? 'wrong' : 'none') } @$functions;
    for (my $i = 0; $i + 2 < @begins; $i += 3) {
        my $f = $owner{ $begins[$i] } // next;
        my $h = $flags{ $begins[ $i + 2 ] } ? 'handler' : 'codes';
        $how{$f} = $h unless $how{$f} eq 'handler' && $h eq 'codes';
    }
    return \%how;
}

# The comparison table's rows (Markdown), one per module and a total.
sub compare_table {
    my ($src, $work, $release, $rows) = @_;
    my @cols = qw(own_handler own_codes own_none own_wrong codes handler leaf);
    my %total;
    my @out = ("OpenSSL $release, mingw64: functions per module",
               '',
               '| module | functions | OpenSSL: own handler | OpenSSL: codes only'
               . ' | OpenSSL: no entry, leaf | OpenSSL: no entry, has a frame (wrong)'
               . ' | ours: codes alone | ours: generated handler | ours: no CFI (leaf) |',
               '|---|---|---|---|---|---|---|---|---|');
    for my $row (@$rows) {
        my ($name, $module, $r) = @$row;
        my @functions = map { $_->[0] } @{ $r->{functions} };
        my $asm = "$work/openssl-own/$name.s";
        unlink $asm;
        my ($st) = run_capture({ CC => 'gcc' }, $src, $^X, $module, 'mingw64', $asm);
        my $how = $st ? undef : own_unwind($asm, \@functions);
        if (!$how) {
            push @out, "| $name | translation by OpenSSL's own translator failed |";
            next;
        }
        my %n = (codes => $r->{codes}, handler => $r->{handler}, leaf => $r->{leaf});
        for my $kind (qw(handler codes none wrong)) {
            $n{"own_$kind"} = scalar grep { $how->{$_} eq $kind } @functions;
        }
        $total{$_} += $n{$_} for @cols;
        $total{functions} += @functions;
        push @out, sprintf '| %s | %d | %s |', $name, scalar @functions, join(' | ', @n{@cols});
    }
    push @out, sprintf '| all %d | %d | %s |', scalar @$rows, $total{functions} // 0,
        join(' | ', map { $total{$_} // 0 } @cols);
    return map { "$_\n" } @out;
}

sub main {
    my %opt = (version => '3.0', flavours => 'mingw64,nasm', work => 'build/openssl-unwind');
    GetOptionsFromArray(\@_, \%opt, 'version=s', 'flavours=s', 'modules=s', 'work=s',
                        'verbose', 'tap', 'compare')
        or usage_error('bad option (see the header of tools/openssl-unwind.pl)');
    usage_error("unexpected argument '$_[0]'") if @_;
    usage_error("--version $opt{version}: want 3.0 or 3.5") unless $opt{version} =~ /^3\.[05]$/;
    my @flavours = split /,/, $opt{flavours};
    $ASSEMBLE{$_} or usage_error("unknown flavour '$_' (mingw64, nasm, masm)") for @flavours;
    my $tools = dirname(abs_path(__FILE__));
    my ($src, $release) = openssl_tree(here => $tools, series => $opt{version}, tap => $opt{tap},
                                       skip => sub { "1..0 # SKIP OpenSSL $opt{version}'s source is not cached: $_[0]\n" })
        or return 0;
    my @modules = modules_using($src, qr/x86_64-xlate\.pl/, qr/^x86_64-xlate\.pl$/);
    if (defined $opt{modules}) {
        my %by_name = map { (module_name($_) => $_) } @modules;
        @modules = map { $by_name{$_} // usage_error("unknown module '$_'") } split /,/, $opt{modules};
    }
    make_path($opt{work});
    my $work = abs_path($opt{work});
    make_path("$work/$_") for @flavours, $opt{compare} ? 'openssl-own' : ();
    my $ours = abs_path("$tools/../perlasm/x86_64-xlate.pl");
    make_shadow($src, "$work/shadow", 'crypto/perlasm/x86_64-xlate.pl', xlate_shim($ours));
    STDOUT->autoflush(1);
    print '1..', @modules * @flavours, "\n" if $opt{tap};
    my (%total, $bad, $n, @compare);
    for my $flavour (@flavours) {
        my $tool = $ASSEMBLE{$flavour}{tool};
        my $missing = defined $tool && !in_path($tool) ? "$tool not installed" : undef;
        for my $module (@modules) {
            my $name = module_name($module);
            if ($missing) {
                print $opt{tap} ? "ok @{[ ++$n ]} # SKIP $name $flavour: $missing\n"
                                : "SKIP $name $flavour: $missing\n";
                next;
            }
            my $r = check_one("$work/shadow", $work, $module, $flavour);
            push @compare, [ $name, $module, $r ] if $flavour eq 'mingw64';
            my $failed = @{ $r->{failed} };
            $total{$flavour}{$_} += $r->{$_} for qw(codes handler leaf);
            $total{$flavour}{failed} += $failed;
            my $line = sprintf '%s %s: %d codes, %d handler, %d no CFI (leaf), %d failing%s',
                $name, $flavour, @$r{qw(codes handler leaf)}, $failed,
                defined $r->{error} ? " - $r->{error}" : '';
            $bad++ if defined $r->{error};
            if ($opt{tap}) {
                printf "%s %d - %s\n", defined $r->{error} ? 'not ok' : 'ok', ++$n, $line;
            } else {
                print "$line\n";
                print "    failing: $_\n" for @{ $r->{failed} };
                print "    $_->[0]: $_->[1]\n" for $opt{verbose} ? @{ $r->{functions} } : ();
            }
        }
        next if $missing;
        my $t = $total{$flavour};
        my $sum = sprintf "openssl-unwind: OpenSSL %s %s, %d modules: %d functions by codes alone,"
            . " %d with the generated handler, %d without CFI (leaf), %d failing",
            $release, $flavour, scalar @modules, @$t{qw(codes handler leaf failed)};
        print $opt{tap} ? "# $sum\n" : "$sum\n";
    }
    if ($opt{compare}) {
        usage_error('--compare needs the mingw64 flavour') unless @compare;
        print "\n", compare_table($src, $work, $release, \@compare);
    }
    return $bad ? 1 : 0;
}

exit main(@ARGV);
