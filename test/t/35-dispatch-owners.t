#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# Who reads the capability words.  The choice of a variant is declared
# once, in each module script's .dispatch file; the perlasm layers write
# every test of OPENSSL_ia32cap_P from it (perlasm/lib/X64/Dispatch.pm,
# perlasm/lib/X86/Dispatch.pm) and the C capability code (crypto/cpuid/)
# owns the words.  Checked over the tracked tree:
#  - under crypto/, only crypto/cpuid/ mentions OPENSSL_ia32cap_P;
#  - no module script or helper file names a capability's word or bit
#    (Common::IA32Cap) or writes a test of its own;
#  - in perlasm/, only the two Dispatch.pm files write the symbol into
#    generated code (IA32Cap.pm names it in its messages);
#  - every module with a .dispatch file is a row of modules.txt with a
#    define, and every declaration parses; a bad one (an avoid= on a
#    variant taken when all else fails, among others) is refused;
#  - in the built archive, every dispatching entry of every declaration
#    and each of its variants' fixed paths is defined (the latter hidden).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib", "$FindBin::Bin/../../support/perl";
use lib "$FindBin::Bin/../../perlasm/lib";
use lib "$FindBin::Bin/../../tools/lib";
use Capture qw(capture);
use Slurp qw(slurp_or_die);
use Common::Dispatch;
use ImplRuns qw(result finish);
use ModuleTable qw(read_table table_path);

my $root  = "$FindBin::Bin/../..";
my $build = $ENV{BUILD} // 'build';
$build = "$root/$build" unless $build =~ m{^/};

my ($st, $out) = capture('git', '-C', $root, 'ls-files');
result($st == 0, 'git ls-files lists the tree') or finish();
my @files = grep { -f "$root/$_" } split /\n/, $out;

my %text = map { $_ => slurp_or_die("$root/$_") } @files;
my @mention = grep { $text{$_} =~ /OPENSSL_ia32cap_P/ } @files;

my @crypto = grep { m{^crypto/} && !m{^crypto/cpuid/} } @mention;
result(!@crypto, 'under crypto/ only crypto/cpuid/ mentions OPENSSL_ia32cap_P'
       . (@crypto ? " (also: @crypto)" : ''));

my @rows = read_table(table_path($root));
my @module_files = map { my $r = $_; ($r->{script}, map { glob("$root/$_") } @{ $r->{helpers} }) } @rows;
s{^\Q$root\E/}{} for @module_files;
my @own_tests = grep { ($text{$_} // slurp_or_die("$root/$_")) =~ /IA32Cap::(?:word|bit|word_bit_pairs)\b|OPENSSL_ia32cap_P/ }
    @module_files;
result(!@own_tests, 'no module script or helper names a capability bit or the capability words'
       . (@own_tests ? " (@own_tests)" : ''));

# Lines of Perl code (not comments) in perlasm/ that name the symbol.
my @writers = grep { m{^perlasm/} && $text{$_} =~ /^[^#\n]*OPENSSL_ia32cap_P/m } @mention;
my @unexpected = grep { !m{^perlasm/lib/(?:X64|X86)/Dispatch\.pm$|^perlasm/lib/Common/IA32Cap\.pm$} } @writers;
result(!@unexpected && (grep { m{/X64/Dispatch\.pm$} } @writers) && (grep { m{/X86/Dispatch\.pm$} } @writers),
       'in perlasm/ only X64/Dispatch.pm and X86/Dispatch.pm write OPENSSL_ia32cap_P into code (writers: '
       . join(' ', @writers) . ')');

my %script_of = map { $_->{script} => $_ } @rows;
my @decl_files = grep { /\.dispatch$/ } @files;
my @orphans = grep { (my $s = $_) =~ s/\.dispatch$/.pl/; !($script_of{$s} && $script_of{$s}{define}) } @decl_files;
result(@decl_files && !@orphans, scalar(@decl_files) . ' .dispatch files, each beside a module script'
       . ' with a define' . (@orphans ? " (not: @orphans)" : ''));

my (%decl, @bad);
for my $f (@decl_files) {
    my $d = eval { Common::Dispatch::read_file("$root/$f") };
    if ($d) { $decl{$f} = $d } else { push @bad, "$f: $@" }
}
result(!@bad, 'every declaration parses') or print map { "# $_" } @bad;

# A declaration the layers could misread is refused with one line naming
# the file (and the line where there is one).
use File::Temp qw(tempdir);
my $tmp = tempdir(CLEANUP => 1);
my $head = "table aes order=1\nneeds aesni\n";
for my $bad (
    [ "variant a needs=avx2\nvariant b needs=- avoid=intel\n", qr/: variant b is the module's last: it cannot avoid$/ ],
    [ "variant a needs=avx2\nvariant b needs=- avoid=intel\nvariant c needs=-\nentry e slot=ecb variants=a,b\n",
      qr/:6: variant b is this entry's last, taken when all else fails: it cannot avoid$/ ],
    [ "variant a needs=avx2\nentry e slot=ecb\n", qr/:4: an entry's last variant must need nothing of its own$/ ],
    [ "variant a needs=avx9\n", qr/:3: unknown capability 'avx9'$/ ],
    [ "variant a needs=-\nfast a\n", qr/:4: unknown statement 'fast'$/ ],
) {
    my ($body, $want) = @$bad;
    my $file = "$tmp/bad.dispatch";
    open(my $fh, '>', $file) or die "$file: $!\n";
    print $fh $head, $body;
    close $fh;
    my $ok = !eval { Common::Dispatch::read_file($file); 1 };
    my $err = $@;
    chomp $err;
    result($ok && $err =~ /^\Q$file\E/ && $err =~ $want && $err !~ /\n/, "refused with one line: $err");
}

# The built objects: build/obj/asm (x86_64) and build/m32/gen (x86).
for my $f (sort keys %decl) {
    (my $script = $f) =~ s/\.dispatch$/.pl/;
    my $m = $script_of{$script};
    my $obj = $m->{arch} eq 'x86' ? "$build/m32/gen/$m->{name}-small.o" : "$build/obj/asm/$m->{name}.o";
    if (!-f $obj) {
        result(1, "$m->{name}: every entry and fixed path defined", "SKIP $obj is not built");
        next;
    }
    my (undef, $syms) = capture('readelf', '-sW', $obj);
    my %vis = map { $_->[1] => $_->[0] } map { [ /\bFUNC\s+GLOBAL\s+(\w+)\s+\d+\s+(\w+)$/ ] }
        grep { /\bFUNC\s+GLOBAL\b/ } split /\n/, $syms;
    my (@missing, $n);
    $n = 0;
    for my $e ($decl{$f}->entries) {
        push @missing, $e->{symbol} unless ($vis{ $e->{symbol} } // '') eq 'DEFAULT';
        for my $v (@{ $e->{variants} }) {
            my $sym = $decl{$f}->fixed_symbol($e->{symbol}, $v);
            $n++;
            push @missing, "$sym (hidden)" unless ($vis{$sym} // '') eq 'HIDDEN';
        }
    }
    result(!@missing, "$m->{name}: " . scalar($decl{$f}->entries) . " dispatching entries and $n fixed paths"
           . ' defined, the fixed paths hidden' . (@missing ? " (missing: @missing)" : ''));
}

finish();
