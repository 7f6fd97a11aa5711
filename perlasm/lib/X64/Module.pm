# For 64-bit module scripts: `perl module.pl FLAVOUR OUTPUT` prints perlasm
# text on STDOUT, which this sends through x86_64-xlate.pl.
#
#   use lib "$dir/../../../perlasm/lib";
#   use X64::Module;
#   X64::Module::pipe_output(@ARGV);   # dies with usage on bad arguments
#   print ".text\n...";
#   X64::Module::finish();             # exit status of the translator
package X64::Module;

use strict;
use warnings;
use File::Basename qw(dirname);
use File::Spec;

my $xlate = File::Spec->catfile(dirname(dirname(dirname(__FILE__))), 'x86_64-xlate.pl');
my $piped;

# OpenSSL's convention: flavour first, output last; either may be absent
# (an output ending in .asm then means nasm, none means ELF to stdout).
sub pipe_output {
    my (@args) = @_;
    # OpenSSL's build runs `perl MODULE.pl FLAVOUR $(CFLAGS...) OUTPUT`:
    # compiler flags between flavour and output are accepted and unused,
    # since nothing we generate depends on them.
    if (@args > 2) {
        my @flags = @args[1 .. $#args - 1];
        my @bad = grep { !/^-/ } @flags;
        die "$0: unexpected argument \"$bad[0]\"\n"
            . "usage: $0 FLAVOUR [COMPILER-FLAGS...] [OUTPUT]\n" if @bad;
        @args = ($args[0], $args[-1]);
    }
    my ($flavour, $output) = @args;
    if (@args == 1 && $args[0] =~ m{[./]}) {      # OUTPUT alone
        ($flavour, $output) = ($args[0] =~ /\.asm$/ ? "nasm" : "elf", $args[0]);
    }
    $flavour //= 'elf';
    my @cmd = ($^X, $xlate, $flavour, defined $output ? $output : '-');
    $ENV{PERLASM_SOURCE} //= $0;
    open(my $pipe, '|-', @cmd) or die "$0: cannot run $xlate: $!\n";
    select $pipe;
    $piped = $pipe;
}

sub finish {
    return 0 unless $piped;
    my $ok = close $piped;
    select STDOUT;
    exit($ok ? 0 : ($? >> 8 || 1));
}

1;
