#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# The 64-bit perlasm layer: translates perlasm text (AT&T syntax, OpenSSL's
# dialect plus our frame helper) for one assembler flavour.
#
#   perl perlasm/x86_64-xlate.pl [FLAVOUR] [COMPILER-FLAGS...] [OUTPUT] < input
#   perl module.pl FLAVOUR [COMPILER-FLAGS...] OUTPUT   (a module pipes here)
#
# FLAVOUR: elf, elf32 (x32), macosx, mingw64, nasm, masm.  An OUTPUT
# ending in .asm with no flavour, or with flavour "auto", selects nasm.
# Output "-" is standard output (see X64::CommandLine, --help).  Errors
# name the input line and leave no output file.
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
use Common::Output qw(write_output);
use X64::Parser ();

# Flavour, compiler flags (ignored), output: see X64::CommandLine.
my ($flavour, $output, $defines) = X64::CommandLine::parse(\@ARGV,
    'Translates perlasm text (AT&T syntax) for one assembler flavour.', 'INPUT');
$output //= '-';
my $class = X64::CommandLine::emitter($flavour);
(my $file = $class) =~ s{::}{/}g;
require "$file.pm";

# The name errors report: the module that produced the text, if known.
my ($source, $source_path) = X64::Origin::module_script();
my $prog = $source // 'x86_64-xlate.pl';
$source //= '<stdin>';
# Set by X64::Module: the line its finish() ends the text with.
my $end_mark = delete $ENV{PERLASM_END_MARK};
my $xl = X64::Translate->new(emitter => $class->new(flavour => $flavour),
    cfi_unwind => X64::CommandLine::unwind_from_cfi($defines, X64::Origin::module_argv()));
my $lineno = 0;
my $current = '';
my $text = eval {
    # A Perl warning from the layer is a bug in the layer: stop at the line
    # that caused it, as for any other error, rather than write doubtful code.
    local $SIG{__WARN__} = sub { die "internal error in the translator: $_[0]" };
    my @lines = read_text();
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
write_output($prog, $output, $text);
exit 0;

# The lines of standard input, without their line ends.  Dies, with
# $lineno (and $current where quoting helps) set, on input that is not
# text, that is empty, that stops in the middle of a line or, from a
# module, before its X64::Module::finish.
sub read_text {
    my @lines = <STDIN>;
    if (defined $end_mark) {
        $lineno = 'end';
        die "the text stops before its module's end (X64::Module::finish not reached):"
            . " the module was interrupted or failed\n"
            unless @lines && $lines[-1] =~ s/\Q$end_mark\E\n\z//;
        pop @lines if $lines[-1] eq '';
    }
    $lineno = 0;
    for my $line (@lines) {
        $lineno++;
        X64::Parser::check_text($line =~ s/\r?\n\z//r);
    }
    $lineno = 'end';
    die "no perlasm text: the input is empty\n" unless grep { /\S/ } @lines;
    if ($lines[-1] !~ /\n\z/) {
        ($lineno, $current) = (scalar @lines, $lines[-1]);
        die "the text stops in the middle of line $lineno (no newline at its end): cut short?\n";
    }
    $lineno = 0;
    return map { s/\r?\n\z//r } @lines;
}
