# SPDX-License-Identifier: Apache-2.0
# x86 disassembly as the tests, tools and benchmark compare it, from
# llvm-objdump or objdump, one normalisation per word size:
#   insn_text(TEXT) -> the instruction without its comment, symbol note
#     and extra blanks (every reader below goes through it)
#   instructions64(OBJECT, FN) -> [insn, ...] or undef: the 64-bit stream
#     of function FN (all of .text when undef), without addresses; branch
#     and call targets TARGET, RIP-relative displacements REL(%rip) (Mach-O
#     resolves section-local ones at assembly time, ELF and COFF leave 0);
#     alignment padding dropped (each assembler picks its own NOP forms)
#   functions(OBJECT, NAME_RE, %opt) -> { name => [insn, ...] } or undef:
#     the 32-bit streams of a flavour's functions, to compare with
#     another flavour's
#   compare(REF, OTHER, REF_TAG, OTHER_TAG) -> (names, instructions, [why...])
#     two functions() results, function by function: REF's names, its
#     instruction count, and the first differing instruction of each
#     function that differs
#   sse2_or_later(OBJECT) -> (instructions, [insn, ...]) or () if it cannot
#     be disassembled: how many instructions the object's code has, and
#     those an SSE-only (Pentium III) CPU lacks (OpenSSL's no-sse2 build
#     must have none)
#   by_address(PROGRAM) -> { address => insn }: a traced program's
#     instructions, for replaying its traces (bench/x86mca.pl, dmcrypt.pl)
#   next_addresses(BY_ADDRESS) -> { address => the next one } (a call's
#     return address)
# functions() reads `llvm-objdump -d -r`.  With opt decorated => 1
# (Mach-O, COFF) names lose the "_" those formats prefix, so they match
# ELF's; operands of an instruction carrying a relocation become REL;
# branch and call targets TARGET; alignment padding (NOPs, GNU as's lea
# fillers) is dropped; the two registers of an xchg are put in name order
# (it is symmetric, and GNU as and clang encode the same source line with
# the registers swapped).  opt got_base => 1 also drops the instruction
# relocated against _GLOBAL_OFFSET_TABLE_ (R_386_GOTPC): ELF reaches a
# global's address in two instructions where Mach-O's non-lazy pointer
# takes one.
package X86Disasm;

use strict;
use warnings;
use Exporter 'import';

our @EXPORT_OK = qw(insn_text instructions64 functions compare sse2_or_later
                    by_address next_addresses);

sub insn_text {
    my ($i) = @_;
    $i =~ s/\s*#.*//;
    $i =~ s/\s*<[^>]*>//;
    $i =~ s/\s+/ /g;
    $i =~ s/^ | $//g;
    return $i;
}

sub instructions64 {
    my ($obj, $fn) = @_;
    open(my $fh, '-|', 'llvm-objdump', '-d', '--no-show-raw-insn', $obj) or return undef;
    my (@lines, $inside);
    while (<$fh>) {
        if (/^[0-9a-f]+ <_?(\w+)>:/) { $inside = !defined $fn || $1 eq $fn; next }
        next unless $inside && /^\s+[0-9a-f]+:\s+(.*)$/;
        my $i = insn_text($1);
        $i =~ s/^(j\w+|call[q]?|loop\w*) (0x)?[0-9a-f]+$/$1 TARGET/;
        $i =~ s/-?(0x)?[0-9a-f]*\(%rip\)/REL(%rip)/;
        next if $i =~ /^(nop[wl]?|data16|xchg %ax, ?%ax)\b/ && !defined $fn;
        push @lines, $i;
    }
    close $fh or return undef;
    pop @lines while @lines && $lines[-1] =~ /^(nop|int3|\S*nopw?.*)$/;
    return \@lines;
}

sub functions {
    my ($obj, $name_re, %opt) = @_;
    open(my $fh, '-|', 'llvm-objdump', '-d', '-r', '--no-show-raw-insn', $obj) or return undef;
    my (%fn, $cur);
    while (<$fh>) {
        chomp;
        if (/^[0-9a-f]+ <(\w+)>:/) {
            my $name = $1;
            $name =~ s/^_// if $opt{decorated};
            $cur = $name =~ $name_re ? $name : undef;
            next;
        }
        next unless $cur;
        if (/^\s+[0-9a-f]+:\s+(R_386_\w+|IMAGE_REL\w*|GENERIC_RELOC\w*|\w*DIR32\w*|\w*REL32\w*)/) {
            my $type = $1;
            my $list = $fn{$cur} //= [];
            next unless @$list;
            if ($opt{got_base} && $type eq 'R_386_GOTPC') { pop @$list; next }
            $list->[-1] =~ s/(\$|\b)-?(0x)?[0-9a-f]+(?=\(|$|,)/REL/g;
            $list->[-1] =~ s/(?<=[ ,])\(/REL(/g;    # a relocated displacement of 0
            next;
        }
        next unless /^\s+[0-9a-f]+:\s+(.*)$/;
        my $i = insn_text($1);
        $i =~ s/^(j\w+|calll?) (0x)?[0-9a-f]+$/$1 TARGET/;
        next if $i =~ /^(nop[wl]?|data16|xchg %ax, ?%ax|int3)\b/ || $i eq '';
        $i =~ s/^(xchgl?) (%\w+), ?(%\w+)$/"$1 " . join(', ', sort($2, $3))/e;
        next if $i =~ /^lea[lw]? (0x0|0)?\((%e\w\w|%\w\w)(,%eiz(,\d)?)?\), \2$/;
        push @{ $fn{$cur} }, $i;
    }
    close $fh;
    return $? ? undef : \%fn;
}

sub compare {
    my ($ra, $rb, $ref, $tag) = @_;
    my @names = sort keys %{ $ra // {} };
    my ($n, @bad) = (0);
    for my $f (@names) {
        my @xa = @{ $ra->{$f} };
        my @ya = @{ $rb->{$f} // [] };
        $n += @xa;
        next if join("\n", @xa) eq join("\n", @ya);
        my ($i) = grep { ($xa[$_] // '') ne ($ya[$_] // '') } 0 .. ($#xa > $#ya ? $#xa : $#ya);
        push @bad, "$f insn $i: $ref \"" . ($xa[$i] // '(none)') . "\", $tag \"" . ($ya[$i] // '(none)') . '"';
    }
    push @bad, map { "only in $tag: $_" } sort grep { !exists $ra->{$_} } keys %{ $rb // {} };
    return (scalar @names, $n, \@bad);
}

# SSE2 and later: anything on an xmm, ymm, zmm or mask register (SSE's
# own xmm instructions are floating point, which these modules never use),
# SSE2's and SSSE3's MMX-register forms, and SSE2's fences, cache flush and
# non-temporal store.  MMX and SSE's pshufw, pmovmskb, ... are not.
my $SSE2_MNEMONIC = qr/^(?:paddq|psubq|pmuludq|movq2dq|movdq2q|pshufb|palignr|ph(?:add|sub)\w*
                        |pabs[bwd]|psign[bwd]|pmaddubsw|pmulhrsw|[lm]fence|clflush\w*|movnti)$/x;

sub sse2_or_later {
    my ($obj) = @_;
    open(my $fh, '-|', 'objdump', '-d', '--no-show-raw-insn', $obj) or return ();
    my ($n, @found) = (0);
    while (my $line = <$fh>) {
        next unless $line =~ /^\s+[0-9a-f]+:\s+(\S+)\s*(.*)$/;
        my ($mn, $ops) = ($1, $2);
        $n++;
        push @found, "$mn $ops" if $ops =~ /%(?:[xyz]mm\d|k[0-7]\b)/ || $mn =~ $SSE2_MNEMONIC;
    }
    close $fh or return ();
    return ($n, \@found);
}

sub by_address {
    my ($prog) = @_;
    my %text;
    open(my $fh, '-|', 'objdump', '-d', '--no-show-raw-insn', $prog)
        or die "X86Disasm: objdump $prog: $!\n";
    while (<$fh>) {
        $text{ hex $1 } = insn_text($2) if /^\s*([0-9a-f]+):\s+(\S.*?)\s*$/;
    }
    close $fh or die "X86Disasm: objdump $prog failed\n";
    return \%text;
}

sub next_addresses {
    my ($text) = @_;
    my @addr = sort { $a <=> $b } keys %$text;
    return { map { ($addr[$_] => $addr[$_ + 1]) } 0 .. $#addr - 1 };
}

1;
