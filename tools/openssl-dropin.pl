#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# Builds an OpenSSL 3.0.x or 3.5.x tree with our generated modules in
# place of its own, runs OpenSSL's test suite, and puts the tree back.
#
#   perl tools/openssl-dropin.pl --src DIR [--build DIR] [--arch x86_64|x86]
#        [--modules LIST] [--tests LIST] [--masks LIST] [--jobs N]
#        [--rebuild-after] [--check-only]
#   perl tools/openssl-dropin.pl --src DIR [--build DIR] --restore
#   perl tools/openssl-dropin.pl --translator [--src DIR | --version 3.0|3.5]
#        [--arch x86_64|x86] [--tests LIST] [--jobs N]
#
# --translator puts our perlasm layer, not our modules, into the tree, so
# that OpenSSL's own modules are generated through it: for x86_64,
# crypto/perlasm/x86_64-xlate.pl becomes a shim that execs our translator;
# for x86, crypto/perlasm/x86asm.pl becomes a shim that loads our 32-bit
# layer in its OpenSSL-conventions mode (and OpenSSL's x86gas.pl,
# x86nasm.pl and x86masm.pl, which only its own layer loads, scripts that
# stop the build if anything does).  The tree is built, every generated
# file checked to have gone through ours, OpenSSL's whole suite run (or
# --tests), each step timed, and OpenSSL's layer put back.  Without --src
# it works on a fresh copy of the cached OpenSSL source of --version's
# series (3.0 by default; `make openssl-source [OPENSSL_VERSION=3.5]`
# fetches it) in build/openssl-dropin-tree-SERIES (-SERIES-x86 for x86),
# so the cache stays as it was.
#
# `make openssl-dropin OPENSSL_SRC=DIR` runs it; see README.md, "For
# OpenSSL fork maintainers".  Steps, each stopping with a message and a
# non-zero exit when it fails:
#  1. DIR must be an OpenSSL source tree (VERSION.dat) of a series the
#     symbols files know (3.0, 3.5), configured for the target of --arch
#     or not configured at all.
#  2. Our scripts are run for the elf flavour into a temporary directory and
#     assembled; each object must export every symbol listed in
#     tools/openssl-symbols/MODULE.txt for the tree's series ("missing:"
#     lines included: OpenSSL links against all of them) and import nothing
#     but OPENSSL_ia32cap_P.
#     --check-only stops here, having touched nothing.
#  3. The tree is configured if it is not (./Configure linux-x86_64 or
#     linux-x86), OpenSSL's own generated files are made and saved, and the
#     exports are checked again against them (a fork may export more).
#  4. Ours replace them, newer than their generators so that OpenSSL's make
#     keeps them; the objects compiled from them are deleted; make.
#  5. The build must still hold our files, and the objects, the libcrypto.a
#     members and libcrypto.so must contain our code (.text compared with
#     our own assembly of the same file, function sizes in the .so).
#  6. make test [TESTS=...], 32-bit programs run through qemu-i386; once
#     per OPENSSL_ia32cap mask of --masks, so one build tests every path.
#  7. Always, also on failure or a signal: the saved files are put back and
#     the objects compiled from ours deleted, so the next make rebuilds
#     OpenSSL's (--rebuild-after: at once).  The saved state lives in
#     BUILD/.perlasm-dropin until then: a run interrupted harder than a
#     signal is restored by the next run, or by --restore.
#
# The run is a chain of subs over one hash, $run, built by main(); the
# helpers are in tools/lib/Dropin/ and the module list is modules.txt.
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(basename dirname);
use File::Copy qw(copy);
use File::Path qw(make_path);
use File::Temp qw(tempdir);
use Fcntl qw(:flock);
use FindBin;
use Getopt::Long qw(GetOptionsFromArray);
use lib "$FindBin::RealBin/lib";
use ModuleTable qw(read_table table_path);
use SymbolList qw(SERIES read_symbols);
use Dropin::Elf qw(globals imports func_sizes text_of);
use Dropin::Files qw(in_path sha_file);
use Dropin::Report qw(ME note complain fail exit_status);
use Dropin::Runner;
use Dropin::Swap qw(STATE save_originals restore);
use Dropin::Tree qw(read_version configured_target unextracted_test_data objects_from generator_flags);
use Dropin::Translator qw(translator_for translator_outputs write_shim write_refusal shim_outputs);
use File::Spec;

# Per architecture: OpenSSL's Configure target, how to assemble for it, and
# what runs its test programs (these kernels refuse 32-bit binaries).
use constant ARCH => {
    x86_64 => { target => 'linux-x86_64', ccflags => ['-m64'], runner => undef },
    # qemu 7.2 computes ymm vaesenc/vaesdec wrongly in lane 1 (test/README.md),
    # and our aesni-x86 has ymm sections for a CPU with VAES: its tests run
    # on a CPU model without VAES (the ymm code is checked natively by
    # test/t/85-dmcrypt-replay.t).
    x86    => { target => 'linux-x86',    ccflags => ['-m32'], runner => 'qemu-i386',
                runner_args => '-cpu max,-vaes' },
};
# The only symbols a module may take from the rest of libcrypto.
use constant MAY_IMPORT => { map { $_ => 1 } qw(OPENSSL_ia32cap_P _GLOBAL_OFFSET_TABLE_) };

exit main(@ARGV);

sub main {
    my @argv = @_;
    my $root = abs_path(dirname(abs_path($0)) . '/..');
    my $run = { root => $root, modules => swappable_modules($root), runner => Dropin::Runner->new };
    $run->{opt} = parse_options($run, @argv);
    STDOUT->autoflush(1);    # our messages in order with the tools' output
    my $status = eval { $run->{opt}{translator} ? dropin_translator($run) : dropin($run) };
    $status = exit_status($@) unless defined $status;
    return finish_restore($run, $status);
}

# What we can swap, from modules.txt: our script (path in this repository,
# the same as OpenSSL's generator), the file OpenSSL's build generates from
# its own (crypto/*/build.info GENERATE[...], path relative to the build
# directory) and the list of what OpenSSL needs from it.
sub swappable_modules {
    my ($root) = @_;
    return { map { $_->{name} => { arch => $_->{arch}, file => $_->{replaces}, script => $_->{script},
                                   symbols => basename($_->{symbols}) } }
             read_table(table_path($root)) };
}

sub usage {
    my ($run) = @_;
    my $mods = $run->{modules};
    print STDERR <<"EOT";
usage: $0 --src DIR [--build DIR] [--arch x86_64|x86] [--modules LIST]
          [--tests LIST] [--masks 'default MASK...'] [--jobs N]
          [--symbols DIR] [--rebuild-after] [--check-only]
       $0 --src DIR [--build DIR] --restore
       $0 --translator [--src DIR | --version 3.0|3.5] [--arch x86_64|x86]
          [--tests LIST] [--jobs N]
       $0 --list-modules
modules: @{[ join ', ', map { "$_ ($mods->{$_}{arch})" } sort keys %$mods ]}
EOT
    exit 2;
}

sub parse_options {
    my ($run, @argv) = @_;
    my %opt = (arch => 'x86_64', jobs => 2, symbols => "$run->{root}/tools/openssl-symbols");
    GetOptionsFromArray(\@argv, \%opt, 'src=s', 'build=s', 'arch=s', 'modules=s',
               'tests=s', 'jobs=s', 'masks=s', 'symbols=s', 'check-only', 'restore',
               'rebuild-after', 'list-modules', 'help', 'translator', 'version=s')
        or usage($run);
    usage($run) if $opt{help} || @argv;
    if (defined $opt{version} && !grep { $_ eq $opt{version} } SERIES) {
        complain("error: --version $opt{version}: want one of @{[ SERIES ]}");
        exit 2;
    }
    if ($opt{'list-modules'}) {
        my $mods = $run->{modules};
        printf "%-14s %-7s %-33s %s\n", $_, @{ $mods->{$_} }{qw(arch script file)} for sort keys %$mods;
        exit 0;
    }
    return \%opt;
}

# The whole run; returns the exit status, or fail()s.
sub dropin {
    my ($run) = @_;
    check_tree($run);
    return 0 if restore_leftover($run);
    check_build_dir($run);
    choose_modules($run);
    check_ours($run);
    if ($run->{opt}{'check-only'}) {
        note('check only: our modules export what the lists ask; the tree was not touched');
        return 0;
    }
    $run->{log} = tempdir(ME . '-logs.XXXXXX', TMPDIR => 1, CLEANUP => 0);
    configure($run);
    examine_theirs($run);
    swap_in($run);
    build_and_verify($run);
    run_tests($run);
    return 0;
}

# --translator: OpenSSL's modules through our layer, its whole suite.
sub dropin_translator {
    my ($run) = @_;
    my $opt = $run->{opt};
    fail("--translator does not take --$_", 2)
        for grep { $opt->{$_} } qw(modules masks check-only rebuild-after);
    fail("--arch $opt->{arch}: want x86_64 or x86", 2) unless ARCH->{ $opt->{arch} };
    $run->{translator} = translator_for($opt->{arch});
    $opt->{src} = fresh_copy($run) unless defined $opt->{src} && $opt->{src} ne '';
    my $t0 = time;
    check_tree($run);
    return 0 if restore_leftover($run);
    check_build_dir($run);
    check_runner($run);
    $run->{log} = tempdir(ME . '-logs.XXXXXX', TMPDIR => 1, CLEANUP => 0);
    $run->{mods} = [ $run->{translator}{ours} ];    # what the notes name
    configure($run);
    swap_translator($run);
    my $t1 = time;
    build_through_shim($run);
    my $t2 = time;
    run_tests($run);
    my $t3 = time;
    note(sprintf('times: configure %ds, build %ds, tests %ds, total %ds (%s)',
                 $t1 - $t0, $t2 - $t1, $t3 - $t2, $t3 - $t0, cpu_name()));
    return 0;
}

# A copy of the cached OpenSSL tree of --version's series, made anew for
# each run.
sub fresh_copy {
    my ($run) = @_;
    my $series = $run->{opt}{version} // (SERIES)[0];
    my $cached = `sh '$run->{root}/tools/openssl-source.sh' --cached $series 2>/dev/null`;
    my $fetch = 'make openssl-source' . ($series eq (SERIES)[0] ? '' : " OPENSSL_VERSION=$series");
    fail("no OpenSSL $series source cached: run `$fetch`, or give --src DIR", 2) if $? || !$cached;
    chomp $cached;
    my $copy = "$run->{root}/build/openssl-dropin-tree-$series"
             . ($run->{opt}{arch} eq 'x86_64' ? '' : "-$run->{opt}{arch}");
    make_path("$run->{root}/build");
    system('rm', '-rf', $copy) == 0 or fail("cannot remove the old $copy", 2);
    system('cp', '-a', $cached, $copy) == 0 or fail("cannot copy $cached to $copy", 2);
    system('chmod', '-R', 'u+w', $copy);
    note("working on a fresh copy of $cached: $copy");
    return $copy;
}

sub cpu_name {
    open(my $fh, '<', '/proc/cpuinfo') or return 'CPU unknown';
    my ($name) = map { /^model name\s*:\s*(.*)/ ? $1 : () } <$fh>;
    return ($name // 'CPU unknown') . ", " . (`nproc 2>/dev/null` =~ s/\s+//gr || '?') . ' cores';
}

# Our layer behind OpenSSL's: the originals saved (Dropin::Swap's
# manifest), the shim written (and the refusals in place of the parts
# ours replaces whole), and every file generated through OpenSSL's layer
# deleted with its objects, so make generates them anew through ours
# (and, after the restore, through OpenSSL's again).
sub swap_translator {
    my ($run) = @_;
    my ($build, $src, $t) = @$run{qw(build src translator)};
    my @outputs = translator_outputs($build, $t);
    my @gone = map { ($_->[0], @{ $_->[1] }) } @outputs;
    my $rel = sub { File::Spec->abs2rel("$src/$_[0]", $build) };
    my $theirs = $rel->($t->{theirs});
    my @refused = map { $rel->($_) } @{ $t->{refused} };
    $SIG{$_} = sub { on_signal($run, @_) } for qw(INT TERM HUP);
    $run->{restoring_needed} = 1;
    save_originals($build, [ basename($theirs, '.pl'), $theirs, \@gone ],
                   map { [ basename($_, '.pl'), $_, [] ] } @refused);
    unlink map { "$build/$_" } @gone;
    $run->{shim_log} = "$build/" . STATE . '/translator-runs';
    my $ours = "$run->{root}/$t->{ours}";
    write_shim("$build/$theirs", $t, $ours, $run->{shim_log});
    write_refusal("$build/$_") for @refused;
    $run->{translator_outputs} = [ map { $_->[0] } @outputs ];
    note("swapped in: $theirs <- a shim that runs $ours"
         . (@refused ? " (and @refused stop the build if loaded)" : '') . '; '
         . scalar(@outputs) . ' generated files will be made through it');
}

sub build_through_shim {
    my ($run) = @_;
    my $log = "$run->{log}/build.log";
    note("building: nice make -j$run->{opt}{jobs} (log $log)");
    $run->{runner}->run($log, 'nice', 'make', '-C', $run->{build}, "-j$run->{opt}{jobs}")
        or Dropin::Runner::fail_with_log("OpenSSL's build failed with our translator", $log);
    my %ran = map { $_ => 1 } shim_outputs($run->{shim_log});
    my @missed = grep { !$ran{$_} && !$ran{"$run->{build}/$_"} } @{ $run->{translator_outputs} };
    fail('made without our translator: ' . join(', ', @missed)) if @missed;
    note('every one of the ' . scalar(@{ $run->{translator_outputs} })
         . " files was generated through our translator ($run->{translator}{ours})");
}

# --- 1. the tree -----------------------------------------------------------
sub check_tree {
    my ($run) = @_;
    my $opt = $run->{opt};
    fail('OPENSSL_SRC is not set: make openssl-dropin OPENSSL_SRC=/path/to/openssl-3.x'
         . ' (--src DIR)', 2) unless defined $opt->{src} && $opt->{src} ne '';
    fail("OPENSSL_SRC=$opt->{src}: no such directory", 2) unless -d $opt->{src};
    my $src = $run->{src} = abs_path($opt->{src});
    fail("OPENSSL_SRC=$opt->{src} is not an OpenSSL source tree (no VERSION.dat and Configure)", 2)
        unless -f "$src/VERSION.dat" && -f "$src/Configure";
    my %ver = read_version("$src/VERSION.dat");
    $run->{version} = join '.', map { $ver{$_} // '?' } qw(MAJOR MINOR PATCH);
    $run->{series} = join '.', map { $ver{$_} // '?' } qw(MAJOR MINOR);
    fail("OPENSSL_SRC=$opt->{src} is OpenSSL $run->{version}; the drop-in is for "
         . join(' and ', map { "$_.x" } SERIES) . ' (the series whose symbols it knows)', 2)
        unless grep { $_ eq $run->{series} } SERIES;
    fail("OPENSSL_SRC=$opt->{src} is OpenSSL $run->{version}, not $opt->{version} as --version"
         . ' asks (a tree\'s own VERSION.dat decides its series; drop --version)', 2)
        if defined $opt->{version} && $opt->{version} ne $run->{series};

    # Without Debian's binary test data test_cms and test_cmsapi fail,
    # after half an hour.
    my @lost = unextracted_test_data($src);
    fail("$src is a Debian source tree whose test data is still in debian/binary.tar"
         . " (@lost); extract it first: (cd '$src' && tar xf debian/binary.tar)", 2) if @lost;

    $run->{arch} = ARCH->{ $opt->{arch} }
        or fail("--arch $opt->{arch}: want x86_64 or x86", 2);
    $run->{build} = $src;
    $run->{build} = -d $opt->{build} ? abs_path($opt->{build}) : $opt->{build}
        if defined $opt->{build} && $opt->{build} ne '';
    lock_build($run) if -d $run->{build};
}

# One run per build directory: a second one would take the first's swap
# for a leftover.  The lock (on the directory itself) ends with us.
sub lock_build {
    my ($run) = @_;
    open(my $lock, '<', $run->{build}) or fail("cannot open $run->{build}: $!", 2);
    flock($lock, LOCK_EX | LOCK_NB)
        or fail("another openssl-dropin run is using $run->{build}; wait for it to finish", 2);
    $run->{lock} = $lock;
}

# Restoring comes first: the tree may hold ours from a run that died.
# True when that is all there is to do (--restore).
sub restore_leftover {
    my ($run) = @_;
    my ($build, $opt) = @$run{qw(build opt)};
    my $leftover = -e "$build/" . STATE;
    if ($leftover) {
        fail("$build/" . STATE . ' exists: an earlier run was interrupted; --restore first', 2)
            if $opt->{'check-only'};
        note("$build/" . STATE . ': an earlier run left its swap in place; restoring it');
        restore($build) or fail('restore failed; the saved files are in ' . "$build/" . STATE);
    }
    return 0 unless $opt->{restore};
    note('nothing to restore') unless $leftover;
    return 1;
}

sub check_build_dir {
    my ($run) = @_;
    my ($src, $build, $opt) = @$run{qw(src build opt)};
    # OpenSSL's Configure, run out of a source tree that has been configured
    # in place, sees that tree's libraries and produces no Makefile.
    fail("OPENSSL_BUILD=$build: $src is itself configured (configdata.pm), and OpenSSL"
         . ' builds out of tree only from a clean source tree: use a fresh one, or build'
         . ' in the tree (no OPENSSL_BUILD)', 2)
        if $build ne $src && -f "$src/configdata.pm" && !-f "$build/configdata.pm";
    my $configured = $run->{configured} = configured_target($build);
    fail("$build is configured for $configured, not $run->{arch}{target}: use another tree"
         . ' (or an empty build directory, --build / OPENSSL_BUILD)', 2)
        if defined $configured && $configured ne $run->{arch}{target};
    fail("$build has no Makefile: configure it again or remove configdata.pm", 2)
        if defined $configured && !-f "$build/Makefile";
    fail("--jobs $opt->{jobs}: want a positive number", 2) unless $opt->{jobs} =~ /^[1-9]\d*$/;
}

sub choose_modules {
    my ($run) = @_;
    my ($opt, $mods) = @$run{qw(opt modules)};
    my @mods = defined $opt->{modules} && $opt->{modules} ne ''
             ? split(/[\s,]+/, $opt->{modules})
             : grep { $mods->{$_}{arch} eq $opt->{arch} } sort keys %$mods;
    for my $m (@mods) {
        fail("unknown module '$m' (known: @{[ sort keys %$mods ]})", 2) unless $mods->{$m};
        fail("module $m is for --arch $mods->{$m}{arch}, not $opt->{arch}", 2)
            unless $mods->{$m}{arch} eq $opt->{arch};
        fail("$m: our script $mods->{$m}{script} does not exist in $run->{root} yet", 2)
            unless -f "$run->{root}/$mods->{$m}{script}";
    }
    fail('no modules to swap', 2) unless @mods;
    check_runner($run) unless $opt->{'check-only'};
    $run->{mods} = \@mods;
}

# The emulator the architecture's test programs need is there.
sub check_runner {
    my ($run) = @_;
    my $runner = $run->{arch}{runner} or return;
    fail("$runner not found: the $run->{opt}{arch} test programs run through it"
         . ' (apt-get install qemu-user)', 2) unless in_path($runner);
}

# --- 2. our modules, checked before anything is touched ---------------------
sub check_ours {
    my ($run) = @_;
    $run->{tmp} = tempdir(ME . '.XXXXXX', TMPDIR => 1, CLEANUP => 1);
    $run->{cc}  = $ENV{CC} // 'cc';
    note("OpenSSL $run->{version} at $run->{src}"
        . ($run->{build} ne $run->{src} ? ", build directory $run->{build}" : '')
        . ", target $run->{arch}{target}; modules: @{ $run->{mods} }");
    my $bad = 0;
    for my $m (@{ $run->{mods} }) {
        my $o = generate_ours($run, $m, default_flags($run));
        $bad += !check_exports($m, $o, needed_by_openssl($run, $m), 'tools/openssl-symbols');
    }
    fail('our modules lack what OpenSSL needs (above); nothing was changed') if $bad;
}

# Flags our generator gets by default: the 32-bit layer's position
# independent SSE2 build, as OpenSSL's linux-x86 shared build asks.
sub default_flags { $_[0]{opt}{arch} eq 'x86' ? [qw(-fPIC -DOPENSSL_IA32_SSE2)] : [] }

sub assemble {
    my ($run, $s, $o) = @_;
    return system($run->{cc}, @{ $run->{arch}{ccflags} }, '-c', '-o', $o, $s) == 0;
}

sub generate_ours {
    my ($run, $m, $flags) = @_;
    my $mod = $run->{modules}{$m};
    my $ext = $mod->{file} =~ /(\.[sS])$/ ? $1 : '.s';
    my $s = "$run->{tmp}/ours-$m$ext";
    my $o = "$run->{tmp}/ours-$m.o";
    system($^X, "$run->{root}/$mod->{script}", 'elf', @$flags, $s) == 0
        or fail("$m: perl $mod->{script} elf @$flags failed");
    assemble($run, $s, $o) or fail("$m: our generated $m$ext does not assemble");
    $run->{ours}{$m} = { s => $s, o => $o, flags => ['elf', @$flags] };
    return $o;
}

# SYMBOL => [users] from the module's symbols file (in --symbols DIR), for
# the tree's series; missing: tags count as required (they are gaps in our module, not in
# OpenSSL's needs).
sub needed_by_openssl {
    my ($run, $m) = @_;
    my $file = "$run->{opt}{symbols}/$run->{modules}{$m}{symbols}";
    return {} unless -f $file;
    my @rows = eval { read_symbols($file, $run->{series}) };
    fail($@ =~ s/\n$//r) if $@;
    return { map { $_->{symbol} => $_->{users} } @rows };
}

sub check_exports {
    my ($m, $obj, $need, $what) = @_;
    my $have = globals($obj);
    my @missing = sort grep { !exists $have->{$_} } keys %$need;
    my @bad_imports = grep { !MAY_IMPORT->{$_} } imports($obj);
    for my $sym (@missing) {
        my @users = @{ $need->{$sym} };
        complain("$m: does not export $sym, which OpenSSL needs ($what"
                 . (@users ? '; used by ' . join(', ', @users) : '') . ')');
    }
    complain("$m: imports $_, which OpenSSL does not provide to it") for @bad_imports;
    return 0 if @missing || @bad_imports;
    note(%$need ? "$m: exports every symbol of $what (" . scalar(keys %$need) . ')'
                : "$m: no list of what OpenSSL needs in $what; checked against the"
                  . " tree's own file once it is configured");
    return 1;
}

# --- 3. configure, OpenSSL's own files -------------------------------------
sub configure {
    my ($run) = @_;
    if (!-d $run->{build}) {
        make_path($run->{build}) or fail("cannot create the build directory $run->{build}: $!");
        $run->{build} = abs_path($run->{build});
        lock_build($run);
    }
    return if defined $run->{configured};
    my $configure = $run->{build} eq $run->{src} ? './Configure' : "$run->{src}/Configure";
    note("configuring: $configure $run->{arch}{target} (log $run->{log}/configure.log)");
    $run->{runner}->run("$run->{log}/configure.log", { dir => $run->{build} }, $configure,
                        $run->{arch}{target})
        or fail("Configure failed; see $run->{log}/configure.log");
}

# OpenSSL's own generated files are made, and ours checked against them
# (a fork may export more than the lists say).
sub examine_theirs {
    my ($run) = @_;
    my ($build, $log) = @$run{qw(build log)};
    my $bad = 0;
    for my $m (@{ $run->{mods} }) {
        my $mod = $run->{modules}{$m};
        my $file = $mod->{file};
        my @objs = objects_from($build, $file);
        fail("OpenSSL's Makefile compiles nothing from $file (configured no-asm?)")
            unless @objs;
        $run->{runner}->run("$log/generate.log", 'make', '-C', $build, $file)
            or fail("make $file failed; see $log/generate.log");
        my $recipe = $run->{opt}{arch} eq 'x86' ? generator_flags($build, $file, $mod->{script}) : [];
        if ("@$recipe" ne "@{ default_flags($run) }") {
            note("$m: OpenSSL generates with @$recipe; regenerating ours with them");
            my $o = generate_ours($run, $m, $recipe);
            $bad += !check_exports($m, $o, needed_by_openssl($run, $m), 'tools/openssl-symbols');
        }
        my $theirs = "$run->{tmp}/theirs-$m.o";
        assemble($run, "$build/$file", $theirs) or fail("cannot assemble OpenSSL's own $file");
        my $listed = needed_by_openssl($run, $m);
        my %need = map { $_ => $listed->{$_} // [] } keys %{ globals($theirs) };
        $bad += !check_exports($m, $run->{ours}{$m}{o}, \%need, "the tree's own $file");
        $run->{swap}{$m} = { file => $file, objects => \@objs };
    }
    fail('our modules lack what this tree\'s own modules export (above); nothing was changed')
        if $bad;
}

# --- 4. swap ---------------------------------------------------------------
sub swap_in {
    my ($run) = @_;
    my ($build, $swap) = @$run{qw(build swap)};
    # From here on a signal stops the run, and main() restores the tree.
    $SIG{$_} = sub { on_signal($run, @_) } for qw(INT TERM HUP);
    $run->{restoring_needed} = 1;
    save_originals($build, map { [ $_, $swap->{$_}{file}, $swap->{$_}{objects} ] } @{ $run->{mods} });
    note('swapped in (OpenSSL\'s file <- ours):');
    for my $m (@{ $run->{mods} }) {
        my $s = $swap->{$m};
        copy($run->{ours}{$m}{s}, "$build/$s->{file}") or fail("cannot write $s->{file}: $!");
        my $now = time;
        utime($now, $now, "$build/$s->{file}");
        unlink map { "$build/$_" } @{ $s->{objects} };
        printf "  %-26s <- perl %s %s (rebuilds %s)\n", $s->{file}, $run->{modules}{$m}{script},
               "@{ $run->{ours}{$m}{flags} }", join(', ', @{ $s->{objects} });
        # make -q: exit 0 when the target is up to date, i.e. make will keep ours.
        system('make', '-q', '-C', $build, $s->{file}) == 0
            or fail("OpenSSL's make would regenerate $s->{file} over ours");
    }
}

# --- 5. build and check that ours went in ----------------------------------
sub build_and_verify {
    my ($run) = @_;
    my $log = "$run->{log}/build.log";
    note("building: nice make -j$run->{opt}{jobs} (log $log)");
    $run->{runner}->run($log, 'nice', 'make', '-C', $run->{build}, "-j$run->{opt}{jobs}")
        or Dropin::Runner::fail_with_log("OpenSSL's build failed with our modules", $log);
    for my $m (@{ $run->{mods} }) {
        verify_built($run, $m) or fail("$m: the built OpenSSL does not contain our code");
    }
}

# Our code is in the build: the generated file is still ours, every object
# compiled from it and its libcrypto.a member carry our .text, and in
# libcrypto.so each of our exported functions has our size.
sub verify_built {
    my ($run, $m) = @_;
    my ($build, $tmp) = @$run{qw(build tmp)};
    my $s = $run->{swap}{$m};
    my $ours = $run->{ours}{$m};
    if (sha_file("$build/$s->{file}") ne sha_file($ours->{s})) {
        complain("$m: OpenSSL's build regenerated $s->{file} over ours");
        return 0;
    }
    my $want = text_of($ours->{o}, "$tmp/text.bin");
    my @where;
    for my $obj (@{ $s->{objects} }) {
        my $got = text_of("$build/$obj", "$tmp/text.bin");
        if (!defined $got || $got ne $want) {
            complain("$m: $obj does not hold our code");
            return 0;
        }
        push @where, $obj;
        next unless $obj =~ m{/(libcrypto-lib-[^/]+\.o)$};
        my $member = "$tmp/member.o";
        system("ar p '$build/libcrypto.a' '$1' > '$member'") == 0 && -s $member
            or do { complain("$m: no member $1 in libcrypto.a"); return 0 };
        my $in_ar = text_of($member, "$tmp/text.bin");
        if (!defined $in_ar || $in_ar ne $want) {
            complain("$m: libcrypto.a($1) does not hold our code");
            return 0;
        }
        push @where, "libcrypto.a($1)";
    }
    # In the shared library our hidden functions are local symbols of its
    # .symtab; a name may also be in .dynsym: any entry of our size will do.
    my ($so) = grep { -f } map { "$build/$_" } qw(libcrypto.so.3 libcrypto.so);
    if ($so) {
        my $g = globals($ours->{o});
        my %size_ours = func_sizes($ours->{o});
        my %size_so   = func_sizes($so);
        my @mine   = grep { $g->{$_} } sort keys %size_ours;
        my @found  = grep { $size_so{$_} } @mine;
        my @differ = grep { my $n = $_; !grep { $_ == $size_ours{$n}[0] } @{ $size_so{$n} } } @found;
        if (!@found || @differ) {
            complain("$m: " . basename($so) . (@found
                ? " has other sizes for @differ" : ' has none of our functions'));
            return 0;
        }
        push @where, basename($so) . ' (' . scalar(@found) . ' functions, sizes match)';
    }
    note("$m: our code is in " . join(', ', @where));
    return 1;
}

# --- 6. OpenSSL's tests ----------------------------------------------------
# Once per capability mask (--masks; "default" leaves OPENSSL_ia32cap as
# we found it), so one build serves every code path.
sub run_tests {
    my ($run) = @_;
    my ($opt, $arch, $log, @mods) = (@$run{qw(opt arch log)}, @{ $run->{mods} });
    my @make_test = ('make', '-C', $run->{build}, 'test', "HARNESS_JOBS=$opt->{jobs}");
    push @make_test, "TESTS=$opt->{tests}" if defined $opt->{tests} && $opt->{tests} ne '';
    # OpenSSL::Test puts EXE_SHELL in front of every test and app program
    # instead of util/wrap.pl; keep wrap.pl (it sets the library path and
    # OPENSSL_MODULES) and put the emulator after it.
    $ENV{EXE_SHELL} = join(' ', "$run->{build}/util/wrap.pl", $arch->{runner}, $arch->{runner_args} // ())
        if $arch->{runner};
    my @masks = defined $opt->{masks} && $opt->{masks} =~ /\S/ ? split(' ', $opt->{masks}) : ('default');
    my $default_mask = $ENV{OPENSSL_ia32cap};
    my @failed;
    for my $i (0 .. $#masks) {
        my $mask = $masks[$i] eq 'default' ? $default_mask : $masks[$i];
        if (defined $mask) { $ENV{OPENSSL_ia32cap} = $mask } else { delete $ENV{OPENSSL_ia32cap} }
        my $what = defined $mask ? "OPENSSL_ia32cap=$mask" : 'OPENSSL_ia32cap unset';
        my $test_log = @masks > 1 ? "$log/test-" . ($i + 1) . '.log' : "$log/test.log";
        note('running: ' . join(' ', @make_test)
            . ($arch->{runner} ? " with EXE_SHELL='$ENV{EXE_SHELL}'" : '')
            . ", $what (log $test_log)");
        my $ok = $run->{runner}->run($test_log, { tee => 1 }, 'nice', @make_test);
        note("OpenSSL's test summary (modules swapped: @mods; $what):");
        print "  $_\n" for test_summary($test_log);
        push @failed, "$what (log $test_log)" unless $ok;
    }
    fail("OpenSSL's tests failed with our modules: " . join('; ', @failed)) if @failed;
    note("OpenSSL $run->{version} passes its tests with our @mods"
        . (@masks > 1 ? ' under each of ' . scalar(@masks) . ' capability masks' : ''));
}

# The harness's closing lines: the failure report if any, Files=/Tests=,
# Result:.
sub test_summary {
    my ($log) = @_;
    open(my $fh, '<', $log) or return ("(no test log $log)");
    my @lines = <$fh>;
    chomp @lines;
    # The last harness run: OpenSSL runs a preparatory one first.
    my ($from) = reverse grep { $lines[$_] =~ /^(All tests successful|Test Summary Report)/ } 0 .. $#lines;
    return ('(the harness printed no summary; see the log)') unless defined $from;
    return grep { /\S/ && !/^make(\[\d+\])?: / } @lines[ $from .. $#lines ];
}

# --- 7. restoring ----------------------------------------------------------

sub on_signal {
    my ($run, $sig) = @_;
    complain("caught SIG$sig; restoring the tree");
    # Wait for make, so that nothing it still runs writes an object from
    # our files after the restore.
    $run->{runner}->stop($sig);
    die bless { status => 130 }, 'Dropin::Report::Exit';
}

# After the run, whatever its end: the tree put back once swapped (and
# rebuilt with --rebuild-after).  Returns the exit status; a signal during
# this stops it with 130 (the next run finishes an unfinished restore).
sub finish_restore {
    my ($run, $status) = @_;
    return $status unless $run->{restoring_needed};
    $run->{restoring_needed} = 0;
    my $restored = eval { restore($run->{build}) };
    return exit_status($@) unless defined $restored;
    return 1 unless $restored;
    if ($run->{opt}{'rebuild-after'}) {
        my $log = "$run->{log}/rebuild.log";
        note("rebuilding with OpenSSL's own files (log $log)");
        my $ok = eval { $run->{runner}->run($log, 'nice', 'make', '-C', $run->{build},
                                            "-j$run->{opt}{jobs}") };
        return exit_status($@) unless defined $ok;
        $status ||= 1 unless $ok;
    }
    return $status;
}
