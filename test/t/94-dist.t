#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# make dist (mk/dist.mk, tools/dist/): the release tarball.
#  - made twice (the second time under umask 077 and another TZ, a second
#    later) it is the same bytes; gzip stores no name or time; every entry
#    is owned by 0/0, has one mtime (the last commit's, or
#    SOURCE_DATE_EPOCH's), mode 644 or 755, each directory's entries in
#    name order, all under perlasm-x86-VERSION/, named and holding a
#    VERSION file after the repository's VERSION file (or VERSION=...);
#  - its files are exactly `make print-dist-files` (the Makefile's lists);
#    they hold every file git tracks under perlasm/ and every Perl file
#    under crypto/ but the one named here as no generator, and the test
#    vectors matching their SHA256SUMS; every platform the tarball's
#    Makefile accepts has its assembly, the x86_64 ones the same modules;
#    every file in asm/ and gen/ starts with a line naming a shipped
#    generator, its platform's flavour and flags, below which the ELF
#    x86_64 files are the build's; no file holds this checkout's path or
#    today's date;
#  - bad VERSION or SOURCE_DATE_EPOCH, or a failing tar: one "make dist:"
#    line, non-zero exit, no tarball and no temporary left;
#  - unpacked, every generated file cut to its first line, `make regen`
#    gives back the shipped bytes (perl and the tarball's generators only);
#  - unpacked and built with no perl on PATH: linux-x86_64's archive holds
#    the assembly (AES_encrypt, aesni_encrypt, sha1_block_data_order
#    defined), `make check` with no VECTORS runs every implementation each
#    known-answer program lists over the shipped vector files (the C ones
#    must pass with tests counted; every vector file read, where atimes
#    are kept), fails over an empty vector directory and when a shipped
#    vector file no longer matches its SHA256SUMS, `make install` puts
#    the archive, every header and a .pc identical to the repository's
#    install's under DESTDIR, and `make uninstall` leaves no file there;
#  - linux-x86 under qemu-i386, mingw64 and win64-nasm under wine64 (or
#    build-only), win32-nasm build-only, the macOS assembly through
#    clang -target: each when its tools exist, else a SKIP naming them;
#  - an unknown PLATFORM: exit 2 and one line listing the valid ones.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib", "$FindBin::Bin/../../support/perl";
use Slurp qw(slurp spew);
use Archive::Tar;
use Cwd qw(abs_path);
use Digest::SHA;
use File::Basename qw(basename dirname);
use File::Spec;
use File::Temp qw(tempdir);
use POSIX qw(strftime);
use Capture qw(capture);
use ImplRuns qw(result finish in_path);

$| = 1;
# Run from `make test`, the makes here must not join its jobserver or take
# its command-line variables: they build other trees.
delete @ENV{qw(MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES)};
my $root    = abs_path("$FindBin::Bin/../..");
my $build   = $ENV{BUILD} // 'build';
my $buildp  = File::Spec->rel2abs($build, $root);
my $dir     = tempdir(CLEANUP => 1);
my @MAKE    = ('make', '--no-print-directory', '-s', '-C', $root, "BUILD=$build");

sub sha256 { my ($f) = @_; return Digest::SHA->new(256)->addfile($f, 'b')->hexdigest }
sub lines { return grep { length } split /\n/, $_[0] }
sub diag { print "# $_\n" for @_; return 0 }
# The last $n lines of a command's output (where its error is).
sub tail_lines { my ($text, $n) = @_; my @l = lines($text); return @l > $n ? @l[-$n .. -1] : @l }

# make dist with the given environment changes; (status, output, tarball).
sub make_dist {
    my ($env, @args) = @_;
    local %ENV = %ENV;
    delete @ENV{qw(SOURCE_DATE_EPOCH VERSION)};
    @ENV{keys %$env} = values %$env;
    my ($st, $out) = capture(@MAKE, 'dist', @args);
    my ($tarball) = $out =~ /^wrote (\S+)$/m;
    $tarball = File::Spec->rel2abs($tarball, $root) if defined $tarball;
    return ($st, $out, $tarball);
}

sub version_file { my $v = slurp("$root/VERSION") // ''; chomp $v; return $v }
my $version = version_file();

# --- reproducible --------------------------------------------------------
my ($st, $out, $tarball) = make_dist({ TZ => 'UTC' });
result($st == 0 && defined $tarball && -f $tarball, 'make dist writes a tarball')
    or diag(tail_lines($out, 20)), finish();
my $sum1 = sha256($tarball);
unlink $tarball;
sleep 1;
my $old_umask = umask 077;
my ($st2, $out2, $tarball2) = make_dist({ TZ => 'Pacific/Kiritimati' });
umask $old_umask;
my $sum2 = defined $tarball2 && -f $tarball2 ? sha256($tarball2) : 'none';
result($st2 == 0 && ($tarball2 // "") eq $tarball && $sum1 eq $sum2,
       "make dist twice (1 s apart, umask 077, TZ UTC then UTC+14): the same bytes, sha256 $sum1 / $sum2");
printf "# %s: %d bytes\n", $tarball, -s $tarball;

my ($cst, $commit_time) = capture('git', '-C', $root, 'log', '-1', '--format=%ct');
chomp $commit_time;
result($version =~ /^\d+\.\d+\.\d+$/ && basename($tarball) eq "perlasm-x86-$version.tar.gz",
       "named after the VERSION file: perlasm-x86-$version.tar.gz");

my $gz = slurp($tarball);
result(substr($gz, 0, 2) eq "\x1f\x8b" && !(ord(substr($gz, 3, 1)) & 0x08)
       && unpack('V', substr($gz, 4, 4)) == 0, 'gzip header: no file name, no time');

# --- what the tarball holds ----------------------------------------------------
my @members = Archive::Tar->new($tarball)->get_files;
my $top = "perlasm-x86-$version";
my $epoch = $cst == 0 ? $commit_time : 946684800;
my @bad_meta = grep {
    my $want = $_->is_dir ? 0755 : 0644;
    $_->uid != 0 || $_->gid != 0 || $_->mtime != $epoch || $_->mode != $want
        || $_->full_path !~ m{^\Q$top\E(/|$)}
} @members;
result(@members && !@bad_meta, "every entry under $top/, owner 0/0, mtime $epoch, mode 644/755")
    or diag(map { sprintf 'not so: %s %d/%d %d %o', $_->full_path, $_->uid, $_->gid, $_->mtime, $_->mode }
            @bad_meta[0 .. ($#bad_meta < 4 ? $#bad_meta : 4)]);

# Each directory's entries in name order (GNU tar --sort=name).
my (%seen_in, $unsorted);
for my $m (@members) {
    my $path = $m->full_path =~ s{/$}{}r;
    my $parent = dirname($path);
    my $prev = $seen_in{$parent};
    $unsorted //= $path if defined $prev && ($prev cmp basename($path)) > 0;
    $seen_in{$parent} = basename($path);
}
result(!defined $unsorted, 'entries sorted by name within each directory')
    or diag("out of order: $unsorted");

my %in_tar = map { ($_->full_path =~ s{^\Q$top\E/}{}r) => $_ } grep { $_->is_file } @members;
my ($pst, $plist) = capture(@MAKE, 'print-dist-files');
my %expected = map { $_ => 1 } lines($plist);
my @missing = grep { !$in_tar{$_} } sort keys %expected;
my @extra   = grep { !$expected{$_} } sort keys %in_tar;
result($pst == 0 && scalar(keys %expected) > 20 && !@missing && !@extra,
       sprintf('the files are those of make print-dist-files (%d)', scalar keys %expected))
    or diag(map({ "missing: $_" } @missing), map({ "extra: $_" } @extra));
my $shipped_version = $in_tar{VERSION} ? $in_tar{VERSION}->get_content : '';
result($shipped_version eq "$version\n", "its VERSION file holds $version");

# The generators: all of perlasm/, every Perl file under crypto/.
my ($lst, $tracked) = capture('git', '-C', $root, 'ls-files', 'perlasm', 'crypto');
if ($lst != 0) {
    result(1, 'every generator git tracks is shipped', 'SKIP not a git checkout');
} else {
    my @generators = grep { m{^perlasm/} || m{\.p[lm]$} } lines($tracked);
    my @unshipped = grep { !$in_tar{$_} } @generators;
    result(@generators > 40 && !@unshipped, 'every generator git tracks under perlasm/ and crypto/ is shipped ('
           . @generators . ' files)') or diag(map { "not shipped: $_" } @unshipped);
}

# The vectors, as their SHA256SUMS (shipped too) lists them.
my $sums_member = $in_tar{'test/vectors/SHA256SUMS'};
my @sums = map { [ split /  /, $_, 2 ] } lines($sums_member ? $sums_member->get_content : '');
my @bad_vectors = grep {
    my $m = $in_tar{"test/vectors/$_->[1]"};
    !$m || Digest::SHA::sha256_hex($m->get_content) ne $_->[0]
} @sums;
result(@sums > 40 && !@bad_vectors, 'the ' . @sums . ' test vector files its SHA256SUMS lists, matching it')
    or diag(map { "missing or different: $_->[1]" } @bad_vectors);

# Modules per platform directory.
my %modules;
for my $path (keys %in_tar) {
    $modules{$1}{$2} = 1 if $path =~ m{^asm/([^/]+)/([^/]+)\.(?:s|asm)$};
}
my @x86_64 = grep { exists $modules{$_}{'aesni-x86_64'} } sort keys %modules;
my @x86    = grep { exists $modules{$_}{'aes-586'} } sort keys %modules;
my $same_set = sub {
    my @sets = map { join ' ', sort keys %{ $modules{$_} } } @_;
    return @sets && !grep { $_ ne $sets[0] } @sets;
};
result(@x86_64 == 4 && $same_set->(@x86_64), "x86_64 platforms @x86_64 carry the same modules: "
       . join(' ', sort keys %{ $modules{'linux-x86_64'} // {} }));
result(@x86 == 3 && $same_set->(@x86), "32-bit platforms @x86 carry aes-586");

# Each generated file's first line: a shipped generator, the platform's
# flavour and the flags the library's build uses (the 32-bit code with
# OpenSSL's SSE2 paths, ELF and Mach-O position independent).
my %FLAVOUR = ('linux-x86_64' => 'elf', 'macos-x86_64' => 'macosx', mingw64 => 'mingw64', 'win64-nasm' => 'nasm',
               'linux-x86' => 'elf, flags -fPIC -DOPENSSL_IA32_SSE2', 'macos-i386' => 'macosx, flags -fPIC -DOPENSSL_IA32_SSE2',
               'win32-nasm' => 'win32n, flags -DOPENSSL_IA32_SSE2');
my (%body_of, @unheaded);
my @generated = grep { m{^(?:asm|gen)/} } sort keys %in_tar;
for my $path (@generated) {
    my ($first, $body) = split /\n/, $in_tar{$path}->get_content, 2;
    my ($lead, $script, $how) = $first =~ m{^(#|;|/\*) Generated by (\S+)(?: \((flavour [^)]*)\))? -- do not edit; regenerate with make regen(?: \*/)?$};
    my $want_lead = $path =~ /\.h$/ ? '/*' : $path =~ /\.asm$/ ? ';' : '#';
    my $want_how  = $path =~ m{^asm/([^/]+)/} ? "flavour $FLAVOUR{$1}" : '';
    push @unheaded, "$path: $first"
        if !defined $lead || $lead ne $want_lead || !$in_tar{$script} || $script !~ m{^crypto/}
           || ($how // '') ne $want_how;
    $body_of{$path} = $body;
}
# Five headers in gen/ (AES tables, capability bits, CBC paths, the registry's rows, the
# variants' prototypes) and the platforms' 3 x 7 assembly files.
result(@generated == 5 + 3 * 7 && !@unheaded, 'every file in asm/ and gen/ (' . @generated
       . ') starts with a line naming its shipped generator, flavour and flags')
    or diag(@unheaded[0 .. ($#unheaded < 4 ? $#unheaded : 4)]);

my @elf64 = sort keys %{ $modules{'linux-x86_64'} // {} };
my @stale = grep {
    my $mine = slurp("$buildp/gen/asm/$_.s");
    !defined $mine || $mine ne ($body_of{"asm/linux-x86_64/$_.s"} // '')
} @elf64;
result(@elf64 && !@stale, "asm/linux-x86_64/ below that line is the build's $build/gen/asm/")
    or diag(map { "differs: $_" } @stale);

# The generated files (the rest is copied from the checkout as it is).
my $today = strftime('%Y-%m-%d', localtime);
my @leaky = grep { my $c = $in_tar{$_}->get_content; index($c, $root) >= 0 || index($c, $today) >= 0 }
            grep { m{^(?:asm|gen)/} || $_ eq 'Makefile' } sort keys %in_tar;
result(!@leaky, "no generated file holds this checkout's path or today's date ($today)")
    or diag(map { "in: $_" } @leaky);

my ($sst, $sout, $sde_tarball) = make_dist({ SOURCE_DATE_EPOCH => 1234567890 }, 'VERSION=t94-sde');
my @sde_times = $sst == 0 && $sde_tarball
    ? map { $_->mtime } Archive::Tar->new($sde_tarball)->get_files : ();
my $sde_version = @sde_times ? Archive::Tar->new($sde_tarball)->get_content('perlasm-x86-t94-sde/VERSION') : '';
result(@sde_times && !grep({ $_ != 1234567890 } @sde_times)
       && basename($sde_tarball // '') eq 'perlasm-x86-t94-sde.tar.gz' && ($sde_version // '') eq "t94-sde\n",
       'SOURCE_DATE_EPOCH=1234567890 VERSION=t94-sde: perlasm-x86-t94-sde.tar.gz, VERSION t94-sde, every mtime 1234567890');
unlink $sde_tarball if $sde_tarball;

# --- bad input -------------------------------------------------------------------
for my $case (['VERSION=bad/name', {}, 'VERSION=bad/name'],
              ['SOURCE_DATE_EPOCH=yesterday', { SOURCE_DATE_EPOCH => 'yesterday' }, 'VERSION=t94-bad'],
              ['a failing tar (TAR=false)', {}, 'VERSION=t94-bad', 'TAR=false']) {
    my ($what, $env, @args) = @$case;
    my ($bst, $bout) = make_dist($env, @args);
    my @said = grep { /^make dist: / } lines($bout);
    my @left = glob("$buildp/perlasm-x86-t94-bad* $buildp/perlasm-x86-bad*");
    result($bst != 0 && @said == 1 && !@left, "make dist with $what: fails, one line, no tarball"
           . (@said ? " ($said[0])" : ''))
        or diag(lines($bout), map { "left: $_" } @left);
}

# --- make regen, in a tree of its own --------------------------------------------
# Every generated file cut to its first line, which is all regen reads.
my $regen = "$dir/regen";
mkdir $regen or die "$regen: $!\n";
my ($rxst, $rxout) = capture('tar', '-C', $regen, '-xzf', $tarball);
for my $path (@generated) {
    my $f = "$regen/$top/$path";
    my ($first) = split /\n/, $in_tar{$path}->get_content, 2;
    spew($f, "$first\n");
}
my ($rst, $rout) = capture('make', '--no-print-directory', '-C', "$regen/$top", '-j2', 'regen');
my @differ = grep { (slurp("$regen/$top/$_") // '') ne $in_tar{$_}->get_content } @generated;
my ($fst, $found) = capture('find', "$regen/$top", '-type', 'f');
my @stray = grep { !$in_tar{$_} } map { s{^\Q$regen/$top/\E}{}r } lines($found);
result($rxst == 0 && $rst == 0 && @generated && !@differ && !@stray,
       'make regen, each generated file cut to its first line: all ' . @generated . ' back, byte for byte, nothing left beside them')
    or diag(tail_lines($rout, 10), map({ "differs: $_" } @differ), map({ "left: $_" } @stray));

# The repository's own install of the .pc, for the tarball's to match.
my $repo_dest = "$dir/repo-dest";
my ($rist, $riout) = capture(@MAKE, 'install', 'PREFIX=/usr', "DESTDIR=$repo_dest");
my $repo_pc = slurp("$repo_dest/usr/lib/pkgconfig/libcrypto-asm.pc");
result($rist == 0 && defined $repo_pc && $repo_pc =~ /^Version: \Q$version\E$/m,
       "the repository's make install PREFIX=/usr: a .pc with Version: $version")
    or diag(tail_lines($riout, 10));

# --- built from the tarball with no perl on PATH -----------------------------------------
my $nopl = "$dir/bin";
mkdir $nopl or die "$nopl: $!\n";
for my $bin (map { glob("$_/*") } '/usr/bin', '/bin') {
    my $name = basename($bin);
    next if $name =~ /^perl/ || -e "$nopl/$name";
    symlink($bin, "$nopl/$name") or die "symlink $bin: $!\n";
}
local $ENV{PATH} = $nopl;
result(!in_path('perl') && in_path('make') && in_path('tar'), "PATH without perl: $nopl");

my ($xst, $xout) = capture('tar', '-C', $dir, '-xzf', $tarball);
my $tree = "$dir/$top";
result($xst == 0 && -f "$tree/Makefile", "unpacked into $tree") or diag(lines($xout));

sub in_tree { return capture('make', '--no-print-directory', '-C', $tree, @_) }

# (status, output) of make in the tree; the output shown when it fails.
sub tree_ok {
    my ($desc, @args) = @_;
    my ($st, $out) = in_tree(@args);
    result($st == 0, $desc) or diag(tail_lines($out, 20));
    return ($st == 0, $out);
}

# Checks one `make check` output: every implementation each program lists
# ran once, none failed, the C one passed with tests counted.
sub check_report {
    my ($platform, $exe, $exec, $st, $out) = @_;
    my (%runs, @fail);
    for (lines($out)) {
        next unless /^(PASS|SKIP|FAIL) (\S+?)(?:\.exe)? --impl (\S+)(?: \(OPENSSL_ia32cap=\S*\))?: (.*)$/;
        push @{ $runs{$2}{$3} }, [ $1, $4 ];
        push @fail, $_ if $1 eq 'FAIL';
    }
    my ($total, @problems) = (0);
    for my $prog (qw(kat_aes kat_modes kat_sha1)) {
        my ($lst, $list) = capture(@$exec, "$tree/build/$platform/test/$prog$exe", '--list');
        my @names = map { (split /\t/)[0] } lines($list =~ s/\r//gr);
        push @problems, "$prog --list failed" if $lst != 0 || !@names;
        for my $n (@names) {
            my $r = $runs{$prog}{$n} // [];
            push @problems, "$prog --impl $n ran " . @$r . ' times' if @$r != 1;
        }
        my $c = $runs{$prog}{c} // [];
        my ($tests) = @$c && $c->[0][0] eq 'PASS' ? $c->[0][1] =~ /^(\d+) tests/ : ();
        push @problems, "$prog --impl c did not pass with tests" unless $tests;
        $total += $_->[1] =~ /^(\d+) tests/ ? $1 : 0 for map { @$_ } values %{ $runs{$prog} // {} };
    }
    my ($passed) = $out =~ /^kat: (\d+) passed, \d+ skipped, 0 failed$/m;
    result($st == 0 && !@fail && !@problems && $passed, "$platform: make check, every listed implementation: "
           . ($passed // 0) . " runs passed, $total tests")
        or diag(@fail, @problems, tail_lines($out, 10));
}

# linux-x86_64: the default platform.
my $lib = "$tree/build/linux-x86_64/libcrypto-asm.a";
my ($built) = tree_ok('linux-x86_64: make builds libcrypto-asm.a without perl', '-j2');
if ($built) {
    my ($nst, $syms) = capture('nm', '--defined-only', $lib);
    my @absent = grep { $syms !~ /^[0-9a-f]+ T \Q$_\E$/m } qw(AES_encrypt aesni_encrypt sha1_block_data_order);
    result($nst == 0 && !@absent, 'the archive defines AES_encrypt, aesni_encrypt, sha1_block_data_order')
        or diag("absent: @absent");
    # Which shipped vector files make check reads: each one's atime set
    # before its mtime, a read moves it past (relatime does; under
    # noatime the count is a SKIP).
    my @vector_files = map { "$tree/test/vectors/$_->[1]" } @sums;
    my $reset = sub { utime(946684800, (stat $_)[9], $_) for @_ };
    my $was_read = sub { return (stat $_[0])[8] > (stat $_[0])[9] };
    $reset->(@vector_files);
    slurp($vector_files[0]);
    my $atime_kept = $was_read->($vector_files[0]);
    $reset->($vector_files[0]);
    my ($cst, $cout) = in_tree('-j2', 'check');
    check_report('linux-x86_64', '', [], $cst, $cout);
    if ($atime_kept) {
        my @unread = grep { !$was_read->($_) } @vector_files;
        result(@vector_files && !@unread, 'make check with no VECTORS read all ' . @vector_files
               . ' shipped vector files') or diag(map { "not read: $_" } @unread);
    } else {
        result(1, 'make check with no VECTORS read the shipped vector files', "SKIP $tree keeps no atimes");
    }
    mkdir "$dir/empty" or die;
    my ($est, $eout) = in_tree('check', "VECTORS=$dir/empty");
    result($est != 0 && $eout =~ /^FAIL /m && $eout =~ /^kat: 0 passed/m,
           'make check over an empty vector directory fails');
    # One byte of a shipped vector file changed: its SHA256SUMS line fails
    # make check before any program runs; the file then put back.
    my ($victim, $bytes) = ($sums[0][1], slurp($vector_files[0]));
    spew($vector_files[0], substr($bytes, 0, -2) . (substr($bytes, -2, 1) ^ "\x01") . substr($bytes, -1));
    my ($tst, $tout) = in_tree('check');
    spew($vector_files[0], $bytes);
    result($tst != 0 && $tout =~ m{^FAIL .*/SHA256SUMS: }m && $tout =~ /^ +\Q$victim\E: FAILED/m
           && $tout !~ /--impl/, "make check with $victim changed by one byte fails on its SHA256SUMS, before any run")
        or diag(tail_lines($tout, 10));
    my $dest = "$dir/dest";
    my ($ist) = in_tree('install', 'PREFIX=/usr', "DESTDIR=$dest");
    my @headers = grep { m{^include/} && /\.h$/ } keys %expected;
    my @installed = grep { -f } map { my $h = s{^include/}{}r; glob("$dest/usr/include/*/$h"), "$dest/usr/include/$h" } @headers;
    result($ist == 0 && -f "$dest/usr/lib/libcrypto-asm.a" && @installed == @headers,
           'make install PREFIX=/usr DESTDIR=...: the archive in usr/lib, ' . @headers . ' headers in usr/include');
    my $pc = slurp("$dest/usr/lib/pkgconfig/libcrypto-asm.pc");
    result(defined $pc && defined $repo_pc && $pc eq $repo_pc,
           "and usr/lib/pkgconfig/libcrypto-asm.pc, the same bytes as the repository's install writes")
        or diag(lines($pc // 'no .pc'));
    my ($ust, $uout) = in_tree('uninstall', 'PREFIX=/usr', "DESTDIR=$dest");
    my ($fst, $left) = capture('find', $dest, '-type', 'f');
    result($ust == 0 && $fst == 0 && $left eq '', 'make uninstall: no file left under DESTDIR')
        or diag(lines($left), tail_lines($uout, 5));
}

# The other platforms, each when its tools exist.
my $wine = $ENV{WINE64} // '/usr/lib/wine/wine64';
my $wine32 = dirname($wine) . '/wine';
my $cc32_ok = do {
    open(my $fh, '>', "$dir/probe.c") or die;
    print $fh "#include <stdio.h>\nint main(void){return 0;}\n";
    close $fh;
    (capture('gcc', '-m32', '-o', "$dir/probe", "$dir/probe.c"))[0] == 0;
};

sub other_platform {
    my (%p) = @_;
    my @missing = grep { !$p{tools}{$_} } sort keys %{ $p{tools} };
    if (@missing) {
        result(1, "$p{platform}: build", "SKIP missing: @missing");
        return;
    }
    my ($ok) = tree_ok("$p{platform}: make tests (library and test programs, no perl)",
                       '-j2', "PLATFORM=$p{platform}", 'tests');
    return unless $ok;
    my $exe = "$tree/build/$p{platform}/test/kat_aes$p{exe}";
    result(substr(slurp($exe) // '', 0, length $p{magic}) eq $p{magic},
           "$p{platform}: kat_aes$p{exe} is a $p{format} program");
    if (!$p{run}) {
        result(1, "$p{platform}: make check", "SKIP $p{why_not}");
        return;
    }
    $p{before_run}->() if $p{before_run};
    my ($st, $out) = in_tree("PLATFORM=$p{platform}", 'check', "EXEC=@{ $p{run} }");
    check_report($p{platform}, $p{exe}, $p{run}, $st, $out);
}

other_platform(platform => 'linux-x86', exe => '', magic => "\x7fELF\x01", format => '32-bit ELF',
               tools => { 'gcc -m32 (gcc-multilib)' => $cc32_ok },
               # without VAES: qemu 7.2 computes aesni-x86's ymm rounds wrongly
               # in lane 1 (test/README.md; 85-dmcrypt-replay.t checks them natively)
               run => in_path('qemu-i386') ? ['qemu-i386', '-cpu', 'max,-vaes'] : undef,
               why_not => 'qemu-i386 not installed (qemu-user)');

# wine, headless, in the prefix the other Win64 tests use (WineRun.pm).
my $have_wine = -x $wine;
if ($have_wine) {
    $ENV{WINEPREFIX} = "$buildp/wineprefix";
    $ENV{WINEDEBUG} = '-all';
    $ENV{WINEDLLOVERRIDES} = 'mscoree,mshtml=';
    delete @ENV{qw(DISPLAY WAYLAND_DISPLAY)};
}
# Before the runs: a server that stays up 30 s after its last client, and
# wine's own background processes started by a program whose output goes
# nowhere; else each run starts them again (seconds each), and they hold
# the output pipe of the `make check` that started them until they exit.
sub wine_up {
    my $server = dirname($wine) . '/wineserver';
    system("'$server' -p30 >/dev/null 2>&1") if -x $server;
    system("'$wine' cmd /c exit </dev/null >/dev/null 2>&1");
}
for my $platform (qw(mingw64 win64-nasm)) {
    other_platform(platform => $platform, exe => '.exe', magic => 'MZ', format => 'Windows',
                   tools => { 'x86_64-w64-mingw32-gcc' => in_path('x86_64-w64-mingw32-gcc'),
                              ($platform =~ /nasm/ ? (nasm => in_path('nasm')) : ()) },
                   run => $have_wine ? [$wine] : undef, before_run => \&wine_up,
                   why_not => "$wine not installed (wine64)");
}
other_platform(platform => 'win32-nasm', exe => '.exe', magic => 'MZ', format => 'Windows',
               tools => { 'i686-w64-mingw32-gcc' => in_path('i686-w64-mingw32-gcc'), nasm => in_path('nasm') },
               run => -x $wine32 ? [$wine32] : undef, before_run => \&wine_up,
               why_not => "no 32-bit wine ($wine32)");

# macOS: the assembly only (the C needs a macOS SDK).
for my $mac (['macos-x86_64', 'x86_64', "\xcf\xfa\xed\xfe"], ['macos-i386', 'i386', "\xce\xfa\xed\xfe"]) {
    my ($platform, $arch, $magic) = @$mac;
    if (!in_path('clang')) {
        result(1, "$platform: assembly", 'SKIP clang not installed');
        next;
    }
    my ($ok) = tree_ok("$platform: make asm with clang -target $arch-apple-macos10.13",
                       "PLATFORM=$platform", "CC=clang -target $arch-apple-macos10.13", 'asm');
    my @objs = glob("$tree/build/$platform/asm/*.o");
    my @not_macho = grep { substr(slurp($_) // '', 0, 4) ne $magic } @objs;
    result($ok && @objs == scalar(keys %{ $modules{$platform} // {} }) && !@not_macho,
           "$platform: " . @objs . " Mach-O $arch objects");
    result(1, "$platform: the C library", 'SKIP needs a macOS SDK (build-only platform, see INSTALL)');
}

# --- an unknown platform ------------------------------------------------------
my ($ust, $uout) = in_tree('PLATFORM=bogus');
my @said = lines($uout);
my ($valid) = $uout =~ /unknown PLATFORM "bogus"; valid: ([^.]+)\./;
my @valid = split ' ', $valid // '';
result($ust >> 8 == 2 && @said == 1 && !-e "$tree/build/bogus"
       && join(' ', sort @valid) eq join(' ', sort keys %modules),
       "make PLATFORM=bogus: exit 2, one line listing the platforms with assembly (@valid)")
    or diag(@said);

finish();
