#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# Runs OpenSSL 3.0's 32-bit perlasm modules (the scripts that require
# "x86asm.pl") with OpenSSL's own layer and with ours (perlasm/x86asm.pl),
# for each flavour, assembles both with the real assembler and compares
# the instruction streams.
#
#   perl tools/openssl-x86.pl [--src DIR] [--work DIR] [--flavours LIST]
#                             [--modules LIST] [--verbose] [--jobs N]
#                             [--tap] [--skip FLAVOUR=REASON] [--at-least N]
#
# --src      an OpenSSL 3.0 source tree (default: the one `make
#            openssl-source` cached; with --tap and none cached, one SKIP
#            saying how to fetch it)
# --work     scratch directory (default build/openssl-x86)
# --flavours comma list of elf,macosx,coff,win32n (default all four)
# --modules  comma list of module names (aes-586, x86cpuid, ...); default
#            every script under crypto/ and engines/ that requires x86asm.pl
# --jobs     pairs checked in N processes at once (default 1)
# --tap      TAP instead of the report: one result per module x flavour
# --skip     FLAVOUR=REASON (repeatable, with --tap): that flavour's
#            results are SKIPs with REASON (its tools are missing)
# --at-least N  with --tap: pairs that differ are TAP TODO (listed with
#            their reason), and one more result fails when fewer than N
#            pairs are equal (the count must not drop while work remains)
#
# A module runs as OpenSSL's build runs it: from the source root, with
# CC=gcc in the environment, as `perl MODULE FLAVOUR FLAGS... OUTPUT`
# with OpenSSL's flags for that target (elf: linux-x86's -fPIC; every
# flavour -DOPENSSL_IA32_SSE2).  Ours runs behind a shadow tree (symlinks
# to the source) whose crypto/perlasm/x86asm.pl is a shim loading ours.
# The output is assembled as the target's build assembles it (the gas
# flavours as .S, through the C preprocessor), with __CET__ defined as a
# build with -fcf-protection defines it, so that OpenSSL's conditional
# endbr32 is there to compare (nasm has none).
#
# One line per module x flavour: PASS, SKIP (OpenSSL's own output does not
# assemble here: the pair is not counted), or FAIL and the first reason.
# The last line counts the pairs OpenSSL's layer assembles, and of those
# the ones ours translated, assembled and made equal.  Exit 0 when none
# failed, 1 otherwise, 2 on a usage or setup error.
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(basename dirname);
use File::Path qw(make_path);
use Getopt::Long qw(GetOptionsFromArray);
use lib dirname(abs_path(__FILE__)) . '/lib';
use PerlasmPairs qw(run_capture in_path usage_error openssl_tree
                    make_shadow first_difference check_all modules_using build_one
                    module_name pick_modules work_dir disassembly);
$PerlasmPairs::TOOL = 'openssl-x86';

# Per flavour: the generator's flags, the assembler ($_[0] source, $_[1]
# object), the disassembler and the tools they need.
sub flavour_tools {
    my $objdump = sub { ('objdump', '-d', '-r', '--no-show-raw-insn', $_[0]) };
    return {
        elf    => { flags => [qw(-fPIC -DOPENSSL_IA32_SSE2)], ext => 'S',
                    as => sub { ('gcc', '-m32', '-D__CET__', '-c', '-Wa,--fatal-warnings', '-o', $_[1], $_[0]) },
                    dis => $objdump, needs => [qw(gcc objdump)] },
        macosx => { flags => ['-DOPENSSL_IA32_SSE2'], ext => 'S',
                    as => sub { ('clang', '-target', 'i386-apple-macos10.13', '-D__CET__', '-Werror',
                                 '-c', '-o', $_[1], $_[0]) },
                    dis => sub { ('llvm-objdump', '-d', '-r', '--no-show-raw-insn', $_[0]) },
                    needs => [qw(clang llvm-objdump)] },
        coff   => { flags => ['-DOPENSSL_IA32_SSE2'], ext => 'S',
                    as => sub { ('i686-w64-mingw32-gcc', '-D__CET__', '-c', '-Wa,--fatal-warnings', '-o', $_[1], $_[0]) },
                    dis => $objdump, needs => [qw(i686-w64-mingw32-gcc objdump)] },
        win32n => { flags => ['-DOPENSSL_IA32_SSE2'], ext => 'asm',
                    as => sub { ('nasm', '-f', 'win32', '-o', $_[1], $_[0]) },
                    dis => $objdump, needs => [qw(nasm objdump)] },
    };
}

# The instruction stream of an object.  Local labels are not compared by
# name (OpenSSL's and ours number and spell them differently; COFF and
# nasm keep them as symbols): their symbol lines go, and so do the
# "<symbol+offset>" notes after operands.  Every instruction keeps its
# address, so the layout is still compared byte for byte.
sub instructions { my ($dis, $obj) = @_; return disassembly([ $dis->($obj) ], qr/ <(?:\.?L|L\$)/) }

# One module x flavour: (stages our side passed; why it differs, undef
# when equal; why it is not counted, when OpenSSL's own output does not
# assemble here).
sub check_pair {
    my ($src, $shadow, $work, $tools, $module, $flavour) = @_;
    my $name = module_name($module);
    make_path("$work/openssl/$flavour", "$work/ours/$flavour");
    my $t = $tools->{$flavour};
    my @side = ([ $module, $flavour, @{ $t->{flags} } ], $t);
    my $listing = sub { instructions($t->{dis}, $_[0]) };
    my ($ref, $err_ref) = build_one($src, @side, "$work/openssl/$flavour/$name", $listing, 'generate');
    my ($got, $err, $stages) = build_one($shadow, @side, "$work/ours/$flavour/$name", $listing, 'generate');
    return ($stages, undef, "OpenSSL's own layer: $err_ref") unless $ref;
    return ($stages, $err) unless $got;
    return (2, first_difference($ref, $got));
}

sub main {
    my @argv = @_;
    my %opt = (work => 'build/openssl-x86', flavours => 'elf,macosx,coff,win32n', jobs => 1);
    GetOptionsFromArray(\@argv, \%opt, 'src=s', 'work=s', 'flavours=s', 'modules=s',
                        'verbose', 'jobs=i', 'tap', 'skip=s@', 'at-least=i')
        or usage_error('bad option (see the header of tools/openssl-x86.pl)');
    usage_error("--jobs $opt{jobs}: want 1 or more") if $opt{jobs} < 1;
    usage_error("unexpected argument '$argv[0]'") if @argv;
    usage_error('--at-least goes with --tap') if defined $opt{'at-least'} && !$opt{tap};
    my $here = dirname(abs_path(__FILE__));
    my $ours = abs_path("$here/../perlasm/x86asm.pl");
    my ($src, $release) = openssl_tree(here => $here, src => $opt{src}, series => '3.0',
                                       src_option => 1, tap => $opt{tap},
                                       skip => sub { "1..1\nok 1 # SKIP OpenSSL 3.0's 32-bit modules: $_[0]\n" })
        or return 0;

    my $tools = flavour_tools();
    my @flavours = split /,/, $opt{flavours};
    my %missing;
    for (@{ $opt{skip} // [] }) {
        my ($f, $why) = /^([\w.]+)=(.+)$/ or usage_error("--skip $_: want FLAVOUR=REASON");
        usage_error('--skip goes with --tap') unless $opt{tap};
        $missing{$f} = $why;
    }
    for my $f (@flavours) {
        usage_error("unknown flavour '$f' (elf, macosx, coff, win32n)") unless $tools->{$f};
        next if $missing{$f};
        my @absent = grep { !in_path($_) } @{ $tools->{$f}{needs} };
        next unless @absent;
        usage_error("$f needs @absent, which is not installed") unless $opt{tap};
        $missing{$f} = "@absent not installed";
    }
    my @all = modules_using($src, qr/require\s*["']x86asm\.pl["']/, qr/^x86(?:asm|gas|nasm|masm)\.pl$/);
    my @modules = pick_modules(\@all, $opt{modules});
    my $work = work_dir($opt{work});
    my $shadow = "$work/shadow";
    # The modules `require "x86asm.pl"` from crypto/perlasm: the shim
    # loads our layer into the same package (main), with OpenSSL's
    # conventions.
    make_shadow($src, $shadow, 'crypto/perlasm/x86asm.pl', "require '$ours';\nopenssl_conventions();\n1;\n");

    my @pairs = map { my $m = $_; map { [ $m, $_ ] } grep { !$missing{$_} } @flavours } @modules;
    my @results = check_all($opt{jobs}, \@pairs,
                            sub { check_pair($src, $shadow, $work, $tools, @_) });
    my ($pass, $counted, $translated, $assembled) = (0, 0, 0, 0);
    my $n = 0;
    my $todo = $opt{'at-least'};
    STDOUT->autoflush(1);
    print '1..', @modules * @flavours + (defined $todo ? 1 : 0), "\n" if $opt{tap};
    for my $r (@results) {
        my ($module, $flavour, $why, $stages, $skip) = @$r;
        my $name = module_name($module);
        if (defined $skip) {
            if ($opt{tap}) {
                printf "ok %d # SKIP %s %s: %s\n", ++$n, $name, $flavour, $skip;
            } else {
                printf "SKIP %-18s %-7s %s\n", $name, $flavour, $skip;
            }
            next;
        }
        $counted++;
        $translated++ if $stages >= 1;
        $assembled++ if $stages >= 2;
        $pass++ unless defined $why;
        if ($opt{tap}) {
            printf "%s %d - %s %s%s%s\n", defined $why ? 'not ok' : 'ok', ++$n, $name, $flavour,
                   defined $why ? ": $why" : '', defined $why && defined $todo ? ' # TODO not equal yet' : '';
        } elsif (defined $why) {
            printf "FAIL %-18s %-7s %s\n", $name, $flavour, $why;
        } elsif ($opt{verbose}) {
            printf "PASS %-18s %s\n", $name, $flavour;
        }
    }
    my $summary = "openssl-x86: OpenSSL $release, $counted module x flavour pairs that OpenSSL's layer"
                . " assembles: $translated translated, $assembled assembled, $pass equal to OpenSSL's";
    if ($opt{tap}) {
        for my $f (grep { $missing{$_} } @flavours) {
            printf "ok %d # SKIP %s %s: %s\n", ++$n, module_name($_), $f, $missing{$f} for @modules;
        }
        printf "%s %d - at least %d pairs equal (%d)\n", $pass >= $todo ? 'ok' : 'not ok', ++$n, $todo, $pass
            if defined $todo;
        print "# $summary\n";
        return 0;
    }
    print "$summary\n";
    return $pass == $counted ? 0 : 1;
}

exit main(@ARGV);
