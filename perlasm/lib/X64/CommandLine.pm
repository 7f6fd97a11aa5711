# SPDX-License-Identifier: Apache-2.0
# The 64-bit layer's command line, for x86_64-xlate.pl and (through
# X64::Module) every 64-bit module:
#   perl SCRIPT [FLAVOUR] [COMPILER-FLAGS...] [OUTPUT]
# read by Common::CommandLine's rule.  Compiler flags are accepted and
# ignored, but for the one macro unwind_from_cfi reads.
package X64::CommandLine;

use strict;
use warnings;
use Common::CommandLine ();

# Each flavour and the X64::Emit class that writes it, in the order the
# usage and the errors name them.
my @EMITTERS = (
    elf     => 'X64::Emit::Elf',
    elf32   => 'X64::Emit::Elf32',
    macosx  => 'X64::Emit::MachO',
    mingw64 => 'X64::Emit::Mingw64',
    nasm    => 'X64::Emit::Nasm',
    masm    => 'X64::Emit::Masm',
);
my %EMITTER = @EMITTERS;
my @FLAVOURS = @EMITTERS[ grep { $_ % 2 == 0 } 0 .. $#EMITTERS ];

sub emitter { return $EMITTER{ $_[0] } }

# parse(ARGS, ABOUT, INPUT) -> (FLAVOUR, OUTPUT or undef for stdout).
# ABOUT is the usage's description line; INPUT names what is read on
# stdin, if anything.  Exits with usage or an error line when ARGS are bad.
sub parse {
    my ($args, $about, $input) = @_;
    my $cl = Common::CommandLine::parse(
        args       => $args,
        flavours   => [ @FLAVOURS, 'auto' ],
        file_first => 1,
        usage      => usage($about, $input),
        options    => '--help, compiler flags -X..., FLAVOUR, OUTPUT',
    );
    my ($flavour, $output, $defines) = @$cl{qw(flavour output defines)};
    # OpenSSL's convention: no flavour (or "auto") and OUTPUT *.asm is nasm.
    if (!defined $flavour || $flavour eq 'auto') {
        $flavour = defined $output && $output =~ /\.asm$/ ? 'nasm' : 'elf';
    }
    return ($flavour, $output, $defines);
}

# The macro that selects Win64 unwind data from CFI alone (the module's
# own .pdata/.xdata and handler references dropped).  A build turns it on
# as a compiler flag: on this script's command line, on the module
# script's (OpenSSL's build gives a module its CFLAGS and CPPFLAGS, and the
# module runs us with only flavour and output), or where neither can be
# read, in the environment.
our $UNWIND_FROM_CFI = 'PERLASM_WIN64_UNWIND_FROM_CFI';

sub unwind_from_cfi {
    my ($defines, @module_argv) = @_;
    my $def = $defines->{$UNWIND_FROM_CFI}
        // Common::CommandLine::defines(@module_argv)->{$UNWIND_FROM_CFI}
        // $ENV{$UNWIND_FROM_CFI};
    return defined $def && $def ne '0' && $def ne '';
}

sub usage {
    my ($about, $input) = @_;
    my $name = Common::CommandLine::program();
    my $stdin = defined $input ? " < $input" : '';
    return <<"EOT" . Common::CommandLine::usage_tail();
usage: perl $name [FLAVOUR] [COMPILER-FLAGS...] [OUTPUT]$stdin
$about
  FLAVOUR         @{[ join(', ', @FLAVOURS) ]}; none or "auto": nasm if
                  OUTPUT ends in .asm, otherwise elf
  COMPILER-FLAGS  the flags OpenSSL's build passes (-DNAME, -Iinclude,
                  -fPIC, -m64, -O3, -Wall, -Wa,--noexecstack, -pthread, ...):
                  accepted and ignored, except -D$UNWIND_FROM_CFI (also
                  read from the module's command line or the environment):
                  on Win64, drop the module's own .pdata/.xdata and derive
                  every function's unwind data from its CFI
EOT
}

1;
