#!/usr/bin/env perl
# Builds an OpenSSL 3.0.x tree with our generated modules in place of its
# own, runs OpenSSL's test suite, and puts the tree back (issue 9).
#
#   perl tools/openssl-dropin.pl --src DIR [--build DIR] [--arch x86_64|x86]
#        [--modules LIST] [--tests LIST] [--masks LIST] [--jobs N]
#        [--rebuild-after] [--check-only]
#   perl tools/openssl-dropin.pl --src DIR [--build DIR] --restore
#
# `make openssl-dropin OPENSSL_SRC=DIR` runs it; see README.md, "For
# OpenSSL fork maintainers".  Steps, each stopping with a message and a
# non-zero exit when it fails:
#  1. DIR must be an OpenSSL 3.0.x source tree (VERSION.dat), configured
#     for the target of --arch or not configured at all.
#  2. Our scripts are run for the elf flavour into a temporary directory and
#     assembled; each object must export every symbol listed in
#     tools/openssl-symbols/MODULE.txt ("missing:" lines included: OpenSSL
#     links against all of them) and import nothing but OPENSSL_ia32cap_P.
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
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(basename dirname);
use File::Copy qw(copy);
use File::Path qw(make_path remove_tree);
use File::Temp qw(tempdir);
use Fcntl qw(:flock);
use Getopt::Long qw(GetOptions);

my $ROOT = abs_path(dirname(abs_path($0)) . '/..');
my $ME   = 'openssl-dropin';

# What we can swap: our script (path in this repository, the same as
# OpenSSL's generator) and the file OpenSSL's build generates from its own
# (crypto/*/build.info GENERATE[...], path relative to the build directory).
my %MODULE = (
    'aes-x86_64'   => { arch => 'x86_64', file => 'crypto/aes/aes-x86_64.s',
                        script => 'crypto/aes/asm/aes-x86_64.pl' },
    'aesni-x86_64' => { arch => 'x86_64', file => 'crypto/aes/aesni-x86_64.s',
                        script => 'crypto/aes/asm/aesni-x86_64.pl' },
    'sha1-x86_64'  => { arch => 'x86_64', file => 'crypto/sha/sha1-x86_64.s',
                        script => 'crypto/sha/asm/sha1-x86_64.pl' },
    'aes-586'      => { arch => 'x86',    file => 'crypto/aes/aes-586.S',
                        script => 'crypto/aes/asm/aes-586.pl' },
);
# Per architecture: OpenSSL's Configure target, how to assemble for it, and
# what runs its test programs (these kernels refuse 32-bit binaries).
my %ARCH = (
    x86_64 => { target => 'linux-x86_64', ccflags => ['-m64'], runner => undef },
    x86    => { target => 'linux-x86',    ccflags => ['-m32'], runner => 'qemu-i386' },
);
# The only symbols a module may take from the rest of libcrypto.
my %MAY_IMPORT = map { $_ => 1 } qw(OPENSSL_ia32cap_P _GLOBAL_OFFSET_TABLE_);
my $STATE = '.perlasm-dropin';    # in the build directory

my %opt = (arch => 'x86_64', jobs => 2, symbols => "$ROOT/tools/openssl-symbols");
sub usage {
    print STDERR <<"EOT";
usage: $0 --src DIR [--build DIR] [--arch x86_64|x86] [--modules LIST]
          [--tests LIST] [--masks 'default MASK...'] [--jobs N]
          [--symbols DIR] [--rebuild-after] [--check-only]
       $0 --src DIR [--build DIR] --restore
modules: @{[ join ', ', map { "$_ ($MODULE{$_}{arch})" } sort keys %MODULE ]}
EOT
    exit 2;
}
GetOptions(\%opt, 'src=s', 'build=s', 'arch=s', 'modules=s', 'tests=s',
           'jobs=s', 'masks=s', 'symbols=s', 'check-only', 'restore', 'rebuild-after',
           'help')
    or usage();
usage() if $opt{help} || @ARGV;

$| = 1;    # our messages in order with the tools' output
sub fail { print STDERR "$ME: error: $_[0]\n"; exit($_[1] // 1) }
sub note { print "$ME: $_[0]\n" }

# --- 1. the tree -----------------------------------------------------------
fail('OPENSSL_SRC is not set: make openssl-dropin OPENSSL_SRC=/path/to/openssl-3.0.x'
     . ' (--src DIR)', 2) unless defined $opt{src} && $opt{src} ne '';
fail("OPENSSL_SRC=$opt{src}: no such directory", 2) unless -d $opt{src};
my $SRC = abs_path($opt{src});
fail("OPENSSL_SRC=$opt{src} is not an OpenSSL source tree (no VERSION.dat and Configure)", 2)
    unless -f "$SRC/VERSION.dat" && -f "$SRC/Configure";
my %ver = read_version("$SRC/VERSION.dat");
my $VERSION = join '.', map { $ver{$_} // '?' } qw(MAJOR MINOR PATCH);
fail("OPENSSL_SRC=$opt{src} is OpenSSL $VERSION; the drop-in is for 3.0.x"
     . ' (the modules match OpenSSL 3.0\'s symbols)', 2)
    unless ($ver{MAJOR} // '') eq '3' && ($ver{MINOR} // '') eq '0';

# Debian's source package keeps its binary test data in debian/binary.tar,
# which its build (debian/rules) extracts first; without it test_cms and
# test_cmsapi fail, after half an hour.
if (-f "$SRC/debian/binary.tar") {
    my @lost = grep { !-e "$SRC/$_" } map { chomp; $_ } grep { !m{/$} } `tar tf '$SRC/debian/binary.tar'`;
    fail("$SRC is a Debian source tree whose test data is still in debian/binary.tar"
         . " (@lost); extract it first: (cd '$SRC' && tar xf debian/binary.tar)", 2) if @lost;
}

my $arch = $ARCH{$opt{arch}}
    or fail("--arch $opt{arch}: want x86_64 or x86", 2);
my $BUILD = $SRC;
$BUILD = -d $opt{build} ? abs_path($opt{build}) : $opt{build}
    if defined $opt{build} && $opt{build} ne '';

# One run per build directory: a second one would take the first's swap
# for a leftover.  The lock (on the directory itself) ends with us.
my $lock;
sub lock_build {
    open($lock, '<', $BUILD) or fail("cannot open $BUILD: $!", 2);
    flock($lock, LOCK_EX | LOCK_NB)
        or fail("another openssl-dropin run is using $BUILD; wait for it to finish", 2);
}
lock_build() if -d $BUILD;

# Restoring comes first: the tree may hold ours from a run that died.
our $restored;
if (-e "$BUILD/$STATE") {
    fail("$BUILD/$STATE exists: an earlier run was interrupted; --restore first", 2)
        if $opt{'check-only'};
    note("$BUILD/$STATE: an earlier run left its swap in place; restoring it");
    restore() or fail('restore failed; the saved files are in ' . "$BUILD/$STATE");
}
if ($opt{restore}) {
    note('nothing to restore') unless $restored;
    exit 0;
}

# OpenSSL's Configure, run out of a source tree that has been configured
# in place, sees that tree's libraries and produces no Makefile.
fail("OPENSSL_BUILD=$BUILD: $SRC is itself configured (configdata.pm), and OpenSSL"
     . ' builds out of tree only from a clean source tree: use a fresh one, or build'
     . ' in the tree (no OPENSSL_BUILD)', 2)
    if $BUILD ne $SRC && -f "$SRC/configdata.pm" && !-f "$BUILD/configdata.pm";

my $configured = configured_target($BUILD);
fail("$BUILD is configured for $configured, not $arch->{target}: use another tree"
     . ' (or an empty build directory, --build / OPENSSL_BUILD)', 2)
    if defined $configured && $configured ne $arch->{target};
fail("$BUILD has no Makefile: configure it again or remove configdata.pm", 2)
    if defined $configured && !-f "$BUILD/Makefile";
fail("--jobs $opt{jobs}: want a positive number", 2) unless $opt{jobs} =~ /^[1-9]\d*$/;

my @mods = defined $opt{modules} && $opt{modules} ne ''
         ? split(/[\s,]+/, $opt{modules})
         : grep { $MODULE{$_}{arch} eq $opt{arch} } sort keys %MODULE;
for my $m (@mods) {
    fail("unknown module '$m' (known: @{[ sort keys %MODULE ]})", 2) unless $MODULE{$m};
    fail("module $m is for --arch $MODULE{$m}{arch}, not $opt{arch}", 2)
        unless $MODULE{$m}{arch} eq $opt{arch};
    fail("$m: our script $MODULE{$m}{script} does not exist in $ROOT yet", 2)
        unless -f "$ROOT/$MODULE{$m}{script}";
}
fail('no modules to swap', 2) unless @mods;
if ($arch->{runner} && !$opt{'check-only'}) {
    fail("$arch->{runner} not found: the $opt{arch} test programs run through it"
         . ' (apt-get install qemu-user)', 2) unless in_path($arch->{runner});
}

# --- 2. our modules, checked before anything is touched ---------------------
my $TMP = tempdir("$ME.XXXXXX", TMPDIR => 1, CLEANUP => 1);
my $CC  = $ENV{CC} // 'cc';
note("OpenSSL $VERSION at $SRC" . ($BUILD ne $SRC ? ", build directory $BUILD" : '')
    . ", target $arch->{target}; modules: @mods");
my %ours;    # module => {s => generated file, o => its object, syms => ...}
my $bad = 0;
for my $m (@mods) {
    my $o = generate_ours($m, default_flags());
    my $need = read_list("$opt{symbols}/$m.txt");
    $bad += !check_exports($m, $o, $need, 'tools/openssl-symbols');
}
fail('our modules lack what OpenSSL needs (above); nothing was changed') if $bad;
if ($opt{'check-only'}) {
    note('check only: our modules export what the lists ask; the tree was not touched');
    exit 0;
}

# --- 3. configure, OpenSSL's own files -------------------------------------
my $LOG = tempdir("$ME-logs.XXXXXX", TMPDIR => 1, CLEANUP => 0);
if (!-d $BUILD) {
    make_path($BUILD) or fail("cannot create the build directory $BUILD: $!");
    $BUILD = abs_path($BUILD);
    lock_build();
}
if (!defined $configured) {
    my $configure = $BUILD eq $SRC ? './Configure' : "$SRC/Configure";
    note("configuring: $configure $arch->{target} (log $LOG/configure.log)");
    run_logged("$LOG/configure.log", { dir => $BUILD }, $configure, $arch->{target})
        or fail("Configure failed; see $LOG/configure.log");
}
my %swap;    # module => {file, objects => [...], saved}
for my $m (@mods) {
    my $file = $MODULE{$m}{file};
    my @objs = objects_from($file);
    fail("OpenSSL's Makefile compiles nothing from $file (configured no-asm?)")
        unless @objs;
    run_logged("$LOG/generate.log", 'make', '-C', $BUILD, $file)
        or fail("make $file failed; see $LOG/generate.log");
    my $recipe = generator_flags($m);
    if ("@$recipe" ne "@{ default_flags() }") {
        note("$m: OpenSSL generates with @$recipe; regenerating ours with them");
        my $o = generate_ours($m, $recipe);
        $bad += !check_exports($m, $o, read_list("$opt{symbols}/$m.txt"), 'tools/openssl-symbols');
    }
    my $theirs = "$TMP/theirs-$m.o";
    assemble("$BUILD/$file", $theirs) or fail("cannot assemble OpenSSL's own $file");
    my $listed = read_list("$opt{symbols}/$m.txt");
    my %need = map { $_ => $listed->{$_} // [] } keys %{ globals($theirs) };
    $bad += !check_exports($m, $ours{$m}{o}, \%need, "the tree's own $file");
    $swap{$m} = { file => $file, objects => \@objs };
}
fail('our modules lack what this tree\'s own modules export (above); nothing was changed')
    if $bad;

# --- 4. swap ---------------------------------------------------------------
my $restoring_needed = 0;
$SIG{INT} = $SIG{TERM} = $SIG{HUP} = \&on_signal;
END { finish_restore() }

make_path("$BUILD/$STATE");
{
    # The manifest is complete before the first file changes.
    my $list = '';
    for my $m (@mods) {
        my $s = $swap{$m};
        copy_keep_time("$BUILD/$s->{file}", "$BUILD/$STATE/$m.orig")
            or fail("cannot save $s->{file}: $!");
        $list .= join("\t", $m, $s->{file}, @{ $s->{objects} }) . "\n";
    }
    write_file("$BUILD/$STATE/manifest.tmp", $list);
    rename("$BUILD/$STATE/manifest.tmp", "$BUILD/$STATE/manifest")
        or fail("cannot write $BUILD/$STATE/manifest: $!");
}
$restoring_needed = 1;
note('swapped in (OpenSSL\'s file <- ours):');
for my $m (@mods) {
    my $s = $swap{$m};
    copy($ours{$m}{s}, "$BUILD/$s->{file}") or fail("cannot write $s->{file}: $!");
    my $now = time;
    utime($now, $now, "$BUILD/$s->{file}");
    unlink map { "$BUILD/$_" } @{ $s->{objects} };
    printf "  %-26s <- perl %s %s (rebuilds %s)\n", $s->{file}, $MODULE{$m}{script},
           "@{ $ours{$m}{flags} }", join(', ', @{ $s->{objects} });
    # make -q: exit 0 when the target is up to date, i.e. make will keep ours.
    system('make', '-q', '-C', $BUILD, $s->{file}) == 0
        or fail("OpenSSL's make would regenerate $s->{file} over ours");
}

# --- 5. build and check that ours went in ----------------------------------
note("building: nice make -j$opt{jobs} (log $LOG/build.log)");
run_logged("$LOG/build.log", 'nice', 'make', '-C', $BUILD, "-j$opt{jobs}")
    or fail_with_log("OpenSSL's build failed with our modules", "$LOG/build.log");
for my $m (@mods) {
    verify_built($m) or fail("$m: the built OpenSSL does not contain our code");
}

# --- 6. OpenSSL's tests ----------------------------------------------------
# Once per capability mask (--masks; "default" leaves OPENSSL_ia32cap as
# we found it), so one build serves every code path.
my @make_test = ('make', '-C', $BUILD, 'test', "HARNESS_JOBS=$opt{jobs}");
push @make_test, "TESTS=$opt{tests}" if defined $opt{tests} && $opt{tests} ne '';
# OpenSSL::Test puts EXE_SHELL in front of every test and app program
# instead of util/wrap.pl; keep wrap.pl (it sets the library path and
# OPENSSL_MODULES) and put the emulator after it.
$ENV{EXE_SHELL} = "$BUILD/util/wrap.pl $arch->{runner}" if $arch->{runner};
my @masks = defined $opt{masks} && $opt{masks} =~ /\S/ ? split(' ', $opt{masks}) : ('default');
my $default_mask = $ENV{OPENSSL_ia32cap};
my @failed;
for my $i (0 .. $#masks) {
    my $mask = $masks[$i] eq 'default' ? $default_mask : $masks[$i];
    if (defined $mask) { $ENV{OPENSSL_ia32cap} = $mask } else { delete $ENV{OPENSSL_ia32cap} }
    my $what = defined $mask ? "OPENSSL_ia32cap=$mask" : 'OPENSSL_ia32cap unset';
    my $log = @masks > 1 ? "$LOG/test-" . ($i + 1) . '.log' : "$LOG/test.log";
    note('running: ' . join(' ', @make_test)
        . ($arch->{runner} ? " with EXE_SHELL='$ENV{EXE_SHELL}'" : '')
        . ", $what (log $log)");
    my $ok = run_logged($log, { tee => 1 }, 'nice', @make_test);
    note("OpenSSL's test summary (modules swapped: @mods; $what):");
    print "  $_\n" for test_summary($log);
    push @failed, "$what (log $log)" unless $ok;
}
fail("OpenSSL's tests failed with our modules: " . join('; ', @failed)) if @failed;
note("OpenSSL $VERSION passes its tests with our @mods"
     . (@masks > 1 ? ' under each of ' . scalar(@masks) . ' capability masks' : ''));
exit 0;

# --- helpers ---------------------------------------------------------------

sub read_version {
    my ($file) = @_;
    open(my $fh, '<', $file) or fail("$file: $!", 2);
    return map { /^(\w+)=(.*)$/ ? ($1 => $2) : () } <$fh>;
}

# The Configure target a build directory was configured for, or undef.
sub configured_target {
    my ($dir) = @_;
    open(my $fh, '<', "$dir/configdata.pm") or return undef;
    while (<$fh>) { return $1 if /^\s*"target"\s*=>\s*"([^"]+)"/ }
    fail("$dir/configdata.pm names no target: not an OpenSSL 3.0 configuration", 2);
}

sub in_path {
    my ($cmd) = @_;
    return grep { -x "$_/$cmd" } split /:/, $ENV{PATH} // '';
}

sub write_file {
    my ($file, $text) = @_;
    open(my $fh, '>', $file) or fail("$file: $!");
    print $fh $text;
    close $fh or fail("$file: $!");
}

sub copy_keep_time {
    my ($from, $to) = @_;
    copy($from, $to) or return 0;
    my @st = stat $from;
    return utime($st[8], $st[9], $to);
}

# Runs a command with stdout and stderr to a log (and, with tee, to our
# stdout too); true if it exits 0.  A signal that kills it stops us.
sub run_logged {
    my $log = shift;
    my $o = ref $_[0] ? shift : {};
    my @cmd = @_;
    open(my $out, '>>', $log) or fail("$log: $!");
    print $out "\$ @cmd\n";
    close $out;
    my $pid = open(my $fh, '-|') // fail("fork: $!");
    if (!$pid) {
        open STDERR, '>&', \*STDOUT;
        chdir $o->{dir} or do { print "cannot chdir to $o->{dir}: $!\n"; exit 127 }
            if $o->{dir};
        exec @cmd or do { print "cannot run $cmd[0]: $!\n"; exit 127 };
    }
    our $child = $pid;
    open($out, '>>', $log) or fail("$log: $!");
    $out->autoflush(1);
    local $| = 1;
    while (my $line = <$fh>) {
        print $out $line;
        print $line if $o->{tee};
    }
    close $fh;
    my $status = $?;
    $child = undef;
    close $out;
    fail("interrupted (signal " . ($status & 127) . ") while running $cmd[0]", 130)
        if $status & 127;
    return $status == 0;
}

sub fail_with_log {
    my ($msg, $log) = @_;
    open(my $fh, '<', $log);
    my @lines = $fh ? <$fh> : ();
    my $n = @lines < 40 ? @lines : 40;
    print STDERR "$ME: last lines of $log:\n", map { "  $_" } @lines[ @lines - $n .. $#lines ];
    fail("$msg; see $log");
}

# Flags our generator gets by default: the 32-bit layer's position
# independent SSE2 build, as OpenSSL's linux-x86 shared build asks.
sub default_flags { $opt{arch} eq 'x86' ? [qw(-fPIC -DOPENSSL_IA32_SSE2)] : [] }

# The flags among OpenSSL's generator arguments that change what a module
# generates (the rest are compiler flags its x86asm.pl ignores), read from
# the Makefile's expanded recipe (make -n, the generator pretended new).
sub generator_flags {
    my ($m) = @_;
    return [] unless $opt{arch} eq 'x86';
    my $file = $MODULE{$m}{file};
    # The generator as the Makefile names it (relative to an out-of-tree
    # build), the first prerequisite of the file's rule.
    open(my $mk, '<', "$BUILD/Makefile") or fail("$BUILD/Makefile: $!");
    my ($gen) = map { /^\Q$file\E:\s*(\S+)/ ? $1 : () } <$mk>;
    close $mk;
    fail("$BUILD/Makefile has no rule for $file") unless defined $gen;
    my @out = `make -s -n -C '$BUILD' -W '$gen' '$file' 2>&1`;
    my ($cmd) = grep { /\Q$MODULE{$m}{script}\E/ && /\Q$file\E\s*$/ } @out
        or fail("cannot find how OpenSSL's Makefile generates $file (make -n)");
    my %seen;
    return [ grep { /^(-fPIC|-DOPENSSL_IA32_SSE2|386)$/ && !$seen{$_}++ } split ' ', $cmd ];
}

sub assemble {
    my ($s, $o) = @_;
    return system($CC, @{ $arch->{ccflags} }, '-c', '-o', $o, $s) == 0;
}

sub generate_ours {
    my ($m, $flags) = @_;
    my $ext = $MODULE{$m}{file} =~ /(\.[sS])$/ ? $1 : '.s';
    my $s = "$TMP/ours-$m$ext";
    my $o = "$TMP/ours-$m.o";
    system($^X, "$ROOT/$MODULE{$m}{script}", 'elf', @$flags, $s) == 0
        or fail("$m: perl $MODULE{$m}{script} elf @$flags failed");
    assemble($s, $o) or fail("$m: our generated $m$ext does not assemble");
    $ours{$m} = { s => $s, o => $o, flags => ['elf', @$flags] };
    return $o;
}

# SYMBOL => [users] from tools/openssl-symbols/MODULE.txt; missing: tags
# count as required (they are gaps in our module, not in OpenSSL's needs).
sub read_list {
    my ($file) = @_;
    return {} unless -f $file;
    open(my $fh, '<', $file) or fail("$file: $!");
    my %need;
    while (<$fh>) {
        next if /^\s*(#|$)/;
        s/^missing:\s*//;
        my ($sym, $users) = /^(\w+)\s+(\S.*)$/ or fail("$file:$.: want 'SYMBOL  USER, ...'");
        $need{$sym} = [ split /,\s*/, $users ];
    }
    return \%need;
}

# Defined global symbols of an object: name => visibility.  Common
# symbols are not definitions to match: OpenSSL's 32-bit modules each
# declare OPENSSL_ia32cap_P that way (.comm), which crypto/cpuid.c defines.
sub globals {
    my ($obj) = @_;
    my %sym;
    for (`readelf -sW '$obj'`) {
        my @f = split ' ';    # Num: Value Size Type Bind Vis Ndx Name
        next unless @f >= 8 && $f[0] =~ /^\d+:$/ && $f[6] ne 'UND' && $f[6] ne 'COM';
        $sym{$f[7]} = $f[5] if $f[4] eq 'GLOBAL' || $f[4] eq 'WEAK';
    }
    return \%sym;
}

sub imports {
    my ($obj) = @_;
    return map { /^\s*U\s+(\S+)/ ? $1 : () } `nm -u '$obj'`;
}

sub check_exports {
    my ($m, $obj, $need, $what) = @_;
    my $have = globals($obj);
    my @missing = sort grep { !exists $have->{$_} } keys %$need;
    my @bad_imports = grep { !$MAY_IMPORT{$_} } imports($obj);
    for my $sym (@missing) {
        my @users = @{ $need->{$sym} };
        print STDERR "$ME: $m: does not export $sym, which OpenSSL needs ($what"
                   . (@users ? '; used by ' . join(', ', @users) : '') . ")\n";
    }
    print STDERR "$ME: $m: imports $_, which OpenSSL does not provide to it\n" for @bad_imports;
    return 0 if @missing || @bad_imports;
    note(%$need ? "$m: exports every symbol of $what (" . scalar(keys %$need) . ')'
                : "$m: no list of what OpenSSL needs in $what; checked against the"
                  . " tree's own file once it is configured");
    return 1;
}

# The objects OpenSSL's Makefile compiles from a generated file.
sub objects_from {
    my ($file) = @_;
    open(my $fh, '<', "$BUILD/Makefile") or fail("$BUILD/Makefile: $!");
    return map { /^(\S+\.o):\s*\Q$file\E\s*$/ ? $1 : () } <$fh>;
}

sub text_of {
    my ($obj) = @_;
    my $bin = "$TMP/text.bin";
    unlink $bin;
    system('objcopy', '-O', 'binary', '--only-section=.text', $obj, $bin) == 0 or return undef;
    open(my $fh, '<:raw', $bin) or return undef;
    local $/;
    return scalar <$fh>;
}

sub sha_file {
    my ($file) = @_;
    require Digest::SHA;
    return Digest::SHA->new(256)->addfile($file, 'b')->hexdigest;
}

# Our code is in the build: the generated file is still ours, every object
# compiled from it and its libcrypto.a member carry our .text, and in
# libcrypto.so each of our exported functions has our size.
sub verify_built {
    my ($m) = @_;
    my $s = $swap{$m};
    if (sha_file("$BUILD/$s->{file}") ne sha_file($ours{$m}{s})) {
        print STDERR "$ME: $m: OpenSSL's build regenerated $s->{file} over ours\n";
        return 0;
    }
    my $want = text_of($ours{$m}{o});
    my @where;
    for my $obj (@{ $s->{objects} }) {
        my $got = text_of("$BUILD/$obj");
        if (!defined $got || $got ne $want) {
            print STDERR "$ME: $m: $obj does not hold our code\n";
            return 0;
        }
        push @where, $obj;
        next unless $obj =~ m{/(libcrypto-lib-[^/]+\.o)$};
        my $member = "$TMP/member.o";
        system("ar p '$BUILD/libcrypto.a' '$1' > '$member'") == 0 && -s $member
            or do { print STDERR "$ME: $m: no member $1 in libcrypto.a\n"; return 0 };
        my $in_ar = text_of($member);
        if (!defined $in_ar || $in_ar ne $want) {
            print STDERR "$ME: $m: libcrypto.a($1) does not hold our code\n";
            return 0;
        }
        push @where, "libcrypto.a($1)";
    }
    # In the shared library our hidden functions are local symbols of its
    # .symtab; a name may also be in .dynsym: any entry of our size will do.
    my ($so) = grep { -f } map { "$BUILD/$_" } qw(libcrypto.so.3 libcrypto.so);
    if ($so) {
        my $g = globals($ours{$m}{o});
        my %size_ours = func_sizes($ours{$m}{o});
        my %size_so   = func_sizes($so);
        my @ours   = grep { $g->{$_} } sort keys %size_ours;
        my @found  = grep { $size_so{$_} } @ours;
        my @differ = grep { my $n = $_; !grep { $_ == $size_ours{$n}[0] } @{ $size_so{$n} } } @found;
        if (!@found || @differ) {
            print STDERR "$ME: $m: " . basename($so) . (@found
                ? " has other sizes for @differ" : ' has none of our functions') . "\n";
            return 0;
        }
        push @where, basename($so) . ' (' . scalar(@found) . ' functions, sizes match)';
    }
    note("$m: our code is in " . join(', ', @where));
    return 1;
}

# Function symbols of an ELF file (both symbol tables): name => [sizes].
sub func_sizes {
    my ($obj) = @_;
    my %size;
    for (`readelf -sW '$obj'`) {
        my @f = split ' ';
        next unless @f >= 8 && $f[0] =~ /^\d+:$/ && $f[3] eq 'FUNC' && $f[6] ne 'UND';
        (my $name = $f[7]) =~ s/@.*//;
        push @{ $size{$name} }, $f[2] =~ /^0x/ ? hex $f[2] : $f[2];
    }
    return %size;
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
    my @sum = grep { /\S/ && !/^make(\[\d+\])?: / } @lines[ $from .. $#lines ];
    return @sum;
}

# --- restoring -------------------------------------------------------------

sub on_signal {
    my ($sig) = @_;
    our $child;
    print STDERR "$ME: caught SIG$sig; restoring the tree\n";
    if ($child) {
        # Wait for make, so that nothing it still runs writes an object
        # from our files after the restore.
        kill $sig, $child;
        waitpid $child, 0;
    }
    exit 130;
}

sub finish_restore {
    my $status = $?;
    return unless $restoring_needed;
    $restoring_needed = 0;
    if (!restore()) {
        $? = 1;
        return;
    }
    if ($opt{'rebuild-after'}) {
        note("rebuilding with OpenSSL's own files (log $LOG/rebuild.log)");
        $status ||= 1 unless run_logged("$LOG/rebuild.log", 'nice', 'make', '-C', $BUILD, "-j$opt{jobs}");
    }
    $? = $status;
}

# Puts back every file the manifest saved and deletes the objects compiled
# from ours; idempotent, so a restore that is itself cut short can be rerun.
sub restore {
    my $dir = "$BUILD/$STATE";
    return 1 unless -d $dir;
    our $restored = 1;
    if (!-f "$dir/manifest") {
        # Died while saving: nothing was swapped yet.
        remove_tree($dir);
        return 1;
    }
    open(my $fh, '<', "$dir/manifest") or do { print STDERR "$ME: $dir/manifest: $!\n"; return 0 };
    my $ok = 1;
    my @done;
    for (<$fh>) {
        chomp;
        my ($m, $file, @objs) = split /\t/;
        if (!copy_keep_time("$dir/$m.orig", "$BUILD/$file")) {
            print STDERR "$ME: cannot restore $BUILD/$file from $dir/$m.orig: $!\n";
            $ok = 0;
            next;
        }
        for my $obj (@objs) {
            next unless -e "$BUILD/$obj";
            unlink "$BUILD/$obj" or do { print STDERR "$ME: cannot remove $obj: $!\n"; $ok = 0 };
        }
        push @done, $file;
    }
    close $fh;
    if ($ok) {
        remove_tree($dir);
        note('restored OpenSSL\'s own ' . join(', ', @done)
            . '; the next make there rebuilds the objects compiled from them');
    }
    return $ok;
}
