# SPDX-License-Identifier: Apache-2.0
# SHA-1 for any x86_64: rounds and message schedule in general-purpose
# registers, no SIMD, no BMI.
#
# The schedule (FIPS 180-4 §6.1.2 step 1) is computed one word per round,
# a round ahead of its use, in a 32-word ring on the stack.  Words 16..31
# follow the definition, W[t] = ROTL1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16]),
# with W[t-3] taken from a register; from word 32 on, the equivalent
#     W[t] = ROTL2(W[t-6] ^ W[t-16] ^ W[t-28] ^ W[t-32])
# reads nothing newer than six words back, so the schedule's own chain
# never waits on a store being forwarded (the same instruction count).
#
# This variant is throughput-bound (about 15 instructions per round, 11 of
# them on the integer ALUs), not latency-bound like the SIMD variants.
package SHA1::X86_64::Integer;

use strict;
use warnings;
use Exporter qw(import);
use SHA1::X86_64::Rounds;

our @EXPORT_OK = qw(sha1_integer_code);

sub sha1_integer_code {
    my ($name) = @_;
    my ($ctx, $inp, $end) = ('%rdi', '%rsi', '%rdx');
    my @v = qw(%eax %ebx %ecx %ebp %r8d);
    my @wreg = qw(%r11d %r12d %r13d %r14d);   # W[t-2] .. W[t+1], rotating
    my $rounds = SHA1::X86_64::Rounds->new(v => \@v, tmp => [qw(%r9d %r10d)]);
    my $ring = sub { my ($t) = @_; return 4 * ($t % 32) . '(%rsp)'; };
    my $wr = sub { my ($t) = @_; return $wreg[ $t % 4 ]; };

    # The instructions that leave W[t] in register $wr->($t) (and in the
    # ring, if a later word reads it from there).
    my $schedule = sub {
        my ($t) = @_;
        my $w = $wr->($t);
        my @i;
        if ($t < 16) {
            @i = ("mov\t" . 4 * $t . "($inp),$w", "bswap\t$w");
        } elsif ($t < 32) {
            @i = ("mov\t" . $ring->($t - 16) . ",$w",
                  "xor\t" . $ring->($t - 14) . ",$w",
                  "xor\t" . $ring->($t - 8) . ",$w",
                  "xor\t" . $wr->($t - 3) . ",$w",
                  "rol\t\$1,$w");
        } else {
            @i = ("mov\t" . $ring->($t - 32) . ",$w",
                  "xor\t" . $ring->($t - 28) . ",$w",
                  "xor\t" . $ring->($t - 16) . ",$w",
                  "xor\t" . $ring->($t - 6) . ",$w",
                  "rol\t\$2,$w");
        }
        push @i, "mov\t$w," . $ring->($t) if $t + 6 <= 79;
        return @i;
    };

    my $code = <<"EOT";
.function $name, args=3, save=rbx:rbp:r12:r13:r14, stack=128
	shl	\$6,$end
	add	$inp,$end
EOT
    $code .= "\tmov\t" . 4 * $_ . "($ctx),$v[$_]\n" for 0 .. 4;
    $code .= <<"EOT";
	jmp	.L${name}_block
.p2align 5
.L${name}_block:
EOT
    $code .= "\t$_\n" for $schedule->(0);
    for my $t (0 .. 79) {
        $code .= "\t$_\n" for ($t < 79 ? $schedule->($t + 1) : ()), $rounds->round($t, $wr->($t));
    }
    my @h = $rounds->vars;     # 80 rounds: the names are back where they began
    $code .= "\tadd\t" . 4 * $_ . "($ctx),$h[$_]\n" for 0 .. 4;
    $code .= "\tmov\t$h[$_]," . 4 * $_ . "($ctx)\n" for 0 .. 4;
    $code .= <<"EOT";
	add	\$64,$inp
	cmp	$end,$inp
	jb	.L${name}_block
	.return
.endfunction
EOT
    return $code;
}

1;
