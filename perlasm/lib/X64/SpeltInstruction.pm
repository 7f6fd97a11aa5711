# SPDX-License-Identifier: Apache-2.0
# An instruction a module spells out as bytes (`.byte 0x48,0x83,0xec,0x18`),
# read back as AT&T text, for Win64 unwind from CFI: OpenSSL writes some
# Win64-only prologue and epilogue instructions so (to fix their encoding
# for its hand-written unwind tables), and with those tables dropped the
# layer must see what they do to rsp and to the callee-saved registers.
# Only the forms that can matter are read:
#   add/sub $imm8 or $imm32 to a 64-bit register (83 /0 /5, 81 /0 /5)
#   lea MEM,REG64 (8d), mov REG64,MEM and mov MEM,REG64 (89, 8b)
#   128- and 256-bit moves between an xmm/ymm register and memory:
#   movaps/movapd (0f 28/29), movups/movupd (0f 10/11), movdqa/movdqu
#   (66/f3 0f 6f/7f), legacy or VEX (c5, c4) encoded
# with any ModRM/SIB memory form but rip-relative.  Anything else, or
# bytes left over, is not an instruction here (undef): a `.byte` line may
# be data, or an instruction that touches no frame.  Of those, the ones
# OpenSSL spells out that write a general register (mulx and the other
# BMI2 forms, adcx/adox, rdrand/rdseed) are recognised as such.
package X64::SpeltInstruction;

use strict;
use warnings;
use Exporter 'import';

our @EXPORT_OK = qw(spelt_instruction writes_general_register);

my @GP64 = qw(rax rcx rdx rbx rsp rbp rsi rdi r8 r9 r10 r11 r12 r13 r14 r15);

# Opcode (after 0f) by mandatory prefix ('' none, 66, f3): mnemonic and
# whether the register operand is the source (a store).
my %SIMD_MOVE = (
    ''   => { 0x28 => [ 'movaps', 0 ], 0x29 => [ 'movaps', 1 ],
              0x10 => [ 'movups', 0 ], 0x11 => [ 'movups', 1 ] },
    '66' => { 0x28 => [ 'movapd', 0 ], 0x29 => [ 'movapd', 1 ],
              0x10 => [ 'movupd', 0 ], 0x11 => [ 'movupd', 1 ],
              0x6f => [ 'movdqa', 0 ], 0x7f => [ 'movdqa', 1 ] },
    'f3' => { 0x6f => [ 'movdqu', 0 ], 0x7f => [ 'movdqu', 1 ] },
);

# AT&T text of the instruction that @bytes (numbers) encode, or undef.
sub spelt_instruction {
    my @b = @_;
    my $prefix = '';
    $prefix = sprintf('%02x', shift @b) if @b && ($b[0] == 0x66 || $b[0] == 0xf3);
    my ($w, $r, $x, $bx, $vex, $len) = (0, 0, 0, 0, 0, 0);
    my $op;
    if (@b && ($b[0] == 0xc5 || $b[0] == 0xc4) && $prefix eq '') {
        my $form = shift @b;
        return undef if @b < ($form == 0xc5 ? 2 : 3);
        my $p1 = shift @b;
        $r = !($p1 & 0x80);
        my $pp;
        if ($form == 0xc5) {
            $len = ($p1 >> 2) & 1;
            $pp = $p1 & 3;
            return undef if (($p1 >> 3) & 15) != 15;      # vvvv unused: 1111
        } else {
            $x = !($p1 & 0x40);
            $bx = !($p1 & 0x20);
            return undef unless ($p1 & 31) == 1;          # the 0f map
            my $p2 = shift @b;
            $len = ($p2 >> 2) & 1;
            $pp = $p2 & 3;
            return undef if (($p2 >> 3) & 15) != 15;
        }
        $prefix = ('', '66', 'f3', 'f2')[$pp];
        $vex = 1;
        $op = 0x0f00 | shift @b;
    } else {
        if (@b && ($b[0] & 0xf0) == 0x40) {
            my $rex = shift @b;
            ($w, $r, $x, $bx) = (($rex >> 3) & 1, ($rex >> 2) & 1, ($rex >> 1) & 1, $rex & 1);
        }
        return undef unless @b;
        $op = shift @b;
        $op = 0x0f00 | shift @b if $op == 0x0f && @b;
    }
    return undef unless @b;
    my ($mod, $reg, $rm) = ($b[0] >> 6, ($b[0] >> 3) & 7, $b[0] & 7);
    shift @b;
    $reg += 8 * $r;

    # The r/m operand: a register (mod 3) or memory.
    my $mem;
    if ($mod != 3) {
        my ($base, $index, $scale);
        if ($rm == 4) {
            return undef unless @b;
            my $sib = shift @b;
            $scale = 1 << ($sib >> 6);
            my $i = (($sib >> 3) & 7) + 8 * $x;
            $index = $GP64[$i] unless $i == 4;
            my $bb = $sib & 7;
            $base = $GP64[ $bb + 8 * $bx ] unless $bb == 5 && $mod == 0;
            return undef if !defined $base;               # disp32 alone: not a frame
        } else {
            return undef if $rm == 5 && $mod == 0;        # rip-relative
            $base = $GP64[ $rm + 8 * $bx ];
        }
        my $disp = 0;
        if ($mod == 1) {
            return undef unless @b;
            $disp = unpack('c', pack('C', shift @b));
        } elsif ($mod == 2) {
            return undef if @b < 4;
            $disp = unpack('l<', pack('C4', splice(@b, 0, 4)));
        }
        $mem = "$disp(%$base" . (defined $index ? ",%$index,$scale" : '') . ')';
    }
    my $rmreg = $rm + 8 * $bx;

    my $text;
    my $legacy64 = !$vex && $prefix eq '' && $w;
    if ($legacy64 && ($op == 0x83 || $op == 0x81) && $mod == 3 && ($reg == 0 || $reg == 5)) {
        my $n = $op == 0x83 ? 1 : 4;
        return undef if @b < $n;
        my $imm = $n == 1 ? unpack('c', pack('C', shift @b)) : unpack('l<', pack('C4', splice(@b, 0, 4)));
        $text = ($reg == 0 ? 'add' : 'sub') . "\t\$$imm,%$GP64[$rmreg]";
    } elsif ($legacy64 && $op == 0x8d && defined $mem) {
        $text = "lea\t$mem,%$GP64[$reg]";
    } elsif ($legacy64 && ($op == 0x89 || $op == 0x8b) && defined $mem) {
        $text = $op == 0x89 ? "mov\t%$GP64[$reg],$mem" : "mov\t$mem,%$GP64[$reg]";
    } elsif (($op & 0xff00) == 0x0f00 && defined $mem && !$w
             && defined(my $move = $SIMD_MOVE{$prefix}{ $op & 0xff })) {
        return undef if $len && !$vex;
        my $v = ($len ? 'ymm' : 'xmm') . $reg;
        my $name = ($vex ? 'v' : '') . $move->[0];
        $text = $move->[1] ? "$name\t%$v,$mem" : "$name\t$mem,%$v";
    }
    return undef if !defined $text || @b;
    return $text;
}

# Do @bytes encode an instruction that may write a general register?
sub writes_general_register {
    my @b = @_;
    shift @b while @b && ($b[0] == 0x66 || $b[0] == 0xf3 || $b[0] == 0xf2 || $b[0] == 0x3e);
    shift @b if @b && ($b[0] & 0xf0) == 0x40;
    return 1 if @b >= 2 && $b[0] == 0xc4 && ($b[1] & 31) == 2;     # VEX, 0f 38 map: BMI, BMI2
    return 1 if @b >= 3 && $b[0] == 0x0f && $b[1] == 0x38 && $b[2] == 0xf6;   # adcx, adox
    return 1 if @b >= 2 && $b[0] == 0x0f && $b[1] == 0xc7;          # rdrand, rdseed
    return 0;
}

1;
