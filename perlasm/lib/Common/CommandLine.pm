# SPDX-License-Identifier: Apache-2.0
# The command line of every perlasm script, 32- and 64-bit, read by one
# rule.  OpenSSL's build runs a generator as
#   perl NAME.pl $(PERLASM_SCHEME) $(LIB_CFLAGS) $(LIB_CPPFLAGS) $(PROCESSOR) OUTPUT
# so a script sees a flavour, any number of compiler flags, perhaps "386",
# then its output.  Each word is, in this order of tests:
#   --help, -h   print the usage on stdout and exit 0;
#   -            standard output (as an OUTPUT);
#   -X...        (a dash and a letter) a compiler flag: any, since the
#                compiler, not we, knows which exist.  -arch, -isysroot,
#                -target, -include, -imacros, -isystem, -idirafter, -iquote,
#                -Xclang, -Xassembler and a bare -D, -U, -I take the next
#                word as their value;
#   --NAME=VALUE for the compiler's --sysroot, --target, --gcc-toolchain: a
#                compiler flag.  Any other word starting with "-" is a
#                misspelt option: an error;
#   a keyword of the layer (386 for 32-bit);
#   otherwise    FLAVOUR if it is the first such word, OUTPUT if the last;
#                a word between them is an error.
# A flag is never taken for the output file.  Errors are one line on stderr
# and exit 2, before anything is written.
package Common::CommandLine;

use strict;
use warnings;
use File::Basename qw(basename);

# Compiler flags whose value is the next word.
my %TAKES_VALUE = map { $_ => 1 }
    qw(-arch -isysroot -target -include -imacros -isystem -idirafter -iquote
       -Xclang -Xassembler -D -U -I);
my $LONG_FLAG = qr/^--(?:sysroot|target|gcc-toolchain)=/;

sub program { return basename($0) }
# The module a script writes, for its usage: aes-586 for aes-586.pl.
sub module_name { return program() =~ s/\.pl$//r }

# fail(MESSAGE): the one-line error every bad command line gets.
sub fail {
    my ($msg) = @_;
    print STDERR program() . ": $msg\n";
    exit 2;
}

# parse(%spec) reads $spec{args} (a list; @ARGV is not changed):
#   flavours     [valid flavours], in the order the error message names them
#   keywords     [words standing for themselves, e.g. '386']
#   need_flavour true: a command line without a flavour is an error
#   file_first   true: a lone first word with "." or "/" in it is OUTPUT
#                (OpenSSL's 64-bit convention: `perl NAME.pl x.asm`)
#   usage        the text for --help (stdout) and for a terminal stdout
#                with no OUTPUT (stderr, exit 2: assembly is not for eyes)
#   options      what to name after "valid:" for an unknown option
# Returns { flavour, output (undef if none), flags => [...],
#           defines => { NAME => VALUE } (from -D/-U, in order),
#           keywords => { WORD => 1 } }.
sub parse {
    my (%spec) = @_;
    my @args = @{ $spec{args} };
    if (grep { $_ eq '--help' || $_ eq '-h' } @args) {
        print $spec{usage};
        exit 0;
    }
    my %keyword = map { $_ => 1 } @{ $spec{keywords} // [] };
    my (@flags, @words, %seen);
    while (@args) {
        my $arg = shift @args;
        if ($arg eq '-') {
            push @words, $arg;
        } elsif ($arg =~ /^-[A-Za-z]/ || $arg =~ $LONG_FLAG) {
            if ($TAKES_VALUE{$arg}) {
                fail("option $arg needs a value after it") unless @args;
                $arg .= ' ' . shift @args;
            }
            push @flags, $arg;
        } elsif ($arg =~ /^-/) {
            fail("unknown option \"$arg\" (valid: $spec{options})");
        } elsif ($keyword{$arg}) {
            $seen{$arg} = 1;
        } else {
            push @words, $arg;
        }
    }
    my ($flavour, $output);
    if (@words == 1 && $spec{file_first} && $words[0] =~ m{[./]|^-$}) {
        $output = $words[0];
    } else {
        ($flavour, my @rest) = @words;
        $output = pop @rest;
        fail("unexpected argument \"$rest[0]\" between FLAVOUR and OUTPUT"
             . " (see " . program() . " --help)") if @rest;
    }
    my @valid = @{ $spec{flavours} };
    fail("unknown flavour \"$flavour\" (valid: " . join(', ', @valid) . ")")
        if defined $flavour && !grep { $_ eq $flavour } @valid;
    if (!defined $output && -t STDOUT) {
        print STDERR $spec{usage};
        exit 2;
    }
    fail("no flavour given (valid: " . join(', ', @valid) . ")")
        if !defined $flavour && $spec{need_flavour};
    $output = undef if defined $output && $output eq '-';
    return { flavour => $flavour, output => $output, flags => \@flags,
             defines => defines(@flags), keywords => \%seen };
}

# The end of every script's usage: OUTPUT, --help and what is an error.
sub usage_tail {
    return <<'EOT';
  OUTPUT          the file to write (whole or not at all); "-": standard
                  output; none: standard output unless it is a terminal
  --help, -h      this text
Errors (exit 2, nothing written): an unknown flavour, a word between
FLAVOUR and OUTPUT, a --word other than --help and the compiler's
--sysroot=, --target=, --gcc-toolchain=.
EOT
}

# The -DNAME[=VALUE] and -UNAME flags as the preprocessor would see them.
sub defines {
    my (@flags) = @_;
    my %def;
    for (@flags) {
        if (/^-D\s*([A-Za-z_]\w*)(?:=(.*))?$/s) { $def{$1} = $2 // 1 }
        elsif (/^-U\s*([A-Za-z_]\w*)$/)        { delete $def{$1} }
    }
    return \%def;
}

1;
