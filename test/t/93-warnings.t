#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# Every C file compiles without a single warning, with gcc and with clang,
# in every configuration the Makefile builds it:
#  - the compiler commands come from the Makefile itself: `make -n` into a
#    scratch build directory (test/lib/CompileCommands.pm) for the default
#    build, NO_ASM=1 and AES_CORE=ct, with CC, CC32, FUZZ_CC and FUZZ32_CC set
#    to the compiler (the -m32 builds, when it can link a 32-bit program)
#    and the mingw-w64 cross compilers the Makefile uses when installed;
#  - each source is compiled with its own flags (gcc to /dev/null, clang
#    -fsyntax-only); any output at all (a warning, a note, an error) fails
#    it, naming the file, the build and the diagnostics;
#  - the checks can fail: an unused variable under each compiler's flags
#    is reported;
#  - every C file of the tree is checked here or compiled by a test script.
# A missing compiler makes its checks SKIP with the reason.
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Find qw(find);
use File::Temp qw(tempdir);
use FindBin;
use lib "$FindBin::Bin/../lib", "$FindBin::Bin/../../support/perl";
use Slurp qw(slurp);
use Capture qw(capture);
use CompileCommands qw(dry_run_compiles check_command);
use ImplRuns qw(result finish in_path);

my $root  = abs_path("$FindBin::Bin/../..");
my $build = $ENV{BUILD} // 'build';
my $dir   = tempdir(CLEANUP => 1);
chdir $root or die "$root: $!\n";

# The Makefile's own defaults, whatever the make that started prove was
# given (MAKEFLAGS would also pass on its jobserver).
delete @ENV{qw(MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES CFLAGS)};

my @CONFIGS = ([ 'default build' => {} ], [ 'NO_ASM=1' => { NO_ASM => 1 } ],
               [ 'AES_CORE=ct' => { AES_CORE => 'ct' } ]);
my @TARGETS = qw(all fuzz fuzz32 m32 bench-x86mca bench-dmcrypt32 bench-sha1-586-objs bench-aes586-direct-objs);
my $JOBS    = 2;                    # the machine's cores

sub diag  { print map { "#   $_\n" } map { split /\n/ } @_ }
sub shell_words { return join ' ', map { /[^\w\/.,:=+-]/ ? "'$_'" : $_ } @_ }

# --- the rewriting of one compile command -------------------------------------
for my $cc (qw(gcc clang)) {
    my @cmd = check_command([ $cc, qw(-m32 -Iinclude -DX=1 -MMD -MP -c test/a.c -o b/a.o
                                      b/c.o -no-pie -lfoo -fsanitize=fuzzer -g -O2) ], 'test/a.c');
    my $check = $cc eq 'clang' ? '-fsyntax-only' : '-c -o /dev/null';
    result("@cmd" eq "$cc -m32 -Iinclude -DX=1 -O2 $check test/a.c",
           "a $cc compile command keeps its compiler and flags, loses its output, inputs and link flags")
        or diag("@cmd");
}

# --- the generated headers the compiles include --------------------------------
my ($st, $out) = capture('make', '--no-print-directory', "BUILD=$dir", 'gen-headers');
my @headers = glob("$dir/gen/*.h");
result(!$st && @headers && !grep({ !-s } @headers), 'the scratch build directory has its generated headers ('
       . join(' ', map { s{.*/}{}r } @headers) . ')')
    or diag($out);

# Why DRIVER (e.g. "gcc -m32") cannot be used here, or undef.
my %unusable;
sub unusable {
    my ($driver) = @_;
    return $unusable{$driver} if exists $unusable{$driver};
    my ($prog, @flags) = split ' ', $driver;
    return $unusable{$driver} = "$prog not installed" unless in_path($prog);
    return $unusable{$driver} = undef unless grep { $_ eq '-m32' } @flags;
    # As the Makefile's probe: 32-bit headers and libgcc (gcc-multilib).
    open(my $fh, '>', "$dir/probe.c") or die;
    print $fh "#include <stdint.h>\nint main(void) { return (int)sizeof(uint32_t) - 4; }\n";
    close $fh;
    my ($pst) = capture($prog, @flags, '-o', "$dir/probe", "$dir/probe.c");
    return $unusable{$driver} = $pst ? "$driver cannot compile and link a program (gcc-multilib)" : undef;
}

# --- the compile commands, each distinct one once --------------------------
my (@checks, %seen, @skipped);
for my $cc (qw(gcc clang)) {
    if (!in_path($cc)) {
        result(1, "$cc: the C of the tree", "SKIP $cc not installed");
        push @skipped, "$cc not installed";
        next;
    }
    my %vars = (CC => $cc, CC32 => "$cc -m32", FUZZ_CC => $cc, FUZZ32_CC => "$cc -m32");
    my $n = 0;
    for my $config (@CONFIGS) {
        my ($label, $extra) = @$config;
        my @found = eval { dry_run_compiles($root, $dir, { %vars, %$extra }, @TARGETS) };
        if (!result(!$@ && @found, "$cc, $label: make -n lists the C compiles")) {
            diag($@ || 'no compiler command found');
            next;
        }
        for my $f (@found) {
            my ($src, $cmd, $driver) = @$f;
            next if $seen{"@$cmd"}++;
            my $d = "@$driver";
            if (my $why = unusable($d)) {
                next if grep { $_ eq $why } @skipped;
                result(1, "$d: its builds", "SKIP $why");
                push @skipped, $why;
                next;
            }
            push @checks, { src => $src, cmd => $cmd, driver => $d, build => $label };
            $n++;
        }
    }
    print "# $cc: $n distinct compiles\n";
}

# The mingw-w64 builds are in the dry runs only when their compilers exist.
for my $mingw ([ 'x86_64-w64-mingw32-gcc', 'gcc-mingw-w64-x86-64', 'the Win64 builds' ],
               [ 'i686-w64-mingw32-gcc', 'gcc-mingw-w64-i686', 'the Win32 corpus program' ]) {
    my ($prog, $pkg, $what) = @$mingw;
    next if in_path($prog);
    result(1, "$prog: $what", "SKIP $prog not installed ($pkg)");
    push @skipped, "$prog not installed";
}

# --- run them, $JOBS at a time ----------------------------------------------
{
    my ($next, %running) = (0);
    while ($next < @checks || %running) {
        while ($next < @checks && keys %running < $JOBS) {
            my $c = $checks[$next];
            my $log = "$dir/out.$next";
            $next++;
            my $pid = fork // die "fork: $!\n";
            if (!$pid) {
                open STDOUT, '>', $log or die "$log: $!\n";
                open STDERR, '>&', \*STDOUT or die;
                exec @{ $c->{cmd} } or do { print "cannot run $c->{cmd}[0]: $!\n"; exit 127 };
            }
            $running{$pid} = [ $c, $log ];
        }
        my $job = delete $running{ waitpid(-1, 0) } or next;
        my ($c, $log) = @$job;
        $c->{status} = $?;
        $c->{output} = slurp($log) // '';
    }
}

# The diagnostic lines of a check (the source excerpts under them left
# out), or why it failed without one.
sub diagnostics {
    my ($c) = @_;
    my @lines = grep { /\b(?:warning|error|note):/ } split /\n/, $c->{output};
    return @lines ? @lines : ("exit status " . ($c->{status} >> 8) . ": $c->{output}");
}

# One result per compiler and source, over all its builds.
my (%by, @order);
for my $c (@checks) {
    my $key = "$c->{driver}: $c->{src}";
    push @order, $key unless $by{$key};
    push @{ $by{$key} }, $c;
}
for my $key (@order) {
    my @bad = grep { $_->{status} || $_->{output} ne '' } @{ $by{$key} };
    my $n = @{ $by{$key} };
    result(!@bad, "$key compiles without a warning ($n build" . ($n == 1 ? '' : 's') . ')')
        or diag(map { ("$_->{build}: " . shell_words(@{ $_->{cmd} }), diagnostics($_)) } @bad);
}

# --- the checks can fail ------------------------------------------------------
# For each compiler, its first command with the source swapped for one
# that declares an unused variable.
{
    open(my $fh, '>', "$dir/unused.c") or die;
    print $fh "int unused_variable_here(void);\n"
            . "int unused_variable_here(void) { int never_read = 1; return 0; }\n";
    close $fh;
    my %done;
    for my $c (@checks) {
        next if $done{ $c->{driver} }++;
        my @cmd = @{ $c->{cmd} };
        $cmd[-1] = "$dir/unused.c";
        my ($ust, $uout) = capture(@cmd);
        result($uout =~ /\bwarning:.*never_read/,
               "$c->{driver}: an unused variable under $c->{src}'s flags is reported")
            or diag("exit $ust: " . shell_words(@cmd), $uout);
    }
}

# --- every C file is checked ----------------------------------------------------
{
    my %checked = map { $_->{src} => 1 } @checks;
    my $scripts = join "\n", map { slurp($_) // '' } glob("$root/test/t/*.t"), glob("$root/test/t/*.pl");
    my (@files, @unchecked, @by_script);
    # Every directory of the tree but hidden ones and build directories.
    my $build_abs = abs_path($build) // '';
    find({ no_chdir => 1, wanted => sub {
        if (-d $_ && ($_ ne $root && (m{/\.[^/]*$} || m{^\Q$root\E/build[^/]*$} || abs_path($_) eq $build_abs))) {
            $File::Find::prune = 1;
            return;
        }
        push @files, substr($_, length($root) + 1) if /\.c$/ && -f $_;
    } }, $root);
    for my $f (sort @files) {
        next if $checked{$f};
        if ($scripts =~ /\Q$f\E/) { push @by_script, $f } else { push @unchecked, $f }
    }
    print "# compiled by test scripts, which check them: @by_script\n" if @by_script;
    # A file only a missing compiler builds cannot be told from one no rule builds.
    if (@unchecked && @skipped) {
        result(1, 'every C file of the tree is checked', "SKIP @unchecked unchecked: " . join('; ', @skipped));
    } else {
        result(@files && !@unchecked, scalar(@files) . ' C files in the tree, each checked here or by a test script')
            or diag('compiled by no Makefile rule and named by no test script: ' . join(' ', @unchecked));
    }
}

finish();
