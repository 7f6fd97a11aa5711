#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# tools/openssl-dropin.pl without an OpenSSL tree.  The real run
# takes half an hour; this checks the script's own logic in seconds:
#  - argument errors exit 2, say what is wrong and touch nothing: no
#    OPENSSL_SRC, not a directory, not a tree, a tree of another version
#    or configured for another target, unknown or wrong-architecture
#    modules, a leftover swap with --check-only, a build directory another
#    run holds, a Debian tree whose binary test data is not extracted, an
#    out-of-tree build from a source tree configured in place, a --version
#    the tree's VERSION.dat contradicts or that names no known series;
#  - --check-only passes on our complete modules and fails, naming the
#    symbol, when the required list asks for one we do not export; a
#    symbol tagged [3.5] is required of a 3.5 tree and not of a 3.0 one;
#  - against a mock OpenSSL tree (VERSION.dat 3.0, a Configure that writes
#    configdata.pm and a Makefile with OpenSSL's rule shapes for
#    crypto/sha/sha1-x86_64.s, whose module declares OPENSSL_ia32cap_P
#    common as OpenSSL's 32-bit ones do: no export to match), the full
#    cycle: configure, swap, build, our code found in the object and in
#    libcrypto.a, make test with TESTS once per capability mask, each
#    summary printed, the tree restored; the same cycle on a 3.5 tree;
#  - the same with a failing build, failing tests, a make that would
#    regenerate over ours, and a SIGTERM during the tests: each exits
#    non-zero and leaves OpenSSL's own file back, the object compiled from
#    ours deleted and no saved state;
#  - --rebuild-after builds the restored tree again, from OpenSSL's file;
#  - --restore puts back what an interrupted run left;
#  - --translator: a mock module piping its text into the tree's
#    crypto/perlasm/x86_64-xlate.pl is generated through ours (the build
#    checks for our repz ret), the tests run, the times printed, OpenSSL's
#    translator put back and the files made through ours deleted; a text
#    ours refuses fails the build with the script and line in the log;
#  - --translator --arch x86: a mock 32-bit module requiring the tree's
#    crypto/perlasm/x86asm.pl is generated through our real layer (the
#    build checks for its CFI), the tests run, OpenSSL's layer and its
#    back ends put back; an instruction ours refuses fails the build with
#    the script and line in the log; a module that loads OpenSSL's
#    x86gas.pl itself stops the build; without qemu-i386, exit 2;
#  - --translator with no --src and nothing cached: exit 2 saying how to
#    fetch the source of the series asked for, which it never does itself;
#  - make's command line: no --src unless OPENSSL_SRC is given (the
#    translator run must copy the cached tree, never build in it), and
#    then --version from OPENSSL_VERSION.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib", "$FindBin::Bin/../../support/perl";
use Slurp qw(slurp spew);
use File::Path qw(make_path remove_tree);
use File::Temp qw(tempdir);
use File::Find qw(find);
use Fcntl qw(:flock);
use ImplRuns qw(result finish);
use lib "$FindBin::Bin/../../tools/lib";
use ModuleTable qw(read_table table_path);

my $root   = "$FindBin::Bin/../..";
my $script = "$root/tools/openssl-dropin.pl";
my $dir    = tempdir(CLEANUP => 1);
$ENV{TMPDIR} = $dir;    # the script's logs go there too
my $sha1   = 'crypto/sha/sha1-x86_64.s';
my $sha1_o = 'crypto/sha/libcrypto-lib-sha1-x86_64.o';
my $state  = '.perlasm-dropin';

# Runs the script; returns (exit status, stdout, stderr).  A callback, if
# given, sees each stdout line and the child's pid (to send it signals).
sub dropin {
    my ($args, $on_line) = @_;
    my $err = "$dir/stderr";
    my $pid = open(my $fh, '-|') // die "fork: $!\n";
    if (!$pid) {
        open STDERR, '>', $err or die;
        exec $^X, $script, @$args or exit 127;
    }
    my $out = '';
    while (my $line = <$fh>) {
        $out .= $line;
        $on_line->($line, $pid) if $on_line;
    }
    close $fh;
    my $st = $?;
    open(my $eh, '<', $err) or die;
    local $/;
    return ($st, $out, scalar(<$eh>) // '');
}

# spew, making the file's directory first.
sub write_file {
    my ($file, $text) = @_;
    make_path($1) if $file =~ m{^(.*)/[^/]+$};
    spew($file, $text);
}

# Every path under a directory with its size and mtime, to show that a run
# changed nothing.
sub snapshot {
    my ($top) = @_;
    my @all;
    find({ no_chdir => 1, wanted => sub {
        my @st = lstat $_;
        push @all, "$_ $st[7] $st[9]";
    } }, $top);
    return join "\n", sort @all;
}

sub exit_code { $_[0] >> 8 }

# The text of the build log a failed run's message points to ('' if none).
sub build_log_of {
    my ($said) = @_;
    my ($log) = $said =~ /see (\S+build\.log)/;
    return defined $log ? slurp($log) // '' : '';
}

sub diag { print "# $_\n" for split /\n/, $_[0] }

# --- a mock OpenSSL 3.0 tree ----------------------------------------------
# Configure writes configdata.pm and the Makefile; the Makefile has
# OpenSSL's shapes: the generated file from its generator, the object from
# the generated file, libcrypto.a from the object, make test TESTS=...
# Files named fail-build, fail-tests, slow-tests switch on failures.
my $makefile = <<'EOF';
all: libcrypto.a
crypto/sha/sha1-x86_64.s: crypto/sha/asm/sha1-x86_64.pl
	perl crypto/sha/asm/sha1-x86_64.pl "elf" -I. -Iinclude -fPIC $@
crypto/sha/libcrypto-lib-sha1-x86_64.o: crypto/sha/sha1-x86_64.s
	@if [ -f fail-build ]; then echo "mock: as: error"; exit 1; fi
	$(CC) -c -o $@ crypto/sha/sha1-x86_64.s
libcrypto.a: crypto/sha/libcrypto-lib-sha1-x86_64.o
	rm -f $@; ar rc $@ crypto/sha/libcrypto-lib-sha1-x86_64.o
test: all
	@echo "mock harness: TESTS=$(TESTS) HARNESS_JOBS=$(HARNESS_JOBS) ia32cap=$${OPENSSL_ia32cap-unset}"
	@if [ -f slow-tests ]; then echo "mock: slow test started"; sleep 30; fi
	@if [ -f fail-tests ]; then printf 'Test Summary Report\n-------------------\n90-test_mock.t (Wstat: 256 Tests: 1 Failed: 1)\nFiles=1, Tests=1\nResult: FAIL\n'; exit 1; fi
	@printf 'All tests successful.\nFiles=1, Tests=1,  0 wallclock secs\nResult: PASS\n'
EOF
my $mock_generator = <<'EOF';
# mock of OpenSSL's generator: one exported function
my $out = $ARGV[-1];
open(my $fh, '>', $out) or die "$out: $!\n";
print $fh "# mock OpenSSL sha1-x86_64.s\n.text\n.globl sha1_block_data_order\n"
        . ".type sha1_block_data_order,\@function\nsha1_block_data_order:\n\tret\n"
        . ".size sha1_block_data_order,.-sha1_block_data_order\n"
        . ".comm OPENSSL_ia32cap_P,16,4\n"    # as OpenSSL's 32-bit modules: not an export
        . ".section .note.GNU-stack,\"\",\@progbits\n";
EOF

# mock_tree(NAME [, MINOR]): an OpenSSL 3.MINOR tree (3.0 unless given).
sub mock_tree {
    my ($name, $minor) = @_;
    my $t = "$dir/$name";
    remove_tree($t);
    write_file("$t/VERSION.dat", "MAJOR=3\nMINOR=" . ($minor // 0) . "\nPATCH=99\n");
    write_file("$t/Makefile.mock", $makefile);
    write_file("$t/crypto/sha/asm/sha1-x86_64.pl", $mock_generator);
    write_file("$t/Configure", <<'EOF');
#!/bin/sh
printf 'our %%config = (\n    "target" => "%s",\n);\n' "$1" > configdata.pm
cp Makefile.mock Makefile
EOF
    chmod 0755, "$t/Configure";
    my $old = time - 86400;
    utime $old, $old, "$t/crypto/sha/asm/sha1-x86_64.pl";
    return $t;
}

sub is_restored {
    my ($t) = @_;
    my $s = slurp("$t/$sha1") // '';
    return $s =~ /^# mock OpenSSL sha1-x86_64\.s/ && !-e "$t/$sha1_o" && !-e "$t/$state";
}

my @sha1_only = ('--modules', 'sha1-x86_64');

# --- argument errors and the symbol check: nothing touched -----------------
make_path("$dir/empty");
my $v31 = "$dir/openssl-3.1";
write_file("$v31/VERSION.dat", "MAJOR=3\nMINOR=1\nPATCH=4\n");
write_file("$v31/Configure", "#!/bin/sh\ntouch configured\n");
chmod 0755, "$v31/Configure";
my ($x86, $in_place) = map { mock_tree("configured-$_") } qw(x86 in-place);
write_file("$x86/configdata.pm", "our %config = (\n    \"target\" => \"linux-x86\",\n);\n");
write_file("$in_place/configdata.pm", "our %config = (\n    \"target\" => \"linux-x86_64\",\n);\n");
my $t = mock_tree('args');
my $t35 = mock_tree('check-3.5', 5);
# Debian's source tree before debian/rules extracted its binary test data.
my $deb = mock_tree('debian');
write_file("$deb/test/data/kept.der", "binary test data\n");
system('tar', 'cf', "$deb/binary.tar", '-C', $deb, 'test/data/kept.der') == 0 or die;
make_path("$deb/debian");
rename "$deb/binary.tar", "$deb/debian/binary.tar" or die;
unlink "$deb/test/data/kept.der";
# The table's x86_64 modules whose lists have no known gap.
my @complete = map { $_->{name} } grep { $_->{arch} eq 'x86_64'
    && (slurp("$root/$_->{symbols}") // '') !~ /^missing:/m } read_table(table_path($root));
# Required lists asking for an export we lack, for every series and for
# 3.5 only ([3.5]).
my %syms;
for my $tag ('', ' [3.5]') {
    $syms{$tag} = "$dir/symbols$tag" =~ s/ \[3\.5\]/-3.5/r;
    write_file("$syms{$tag}/sha1-x86_64.txt", slurp("$root/tools/openssl-symbols/sha1-x86_64.txt")
               . "no_such_export_for_test$tag  test/t/91-openssl-dropin.t:negative_control\n");
}
my $lacks = qr/does not export no_such_export_for_test.*negative_control/;
# [what, arguments, exit status, what stdout and stderr say, the tree left
# untouched]
my @refusals = (
    [ 'no OPENSSL_SRC', [], 2, qr/OPENSSL_SRC is not set/ ],
    [ 'OPENSSL_SRC not a directory', [ '--src', "$dir/nowhere" ], 2, qr/no such directory/ ],
    [ 'a directory that is no tree', [ '--src', "$dir/empty" ], 2, qr/not an OpenSSL source tree/, "$dir/empty" ],
    [ 'a 3.1 tree: names its version, 3.0.x and 3.5.x', [ '--src', $v31 ], 2,
      qr/is OpenSSL 3\.1\.4; the drop-in is for 3\.0\.x and 3\.5\.x/, $v31 ],
    [ 'a tree configured for linux-x86, run for x86_64: names both targets', [ '--src', $x86, @sha1_only ], 2,
      qr/configured for linux-x86, not linux-x86_64/, $x86 ],
    [ 'an out-of-tree build from a tree configured in place: says why',
      [ '--src', $in_place, '--build', "$dir/out-of-tree", @sha1_only ], 2,
      qr/is itself configured.*builds out of tree only from a clean source tree/, $in_place ],
    [ 'unknown module', [ '--src', $t, '--modules', 'sha1-x86_64,no-such-module' ], 2,
      qr/unknown module 'no-such-module'/, $t ],
    [ 'a 32-bit module for the x86_64 build', [ '--src', $t, '--modules', 'aes-586' ], 2,
      qr/aes-586 is for --arch x86/, $t ],
    [ 'unknown --arch', [ '--src', $t, '--arch', 'arm' ], 2, qr/--arch arm: want x86_64 or x86/, $t ],
    [ 'a Debian tree with debian/binary.tar not extracted: names the file and the fix',
      [ '--src', $deb, @sha1_only ], 2,
      qr{test data is still in debian/binary\.tar \(test/data/kept\.der\).*tar xf debian/binary\.tar}, $deb ],
    [ "--check-only with @complete", [ '--src', $t, '--check-only', '--modules', join(',', @complete) ], 0,
      qr/the tree was not touched/, $t ],
    [ 'a required symbol we lack: names it and its user',
      [ '--src', $t, '--check-only', @sha1_only, '--symbols', $syms{''} ], 1,
      qr/(?s)^(?=.*$lacks)(?=.*nothing was changed)/, $t ],
    [ 'a symbol tagged [3.5] is not required of a 3.0 tree',
      [ '--src', $t, '--check-only', @sha1_only, '--symbols', $syms{' [3.5]'} ], 0, qr/^/, $t ],
    [ 'a symbol tagged [3.5] is required of a 3.5 tree, named',
      [ '--src', $t35, '--check-only', @sha1_only, '--symbols', $syms{' [3.5]'} ], 1,
      qr/(?s)^(?=.*OpenSSL 3\.5\.99 at)(?=.*$lacks)/, $t35 ],
    [ 'a 3.5 tree with --version 3.0: names both', [ '--src', $t35, '--check-only', @sha1_only, '--version', '3.0' ], 2,
      qr/is OpenSSL 3\.5\.99, not 3\.0 as --version asks/, $t35 ],
    [ '--version naming an unknown series: lists the known ones', [ '--translator', '--version', '3.1' ], 2,
      qr/--version 3\.1: want one of 3\.0 3\.5/ ],
);
my %before = map { $_->[4] ? ($_->[4] => snapshot($_->[4])) : () } @refusals;
for my $case (@refusals) {
    my ($what, $args, $status, $says, $tree) = @$case;
    my ($st, $out, $err) = dropin($args);
    result(exit_code($st) == $status && "$out$err" =~ $says && (!$tree || snapshot($tree) eq $before{$tree}),
           "$what: exit $status" . ($tree ? ', the tree untouched' : '')) or diag($out . $err);
}
result(!-e "$dir/out-of-tree", 'the refused out-of-tree build created no build directory');
my ($st, $out, $err);
my $before = $before{$t};

{
    # Another run holds the build directory.
    open(my $held, '<', $t) or die "$t: $!\n";
    flock($held, LOCK_EX) or die "flock: $!\n";
    ($st, $out, $err) = dropin(['--src', $t, '--check-only', @sha1_only]);
    result(exit_code($st) == 2 && $err =~ /another openssl-dropin run is using/
           && snapshot($t) eq $before,
           'a build directory another run holds: exit 2, says so, untouched');
}

write_file("$t/$state/manifest", '');
($st, $out, $err) = dropin(['--src', $t, '--check-only', @sha1_only]);
result(exit_code($st) == 2 && $err =~ /earlier run was interrupted; --restore first/,
       '--check-only with a leftover swap: exit 2, asks for --restore');
remove_tree("$t/$state");

# --- the full cycle on the mock tree ---------------------------------------
$t = mock_tree('full');
delete $ENV{OPENSSL_ia32cap};
($st, $out, $err) = dropin(['--src', $t, @sha1_only, '--tests', 'test_mock', '--jobs', '1',
                            '--masks', 'default ~0x200020200000000:~0']);
result($st == 0, 'mock tree: full cycle exits 0') or diag($err);
result($out =~ /configuring: \.\/Configure linux-x86_64/ && (slurp("$t/configdata.pm") // '') =~ /linux-x86_64/,
       'an unconfigured tree is configured for linux-x86_64');
result($out =~ m{\Q$sha1\E\s+<- perl crypto/sha/asm/sha1-x86_64\.pl elf}, 'prints the swapped file');
result($out =~ m{our code is in \Q$sha1_o\E, libcrypto\.a\(libcrypto-lib-sha1-x86_64\.o\)},
       'checks our code is in the object and in libcrypto.a');
result($out =~ /mock harness: TESTS=test_mock HARNESS_JOBS=1 ia32cap=unset\n/
       && $out =~ /mock harness: TESTS=test_mock HARNESS_JOBS=1 ia32cap=~0x200020200000000:~0\n/,
       'make test gets TESTS and HARNESS_JOBS, once per mask of --masks ("default": unset)');
my @summaries = $out =~ /test summary \(modules swapped: sha1-x86_64; (.*?)\):\n\s+All tests successful\.\n\s+Files=1, Tests=1/g;
result("@summaries" eq 'OPENSSL_ia32cap unset OPENSSL_ia32cap=~0x200020200000000:~0',
       "prints the harness's summary for each mask, naming it");
result(is_restored($t), "after success: OpenSSL's own file is back, the object from ours deleted, no state");

# The same cycle on a 3.5 tree.
$t = mock_tree('full-3.5', 5);
($st, $out, $err) = dropin(['--src', $t, @sha1_only, '--tests', 'test_mock', '--jobs', '1']);
result($st == 0 && $out =~ /OpenSSL 3\.5\.99 at/ && $out =~ /our code is in \Q$sha1_o\E/
       && $out =~ /All tests successful/ && is_restored($t),
       'mock 3.5 tree: full cycle exits 0, our code built in, tests run, tree restored')
    or diag($err);

# --rebuild-after: the restored tree is built again, from OpenSSL's file.
$t = mock_tree('rebuild');
($st, $out, $err) = dropin(['--src', $t, @sha1_only, '--rebuild-after']);
my $rebuilt = `nm '$t/$sha1_o' 2>/dev/null`;
result($st == 0 && $out =~ /rebuilding with OpenSSL's own files/
       && (slurp("$t/$sha1") // '') =~ /^# mock OpenSSL/ && !-e "$t/$state"
       && $rebuilt =~ /\bsha1_block_data_order\b/ && $rebuilt !~ /sha1_block_data_order_shaext/,
       '--rebuild-after: exit 0, the object is rebuilt from OpenSSL\'s file (no variant of ours in it)')
    or diag($err);

for my $case (['fail-build', qr/build failed with our modules/, 'a failing build'],
              ['fail-tests', qr/tests failed with our modules/, 'failing tests']) {
    my ($flag, $msg, $what) = @$case;
    $t = mock_tree($flag);
    write_file("$t/$flag", '');
    ($st, $out, $err) = dropin(['--src', $t, @sha1_only, '--jobs', '1']);
    result(exit_code($st) == 1 && $err =~ $msg, "$what: exit 1, says so");
    result(is_restored($t), "$what: the tree is restored");
}
result($out =~ /Test Summary Report/ && $out =~ /Result: FAIL/, 'failing tests: the failure report is printed');

# A generator newer than our copy: OpenSSL's make would overwrite ours.
$t = mock_tree('regenerate');
system('sh', '-c', "cd '$t' && ./Configure linux-x86_64 && make -s $sha1") == 0 or die;
my $future = time + 3600;
utime $future, $future, "$t/crypto/sha/asm/sha1-x86_64.pl";
($st, $out, $err) = dropin(['--src', $t, @sha1_only]);
result(exit_code($st) == 1 && $err =~ /would regenerate \Q$sha1\E over ours/,
       'a make that would regenerate over ours: exit 1, says so');
result(is_restored($t), 'and the tree is restored');

# SIGTERM while the tests run.
$t = mock_tree('signal');
write_file("$t/slow-tests", '');
my $t0 = time;
($st, $out, $err) = dropin(['--src', $t, @sha1_only], sub {
    my ($line, $pid) = @_;
    kill 'TERM', $pid if $line =~ /mock: slow test started/;
});
result($st != 0 && $err =~ /caught SIGTERM; restoring/ && time - $t0 < 25,
       'SIGTERM during the tests: stops at once, non-zero, says it restores');
result(is_restored($t), 'and the tree is restored');

# A run that died without restoring: --restore finishes the job.
$t = mock_tree('restore');
system('sh', '-c', "cd '$t' && ./Configure linux-x86_64 && make -s $sha1") == 0 or die;
my $orig_mtime = (stat "$t/$sha1")[9];
make_path("$t/$state");
system('cp', '-p', "$t/$sha1", "$t/$state/sha1-x86_64.orig") == 0 or die;
write_file("$t/$state/manifest", "sha1-x86_64\t$sha1\t$sha1_o\n");
write_file("$t/$sha1", "# ours\n");
write_file("$t/$sha1_o", "object from ours\n");
($st, $out, $err) = dropin(['--src', $t, '--restore']);
result($st == 0 && $out =~ /restoring it/ && is_restored($t) && (stat "$t/$sha1")[9] == $orig_mtime,
       "--restore after an interrupted run: OpenSSL's file back with its mtime, object deleted");

# --- --translator: OpenSSL's modules through our translator ---------------
# The mock generator pipes perlasm text into crypto/perlasm/x86_64-xlate.pl
# as OpenSSL's do; the mock translator there marks its output, so the
# build shows whose ran.  $MOCK_INSN switches in a bad instruction.
sub translator_tree {
    my ($name) = @_;
    my $t = mock_tree($name);
    write_file("$t/crypto/perlasm/x86_64-xlate.pl", <<'EOF');
# mock of OpenSSL's translator
my $out = $ARGV[-1];
open(my $fh, '>', $out) or die "$out: $!\n";
print $fh "# mock OpenSSL translator\n", <STDIN>;
EOF
    write_file("$t/crypto/sha/asm/sha1-x86_64.pl", <<'EOF');
# mock of an OpenSSL module: its text through crypto/perlasm/x86_64-xlate.pl
my ($flavour, $out) = ($ARGV[0], $ARGV[-1]);
open(STDOUT, "| \"$^X\" crypto/perlasm/x86_64-xlate.pl $flavour $out") or die;
my $insn = $ENV{MOCK_INSN} // 'ret';
print ".text\n.globl sha1_block_data_order\n.type sha1_block_data_order,\@abi-omnipotent\n"
    . "sha1_block_data_order:\n\tendbranch\n\t$insn\n"
    . ".size sha1_block_data_order,.-sha1_block_data_order\n";
close STDOUT or die "error closing STDOUT\n";
EOF
    return $t;
}
my $orig_xlate = sub { (slurp("$_[0]/crypto/perlasm/x86_64-xlate.pl") // '') =~ /^# mock of OpenSSL's translator/ };

# The mock build insists on our translator's output (its repz ret).
$t = translator_tree('translator');
write_file("$t/Makefile.mock", $makefile =~ s{(\t\$\(CC\) -c)}{\tgrep -q 'repz' crypto/sha/sha1-x86_64.s\n$1}r);
($st, $out, $err) = dropin(['--src', $t, '--translator']);
result($st == 0 && $out =~ /every one of the 1 files was generated through our translator/
       && $out =~ /times: configure \d+s, build \d+s, tests \d+s, total \d+s/
       && $out =~ /All tests successful/,
       '--translator: the module generated through our translator, tests run, times given')
    or diag($out . $err);
result($orig_xlate->($t) && !-e "$t/$sha1" && !-e "$t/$sha1_o" && !-e "$t/$state",
       "and OpenSSL's translator is back, the files made through ours deleted, no saved state");

$t = translator_tree('translator-error');
{
    local $ENV{MOCK_INSN} = 'frobq %rax';
    ($st, $out, $err) = dropin(['--src', $t, '--translator']);
}
my $log_text = build_log_of($out . $err);
result(exit_code($st) == 1 && $err =~ /build failed with our translator/
       && $log_text =~ m{sha1-x86_64\.pl:6: unknown instruction "frobq"},
       '--translator, a module our translator refuses: exit 1, the log names the script and line')
    or diag($out . $err);
result($orig_xlate->($t) && !-e "$t/$state", "and OpenSSL's translator is back");

# --- --translator --arch x86: OpenSSL's 32-bit modules through our layer ---
# The mock module requires "x86asm.pl" from crypto/perlasm as OpenSSL's do,
# and is generated by our real layer behind the shim; the mock build
# insists on our layer's output (its CFI, which OpenSSL's layer never
# writes).  The mock harness runs no program, so a stub stands in for
# qemu-i386.  $MOCK_INSN switches in an instruction ours refuses;
# $MOCK_GAS makes the module load OpenSSL's gas back end itself.
my $sha586   = 'crypto/sha/sha1-586.S';
my $sha586_o = 'crypto/sha/libcrypto-lib-sha1-586.o';
sub translator_tree_x86 {
    my ($name) = @_;
    my $t = mock_tree($name);
    my $mk = $makefile;
    $mk =~ s{^crypto/sha/sha1-x86_64\.s:.*\n.*\n}
            {$sha586: crypto/sha/asm/sha1-586.pl crypto/perlasm/x86asm.pl\n\tCC="\$(CC)" perl crypto/sha/asm/sha1-586.pl "elf" -I. -Iinclude -fPIC -DOPENSSL_IA32_SSE2 \$@\n}m;
    $mk =~ s{^crypto/sha/libcrypto-lib-sha1-x86_64\.o: .*\n.*\n.*\n}
            {$sha586_o: $sha586\n\tgrep -q cfi_startproc $sha586\n\tcp $sha586 \$@\n}m;
    $mk =~ s{libcrypto-lib-sha1-x86_64\.o}{libcrypto-lib-sha1-586.o}g;
    write_file("$t/Makefile.mock", $mk);
    write_file("$t/crypto/perlasm/x86asm.pl", "# mock of OpenSSL's 32-bit layer\nrequire \"x86gas.pl\";\n1;\n");
    write_file("$t/crypto/perlasm/$_.pl", "# mock of OpenSSL's $_.pl\n1;\n") for qw(x86gas x86nasm x86masm);
    write_file("$t/crypto/sha/asm/sha1-586.pl", <<'EOF');
# mock of an OpenSSL 32-bit module: it requires OpenSSL's layer
$0 =~ m/(.*[\/\\])[^\/\\]+$/; $dir = $1;
push(@INC, "${dir}", "${dir}../../perlasm");
require "x86asm.pl";
require "x86gas.pl" if $ENV{MOCK_GAS};
$output = pop and open STDOUT, ">$output";
&asm_init($ARGV[0]);
&function_begin_B("sha1_block_data_order");
$insn = $ENV{MOCK_INSN} // 'ret'; &$insn();
&function_end_B("sha1_block_data_order");
&asm_finish();
close STDOUT or die "error closing STDOUT: $!";
EOF
    return $t;
}
my $orig_x86 = sub {
    my ($t) = @_;
    return ((slurp("$t/crypto/perlasm/x86asm.pl") // '') =~ /^# mock of OpenSSL's 32-bit layer/)
        && !grep { (slurp("$t/crypto/perlasm/$_.pl") // '') !~ /^# mock of OpenSSL's $_\.pl/ } qw(x86gas x86nasm x86masm);
};
my $stub_bin = tempdir(CLEANUP => 1);
write_file("$stub_bin/qemu-i386", "#!/bin/sh\nexit 1\n");
chmod 0755, "$stub_bin/qemu-i386";
{
    local $ENV{PATH} = "$stub_bin:$ENV{PATH}";
    $t = translator_tree_x86('translator-x86');
    ($st, $out, $err) = dropin(['--src', $t, '--translator', '--arch', 'x86']);
    result($st == 0 && $out =~ m{every one of the 1 files was generated through our translator \(perlasm/x86asm\.pl\)}
           && $out =~ /times: configure \d+s, build \d+s, tests \d+s, total \d+s/
           && $out =~ /All tests successful/,
           '--translator --arch x86: the 32-bit module generated through our layer, tests run, times given')
        or diag($out . $err);
    result($orig_x86->($t) && !-e "$t/$sha586" && !-e "$t/$sha586_o" && !-e "$t/$state",
           "and OpenSSL's x86asm.pl and back ends are back, the files made through ours deleted, no saved state");

    $t = translator_tree_x86('translator-x86-error');
    {
        local $ENV{MOCK_INSN} = 'frobl';
        ($st, $out, $err) = dropin(['--src', $t, '--translator', '--arch', 'x86']);
    }
    $log_text = build_log_of($out . $err);
    result(exit_code($st) == 1 && $log_text =~ m{sha1-586\.pl:9: unknown instruction "frobl"} && $orig_x86->($t)
           && !-e "$t/$state",
           '--translator --arch x86, an instruction our layer refuses: exit 1, script and line in the log, tree restored')
        or diag($out . $err);

    $t = translator_tree_x86('translator-x86-gas');
    {
        local $ENV{MOCK_GAS} = 1;
        ($st, $out, $err) = dropin(['--src', $t, '--translator', '--arch', 'x86']);
    }
    $log_text = build_log_of($out . $err);
    result(exit_code($st) == 1 && $log_text =~ m{x86gas\.pl: OpenSSL's own layer was loaded} && $orig_x86->($t),
           "--translator --arch x86, a module that loads OpenSSL's x86gas.pl: the build stops, saying so")
        or diag($out . $err);
}
{
    local $ENV{PATH} = join ':', grep { !-x "$_/qemu-i386" } split /:/, $ENV{PATH};
    $t = translator_tree_x86('translator-x86-no-qemu');
    $before = snapshot($t);
    ($st, $out, $err) = dropin(['--src', $t, '--translator', '--arch', 'x86']);
    result(exit_code($st) == 2 && $err =~ /qemu-i386 not found/ && snapshot($t) eq $before,
           '--translator --arch x86 without qemu-i386: exit 2, says so, tree untouched')
        or diag($out . $err);
}

# Without --src and with nothing cached the translator run only looks:
# exit 2, one line saying how to get the source, no apt tool called
# (stubs first on PATH would leave a mark), nothing left in the cache.
{
    my $empty = tempdir(CLEANUP => 1);
    my $stubs = tempdir(CLEANUP => 1);
    my $mark  = "$stubs/called";
    for my $tool (qw(apt-get apt-cache)) {
        write_file("$stubs/$tool", "#!/bin/sh\necho $tool >> '$mark'\nexit 99\n");
        chmod 0755, "$stubs/$tool";
    }
    local $ENV{OPENSSL_SOURCE_CACHE} = $empty;
    local $ENV{PATH} = "$stubs:$ENV{PATH}";
    ($st, $out, $err) = dropin(['--translator']);
    opendir(my $dh, $empty) or die;
    my @left = grep { !/^\.\.?$/ } readdir $dh;
    result(exit_code($st) == 2 && $err =~ /no OpenSSL 3\.0 source cached: run `make openssl-source`/
           && ($err =~ tr/\n//) == 1 && !-e $mark && !@left,
           '--translator without --src or a cached tree: exit 2, one line naming make openssl-source, nothing fetched')
        or diag($out . $err);
    ($st, $out, $err) = dropin(['--translator', '--version', '3.5']);
    result(exit_code($st) == 2 && $err =~ /no OpenSSL 3\.5 source cached: run `make openssl-source OPENSSL_VERSION=3\.5`/
           && !-e $mark,
           '--translator --version 3.5 with nothing cached: exit 2, names the 3.5 fetch')
        or diag($out . $err);
}

# make's own command line: without OPENSSL_SRC the translator run works on
# a fresh copy, so no --src may reach the tool, even when another part of
# the Makefile (the 32-bit benchmark) finds a cached tree by itself.
{
    my $cache = tempdir(CLEANUP => 1);
    make_path("$cache/openssl-3.0.1/crypto/aes/asm");
    for my $f (qw(crypto/aes/asm/aesni-x86.pl VERSION.dat .unpacked)) {
        open(my $fh, '>', "$cache/openssl-3.0.1/$f") or die;
        close $fh;
    }
    my $plan = `cd '$root' && make -n -s openssl-dropin DROPIN_TRANSLATOR=1 OPENSSL_SOURCE_CACHE='$cache' 2>&1`;
    result($plan =~ /openssl-dropin\.pl\b.*--translator/ && $plan !~ /--src/,
           'make openssl-dropin DROPIN_TRANSLATOR=1 with a cached tree: no --src (the copy is made by the tool)');
    $plan = `cd '$root' && make -n -s openssl-dropin DROPIN_TRANSLATOR=1 OPENSSL_VERSION=3.5 OPENSSL_SOURCE_CACHE='$cache' 2>&1`;
    result($plan =~ /openssl-dropin\.pl\b.*--translator.*--version='3\.5'/ && $plan !~ /--src/,
           'make openssl-dropin DROPIN_TRANSLATOR=1 OPENSSL_VERSION=3.5: --version 3.5, no --src');
    $plan = `cd '$root' && make -n -s openssl-dropin DROPIN_TRANSLATOR=1 OPENSSL_SRC=/x/y OPENSSL_VERSION=3.5 2>&1`;
    result($plan =~ m{--src='/x/y'} && $plan !~ /--version/,
           'make openssl-dropin OPENSSL_SRC=DIR passes --src DIR and no --version (the tree decides)');
}

finish();
