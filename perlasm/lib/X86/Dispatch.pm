# SPDX-License-Identifier: Apache-2.0
# The 32-bit layer's dispatch code, written from a module's declaration
# (Common::Dispatch) through the x86asm.pl API: the only 32-bit code that
# reads OPENSSL_ia32cap_P.  Modules call these after asm_init.
package X86::Dispatch;

use strict;
use warnings;
use Common::Dispatch;

# The capability words' symbol (x86asm.pl's OpenSSL conventions define it).
our $CAP = 'OPENSSL_ia32cap_P';

# The capability words as an external symbol (once per module).
sub declare_caps { main::external_label($CAP) }

# The address of the capability words into $reg.
sub load_caps { my ($reg) = @_; main::picmeup($reg, $CAP) }

# With the words' address in $base (load_caps): falls through when all of
# CAPS are present, else jumps to $skip.  With a $scratch register each
# word is loaded, masked and compared; without one each capability is a
# `test` of memory (flags only).
sub unless_caps_goto {
    my (%a) = @_;
    my ($base, $scratch, $skip) = @a{qw(base scratch skip)};
    if (!defined $scratch) {
        for my $cap (@{ $a{caps} }) {
            main::test(main::DWP(4 * Common::IA32Cap::word($cap), $base), 1 << Common::IA32Cap::bit($cap));
            main::jz($skip);
        }
        return;
    }
    for my $wm (Common::Dispatch::word_masks(@{ $a{caps} })) {
        main::mov($scratch, main::DWP(4 * $wm->[0], $base));
        main::and($scratch, $wm->[1]);
        main::cmp($scratch, $wm->[1]);
        main::jne($skip);
    }
}

# The 32-bit layer writes no variant's avoid= (no 32-bit module declares
# one): it refuses a declaration that does rather than ignore it.
sub _no_avoid {
    my ($decl) = @_;
    for my $v ($decl->variants) {
        die "$decl->{file}: variant $v->{name}: the 32-bit layer does not write avoid=\n"
            if $decl->avoided_caps($v->{name});
    }
}

# A section of an entry's body that only VARIANT (not the entry's last)
# runs, in the function written for PATH: OpenSSL's SYMBOL (PATH undef)
# or the fixed path SYMBOL_PATH.  Arguments:
#   decl, symbol, variant, path
#   count    the register holding the input size, tested against the
#            entry's min (shorter inputs go to skip whatever the path)
#   also     more tests after that one (they jump to skip themselves)
#   scratch  the capability test's register (flags-only tests of memory)
#   skip     the label after the section
#   code     writes the section
# OpenSSL's entry tests what the variant needs; the variant's own fixed
# path runs the section untested; any other variant's leaves it out.
sub variant_section {
    my (%a) = @_;
    my ($decl, $symbol, $variant, $path) = @a{qw(decl symbol variant path)};
    _no_avoid($decl);
    return if defined $path && $path ne $variant;
    my $min = $decl->entry($symbol)->{min};
    if (defined $min) {
        main::cmp($a{count}, $min);
        main::jb($a{skip});
    }
    $a{also}->() if $a{also};
    unless (defined $path) {
        load_caps($a{scratch});
        unless_caps_goto(base => $a{scratch}, skip => $a{skip},
                         caps => [ $decl->tested_caps($symbol, $variant) ]);
    }
    $a{code}->();
}

# Every entry's fixed paths: for each built variant (@built, names;
# default all) of each entry, in the declaration's order, SYMBOL_VARIANT
# is declared hidden and $write->(SYMBOL, SYMBOL_VARIANT, VARIANT) writes
# its function.
sub fixed_paths {
    my ($decl, $write, @built) = @_;
    my %built = map { $_ => 1 } @built ? @built : map { $_->{name} } $decl->variants;
    for my $e ($decl->entries) {
        for my $v (grep { $built{$_} } @{ $e->{variants} }) {
            my $sym = $decl->fixed_symbol($e->{symbol}, $v);
            main::hidden($sym);
            $write->($e->{symbol}, $sym, $v);
        }
    }
}

# $reg = all ones when the CPU has what VARIANT needs (one capability),
# else 0 (the address of the words is loaded into $reg first).
sub variant_flag {
    my ($decl, $variant, $reg) = @_;
    my @caps = @{ $decl->variant($variant)->{needs} };
    die "$decl->{file}: variant $variant: a flag is of one capability\n" unless @caps == 1;
    load_caps($reg);
    main::bt(main::DWP(4 * Common::IA32Cap::word($caps[0]), $reg), Common::IA32Cap::bit($caps[0]));
    main::sbb($reg, $reg);
}

# OpenSSL's SYMBOL as a frameless dispatcher, arguments untouched: a tail
# jump to the first built variant (@built, names; default all) whose
# needs are met, else to the last.  eax and ecx are its scratch.  With
# only the last variant built it reads no capability.  The variants'
# fixed symbols are declared hidden here.
sub tail_dispatcher {
    my ($decl, $symbol, @built) = @_;
    my %built = map { $_ => 1 } @built ? @built : map { $_->{name} } $decl->variants;
    my @v = grep { $built{ $_->{name} } } $decl->entry_variants($symbol);
    die "$decl->{file}: $symbol without its last variant\n"
        unless @v && $v[-1]{name} eq $decl->entry($symbol)->{variants}[-1];
    _no_avoid($decl);
    declare_caps() if @v > 1;
    main::hidden(map { $decl->fixed_symbol($symbol, $_->{name}) } @v);
    main::function_begin_B($symbol);
    load_caps('eax') if @v > 1;
    for my $v (@v[0 .. $#v - 1]) {
        my $skip = main::label("not_$v->{name}");
        unless_caps_goto(base => 'eax', scratch => 'ecx', skip => $skip,
                         caps => [ $decl->tested_caps($symbol, $v->{name}) ]);
        main::jmp($decl->fixed_symbol($symbol, $v->{name}));
        main::set_label("not_$v->{name}");
    }
    main::jmp($decl->fixed_symbol($symbol, $v[-1]{name}));
    main::function_end_B($symbol);
    return @v;
}

1;
