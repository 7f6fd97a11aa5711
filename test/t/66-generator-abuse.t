#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# Generators under hostile conditions.  Every module of modules.txt and
# both layers (x86_64-xlate.pl fed text; the 32-bit layer through its
# corpus module) meet each case of @OUTPUT_CASES; the 64-bit translator
# also meets @INPUT_CASES, and the module API of both layers
# @MODULE_CASES.  Each run must give:
#  - exactly one error line on stderr, matching the case's pattern (what
#    failed and where); the 64-bit translator may follow it with context
#    lines indented by four spaces (the quoted line, which output), never
#    a second error or a Perl warning;
#  - the case's exit: status 1, or death by the signal that interrupted it
#    (128 + its number to a shell);
#  - nothing new in the directory: no output file, no PATH.tmp.PID.
# A case that cannot be set up here (no setpriv, no chattr on this file
# system, no user namespaces) is a SKIP with the reason.  The bad command
# lines (flavour, option, stray word) are 63-cli.t's.
#
# The signal cases stop the writer just before it renames its temporary
# (test/lib/StopAtRename.pm, loaded through PERL5OPT), deliver the signal,
# then SIGCONT: the temporary exists at that moment every time.  The
# negative control repeats one with the writer's handlers reset to the
# default: the temporary must then be found left behind.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib", "$FindBin::Bin/../../tools/lib", "$FindBin::Bin/../../support/perl";
use Slurp qw(slurp_or_die spew);
use Config;
use Cwd qw(abs_path);
use File::Temp qw(tempdir);
use POSIX qw(WNOHANG);
use ImplRuns qw(result finish in_path);
use ModuleTable qw(read_table table_path);

my $root = abs_path("$FindBin::Bin/../..");

# --- the table -----------------------------------------------------------------
# Output cases, for every script (run as SCRIPT elf [FLAGS] OUTPUT).  out: OUTPUT,
# relative to the run's directory; setup: what that directory holds first;
# stdout: 'full' (/dev/full) or 'closed'; as: how the directory is made
# unwritable for a root process (nobody: the run as user nobody;
# immutable: chattr +i; robind: a read-only bind mount in a user
# namespace); signal, to: the signal and whom it reaches (the process
# group, as a terminal's ^C does, or the writing process alone).
my @OUTPUT_CASES = (
    { id => 'missing-dir', out => 'missing/out.s',
      err => qr/: cannot write missing\/out\.s: No such file or directory$/ },
    { id => 'file-in-path', out => 'afile/out.s', setup => 'file afile',
      err => qr/: cannot write afile\/out\.s: Not a directory$/ },
    { id => 'output-is-dir', out => 'sub', setup => 'dir sub',
      err => qr/: cannot write sub: Is a directory$/ },
    { id => 'unwritable-nobody', out => 'out.s', as => 'nobody',
      err => qr/: cannot write out\.s: Permission denied$/ },
    { id => 'unwritable-immutable', out => 'out.s', as => 'immutable',
      err => qr/: cannot write out\.s: Operation not permitted$/ },
    { id => 'unwritable-ro-bind', out => 'out.s', as => 'robind',
      err => qr/: cannot write out\.s: Read-only file system$/ },
    { id => 'output-dev-full', out => 'full', setup => 'link full /dev/full',
      err => qr/: cannot write full: No space left on device$/ },
    { id => 'stdout-dev-full', out => '-', stdout => 'full',
      err => qr/: cannot write standard output: No space left on device$/ },
    { id => 'stdout-closed', out => '-', stdout => 'closed',
      err => qr/: cannot write standard output: Bad file descriptor$/ },
    { id => 'sigint-group', out => 'out.s', signal => 'INT', to => 'group',
      err => qr/: interrupted by SIGINT while writing out\.s: nothing written$/ },
    { id => 'sigterm-writer', out => 'out.s', signal => 'TERM', to => 'writer',
      err => qr/: interrupted by SIGTERM while writing out\.s: nothing written$/ },
    { id => 'sighup-writer', out => 'out.s', signal => 'HUP', to => 'writer', layers_only => 1,
      err => qr/: interrupted by SIGHUP while writing out\.s: nothing written$/ },
    { id => 'sigpipe-writer', out => 'out.s', signal => 'PIPE', to => 'writer', layers_only => 1,
      err => qr/: interrupted by SIGPIPE while writing out\.s: nothing written$/ },
);

# Input cases, for x86_64-xlate.pl elf out.s; input: the text on stdin.
my @frame = split /^/, slurp_or_die("$root/test/xlate/frame_corpus.s");
my @cfi   = split /^/, slurp_or_die("$root/test/xlate/cfi_corpus.s");
srand(20261202);
my @INPUT_CASES = (
    { id => 'empty', input => '',
      err => qr/^<stdin>:end: no perlasm text: the input is empty$/ },
    { id => 'blank-lines', input => "\n  \n\t\n",
      err => qr/^<stdin>:end: no perlasm text: the input is empty$/ },
    { id => 'cut-mid-line', input => join('', @frame[0 .. 10]) . substr($frame[11], 0, 9),
      err => qr/^<stdin>:12: the text stops in the middle of line 12 \(no newline at its end\)/ },
    { id => 'cut-before-endfunction', input => join('', @frame[0 .. 13]),
      err => qr/^<stdin>:end: function fc_leaf is not closed \(\.endfunction or \.cfi_endproc missing\)$/ },
    { id => 'cut-before-cfi_endproc', input => join('', @cfi[0 .. 25]),
      err => qr/^<stdin>:end: function \S+ is not closed \(\.endfunction or \.cfi_endproc missing\)$/ },
    { id => 'nul-bytes', input => join('', @frame[0 .. 6], "\tnop\0\0\0\n", @frame[7 .. $#frame]),
      err => qr/^<stdin>:8: not text: a NUL byte at column 5 \(binary input\?\)$/ },
    { id => 'invalid-utf8', input => join('', @frame[0 .. 2], "# caf\xe9 \xff\n", @frame[3 .. $#frame]),
      err => qr/^<stdin>:4: not UTF-8 text: byte 0xe9 at column 6 \(binary input\?\)$/ },
    { id => 'random-bytes', input => join('', map { chr int rand 256 } 1 .. 4096),
      err => qr/^<stdin>:\d+: not (UTF-8 )?text: .* at column \d+ \(binary input\?\)$/ },
);

# The module API cut short (a module toy.pl: its text, then BODY): a
# 64-bit module that dies or exits before X64::Module::finish (its text
# reaches the translator without the end mark), a 32-bit one that never
# calls asm_finish or leaves a function open.
my @MODULE_CASES = (
    { id => 'x64-module-dies', layer => 64, body => 'die "module failed here\n";',
      exit => 'non-zero', err => qr/^module failed here$/ },
    { id => 'x64-module-exits-early', layer => 64, body => 'exit 0;',
      err => qr/^\S*toy\.pl:end: the text stops before its module's end \(X64::Module::finish not reached\)/ },
    { id => 'x86-no-asm_finish', layer => 32, body => '&function_end("toy");',
      err => qr/^toy\.pl: the module ended without asm_finish: nothing written to out\.s$/ },
    { id => 'x86-function-open', layer => 32, body => '&asm_finish();',
      err => qr/^\S*toy\.pl:\d+: function toy \(begun at \S*toy\.pl:\d+\) is not closed$/ },
);

# --- the scripts -----------------------------------------------------------------
# The 32-bit modules with OpenSSL's default flags (aesni-x86 exists only
# with -DOPENSSL_IA32_SSE2).
my @SCRIPTS = map { { name => $_->{name}, path => "$root/$_->{script}",
                      flags => $_->{arch} eq 'x86' ? [qw(-fPIC -DOPENSSL_IA32_SSE2)] : [] } }
              read_table(table_path($root));
push @SCRIPTS,
    { name => 'x86_64-xlate.pl', path => "$root/perlasm/x86_64-xlate.pl",
      stdin => "$root/test/xlate/isa_corpus.s", layer => 1 },
    { name => 'x86asm.pl (test/x86asm/corpus.pl)', path => "$root/test/x86asm/corpus.pl", layer => 1 };

# The table, as TAP diagnostics.
sub show_case {
    my ($c, $how) = @_;
    my $err = "$c->{err}" =~ s/^\(\?\^:(.*)\)$/$1/r;
    printf "#   %-24s %-44s /%s/\n", $c->{id}, $how, $err;
}
print "# output cases, for every script:\n";
show_case($_, join(' ', "OUTPUT $_->{out}", map({ defined $_ ? $_ : () } $_->{setup} && "($_->{setup})",
          $_->{as} && "unwritable: $_->{as}", $_->{stdout} && "stdout $_->{stdout}",
          $_->{signal} && "SIG$_->{signal} to the $_->{to}")))
    for @OUTPUT_CASES;
print "# input cases, x86_64-xlate.pl elf out.s:\n";
show_case($_, length($_->{input}) . ' bytes on stdin') for @INPUT_CASES;
print "# module API cases (toy.pl elf out.s):\n";
show_case($_, "$_->{layer}-bit: $_->{body}") for @MODULE_CASES;
print "# scripts: ", join(', ', map { $_->{name} } @SCRIPTS), "\n";

# --- running ---------------------------------------------------------------------
my $tmp = tempdir(CLEANUP => 1);
chmod 0755, $tmp;    # the "nobody" case must reach its directory
my $serial = 0;
my @immutable;       # directories made immutable: undone whatever happens
END { system('chattr', '-i', $_) for @immutable }
$SIG{$_} = sub { exit 1 } for qw(INT TERM HUP);    # END still runs

sub files_in { my ($d) = @_; opendir(my $dh, $d) or die "$d: $!\n"; return sort grep { !/^\.\.?$/ } readdir $dh }

my %SIGNUM;
@SIGNUM{ split ' ', $Config{sig_name} } = split ' ', $Config{sig_num};

# The command prefix of each way to make DIR unwritable (immutable needs
# none: chattr is applied to DIR before the run).
sub nogroup { return defined getgrnam('nogroup') ? 'nogroup' : 'nobody' }
my %WRAP = (
    nobody    => sub { return ('setpriv', '--reuid=nobody', '--regid=' . nogroup(), '--clear-groups', '--') },
    immutable => sub { return () },
    robind    => sub { my ($dir) = @_;
                       return ('unshare', '-rm', 'sh', '-c', 'mount --bind -o ro "$1" "$1" && cd "$1" && shift && exec "$@"',
                               'sh', $dir) },
);

# The nobody case runs each generator from a copy that user can read (the
# checkout may lie in a directory other users cannot enter, as root's home
# is): the trees the scripts load from, copied once into $tmp and made
# readable by all.  nobody_path(PATH): PATH's counterpart in the copy.
my $public;
sub nobody_path {
    my ($path) = @_;
    if (!defined $public) {
        $public = "$tmp/public";
        mkdir $public or die "$public: $!\n";
        system('sh', '-c', 'cd "$1" && cp -R --parents crypto perlasm test/x86asm "$2" && chmod -R a+rX "$2"',
               'sh', $root, $public) == 0 or die "cannot copy the generators into $public\n";
    }
    index($path, "$root/") == 0 or die "$path is not under $root\n";
    return $public . substr($path, length $root);
}

# Whether a way works here, probed once: undef, or why not.
my %unavailable;
sub probe {
    my ($as) = @_;
    return $unavailable{$as} if exists $unavailable{$as};
    my $d = "$tmp/probe-$as";
    mkdir $d or die "$d: $!\n";
    my $tool = { nobody => 'setpriv', immutable => 'chattr', robind => 'unshare' }->{$as};
    my $why = in_path($tool) ? undef : "$tool not installed";
    if (!defined $why && $as eq 'immutable') {
        if (system("chattr +i '$d' 2>/dev/null") == 0) { push @immutable, $d }
        else { $why = 'chattr +i refused here (file system or capability)' }
    }
    if (!defined $why && $as eq 'nobody') {
        my $x86asm = nobody_path("$root/perlasm/x86asm.pl");
        $why = "nobody cannot read $x86asm (a directory above it is closed to other users)"
            unless system($WRAP{$as}->($d), 'test', '-r', $x86asm) == 0;
    }
    if (!defined $why) {
        my @w = $WRAP{$as}->($d);
        my $ran = system(@w, 'sh', '-c', "touch '$d/x' 2>/dev/null; test ! -e '$d/x'") == 0;
        $why = "$as: no process here sees the directory unwritable" unless $ran && !-e "$d/x";
    }
    return $unavailable{$as} = $why;
}

# A fresh directory holding the case's setup.
sub fresh_dir {
    my ($c) = @_;
    my $d = "$tmp/run" . ++$serial;
    mkdir $d or die "$d: $!\n";
    my ($kind, $name, $target) = split ' ', $c->{setup} // '';
    if    (!defined $kind)  { }
    elsif ($kind eq 'file') { spew("$d/$name", "not a directory\n") }
    elsif ($kind eq 'dir')  { mkdir "$d/$name" or die "$d/$name: $!\n" }
    elsif ($kind eq 'link') { symlink($target, "$d/$name") or die "$d/$name: $!\n" }
    return $d;
}

# run(CASE, SCRIPT, DIR, ARGS...) -> { status, err, writer }: the script in
# DIR as a process group of its own, stdin its input, stdout a file (or as
# the case says), the four signals at their default action.
sub run {
    my ($c, $s, $dir, @args) = @_;
    my ($out, $err) = ("$dir.stdout", "$dir.stderr");
    my @wrap = $c->{as} ? $WRAP{ $c->{as} }->($dir) : ();
    if (($c->{as} // '') eq 'immutable') {
        system('chattr', '+i', $dir) == 0 or die "chattr +i $dir failed\n";
        push @immutable, $dir;
    }
    spew("$dir.stdin", $c->{input}) if defined $c->{input};
    my $pid = fork // die "fork: $!\n";
    if (!$pid) {
        setpgrp(0, 0);
        $SIG{$_} = 'DEFAULT' for qw(INT TERM HUP PIPE);
        $ENV{PERL5OPT} = "-I$root/test/lib -MStopAtRename" if $c->{signal};
        $ENV{STOP_AT_RENAME_NO_HANDLERS} = 1 if $c->{no_handlers};
        chdir $dir or die "$dir: $!\n";
        open(STDIN, '<', defined $c->{input} ? "$dir.stdin" : $s->{stdin} // '/dev/null') or die;
        if (($c->{stdout} // '') eq 'closed') { close STDOUT }
        else { open(STDOUT, '>', ($c->{stdout} // '') eq 'full' ? '/dev/full' : $out) or die }
        open(STDERR, '>', $err) or die;
        my $path = ($c->{as} // '') eq 'nobody' ? nobody_path($s->{path}) : $s->{path};
        exec(@wrap, $^X, $path, @args) or exit 127;
    }
    my ($writer, $status) = $c->{signal} ? interrupt($c, $pid, $dir) : ();
    if (!defined $status) {
        waitpid($pid, 0);
        $status = $?;
    }
    wait_gone($writer) if $writer;
    return { status => $status, err => -e $err ? slurp_or_die($err) : '', writer => $writer };
}

# Waits for the writer to stop itself beside its temporary, then delivers
# the case's signal and SIGCONT.  Returns the writer's pid, or (undef,
# status) if the script ended first or never got there (killed after 60 s).
sub interrupt {
    my ($c, $pid, $dir) = @_;
    my $deadline = time + 60;
    while (time < $deadline) {
        my ($writer) = map { /\.tmp\.(\d+)$/ ? $1 : () } files_in($dir);
        if (defined $writer && proc_state($writer) eq 'T') {
            # A group signal reaches the stopped writer first and wakes it
            # before its parent gets one: were the parent (a module piping
            # into the translator) to die first, the kernel would find the
            # group orphaned with a stopped member and add its own SIGHUP,
            # which the writer takes before the SIGINT (lower number).
            kill $c->{signal}, $writer;
            kill 'CONT', -$pid;
            kill $c->{signal}, -$pid if $c->{to} eq 'group' && $writer != $pid;
            return $writer;
        }
        return (undef, $?) if waitpid($pid, WNOHANG) == $pid;
        select(undef, undef, undef, 0.01);
    }
    kill 'KILL', -$pid;
    waitpid($pid, 0);
    return (undef, $?);
}

sub proc_state {
    my ($pid) = @_;
    open(my $fh, '<', "/proc/$pid/stat") or return '';
    my $stat = <$fh> // '';
    return $stat =~ /\)\s+(\S)/ ? $1 : '';
}

# Until PID has ended (gone, or a zombie no one reaps), at most 30 s.
sub wait_gone {
    my ($pid) = @_;
    my $deadline = time + 30;
    select(undef, undef, undef, 0.01) while time < $deadline && proc_state($pid) !~ /^Z?$/;
}

sub exit_code { my ($st) = @_; return ($st & 127) ? 128 + ($st & 127) : $st >> 8 }

# The verdict on a run: one error line matching the case (then only
# indented context lines), the case's exit, nothing new in DIR.
sub check {
    my ($what, $c, $r, $dir, @before) = @_;
    my @lines = split /\n/, $r->{err};
    my @errors = grep { !/^    / } @lines;
    my @left = grep { my $f = $_; !grep { $_ eq $f } @before } files_in($dir);
    my $want = $c->{signal} ? 128 + $SIGNUM{ $c->{signal} } : $c->{exit} // 1;
    my $exit = exit_code($r->{status});
    my @why;
    push @why, scalar(@errors) . ' error lines on stderr, want 1' unless @errors == 1;
    push @why, "the error line is not $c->{err}" unless @errors && $errors[0] =~ $c->{err};
    push @why, "exit $exit, want $want" unless $want eq 'non-zero' ? $exit && $exit < 128 : $exit == $want;
    push @why, "left in the directory: @left" if @left;
    result(!@why, "$what: $c->{id}: one error line, exit $want, nothing left")
        or print map({ "#   $_\n" } @why), map { "#   stderr: $_\n" } @lines;
}

# --- output cases: every script ----------------------------------------------------
for my $s (@SCRIPTS) {
    for my $c (@OUTPUT_CASES) {
        next if $c->{layers_only} && !$s->{layer};
        if ($c->{as} && defined(my $why = probe($c->{as}))) {
            result(1, "$s->{name}: $c->{id}", "SKIP $why");
            next;
        }
        my $dir = fresh_dir($c);
        my @before = files_in($dir);
        my $r = run($c, $s, $dir, 'elf', @{ $s->{flags} // [] }, $c->{out});
        if ($c->{signal} && !$r->{writer}) {
            result(0, "$s->{name}: $c->{id}: the writer never stopped beside its temporary")
                or print "#   exit ", exit_code($r->{status}), ": $r->{err}\n";
            next;
        }
        check($s->{name}, $c, $r, $dir, @before);
    }
}
# A rename over the link would replace only the link; this would show one
# over the device itself.
result(-c '/dev/full', '/dev/full is still a character device');

# --- the negative control: no handlers, the temporary stays ---------------------------
{
    my ($s) = grep { $_->{name} eq 'x86_64-xlate.pl' } @SCRIPTS;
    my $c = { id => 'sigint-without-handlers', signal => 'INT', to => 'group', no_handlers => 1 };
    my $dir = fresh_dir($c);
    my $r = run($c, $s, $dir, 'elf', 'out.s');
    my @left = files_in($dir);
    result($r->{writer} && ($r->{status} & 127) == $SIGNUM{INT} && (grep { /^out\.s\.tmp\.\d+$/ } @left)
           && $r->{err} eq '',
           'negative control: with the handlers reset, the same SIGINT leaves the temporary, and the check sees it')
        or print "#   left: @left; exit ", exit_code($r->{status}), "; stderr: $r->{err}\n";
}

# --- input cases: the 64-bit translator --------------------------------------------------
{
    my ($s) = grep { $_->{name} eq 'x86_64-xlate.pl' } @SCRIPTS;
    for my $c (@INPUT_CASES) {
        my $dir = fresh_dir($c);
        check('x86_64-xlate.pl', $c, run($c, $s, $dir, 'elf', 'out.s'), $dir);
    }
}

# --- module API cases -----------------------------------------------------------------
for my $c (@MODULE_CASES) {
    my $dir = fresh_dir($c);
    mkdir "$dir.module" or die "$dir.module: $!\n";
    my $script = "$dir.module/toy.pl";
    my $head = $c->{layer} == 64
        ? "use lib '$root/perlasm/lib';\nuse X64::Module;\nX64::Module::pipe_output(\@ARGV);\n"
          . "print \".text\\n.globl toy\\ntoy:\\n\\tnop\\n\\tret\\n\" x 2000;\n"
        : "push(\@INC, '$root/perlasm');\nrequire 'x86asm.pl';\n&asm_init(\$ARGV[0], 0);\n"
          . "&function_begin('toy');\n&mov('eax', 1);\n";
    spew($script, "$head$c->{body}\n");
    check('module API', $c, run($c, { name => 'toy.pl', path => $script }, $dir, 'elf', 'out.s'), $dir);
}

finish();
