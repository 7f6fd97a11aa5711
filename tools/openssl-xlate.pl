#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# Runs OpenSSL's own x86_64 perlasm modules (3.0 or 3.5) through our
# translator and through OpenSSL's, for each flavour, assembles both with
# the real assembler and compares the instruction streams.
#
#   perl tools/openssl-xlate.pl [--version 3.0|3.5] [--src DIR] [--work DIR]
#                               [--flavours LIST] [--modules LIST] [--verbose]
#                               [--jobs N] [--tap] [--expect FILE]
#
# --version  which OpenSSL: 3.0 (default) or 3.5
# --src      an OpenSSL source tree of that version (default: the one
#            `make openssl-source [OPENSSL_VERSION=3.5]` cached; with --tap
#            and none cached, one SKIP saying how to fetch it)
# --work     scratch directory (default build/openssl-xlate)
# --flavours comma list of elf,macosx,mingw64,nasm (default all four)
# --modules  comma list of module names (aes-x86_64, x86_64cpuid, ...) or
#            paths; default every script under crypto/ and engines/ that
#            pipes into x86_64-xlate.pl
# --jobs     modules run in N processes at once (default 1)
# --tap      TAP instead of the report: one result per module x flavour,
#            a flavour whose assembler is missing SKIPped with the reason
# --skip     FLAVOUR=REASON (repeatable, with --tap): that flavour's results
#            are SKIPs with REASON (a test that knows a tool is missing)
# --expect   rows "MODULE FLAVOURS todo REASON" (test/xlate/openssl-modules.txt):
#            those pairs are reported as TODO with the reason
#
# Besides equal code, our side must translate to the same bytes twice, say
# nothing on stderr, and on ELF carry .note.GNU-stack and the IBT/SHSTK
# property note.
#
# The modules run as OpenSSL's build runs them: from the source root, with
# CC=gcc in the environment (so they enable their AVX/AVX2/AVX-512 code),
# as `perl MODULE FLAVOUR OUTPUT`.  Ours runs behind a shadow tree (symlinks
# to the source) whose crypto/perlasm/x86_64-xlate.pl execs our translator;
# the source tree itself is never written.
#
# One line per module x flavour: PASS, SKIP (see check_pair), or FAIL and
# the first reason.  The last line names the release and counts the pairs
# our translator translated, those that then assembled, and those equal
# to OpenSSL's.  Exit 0 when none failed, 1 otherwise, 2 on a usage or
# setup error.
use strict;
use warnings;
use Cwd qw(abs_path getcwd);
use File::Basename qw(basename dirname);
use File::Path qw(make_path);
use Getopt::Long qw(GetOptionsFromArray);
use lib dirname(abs_path(__FILE__)) . '/lib';
use PerlasmPairs qw(run_capture in_path slurp usage_error openssl_tree
                    make_shadow first_difference check_all modules_using build_one
                    module_name pick_modules work_dir disassembly xlate_shim);
$PerlasmPairs::TOOL = 'openssl-xlate';

# Assembler command per flavour ($_[0] source, $_[1] object), with the
# flavour's disassembler.
sub flavour_tools {
    return {
        elf     => { as => sub { ('as', '--64', '--fatal-warnings', '-o', $_[1], $_[0]) },
                     dis => sub { ('objdump', '-d', '-r', '--no-show-raw-insn', $_[0]) },
                     ext => 's', needs => 'as' },
        macosx  => { as => sub { ('clang', '-target', 'x86_64-apple-macos10.13', '-Werror',
                                  '-c', '-x', 'assembler', '-o', $_[1], $_[0]) },
                     dis => sub { ('llvm-objdump', '-d', '-r', '--no-show-raw-insn', $_[0]) },
                     ext => 's', needs => 'clang' },
        mingw64 => { as => sub { ('x86_64-w64-mingw32-as', '--fatal-warnings', '-o', $_[1], $_[0]) },
                     dis => sub { ('objdump', '-d', '-r', '--no-show-raw-insn', $_[0]) },
                     ext => 's', needs => 'x86_64-w64-mingw32-as' },
        nasm    => { as => sub { ('nasm', '-f', 'win64', '-Werror', '-o', $_[1], $_[0]) },
                     dis => sub { ('objdump', '-d', '-r', '--no-show-raw-insn', $_[0]) },
                     ext => 'asm', needs => 'nasm' },
    };
}

# The instruction stream of an object: disassembly without addresses'
# file header.  One intended difference is taken out: on nasm every label
# is an object symbol, so the boundaries of our Win64 unwind regions
# (L$unwind_N, L$end_N, in functions without tables of the module's own)
# appear as symbols, and where one shares an address with a function's
# label the disassembler may print either name.  So on nasm the symbol
# header lines go on both sides, and everywhere the "<symbol+offset>"
# notes after operands, which name the nearest symbol (every instruction
# keeps its address, so the layout is still compared byte for byte).
# A second: on mingw64 OpenSSL 3.5 puts `.section .rodata` constants in a
# COFF section of that name, ours in .rdata, the read-only data section
# PE defines (as for every other flavour's read-only constants); a
# relocation against the section then names .rdata where OpenSSL's names
# .rodata, with the same offset.
sub instructions {
    my ($dis, $obj, $flavour) = @_;
    my $drop = $flavour eq 'nasm' ? qr/^/ : qr/ <L\$(?:unwind|end)_\d+>:$/;
    my ($lines, $err) = disassembly([ $dis->($obj) ], $drop);
    s/^(\s+[0-9a-f]+: IMAGE_REL_AMD64_\w+\s+)\.rodata$/$1.rdata/ for @{ $lines // [] };
    return ($lines, $err);
}

# The promises our layer makes for every output: the same bytes from a
# second run, and on ELF the GNU-stack and IBT/SHSTK notes.
sub our_promises {
    my ($root, $module, $flavour, $tools, $out_base) = @_;
    my $t = $tools->{$flavour};
    my ($asm, $again) = ("$out_base.$t->{ext}", "$out_base.again.$t->{ext}");
    my ($st, $log) = run_capture({ CC => 'gcc' }, $root, $^X, $module, $flavour, $again);
    my $same = !$st && slurp($asm) eq (slurp($again) // '');
    unlink $again;
    return 'a second translation is not byte-identical' unless $same;
    return undef unless $flavour eq 'elf';
    my (undef, $notes) = run_capture({}, undef, 'readelf', '-n', '-S', '-W', "$out_base.o");
    return 'no .note.GNU-stack section' unless $notes =~ /\.note\.GNU-stack/;
    return 'no IBT/SHSTK property note' unless $notes =~ /x86 feature: IBT, SHSTK/;
    return undef;
}

# MODULE -> FLAVOUR -> reason, from --expect's rows.
sub read_expect {
    my ($file) = @_;
    my %todo;
    open(my $fh, '<', $file) or usage_error("--expect $file: $!");
    while (my $l = <$fh>) {
        next if $l =~ /^\s*(#|$)/;
        my ($m, $fl, $kind, $why) = $l =~ /^(\S+)\s+(\S+)\s+(\S+)\s+(.*?)\s*$/
            or usage_error("$file:$.: want MODULE FLAVOURS todo REASON");
        usage_error("$file:$.: unknown kind '$kind' (todo)") unless $kind eq 'todo';
        $todo{$m}{$_} = $why for $fl eq '*' ? qw(elf macosx mingw64 nasm) : split /,/, $fl;
    }
    return \%todo;
}

# One module x flavour: (stages our side passed, as build_one counts
# them; the reason it differs from OpenSSL's, undef when it does not; why
# it cannot be compared here, if so).  When the assembler here refuses
# OpenSSL's own output (an instruction newer than it), ours must still
# translate cleanly, and the comparison is a SKIP naming the assembler's
# complaint.
sub check_pair {
    my ($src, $shadow, $work, $tools, $module, $flavour) = @_;
    my $name = module_name($module);
    make_path("$work/openssl/$flavour", "$work/ours/$flavour");
    my @side = ([ $module, $flavour ], $tools->{$flavour});
    my $listing = sub { instructions($tools->{$flavour}{dis}, $_[0], $flavour) };
    my ($ref, $err_ref, $ref_stages) = build_one($src, @side, "$work/openssl/$flavour/$name", $listing, 'translate');
    my ($got, $err, $stages) = build_one($shadow, @side, "$work/ours/$flavour/$name", $listing, 'translate');
    if (!$ref) {
        return ($stages, "OpenSSL's own translator: $err_ref") unless $ref_stages == 1 && $stages >= 1;
        return ($stages, undef, "the assembler here refuses OpenSSL's own output ($err_ref)");
    }
    return ($stages, $err) unless $got;
    return (2, first_difference($ref, $got)
               // our_promises($shadow, $module, $flavour, $tools, "$work/ours/$flavour/$name"));
}

sub main {
    my @argv = @_;
    my %opt = (work => 'build/openssl-xlate', flavours => 'elf,macosx,mingw64,nasm', version => '3.0');
    $opt{jobs} = 1;
    GetOptionsFromArray(\@argv, \%opt, 'src=s', 'work=s', 'flavours=s', 'modules=s',
                        'verbose', 'jobs=i', 'tap', 'expect=s', 'skip=s@', 'version=s')
        or usage_error('bad option (see the header of tools/openssl-xlate.pl)');
    usage_error("--version $opt{version}: want 3.0 or 3.5") unless $opt{version} =~ /^3\.[05]$/;
    usage_error("--jobs $opt{jobs}: want 1 or more") if $opt{jobs} < 1;
    my $todo = defined $opt{expect} ? read_expect($opt{expect}) : {};
    usage_error("unexpected argument '$argv[0]'") if @argv;
    my $here = dirname(abs_path(__FILE__));
    my $ours = abs_path("$here/../perlasm/x86_64-xlate.pl");
    my ($src, $release) = openssl_tree(here => $here, src => $opt{src}, series => $opt{version},
                                       src_option => 1, series_option => 1, tap => $opt{tap},
                                       skip => sub { "1..1\nok 1 # SKIP OpenSSL $opt{version}'s modules: $_[0]\n" })
        or return 0;

    my $tools = flavour_tools();
    my @flavours = split /,/, $opt{flavours};
    my %missing;
    for (@{ $opt{skip} // [] }) {
        my ($f, $why) = /^(\w+)=(.+)$/ or usage_error("--skip $_: want FLAVOUR=REASON");
        usage_error('--skip goes with --tap') unless $opt{tap};
        $missing{$f} = $why;
    }
    for my $f (@flavours) {
        usage_error("unknown flavour '$f' (elf, macosx, mingw64, nasm)") unless $tools->{$f};
        next if $missing{$f};
        my @need = ($tools->{$f}{needs}, $f eq 'macosx' ? 'llvm-objdump' : 'objdump',
                    $f eq 'elf' ? 'readelf' : ());
        my @absent = grep { !in_path($_) } @need;
        next unless @absent;
        # With --tap a missing tool is a SKIP of that flavour's results.
        usage_error("$f needs @absent, which is not installed") unless $opt{tap};
        $missing{$f} = "@absent not installed";
    }
    my @all = modules_using($src, qr/x86_64-xlate\.pl/, qr/^x86_64-xlate\.pl$/);
    my @modules = pick_modules(\@all, $opt{modules});
    my $work = work_dir($opt{work});
    my $shadow = "$work/shadow";
    make_shadow($src, $shadow, 'crypto/perlasm/x86_64-xlate.pl', xlate_shim($ours));

    my @pairs = map { my $m = $_; map { [ $m, $_ ] } grep { !$missing{$_} } @flavours } @modules;
    my @results = check_all($opt{jobs}, \@pairs,
                            sub { check_pair($src, $shadow, $work, $tools, @_) });
    my ($pass, $total, $translated, $assembled, $skipped) = (0, 0, 0, 0, 0);
    my $n = 0;
    STDOUT->autoflush(1);
    print '1..', @modules * @flavours, "\n" if $opt{tap};
    for my $r (@results) {
        my ($module, $flavour, $why, $stages, $skip) = @$r;
        my $name = module_name($module);
        $total++;
        $translated++ if $stages >= 1;
        $assembled++ if $stages >= 2;
        if (defined $skip) {
            $skipped++;
            if ($opt{tap}) {
                printf "ok %d # SKIP %s %s: %s\n", ++$n, $name, $flavour, $skip;
            } else {
                printf "SKIP %-22s %-8s %s\n", $name, $flavour, $skip;
            }
            next;
        }
        $pass++ unless defined $why;
        if ($opt{tap}) {
            my $todo = $todo->{$name}{$flavour};
            printf "%s %d - %s %s%s%s\n", defined $why ? 'not ok' : 'ok', ++$n, $name, $flavour,
                   defined $why ? ": $why" : '', defined $todo ? " # TODO $todo" : '';
        } elsif (defined $why) {
            printf "FAIL %-22s %-8s %s\n", $name, $flavour, $why;
        } elsif ($opt{verbose}) {
            printf "PASS %-22s %s\n", $name, $flavour;
        }
    }
    my $summary = "openssl-xlate: OpenSSL $release, $total module x flavour pairs: $translated translated,"
                . " $assembled assembled, $pass equal to OpenSSL's"
                . ($skipped ? ", $skipped not comparable here" : '');
    if ($opt{tap}) {
        for my $f (grep { $missing{$_} } @flavours) {
            printf "ok %d # SKIP %s %s: %s\n", ++$n, module_name($_), $f, $missing{$f} for @modules;
        }
        print "# $summary\n";
        return 0;
    }
    print "$summary\n";
    return $pass + $skipped == $total ? 0 : 1;
}

exit main(@ARGV);
