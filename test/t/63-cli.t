#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# The command line of every perlasm script (Common::CommandLine's rule), for
# the four modules and both layers (x86_64-xlate.pl; the 32-bit layer through
# its corpus module and run by itself):
#  - --help: usage on stdout naming the flavours, OUTPUT and "-", exit 0;
#  - a bad flavour, a misspelt option, a stray word: exactly one stderr line
#    naming what is valid, exit 2, no file in the (empty) working directory;
#  - OpenSSL's flag sets are accepted: 64-bit output byte-identical with and
#    without them; for 32-bit, -fpic means PIC as -fPIC does;
#  - with no OUTPUT, a flag is never taken for one: assembly goes to stdout
#    (not a terminal here), the same as OUTPUT "-" and as a file;
#  - with no OUTPUT and a terminal on stdout: usage on stderr, exit 2, no
#    assembly (under `script`, SKIP without it);
#  - a translator error in the middle of a long module is its exit status,
#    not SIGPIPE's 141.
# Each script's reference output is generated once and compared with.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib", "$FindBin::Bin/../../support/perl";
use Slurp qw(slurp);
use Cwd qw(abs_path);
use File::Temp qw(tempdir);
use ImplRuns qw(result finish in_path);

my $root = abs_path("$FindBin::Bin/../..");
my $tmp  = tempdir(CLEANUP => 1);
my @X64  = qw(elf elf32 macosx mingw64 nasm masm);
my @X86  = qw(elf elf-1 android a.out macosx coff gaswin win32n win32);
my $corpus_in = "$root/test/xlate/isa_corpus.s";

my @SCRIPTS = (
    { path => 'crypto/aes/asm/aes-x86_64.pl', flavours => \@X64, module => 1 },
    { path => 'crypto/aes/asm/aesni-x86_64.pl', flavours => \@X64, module => 1 },
    { path => 'crypto/sha/asm/sha1-x86_64.pl', flavours => \@X64, module => 1 },
    { path => 'perlasm/x86_64-xlate.pl', flavours => \@X64, stdin => $corpus_in },
    { path => 'crypto/aes/asm/aes-586.pl', flavours => \@X86, module => 1, bits => 32 },
    { path => 'test/x86asm/corpus.pl', flavours => \@X86, bits => 32 },
);
for (@SCRIPTS) {
    $_->{script} = "$root/$_->{path}";
    ($_->{name} = $_->{path}) =~ s{.*/}{};
}

# WORD in TEXT, not as part of a longer word.
sub names { my ($text, $word) = @_; return $text =~ /(?<![\w-])\Q$word\E(?![\w-])/ }

my $serial = 0;
# A fresh empty directory to run in: whatever a run leaves there shows.
sub fresh_dir { my $d = "$tmp/run" . ++$serial; mkdir $d or die "$d: $!\n"; return $d }
sub files_in { my ($d) = @_; opendir(my $dh, $d) or die; return grep { !/^\.\.?$/ } readdir $dh }

# run(SCRIPT, DIR, ARGS...) -> (exit status, stdout, stderr): perl SCRIPT
# ARGS in DIR, stdin the script's input (or /dev/null), stdout a file.
sub run {
    my ($s, $dir, @args) = @_;
    my ($out, $err) = ("$tmp/stdout", "$tmp/stderr");
    my $pid = fork // die "fork: $!\n";
    if (!$pid) {
        chdir $dir or die "$dir: $!\n";
        open(STDIN, '<', $s->{stdin} // '/dev/null') or die;
        open(STDOUT, '>', $out) or die;
        open(STDERR, '>', $err) or die;
        exec($^X, $s->{script}, @args) or exit 127;
    }
    waitpid($pid, 0);
    return ($?, slurp($out) // '', slurp($err) // '');
}

sub exit_code { my ($st) = @_; return ($st & 127) ? 128 + ($st & 127) : $st >> 8 }

sub show {
    my ($st, $out, $err) = @_;
    print "#   exit ", exit_code($st), "\n", map { "#   stderr: $_\n" } split /\n/, $err;
    print "#   stdout: ", length($out), " bytes\n";
}

# One line on stderr, exit 2, nothing on stdout, nothing left in DIR.
sub rejected {
    my ($s, $what, $want, @args) = @_;
    my $dir = fresh_dir();
    my @r = run($s, $dir, @args);
    my ($st, $out, $err) = @r;
    my @left = files_in($dir);
    result(exit_code($st) == 2 && $err =~ /\A[^\n]+\n\z/ && $err =~ $want && $out eq '' && !@left,
           "$s->{name} @args: $what: one error line, exit 2, no file")
        or do { show(@r); print "#   left: @left\n" if @left };
}

my $have_script = in_path('script');

for my $s (@SCRIPTS) {
    my $n = $s->{name};

    # --- usage ---------------------------------------------------------------
    my ($st, $out, $err) = run($s, fresh_dir(), '--help');
    my @missing = grep { !names($out, $_) } @{ $s->{flavours} }, 'OUTPUT';
    push @missing, '"-"' unless $out =~ /"-"/;
    (my $module = $n) =~ s/\.pl$//;
    push @missing, "module $module" if $s->{module} && $out !~ /the \Q$module\E module/;
    result(exit_code($st) == 0 && $out =~ /^usage: perl \Q$n\E / && !@missing && $err eq '',
           "$n --help: usage on stdout (flavours, OUTPUT, \"-\"" . ($s->{module} ? ', the module' : '')
           . "), exit 0") or do { show($st, $out, $err); print "#   missing: @missing\n" };

    # --- bad command lines -----------------------------------------------------
    my $valid = join(', ', @{ $s->{flavours} });
    rejected($s, 'unknown flavour', qr/^\Q$n\E: unknown flavour "elf64" \(valid: \Q$valid\E\b/,
             'elf64', "out.s");
    rejected($s, 'misspelt option', qr/^\Q$n\E: unknown option "--fPIC" \(valid: --help/,
             'elf', '--fPIC', "out.s");
    rejected($s, 'stray word', qr/^\Q$n\E: unexpected argument "stray"/,
             'elf', 'stray', "out.s");
    rejected($s, 'flag missing its value', qr/^\Q$n\E: option -arch needs a value/,
             'elf', "out.s", '-arch');

    # --- OpenSSL's flags, stdout -------------------------------------------------
    my $dir = fresh_dir();
    my @plain = $s->{bits} ? ('elf', '-fPIC', '-DOPENSSL_IA32_SSE2') : ('elf');
    my @openssl = ('elf', split ' ', $s->{bits}
        ? '-m32 -O3 -Wall -pthread -Wa,--noexecstack -I. -fpic -DOPENSSL_IA32_SSE2'
        : '-fPIC -DOPENSSL_IA32_SSE2 -Wa,--noexecstack -m64 -O3 -Wall -pthread -I. -Iinclude'
          . ' -DL_ENDIAN -DOPENSSLDIR="/usr/local/ssl" -arch x86_64 --sysroot=/opt/sdk');
    ($st, undef, $err) = run($s, $dir, @plain, "plain.s");
    my $ref = slurp("$dir/plain.s");
    result($st == 0 && defined $ref && length($ref) > 1000, "$n @plain OUTPUT writes assembly")
        or show($st, '', $err);
    $ref //= '(none)';
    ($st, undef, $err) = run($s, $dir, @openssl, "flags.s");
    result($st == 0 && (slurp("$dir/flags.s") // '') eq $ref,
           "$n @openssl OUTPUT: accepted, the same bytes as @plain OUTPUT") or show($st, '', $err);
    if ($s->{bits}) {
        ($st, undef, $err) = run($s, $dir, 'elf', '-DOPENSSL_IA32_SSE2', "nopic.s");
        my $nopic = slurp("$dir/nopic.s") // '';
        # So that the -fpic run above compares something.
        result($st == 0 && $ref =~ /_GLOBAL_OFFSET_TABLE_/ && $nopic !~ /_GLOBAL_OFFSET_TABLE_/,
               "$n: -fPIC gives PIC code (GOT), no PIC flag gives none") or show($st, '', $err);
    }

    # OpenSSL's scripts would write a file named after the last word here.
    my @before = files_in($dir);
    my @last_flag = ((grep { $_ ne '-fPIC' } @plain), '-fPIC');
    ($st, $out, $err) = run($s, $dir, @last_flag);
    my @new = grep { my $f = $_; !grep { $_ eq $f } @before } files_in($dir);
    result($st == 0 && !@new && $out eq $ref,
           "$n @last_flag (no OUTPUT, stdout a file): the assembly on stdout, no file named -fPIC")
        or do { show($st, $out, $err); print "#   new files: @new\n" };
    ($st, $out, $err) = run($s, $dir, @plain, '-');
    result($st == 0 && $out eq $ref, "$n @plain -: stdout equals the OUTPUT file") or show($st, $out, $err);

    # --- a terminal on stdout and no OUTPUT ----------------------------------------
    if (!$have_script) {
        result(1, "$n elf on a terminal: usage", 'SKIP script (util-linux) not installed');
    } else {
        my $d = fresh_dir();
        my $q = sub { my ($w) = @_; $w =~ s/'/'\\''/g; return "'$w'" };
        my $cmd = join(' ', 'cd', $q->($d), '&&', 'exec', map({ $q->($_) } $^X, $s->{script}, 'elf'),
                       '<', $q->($s->{stdin} // '/dev/null'), "2>$tmp/tty.err");
        my $pid = open(my $fh, '-|') // die "fork: $!\n";
        if (!$pid) {
            open(STDIN, '<', '/dev/null');
            exec('script', '-qec', $cmd, '/dev/null') or exit 127;
        }
        my $tty = do { local $/; <$fh> } // '';
        close $fh;
        my $tst = $?;
        my $usage = slurp("$tmp/tty.err") // '';
        result(exit_code($tst) == 2 && $usage =~ /^usage: perl \Q$n\E / && $tty !~ /\S/ && !files_in($d),
               "$n elf with a terminal on stdout: usage on stderr, exit 2, no assembly")
            or do { show($tst, $tty, $usage) };
    }
}

# --- the 64-bit conventions: OUTPUT alone, *.asm means nasm -----------------------
{
    my ($s) = grep { $_->{name} eq 'sha1-x86_64.pl' } @SCRIPTS;
    my $dir = fresh_dir();
    my ($st) = run($s, $dir, 'nasm', 'named.asm');
    my ($st2, undef, $err) = run($s, $dir, '-fPIC', 'alone.asm');
    my $named = slurp("$dir/named.asm");
    result($st == 0 && $st2 == 0 && defined $named && (slurp("$dir/alone.asm") // '') eq $named,
           'sha1-x86_64.pl -fPIC x.asm (no flavour): nasm, as OpenSSL') or show($st2, '', $err);
}

# --- the 32-bit layer run by itself; aes-586's own switches --------------------------
{
    my $layer = { name => 'x86asm.pl', script => "$root/perlasm/x86asm.pl" };
    my ($st, $out, $err) = run($layer, fresh_dir(), '--help');
    my @missing = grep { !names($out, $_) } @X86, '386', '-fPIC', '-fpic', 'OUTPUT';
    result(exit_code($st) == 0 && $out =~ /^usage: perl x86asm\.pl / && !@missing,
           'x86asm.pl --help: the usage of every 32-bit module, exit 0')
        or do { show($st, $out, $err); print "#   missing: @missing\n" };
    rejected($layer, 'the layer alone writes nothing', qr/writes nothing by itself/, 'elf', 'x.s');
    my ($aes586) = grep { $_->{name} eq 'aes-586.pl' } @SCRIPTS;
    rejected($aes586, 'misspelt module switch',
             qr/unknown switch -DAES586_unroled \(valid: .*-DAES586_small_footprint\b/,
             'elf', '-DAES586_unroled=1', 'x.s');
    rejected($aes586, 'a switch value that is not a number', qr/-DAES586_small_footprint=no: .*number/,
             'elf', '-DAES586_small_footprint=no', 'x.s');
    rejected($aes586, 'no flavour', qr/no flavour given \(valid: \Q@{[ join(", ", @X86) ]}\E\)/, '-fPIC');
}

# --- a module whose text fails early, then keeps printing ---------------------------
# The translator stops at line 1; the module's later prints (far more than a
# pipe holds) must not kill it with SIGPIPE: its exit is the translator's.
{
    my $mod = "$tmp/long_module.pl";
    open(my $fh, '>', $mod) or die;
    print $fh "use lib '$root/perlasm/lib';\nuse X64::Module;\nX64::Module::pipe_output(\@ARGV);\n"
        . "print \"\\tfrobq\\t%rax\\n\";\nprint \"\\tnop\\n\" x 200_000;\nX64::Module::finish();\n";
    close $fh;
    my $dir = fresh_dir();
    my @r = run({ name => 'long_module.pl', script => $mod }, $dir, 'elf', 'x.s');
    result(exit_code($r[0]) == 1 && $r[2] =~ /long_module\.pl:1: unknown instruction "frobq"/ && !files_in($dir),
           'a translator error early in a long module: exit 1 (not SIGPIPE), the line named, no file')
        or show(@r);
}

finish();
