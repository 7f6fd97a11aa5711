# SPDX-License-Identifier: Apache-2.0
# SHA-1 on the SHA extensions (SHA-NI).  sha1_shaext_code($name) returns
# the perlasm text of
#
#     void $name(SHA_CTX *c, const void *p, size_t nblocks);   /* nblocks >= 1 */
#
# FIPS 180-4 §6.1.2, four rounds at a time.  A vector holds four 32-bit
# words with the first in the high lane (bits 127:96), the order the SHA-NI
# instructions use:
#
#   sha1rnds4 $f, WE, S   S = (a,b,c,d) four rounds later, with the round
#                         function and constant of stage f = t/20, and
#                         WE = (e + w[t], w[t+1], w[t+2], w[t+3])
#   sha1nexte X, T        T = (rol30(T.hi) + X.hi, X's other lanes): given
#                         the state entering a group, the e of the group
#                         after it, added to that group's first word
#   sha1msg1 Y, X         X = (x0^x2, x1^x3, x2^y0, x3^y1)
#   sha1msg2 Y, X         w[t] = rol1(X lane ^ w[t-3]) for four words, the
#                         fourth using the first; Y supplies w[t-3]
#
# so the schedule in groups G[i] = w[4i .. 4i+3] is
#
#   G[i] = sha1msg2(sha1msg1(G[i-4], G[i-3]) ^ G[i-2], G[i-1])    (i >= 4)
#
# The 20 sha1rnds4 of a block and one paddd (the feed-forward of a..d)
# are the critical chain; all else stays off it: the e of group i+1,
# made from the state entering group i, runs beside group i's sha1rnds4;
# e's feed-forward rides in the sha1nexte making the next block's first
# e; the schedule runs three groups ahead, each sha1msg1 a group early.
package SHA1::X86_64::Shaext;

use strict;
use warnings;
use Exporter qw(import);

our @EXPORT_OK = qw(sha1_shaext_code);

# The sha1rnds4 immediate (round function and constant) of group $i.
sub sha1_shaext_stage { my ($i) = @_; return int($i / 5) }

sub sha1_shaext_code {
    my ($name) = @_;
    my ($ctx, $inp, $num) = ('%rdi', '%rsi', '%rdx');
    my @x = map { "%xmm$_" } 0 .. 9;
    my $abcd = $x[0];                      # the state (a,b,c,d)
    my @we = @x[1, 2];                     # e + G[i] for group i, in $we[i % 2]
    my @g = @x[3 .. 6];                    # G[i] in $g[i % 4]
    my ($abcd_in, $e_in) = @x[7, 8];       # the state entering the block
    my $bswap = $x[9];
    my $loop = ".Lsha1_shaext_loop_$name";
    my $mask = ".Lsha1_shaext_bswap_$name";

    # Rounds 4i .. 4i+3.  On entry $we[i % 2] = e + G[i], G[i+1..i+3] are
    # ready and G[i]'s register already holds sha1msg1(G[i], G[i+1]).
    my $group = sub {
        my ($i) = @_;
        my ($cur, $next) = @we[$i % 2, ($i + 1) % 2];
        my @r = map { $g[($i + $_) % 4] } 0 .. 3;     # G[i] .. G[i+3]
        my $s = "\tmovdqa\t$abcd,$next\n"
              . "\tsha1rnds4\t\$" . sha1_shaext_stage($i) . ",$cur,$abcd\n";
        # e + G[i+1]; after the last group the next block's e, which is
        # this block's final e plus the e it started with.
        $s .= "\tsha1nexte\t" . ($i < 19 ? $r[1] : $e_in) . ",$next\n";
        $s .= "\tpxor\t$r[2],$r[0]\n"                 # G[i+4]
            . "\tsha1msg2\t$r[3],$r[0]\n" if $i + 4 < 20;
        $s .= "\tsha1msg1\t$r[2],$r[1]\n" if $i + 5 < 20;   # towards G[i+5]
        return $s;
    };

    my $t = <<___;
.function $name, args=3, xmm=6-9
	movdqu	($ctx),$abcd
	pshufd	\$0x1b,$abcd,$abcd		# (h0,h1,h2,h3), h0 high
	movd	16($ctx),$we[0]
	pslldq	\$12,$we[0]			# (h4,0,0,0)
	movdqa	$mask(%rip),$bswap
	jmp	$loop

.align	32
$loop:
___
    # The block as big-endian words, w[0] in the high lane.
    $t .= "\tmovdqu\t" . 16 * $_ . "($inp),$g[$_]\n" for 0 .. 3;
    $t .= "\tpshufb\t$bswap,$g[$_]\n" for 0 .. 3;
    $t .= <<___;
	lea	64($inp),$inp
	movdqa	$abcd,$abcd_in
	movdqa	$we[0],$e_in
	paddd	$g[0],$we[0]			# e + G[0]
	sha1msg1	$g[1],$g[0]
___
    $t .= $group->($_) for 0 .. 19;
    $t .= <<___;
	paddd	$abcd_in,$abcd
	dec	$num
	jnz	$loop

	pshufd	\$0x1b,$abcd,$abcd
	movdqu	$abcd,($ctx)
	psrldq	\$12,$we[0]
	movd	$we[0],16($ctx)
	.return
.endfunction

.section	.rodata
.align	16
$mask:						# reverse the 16 bytes
.byte	15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0
.text
___
    return $t;
}

1;
