#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# The optional-tool probes (mk/toolchain.mk), seen from make itself:
#  - each tool named by a command that does not exist makes the build say
#    so in exactly one "skipped:" line naming its Debian package, and plan
#    nothing that needs it (`make -n all` in a scratch build directory);
#  - with every optional tool gone the plan still builds the library, the
#    64-bit test programs and the benchmark, and generates every module in
#    every flavour: what a machine with only build-essential gets;
#  - $BUILD/toolchain.txt, which the tests read, says what the probes found,
#    and `make toolchain` prints the same table.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib", "$FindBin::Bin/../../tools/lib";
use ModuleTable ();
use File::Temp qw(tempdir);
use ImplRuns qw(result finish);
use Capture qw(capture);

my $root = "$FindBin::Bin/../..";
chdir $root or die "$root: $!\n";
my $scratch = tempdir(CLEANUP => 1);

# Each overridable tool: its variable, its package, and a path every
# command that needs it would show in a make -n plan.
my @TOOLS = (
    [ CC32       => 'gcc-multilib',         'build/m32/' ],
    [ NASM       => 'nasm',                 'nasm -f' ],
    [ MINGW64_CC => 'gcc-mingw-w64-x86-64', 'x86_64-w64-mingw32-gcc' ],
    [ MINGW32_CC => 'gcc-mingw-w64-i686',   'i686-w64-mingw32-gcc' ],
    [ FUZZ_CC    => 'libclang-rt-14-dev',   '-fsanitize=fuzzer ' ],
    [ VALGRIND   => 'valgrind',             'ctgrind/ct_check' ],
);
my $nothing = "$scratch/no-such-tool";

sub plan_with {
    my (@vars) = @_;
    return capture('make', '-n', "BUILD=$scratch/build", @vars, 'all');
}

for my $t (@TOOLS) {
    my ($var, $pkg, $marker) = @$t;
    my ($st, $out) = plan_with("$var=$nothing");
    my @lines = grep { /^skipped:/ && /\Q$pkg\E/ } split /\n/, $out;
    result($st == 0 && @lines == 1, "$var missing: one skipped line naming $pkg")
        or print "#   exit $st; skipped lines: ", scalar(@lines), "\n",
                 map { "#   $_\n" } grep { defined } (grep { /^skipped:|rror/ } split /\n/, $out)[0 .. 5];
    my @planned = grep { index($_, $marker) >= 0 && index($_, $nothing) < 0 } split /\n/, $out;
    my @uses = grep { index($_, $nothing) >= 0 && !/^skipped:/ } split /\n/, $out;
    result(!@uses, "$var missing: no command of the plan runs it")
        or print map { "#   $_\n" } grep { defined } @uses[0 .. 2];
    result(!@planned, "$var missing: nothing that needs it is planned")
        or print map { "#   $_\n" } grep { defined } @planned[0 .. 2];
}

# build-essential only: every optional tool gone at once.
my @all_gone = map { "$_->[0]=$nothing" } @TOOLS;
push @all_gone, map { "$_=$nothing" } qw(MINGW64_AS MINGW32_AS CLANG LLVM_OBJDUMP LLVM_MCA QEMU_I386 QEMU_X86_64 WINE64 GNUPLOT);
my ($st, $out) = plan_with(@all_gone);
my @want = ("$scratch/build/libcrypto-asm.a", "$scratch/build/test/kat_aes", "$scratch/build/bench/bench",
            map { "$scratch/build/gen/asm/$_.s" } qw(aes-x86_64 aesni-x86_64 sha1-x86_64));
my @lacking = grep { index($out, $_) < 0 } @want;
result($st == 0 && !@lacking, 'no optional tool: the library, its assembly, the tests and the benchmark are planned')
    or print "#   exit $st; not planned: @lacking\n";
result($out !~ m{\Q$scratch\E/build/m32/}, 'no optional tool: no 32-bit build is planned');
# Generation needs only perl: every module of the table in each of its flavours.
my @flavoured = map { my $row = $_; map { "$scratch/build/gen/flavours/$_/$row->{name}."
                                             . (/^(nasm|masm|win32n|win32)$/ ? 'asm' : 's') } @{ $row->{flavours} } }
                ModuleTable::read_table(ModuleTable::table_path('.'));
my @unplanned = grep { index($out, "$_\n") < 0 } @flavoured;
result(@flavoured >= 16 && !@unplanned, 'no optional tool: all ' . scalar(@flavoured) . ' module x flavour outputs are generated')
    or print map { "#   not planned: $_\n" } @unplanned;

# What the probes found, for the tests.
my $txt = 'build/toolchain.txt';
open(my $fh, '<', $txt) or die "$txt: $! (run make first)\n";
my %found = map { chomp; my @f = split /\t/; ($f[0] => $f[1]) } <$fh>;
close $fh;
result(keys(%found) >= 10 && !grep({ !/^(yes|no)$/ } values %found),
       "$txt: yes or no for each of " . scalar(keys %found) . ' tools');
(my $tst, my $table) = capture('make', '-s', 'toolchain');
my @rows = grep { /^(\w+)\s+(yes|no)\s/ && exists $found{$1} && $found{$1} eq $2 } split /\n/, $table;
result($tst == 0 && @rows == keys %found, 'make toolchain prints the same table')
    or print "#   $table";
my ($cst, $cc32) = capture('sh', '-c', q{printf '#include <stdio.h>\nint main(void){return 0;}\n' | gcc -m32 -x c -o /dev/null - 2>&1});
result(($cst == 0) == ($found{CC32} eq 'yes'), "CC32 says $found{CC32}: gcc -m32 " . ($cst ? 'cannot' : 'can') . ' link a program');
finish();
