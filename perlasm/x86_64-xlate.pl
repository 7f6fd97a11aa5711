#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# The 64-bit perlasm layer: translates perlasm text (AT&T syntax, OpenSSL's
# dialect plus our frame helper) for one assembler flavour.
#
#   perl perlasm/x86_64-xlate.pl [FLAVOUR] [COMPILER-FLAGS...] [OUTPUT] < input
#   perl module.pl FLAVOUR [COMPILER-FLAGS...] OUTPUT   (a module pipes here)
#
# FLAVOUR: elf, macosx, mingw64, nasm, masm.  An OUTPUT ending in .asm
# with no flavour, or with flavour "auto", selects nasm.  Output "-" is
# standard output (see X64::CommandLine, --help).  Errors name the input
# line and leave no output file.
#
# Stages: X64::Parser (a line into statements), X64::Translate (ABI, frame
# helper, unwind state, Win64 tables), X64::Emit::<Flavour> (text).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use X64::Translate;
use X64::CommandLine ();
use X64::Origin ();
use Common::Output qw(write_atomic);

# Flavour, compiler flags (ignored), output: see X64::CommandLine.
my ($flavour, $output) = X64::CommandLine::parse(\@ARGV,
    'Translates perlasm text (AT&T syntax) for one assembler flavour.', 'INPUT');
$output //= '-';
my $class = X64::CommandLine::emitter($flavour);
(my $file = $class) =~ s{::}{/}g;
require "$file.pm";

# The name errors report: the module that produced the text, if known.
my ($source, $source_path) = X64::Origin::module_script();
$source //= '<stdin>';
my $xl = X64::Translate->new(emitter => $class->new(flavour => $flavour));
my $lineno = 0;
my $current = '';
my $text = eval {
    # A Perl warning from the layer is a bug in the layer: stop at the line
    # that caused it, as for any other error, rather than write doubtful code.
    local $SIG{__WARN__} = sub { die "internal error in the translator: $_[0]" };
    my @lines = map { s/\r?\n$//r } <STDIN>;
    $xl->prescan(@lines);
    for my $line (@lines) {
        $lineno++;
        $current = $line;
        $xl->line($line);
    }
    $current = '';
    $lineno = 'end';
    $xl->finish;
};
if (!defined $text) {
    my $err = $@;
    $err =~ s/\s+$//;
    # Line numbers count the perlasm text (what a module printed); the
    # module's own line too where that text is literal in it.
    print STDERR "$source:$lineno: $err\n";
    print STDERR "    $current\n" if length $current;
    my $at = length $current ? X64::Origin::source_line($source_path, $current) : undef;
    print STDERR "    (line $lineno of the perlasm text for $output"
        . (defined $at ? "; written at $source line $at" : '') . ")\n"
        if $lineno ne 'end' || $output ne '-';
    exit 1;
}

# Temporary beside the target, renamed into place: never a partial file.
if (defined(my $why = write_atomic($output, $text))) {
    print STDERR "$0: cannot write $output: $why\n";
    exit 1;
}
exit 0;
