# SPDX-License-Identifier: Apache-2.0
# What every part of aesni-x86_64.pl shares: local labels, register
# roles, width descriptors, the key set-up and the round sequence.
# Nothing here reads another file's variables; the parts import these
# subs by name.
package AESNI::Common;
use strict;
use warnings;
use Exporter qw(import);

our @EXPORT_OK = qw(label roles width key_setup mid_rounds one_block);

# One counter for the whole module, so no two local labels clash.
my $seq = 0;
sub label { my ($what) = @_; return ".Laesni_${what}_" . $seq++ }

# The 32-bit and 8-bit names of each general register.
my %NARROW = (
    rax => [qw(eax al)], rbx => [qw(ebx bl)], rcx => [qw(ecx cl)], rdx => [qw(edx dl)],
    rsi => [qw(esi sil)], rdi => [qw(edi dil)], rbp => [qw(ebp bpl)],
    map { ("r$_" => [ "r${_}d", "r${_}b" ]) } 8 .. 15,
);

# A function's general registers by role: roles(in => '%rdi', ...) gives
# $R{in} = '%rdi', $R{in32} = '%edi' and $R{in8} = '%dil'.  Two roles
# may name one register when it changes meaning inside the function.
sub roles {
    my %role = @_;
    my %R;
    for my $name (sort keys %role) {
        my ($reg) = $role{$name} =~ /^%(\w+)$/;
        my $narrow = defined $reg && $NARROW{$reg}
            or die "roles: $name => $role{$name} is not a 64-bit general register\n";
        @R{ $name, "${name}32", "${name}8" } = map { "%$_" } $reg, @$narrow;
    }
    return %R;
}

# Width descriptors: the register prefix, bytes and blocks per register,
# how a 128-bit round key reaches every lane (bcast), the XOR and the
# unaligned move of that width (what each needs: aesni-x86_64.dispatch).
sub width {
    my ($bits) = @_;
    return { bits => 128, v => 'xmm', vb => 16, nb => 1, bcast => 'movups' }
        if $bits == 128;
    return $bits == 512
        ? { bits => 512, v => 'zmm', vb => 64, nb => 4,
            xor => 'vpxord', mov => 'vmovdqu64', bcast => 'vbroadcasti32x4' }
        : { bits => 256, v => 'ymm', vb => 32, nb => 2,
            xor => 'vpxor', mov => 'vmovdqu', bcast => 'vbroadcasti128' };
}

# Load R into $R->{rounds32} and END into $R->{end} for the schedule at
# $key.  Clobbers nothing else.
sub key_setup {
    my ($R, $key) = @_;
    return <<___;
	mov	240($key),$R->{rounds32}
	mov	$R->{rounds32},$R->{end32}
	shl	\$4,$R->{end32}
	lea	16($key,$R->{end}),$R->{end}
___
}

# Middle rounds (all but round 0 and the last) on @blocks of $width,
# loading each key into $tk, addressed backwards from END; $op is aesenc
# or aesdec.  The wide forms take the VEX three-operand encoding.
sub mid_rounds {
    my ($width, $op, $R, $tk, @blocks) = @_;
    my $vex = $width->{bits} > 128;
    my $tag = $vex ? 'vr' : 'r';
    my ($l11, $l9) = (label("${tag}11"), label("${tag}9"));
    my $t = "\tcmp\t\$11,$R->{rounds32}\n\tjb\t$l9\n\tje\t$l11\n";
    for my $i (reverse 1 .. 13) {            # key i rounds before END
        $t .= "$l11:\n" if $i == 11;
        $t .= "$l9:\n" if $i == 9;
        $t .= "\t$width->{bcast}\t-" . 16 * $i . "($R->{end}),$tk\n";
        $t .= $vex ? "\tv$op\t$tk,$_,$_\n" : "\t$op\t$tk,$_\n" for @blocks;
    }
    return $t;
}

# A whole block cipher on the register $x: round 0 and the last round
# from memory, key schedule at $key.
sub one_block {
    my ($R, $dir, $key, $x, $tk) = @_;
    my $op = $dir eq 'enc' ? 'aesenc' : 'aesdec';
    return key_setup($R, $key)
         . "\tmovups\t($key),$tk\n\tpxor\t$tk,$x\n"
         . mid_rounds(width(128), $op, $R, $tk, $x)
         . "\tmovups\t($R->{end}),$tk\n\t${op}last\t$tk,$x\n";
}

1;
