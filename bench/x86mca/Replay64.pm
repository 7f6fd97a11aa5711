# SPDX-License-Identifier: Apache-2.0
package Replay64;
# One traced 32-bit call, rewritten as x86_64 code that executes the same
# instructions natively, so that they can be timed on a machine whose
# kernel cannot run 32-bit programs (bench/x86mca/native32.c runs it).
#
# The trace is straight-line: every instruction the call executed, in
# order.  Almost all of them mean the same in 64-bit mode when their
# memory operands keep 32-bit address registers (the assembler adds the
# address-size prefix), the stack lies below 4 GiB and the 32-bit program's
# segments are mapped at their own addresses (native32.c does both).  The
# exceptions are rewritten:
#   push/pop    32-bit pushes do not exist in 64-bit mode: a 4-byte %esp
#               step and a store (load), with %r8d as the temporary of
#               push MEM; leave likewise
#   call        the push of the return address it would have pushed (PIC
#               code reads it), the jump itself dropped: the trace goes on
#               at the target
#   ret         the 4-byte (plus imm) %esp step
#   pushf/popf  through %r8 and the 4-byte slot: pushfq, popq %r8, then
#               the store; the load, then pushq %r8, popfq (OpenSSL's
#               AES_cbc_encrypt saves the flags around its cld).  The 8
#               bytes pushfq and pushq use lie below the 32-bit %esp,
#               where nothing is live
#   jcc         kept, with the next instruction as both of its targets, so
#               it costs a branch whichever way the flags say
#   jmp         dropped (direct or indirect), like a taken branch's target
#   movs etc.   objdump spells a string instruction's implicit segments
#               (%ds:(%esi), %es:(%edi)); they are dropped, as they mean
#               nothing more in 64-bit mode (any other segment is refused)
# and anything the trace holds that 64-bit mode cannot run (segment
# registers, pusha, far transfers) is refused.  The 32-bit code never names
# %r8-%r15, so the wrapper keeps its own state there.
#
# The generated function (SysV):
#   void replay(uint32_t *stack32, uint64_t reps, const uint32_t *args)
# For each of reps calls it stores args (nargs words) above the return
# address slot at stack32, as a cdecl caller would, points %rsp there and
# runs the trace.
use strict;
use warnings;

# Instruction text that the rewrite must not pass through.
my $REFUSED = qr/%[cdefgs]s:|^(?:pusha|popa|enter|lcall|ljmp|lret|iret|int|into|bound|
                 les|lds|aaa|aas|aam|aad|daa|das|arpl|sysenter|syscall)\b/x;

sub _esp_step { my ($n) = @_; return "\tlea $n(%rsp),%rsp\n" }

# The 64-bit lines for one traced instruction; $next is the address of
# the instruction after it in the program (a call's return address).
sub rewrite {
    my ($insn, $next, $label) = @_;
    local $_ = $insn;
    s/%ds:(\(%esi\))/$1/, s/%es:(\(%edi\))/$1/ if /^(?:rep[nz]* )?(?:movs|stos|lods|cmps|scas)[bwl]? /;
    die "Replay64: \"$insn\" cannot be replayed in 64-bit mode\n" if /$REFUSED/;
    s/^(?:bnd|notrack) //;
    return "\tendbr32\n" if /^endbr32$/;
    return _esp_step(-4) . sprintf("\tmovl \$0x%x,(%%rsp)\n", $next) if /^call[l]? /;
    return _esp_step(4 + ($1 ? hex $1 : 0)) if /^ret[l]?(?: \$0x([0-9a-f]+))?$/;
    return '' if /^jmp[l]? /;
    return "\tpushfq\n\tpopq %r8\n" . _esp_step(-4) . "\tmovl %r8d,(%rsp)\n" if /^pushf[l]?$/;
    return "\tmovl (%rsp),%r8d\n" . _esp_step(4) . "\tpushq %r8\n\tpopfq\n" if /^popf[l]?$/;
    return "\t$1 .Lr$label\n.Lr$label:\n" if /^(j[a-z]+) [0-9a-f]+$/;
    if (/^push[l]? (.+)$/) {
        my $src = $1;
        return _esp_step(-4) . "\tmovl $src,(%rsp)\n" if $src =~ /^(%e[a-z]{2}|\$.*)$/;
        return "\tmovl $src,%r8d\n" . _esp_step(-4) . "\tmovl %r8d,(%rsp)\n";
    }
    if (/^pop[l]? (.+)$/) {
        my $dst = $1;
        die "Replay64: \"$insn\" cannot be replayed\n" if $dst eq '%esp';
        return "\tmovl (%rsp),$dst\n" . _esp_step(4) if $dst =~ /^%e[a-z]{2}$/;
        return "\tmovl (%rsp),%r8d\n" . _esp_step(4) . "\tmovl %r8d,$dst\n";
    }
    return "\tmovl %ebp,%esp\n\tmovl (%rsp),%ebp\n" . _esp_step(4) if /^leave[l]?$/;
    die "Replay64: \"$insn\" names a 64-bit register\n" if /%r(?:[0-9]|[a-z]{2})\b/;
    s/,%eiz,1\)/)/;           # objdump's spelling of a long NOP's SIB byte
    return "\t$_\n";
}

# The whole function: $insns is [[text, next_address], ...] in execution
# order; $nargs the number of 4-byte stack arguments; $drop, for the
# test's negative control only, an index of an instruction to leave out.
sub source {
    my (%a) = @_;
    my ($insns, $nargs, $name) = @a{qw(insns nargs name)};
    my $s = "\t.text\n\t.globl $name\n\t.type $name,\@function\n$name:\n"
          . "\tpush %rbx\n\tpush %rbp\n\tpush %r12\n\tpush %r13\n\tpush %r14\n\tpush %r15\n"
          . "\tmov %rsp,%r15\n\tmov %rdi,%r14\n\tmov %rsi,%r13\n\tmov %rdx,%r12\n"
          . "\ttest %r13,%r13\n\tjz .Ldone\n"
          . "\t.p2align 6\n.Lcall:\n";
    $s .= sprintf("\tmovl %d(%%r12),%%r8d\n\tmovl %%r8d,%d(%%r14)\n", 4 * $_, 4 + 4 * $_) for 0 .. $nargs - 1;
    $s .= "\tmovl \$0,(%r14)\n\tmov %r14,%rsp\n";
    for my $n (0 .. $#$insns) {
        next if defined $a{drop} && $n == $a{drop};
        $s .= rewrite(@{ $insns->[$n] }, $n);
    }
    $s .= "\tdec %r13\n\tjnz .Lcall\n.Ldone:\n\tmov %r15,%rsp\n"
        . "\tpop %r15\n\tpop %r14\n\tpop %r13\n\tpop %r12\n\tpop %rbp\n\tpop %rbx\n\tret\n"
        . "\t.size $name,.-$name\n\t.section .note.GNU-stack,\"\",\@progbits\n";
    return $s;
}

1;
