#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# OpenSSL's own x86_64 modules (3.0 and 3.5, from the source cache) with
# Win64 unwind data from CFI alone, checked instruction by instruction
# under wine.  Per version:
#  - tools/openssl-unwind.pl translates every module for mingw64 with
#    -DPERLASM_WIN64_UNWIND_FROM_CFI: each must translate (no function
#    left undescribed), assemble, and name in .xdata no handler but the
#    layer's generated one;
#  - the objects are linked into build/test/win64/openssl_unwind.c.o's
#    program, which runs each call of test/win64/openssl-calls.txt under
#    the single-step unwind checker (support/abi/abi_win64.c) with several
#    capability masks, as an indented subtest: at every instruction the
#    frames up to the function's caller unwind to its entry state (return
#    address, rsp, rbx rbp rdi rsi r12-r15, xmm6-15), through the
#    generated handler where the layer used one.
# A version whose source is not cached is a SKIP saying how to fetch it;
# so is everything when mingw-w64 or wine is missing.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use ImplRuns qw(result finish);
use WineRun qw(wine_missing wine_subtest);
use Toolchain qw(tool);

my $root  = "$FindBin::Bin/../..";
my $build = $ENV{BUILD} // 'build';
my $w64   = "$build/test/win64";
my %CAP_WORDS = ('3.0' => 4, '3.5' => 10);

if (my @missing = wine_missing()) {
    print '1..0 # SKIP missing ', join(', ', @missing), "\n";
    exit 0;
}
$WineRun::long_run_s = 900;
for my $version (qw(3.0 3.5)) {
    my $cached = qx{sh '$root/tools/openssl-source.sh' --cached $version 2>&1};
    if ($? >> 8 == 2) {
        chomp $cached;
        result(1, "OpenSSL $version: modules with unwind from CFI",
               "SKIP OpenSSL ${version}'s source is not cached: " . ($cached =~ s/^openssl-source: //r));
        next;
    }
    my $work = "$build/openssl-unwind-$version";
    my $report = qx{'$^X' '$root/tools/openssl-unwind.pl' --version $version --flavours mingw64 --work '$work' 2>&1};
    my $status = $?;
    print "# $_\n" for grep { /failing|openssl-unwind:| - / } split /\n/, $report;
    result($status == 0, "OpenSSL $version: every mingw64 module translated with unwind from CFI, "
           . 'assembled, and its .xdata names only the generated handler');
    next if $status;
    my @objs = glob("$work/mingw64/*.o");
    my $exe = "$w64/openssl_unwind-$version.exe";
    my @link = (tool('MINGW64'), '-o', $exe,
                map({ "$w64/$_" } qw(openssl_unwind.c.o abi_win64.c.o tap.c.o
                                     trampoline_win64.mingw64.o)),
                @objs, '-Wl,--export-all-symbols');
    my $log = qx{@link 2>&1};
    result($? == 0, "OpenSSL $version: the stepping program links with its modules")
        or print map { "# $_\n" } split /\n/, $log;
    next if $?;
    wine_subtest("OpenSSL $version: every instruction of each call unwinds right",
                 $exe, "$root/test/win64/openssl-calls.txt", $CAP_WORDS{$version}, "$version: ");
}
finish();
