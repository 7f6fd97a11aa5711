# SPDX-License-Identifier: Apache-2.0
# The x86_64 layer's dispatch code, written from a module's declaration
# (Common::Dispatch): the only x86_64 code that reads OPENSSL_ia32cap_P.
# Each sub returns perlasm text for X64::Module's translator.
#
# Two shapes of dispatching entry, both frameless tail jumps that leave
# the arguments alone (so one body serves every ABI: @abi-omnipotent):
#   tail_dispatcher   OpenSSL's SYMBOL tests the variants' needs in order
#                     and jumps to the first SYMBOL_VARIANT whose needs
#                     are met, else to the last variant's.
#   selector_entries  SYMBOL and each SYMBOL_VARIANT load a selector (0:
#                     choose from the CPU, else the variant's select
#                     value) into a scratch register and jump to one
#                     shared body, which chooses with select_variant after its
#                     prologue, so the frame and unwind data are the body's.
package X64::Dispatch;

use strict;
use warnings;
use Common::Dispatch;

my $CAP = 'OPENSSL_ia32cap_P';

# The capability words as an external, hidden data symbol.
sub extern_caps { return ".extern\t$CAP\n.hidden\t$CAP\n" }

# Falls through when all of CAPS are present, else jumps to $skip; $reg
# (a 32-bit register) is clobbered.
sub unless_caps_goto {
    my ($reg, $skip, @caps) = @_;
    my $t = '';
    for my $wm (Common::Dispatch::word_masks(@caps)) {
        my ($off, $m) = (4 * $wm->[0], sprintf('0x%x', $wm->[1]));
        $t .= "\tmov\t$CAP+$off(%rip),$reg\n\tand\t\$$m,$reg\n\tcmp\t\$$m,$reg\n\tjne\t$skip\n";
    }
    return $t;
}

# Jumps to $target when every capability of the rule NAME is present
# (they must lie in one word); $reg is clobbered.
sub if_rule_goto {
    my ($decl, $name, $reg, $target) = @_;
    return if_caps_goto($reg, $target, "$decl->{file}: rule $name", $decl->rule_caps($name));
}

# Jumps to $target when all of CAPS (in one word; $what names them in the
# error) are present; $reg is clobbered.  No CAPS: nothing.
sub if_caps_goto {
    my ($reg, $target, $what, @caps) = @_;
    return '' unless @caps;
    my @wm = Common::Dispatch::word_masks(@caps);
    die "$what spans more than one capability word\n" unless @wm == 1;
    my ($w, $m) = @{ $wm[0] };
    my $t = "\tmov\t$CAP+" . 4 * $w . "(%rip),$reg\n";
    return $t . sprintf("\ttest\t\$0x%x,%s\n\tjnz\t%s\n", $m, $reg, $target) if ($m & ($m - 1)) == 0;
    return $t . sprintf("\tand\t\$0x%x,%s\n\tcmp\t\$0x%x,%s\n\tje\t%s\n", $m, $reg, $m, $reg, $target);
}

# Falls through when the entry $symbol takes variant $v by itself: its
# needs are present and what it avoids is not; else jumps to $skip.
sub _take_unless {
    my ($decl, $symbol, $v, $reg, $skip) = @_;
    return unless_caps_goto($reg, $skip, $decl->tested_caps($symbol, $v->{name}))
         . if_caps_goto($reg, $skip, "$decl->{file}: variant $v->{name}'s avoid",
                        $decl->avoided_caps($v->{name}));
}

# The head of an exported frameless function.
sub _frameless {
    my ($sym, $hidden) = @_;
    return ".globl\t$sym\n" . ($hidden ? ".hidden\t$sym\n" : '')
        . ".type\t$sym,\@abi-omnipotent\n.align\t16\n$sym:\n.cfi_startproc\n\tendbranch\n";
}

sub _end { my ($sym) = @_; return ".cfi_endproc\n.size\t$sym,.-$sym\n" }

# OpenSSL's SYMBOL as a dispatcher that tail-jumps to SYMBOL_VARIANT;
# $reg (32-bit, caller-saved, no argument) is its scratch.  Each variant's
# label .L<SYMBOL>_not_<VARIANT> follows its test.
sub tail_dispatcher {
    my ($decl, $symbol, $reg) = @_;
    my @v = $decl->entry_variants($symbol);
    my $t = _frameless($symbol, 0);
    for my $v (@v[0 .. $#v - 1]) {
        my $skip = ".L${symbol}_not_$v->{name}";
        $t .= _take_unless($decl, $symbol, $v, $reg, $skip)
            . "\tjmp\t" . $decl->fixed_symbol($symbol, $v->{name}) . "\n$skip:\n";
    }
    return $t . "\tjmp\t" . $decl->fixed_symbol($symbol, $v[-1]{name}) . "\n" . _end($symbol);
}

# The directives that open a variant's own code at SYMBOL_VARIANT
# (exported, hidden): what follows is the function's .function block.
sub fixed_head {
    my ($decl, $symbol, $variant) = @_;
    my $sym = $decl->fixed_symbol($symbol, $variant);
    return ".globl\t$sym\n.hidden\t$sym\n";
}

# The entries of a body that chooses for itself: SYMBOL (selector 0) and
# one hidden SYMBOL_VARIANT per variant (its select value); $reg is the
# selector, a 32-bit scratch register that carries no argument.
sub selector_entries {
    my ($decl, $symbol, $body, $reg) = @_;
    my @unset = grep { !defined $_->{select} } $decl->entry_variants($symbol);
    die "$decl->{file}: $symbol: variant $unset[0]{name} has no select value\n" if @unset;
    my $t = '';
    for my $v (undef, $decl->entry_variants($symbol)) {
        my $sym = $v ? $decl->fixed_symbol($symbol, $v->{name}) : $symbol;
        my $sel = $v ? "\tmov\t\$$v->{select},$reg\n" : "\txor\t$reg,$reg\n";
        $t .= "\n" . _frameless($sym, !!$v) . "$sel\tjmp\t$body\n" . _end($sym);
    }
    return $t;
}

# The choice inside such a body.  Arguments:
#   symbol   the entry
#   reg      its selector register (also the capability tests' scratch)
#   targets  { variant name => label of its code } for all but the last
#   last     the last variant's label, placed right after this sequence
#   count    the register holding the input size, tested against the
#            entry's min when it has one
# Short inputs go to the last variant whatever was asked; then the
# variant asked for; then the first whose needs are met.
sub select_variant {
    my (%a) = @_;
    my ($decl, $symbol, $reg) = @a{qw(decl symbol reg)};
    my @v = $decl->entry_variants($symbol);
    my @lost = grep { !defined $a{targets}{ $_->{name} } } @v[0 .. $#v - 1];
    die "$decl->{file}: $symbol: no code for variant @{[ map { $_->{name} } @lost ]}\n" if @lost;
    my $min = $decl->entry($symbol)->{min};
    my $t = defined $min ? "\tcmp\t\$$min,$a{count}\n\tjb\t$a{last}\n" : '';
    $t .= "\tcmp\t\$$_->{select},$reg\n\tje\t" . ($a{targets}{ $_->{name} } // $a{last}) . "\n" for @v;
    for my $v (@v[0 .. $#v - 1]) {
        my $skip = ".L${symbol}_not_$v->{name}";
        $t .= _take_unless($decl, $symbol, $v, $reg, $skip)
            . "\tjmp\t$a{targets}{ $v->{name} }\n$skip:\n";
    }
    return "$t$a{last}:\n";
}

1;
