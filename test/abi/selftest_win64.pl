#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# The functions of the Win64 checkers' self-test (selftest_win64.c),
# written once and generated through the 64-bit layer for each Win64
# flavour, every name prefixed with the flavour (mingw64_sum10, nasm_sum10):
#   perl test/abi/selftest_win64.pl mingw64|nasm OUTPUT
#
# Their .pdata/.xdata are written here by hand (UNWIND_INFO: version,
# prologue size, slot count, frame register | offset/16 << 4, then the
# codes by descending prologue offset, padded to an even slot count), so
# that each negative control's planted fault is exactly the one the
# checker must catch.  Some good functions use the long encodings
# (SAVE_NONVOL_FAR, SAVE_XMM128_FAR, ALLOC_LARGE with a 32-bit size) for
# small values, so the unwinder's handling of those is exercised too.
# Good functions pass abi_call and unwind_check; each bad_* one breaks one
# rule, and the test checks the right checker reports it, naming the
# register and, for unwind errors, the first wrong instruction (the global
# label <name>_fail; where nothing fails, it marks the end).  All are straight-line code, so the test also knows
# how many instructions the single-stepper must see.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../../perlasm/lib";
use X64::Module;

my $p = "$ARGV[0]_";
X64::Module::pipe_output(@ARGV);

my %OP = (push => 0, alloc_large => 1, alloc_small => 2, set_fpreg => 3, save => 4,
          save_far => 5, save_xmm => 8, save_xmm_far => 9);
my %REG = (rbx => 3, rbp => 5, rsi => 6, rdi => 7, r12 => 12, r13 => 13, r14 => 14, r15 => 15);
my (@pdata, $xdata) = ();

# fn(NAME, [FRAME_REG, FRAME_OFFSET, END, CODES...], BODY): NAME's code;
# BODY marks the end of each prologue instruction with "|N" (label
# .L<fn>_pN) and a failure point with "|fail".  END is the mark that ends
# the prologue; each code is [mark, op, info, extra 16-bit slots...].  No
# unwind list (undef): no .pdata (a leaf to the unwinder).
sub fn {
    my ($name, $unwind, $body) = @_;
    my $f = "$p$name";
    $body .= "|fail\n" unless $body =~ /^\|fail$/m;    # every function has one: the test's table is uniform
    $body =~ s/^\|fail$/.globl\t${f}_fail\n${f}_fail:/mg;
    $body =~ s/^\|(\d+)$/.L${f}_p$1:/mg;
    print ".globl\t$f\n.type\t$f,\@abi-omnipotent\n.align\t16\n$f:\n$body.L${f}_end:\n";
    return unless $unwind;
    my ($fr, $off, $end, @codes) = @$unwind;
    my $at = sub { my ($n) = @_; $n =~ /^\d+$/ ? ".L${f}_p$n-$f" : "${f}_$n-$f" };
    my $slots = 0;
    $slots += @$_ - 2 for @codes;
    $xdata .= ".L${f}_xdata:\n\t.byte\t1," . $at->($end) . ",$slots," . ($REG{$fr // ''} // 0)
            . '|' . ($off / 16) . "<<4\n";
    for my $c (@codes) {
        my ($n, $op, $info, @extra) = @$c;
        $xdata .= "\t.byte\t" . $at->($n) . ",$OP{$op}|" . ($REG{$info} // $info) . "<<4\n";
        $xdata .= "\t.value\t$_\n" for @extra;
    }
    $xdata .= "\t.value\t0\n" if $slots % 2;
    push @pdata, ".rva\t$f\n.rva\t.L${f}_end\n.rva\t.L${f}_xdata\n";
}

print ".text\n";

# ---- good functions -------------------------------------------------------
# The sum of its ten arguments; a leaf without .pdata.
fn('sum10', undef, <<'___');
	lea	(%rcx,%rdx),%rax
	add	%r8,%rax
	add	%r9,%rax
	add	0x28(%rsp),%rax
	add	0x30(%rsp),%rax
	add	0x38(%rsp),%rax
	add	0x40(%rsp),%rax
	add	0x48(%rsp),%rax
	add	0x50(%rsp),%rax
	ret
___

# Pushes all eight callee-saved registers, clobbers them, restores them.
my @gpr = qw(rbx rbp rdi rsi r12 r13 r14 r15);
fn('push_all', [undef, 0, 9, [9, 'alloc_small', 0], map([8 - $_, 'push', $gpr[7 - $_]], 0 .. 7)],
    join('', map({; "\tpush\t%$gpr[$_]\n|" . ($_ + 1) . "\n" } 0 .. 7))
    . "\tsub\t\$8,%rsp\n|9\n" . join('', map {; "\txor\t%$_,%$_\n" } @gpr)
    . "\tadd\t\$8,%rsp\n" . join('', map {; "\tpop\t%$_\n" } reverse @gpr) . "\tret\n");

# A frame pointer and a large frame (ALLOC_LARGE), realigned to 64 in the
# body; saves rdi and xmm6 with the FAR codes, xmm9 and r12 with the short.
fn('frame', ['rbp', 0x80, 8, [8, 'save', 'r12', 0x48 / 8], [7, 'save_xmm', 9, 0x30 / 16],
             [6, 'save_xmm_far', 6, 0x20, 0], [5, 'save_far', 'rdi', 0x10, 0],
             [4, 'set_fpreg', 0], [3, 'alloc_large', 0, 0x1008 / 8],
             [2, 'push', 'rbx'], [1, 'push', 'rbp']], <<'___');
	push	%rbp
|1
	push	%rbx
|2
	sub	$0x1008,%rsp
|3
	lea	0x80(%rsp),%rbp
|4
	mov	%rdi,0x10(%rsp)
|5
	movaps	%xmm6,0x20(%rsp)
|6
	movaps	%xmm9,0x30(%rsp)
|7
	mov	%r12,0x48(%rsp)
|8
	and	$-64,%rsp
	mov	%rcx,%rbx
	xor	%edi,%edi
	pxor	%xmm6,%xmm6
	pcmpeqd	%xmm9,%xmm9
	xor	%r12d,%r12d
	mov	%rcx,(%rsp)
	mov	(%rsp),%rax
	mov	-0x80+0x10(%rbp),%rdi
	movaps	-0x80+0x20(%rbp),%xmm6
	movaps	-0x80+0x30(%rbp),%xmm9
	mov	-0x80+0x48(%rbp),%r12
	lea	0x1008-0x80(%rbp),%rsp
	pop	%rbx
	pop	%rbp
	ret
___

# Saves xmm6-xmm15 with movaps and clobbers them; the allocation is told
# with the 32-bit form of ALLOC_LARGE.
fn('xmm', [undef, 0, 11, map([11 - $_, 'save_xmm', 15 - $_, 9 - $_], 0 .. 9), [1, 'alloc_large', 1, 0xa8, 0]],
    "\tsub\t\$0xa8,%rsp\n|1\n"
    . join('', map({; "\tmovaps\t%xmm" . ($_ + 6) . "," . 16 * $_ . "(%rsp)\n|" . ($_ + 2) . "\n" } 0 .. 9))
    . join('', map({; "\t" . ($_ % 2 ? 'pcmpeqd' : 'pxor') . "\t%xmm" . ($_ + 6) . ",%xmm" . ($_ + 6) . "\n" } 0 .. 9))
    . join('', map({; "\tmovaps\t" . 16 * $_ . "(%rsp),%xmm" . ($_ + 6) . "\n" } 0 .. 9))
    . "\tadd\t\$0xa8,%rsp\n\tret\n");

# Saves rbx and rsi with mov (SAVE_NONVOL) into the caller's shadow space.
fn('savereg', [undef, 0, 3, [3, 'save', 'rsi', 0x38 / 8], [2, 'save', 'rbx', 0x30 / 8],
               [1, 'alloc_small', (0x28 - 8) / 8]], <<'___');
	sub	$0x28,%rsp
|1
	mov	%rbx,0x30(%rsp)
|2
	mov	%rsi,0x38(%rsp)
|3
	mov	%rcx,%rbx
	mov	%rdx,%rsi
	lea	(%rbx,%rsi),%rax
	mov	0x30(%rsp),%rbx
	mov	0x38(%rsp),%rsi
	add	$0x28,%rsp
	ret
___

# Calls sum10 (a leaf, no .pdata) with ten arguments, then push_all.
fn('caller', [undef, 0, 2, [2, 'alloc_small', (0x60 - 8) / 8], [1, 'push', 'rbx']],
    "\tpush\t%rbx\n|1\n\tsub\t\$0x60,%rsp\n|2\n"
    . "\tmov\t\$1,%ecx\n\tmov\t\$2,%edx\n\tmov\t\$3,%r8d\n\tmov\t\$4,%r9d\n"
    . join('', map({; "\tmovq\t\$$_," . sprintf('0x%x', 0x20 + 8 * ($_ - 5)) . "(%rsp)\n" } 5 .. 10))
    . "\tcall\t${p}sum10\n\tmov\t%rax,%rbx\n\tcall\t${p}push_all\n"
    . "\tmov\t%rbx,%rax\n\tadd\t\$0x60,%rsp\n\tpop\t%rbx\n\tret\n");

# ---- negative controls ----------------------------------------------------
# Clobbers rsi, then xmm7, without saving it (leaves).
fn('bad_rsi', undef, "\tmov\t%rcx,%rsi\n|fail\n\tret\n");
fn('bad_xmm7', undef, "\tmovq\t%rcx,%xmm7\n|fail\n\tret\n");
# Returns with the direction flag set (unwinding is still right).
fn('bad_df', undef, "\tstd\n\tret\n");
# Pushes rbx; the table says rsi.
fn('bad_pushreg', [undef, 0, 'fail', ['fail', 'push', 'rsi']],
    "\tpush\t%rbx\n|fail\n\txor\t%ebx,%ebx\n\tpop\t%rbx\n\tret\n");
# Allocates 32 bytes; the table has no ALLOC_SMALL for it.
fn('bad_noalloc', [undef, 0, 'fail', [1, 'push', 'rbx']],
    "\tpush\t%rbx\n|1\n\tsub\t\$0x20,%rsp\n|fail\n\tnop\n\tadd\t\$0x20,%rsp\n"
    . "\tpop\t%rbx\n\tret\n");
# No .pdata (so a leaf to the unwinder), yet it pushes a register.
fn('bad_leafpush', undef, "\tpush\t%rbx\n|fail\n\tpop\t%rbx\n\tret\n");
# Returns with rsp 8 bytes too low: the trampoline must survive it.
fn('bad_rsp', undef, "\tpop\t%r11\n|fail\n\tpush\t%r11\n\tpush\t%r11\n\tret\n");
# Declares rbp the frame register but never sets it: RtlVirtualUnwind
# computes the frame from the caller's random rbp and faults; the checker
# must report that instead of crashing.
fn('bad_fpreg', ['rbp', 0, 'fail', ['fail', 'set_fpreg', 0], [1, 'push', 'rbp']],
    "\tpush\t%rbp\n|1\n\tnop\n|fail\n\tnop\n\tpop\t%rbp\n\tret\n");
# Codes in ascending instead of descending order: after both pushes the
# unwinder pops them in the wrong order and swaps rbx and rsi.
fn('bad_order', [undef, 0, 'fail', [1, 'push', 'rbx'], ['fail', 'push', 'rsi']],
    "\tpush\t%rbx\n|1\n\tpush\t%rsi\n|fail\n\tnop\n\tpop\t%rsi\n\tpop\t%rbx\n\tret\n");

print ".section\t.xdata\n.align\t4\n$xdata.section\t.pdata\n.align\t4\n", @pdata;
X64::Module::finish();
