# SPDX-License-Identifier: Apache-2.0
# The C compiler commands the Makefile would run, read from a dry run
# (`make -n`) into a scratch build directory, each turned into a command
# that only checks one source: same compiler, same flags, no output file.
# Taking them from make itself means a new source, a new rule or a changed
# flag is covered without anything here changing.
package CompileCommands;

use strict;
use warnings;
use Exporter 'import';
use Text::ParseWords qw(shellwords);
use Capture qw(capture);

our @EXPORT_OK = qw(dry_run_compiles check_command);

# A compiler driver by name: cc, gcc, clang, and the cross and versioned
# ones (x86_64-w64-mingw32-gcc, clang-14).
my $COMPILER = qr{(?:^|/)(?:[\w.]+-)*(?:cc|gcc|clang)(?:-[\d.]+)?$};
my $CLANG    = qr{(?:^|/)(?:[\w.]+-)*clang(?:-[\d.]+)?$};

# Flags that only matter when linking: with -c a driver warns that they are
# unused, which would be our doing, not the source's.
my $LINK_ONLY = qr{^(?:-l.+|-L.+|-Wl,.*|-no-pie|-pie|-rdynamic|-static|-shared)$};
my %LINK_ONLY_WITH_VALUE = map { $_ => 1 } qw(-l -L -Xlinker);

# Instrumentation for libFuzzer changes no diagnostic, and gcc has no such
# option: dropping it lets gcc check the fuzz targets as well.
my $FUZZER = qr{^-fsanitize=fuzzer(?:-no-link)?$};

# Debugging information changes no diagnostic, and leaving it out saves
# much of each compile's time.
my $DEBUG_INFO = qr{^-g(?:gdb|dwarf(?:-\d+)?|\d)?$};

# Options whose value is the next word; the outputs among them are dropped.
my %OUTPUT = map { $_ => 1 } qw(-o -MF -MT -MQ);
my %TAKES_VALUE = map { $_ => 1 } (keys %OUTPUT, keys %LINK_ONLY_WITH_VALUE,
    qw(-x -include -imacros -isystem -iquote -idirafter -isysroot -I -D -U
       -target -arch -Xassembler -Xpreprocessor -Xclang));

# The simple commands of one shell line: split at ; && || | outside quotes,
# each as its words, shell keywords in front (if, then, else, ...) removed.
sub simple_commands {
    my ($line) = @_;
    my @pieces = ('');
    while ($line =~ /\G('[^']*'|"(?:\\.|[^"\\])*"|\\.|&&|\|\||[;|]|[^'"\\;|&]+|&)/gc) {
        my $tok = $1;
        if ($tok =~ /^(?:&&|\|\||[;|])$/) { push @pieces, '' }
        else                              { $pieces[-1] .= $tok }
    }
    my @cmds;
    for my $piece (@pieces) {
        my @words = shellwords($piece);
        shift @words while @words && $words[0] =~ /^(?:if|then|else|elif|do|while|until|!)$/;
        push @cmds, \@words if @words;
    }
    return @cmds;
}

# The command that checks $src as @$words compiles it: the compiler and
# every flag kept (so every warning the build would print is printed), the
# output, dependency files, other inputs, link-only flags and -g dropped.
# gcc compiles to /dev/null: some of its warnings (maybe-uninitialized,
# array-bounds, stringop-*) come from the optimisers.  clang's come from
# its front end, so -fsyntax-only is enough there, and much faster.
# Returns a list of words.
sub check_command {
    my ($words, $src) = @_;
    my @w = @$words;
    my @out = (shift @w);
    while (@w) {
        my $word = shift @w;
        if ($OUTPUT{$word} || $LINK_ONLY_WITH_VALUE{$word}) { shift @w; next }
        next if $word =~ /^(?:-c|-MMD|-MD|-MP)$/ || $word =~ $LINK_ONLY || $word =~ $FUZZER
            || $word =~ $DEBUG_INFO;
        if ($TAKES_VALUE{$word}) { push @out, $word, shift @w; next }
        next if $word !~ /^-/;          # a source or an object: $src goes last
        push @out, $word;
    }
    my @check = $out[0] =~ $CLANG ? ('-fsyntax-only') : ('-c', '-o', '/dev/null');
    return (@out, @check, $src);
}

# dry_run_compiles(ROOT, SCRATCH, \%VARS, TARGETS...): runs
# `make -n BUILD=SCRATCH VAR=VALUE... TARGETS` in ROOT and returns
# ([source, [check command words], [compiler, with -m32 if given]], ...)
# for every C source of every compiler command it prints, in make's order.
# Dies with make's output if the dry run fails.
sub dry_run_compiles {
    my ($root, $scratch, $vars, @targets) = @_;
    my @args = ('make', '-n', '--no-print-directory', '-C', $root, "BUILD=$scratch",
                (map { "$_=$vars->{$_}" } sort keys %$vars), @targets);
    my ($status, $text) = capture(@args);
    die "@args failed:\n$text" if $status;
    $text =~ s/\\\n//g;                 # recipe lines continued with a backslash
    my @found;
    for my $line (split /\n/, $text) {
        for my $words (simple_commands($line)) {
            next unless $words->[0] =~ $COMPILER;
            my ($prev, @srcs) = ('');
            for my $w (@$words) {
                push @srcs, $w if $w =~ /\.c$/ && $w !~ /^-/ && !$TAKES_VALUE{$prev};
                $prev = $w;
            }
            # A 32-bit build is told apart: it needs the multilib to compile.
            my @driver = ($words->[0], grep { $_ eq '-m32' } @$words);
            push @found, [ $_, [ check_command($words, $_) ], \@driver ] for @srcs;
        }
    }
    return @found;
}

1;
