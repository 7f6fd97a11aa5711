#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# A new module is one row of modules.txt and its own files, nothing else.
# The tree (git ls-files, with files not yet committed) is copied to a
# temporary directory, and a toy x86_64 module is added there: a script
# that exports toy_xor16, a C glue file, its symbols file and one row of
# modules.txt.  Then, with no other edit:
#  - make builds it into the archive: nm shows toy_xor16 and the glue's
#    symbol in build/libcrypto-asm.a, and -DCASM_TOY_ASM reaches the C
#    compiles (BUILD_CONFIG);
#  - the symbol-parity test checks the toy's exports against its list;
#  - tools/openssl-dropin.pl lists it (--list-modules) and checks its
#    exports (--check-only on a minimal OpenSSL 3.0 tree);
#  - the README check names the README as stale until
#    tools/module-table.pl --update-readme adds the toy's line (to
#    README.md and docs/openssl-fork.md).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib", "$FindBin::Bin/../../support/perl";
use Slurp qw(slurp);
use Capture qw(capture);
use File::Path qw(make_path);
use File::Temp qw(tempdir);
use ImplRuns qw(result finish);

my $root = "$FindBin::Bin/../..";
my $dir  = tempdir(CLEANUP => 1);
my $tree = "$dir/tree";

sub write_file {
    my ($file, $text) = @_;
    make_path($1) if $file =~ m{^(.*)/[^/]+$};
    open(my $fh, '>', $file) or die "$file: $!\n";
    print $fh $text;
    close $fh or die "$file: $!\n";
}

sub diag { print "# $_\n" for split /\n/, $_[0] }

# --- the copy, and the toy module --------------------------------------------
make_path($tree);
my ($st, $out) = capture('sh', '-c', "cd '$root' && git ls-files -z --cached --others --exclude-standard"
                         . " | xargs -0 tar cf - | tar xf - -C '$tree'");
result($st == 0 && -f "$tree/modules.txt", 'the tree is copied (git ls-files)') or do { diag($out); finish() };

write_file("$tree/crypto/toy/asm/toy-x86_64.pl", <<'EOF');
#!/usr/bin/env perl
# toy_xor16(a, b, out): out = a ^ b, 16 bytes.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../../../perlasm/lib";
use X64::Module;

X64::Module::pipe_output(@ARGV);
print <<'ASM';
.text
.globl	toy_xor16
.function toy_xor16, args=3
	movdqu	(%rdi),%xmm0
	movdqu	(%rsi),%xmm1
	pxor	%xmm1,%xmm0
	movdqu	%xmm0,(%rdx)
	.return
.endfunction
ASM
X64::Module::finish();
EOF
write_file("$tree/crypto/toy/toy_glue.c", <<'EOF');
/* The toy module's C glue: compiled only with the module, which defines
 * CASM_TOY_ASM. */
#ifndef CASM_TOY_ASM
#error "toy_glue.c without CASM_TOY_ASM"
#endif
void toy_xor16(const unsigned char *a, const unsigned char *b, unsigned char *out);
void toy_xor16_twice(const unsigned char *a, const unsigned char *b, unsigned char *out);

void toy_xor16_twice(const unsigned char *a, const unsigned char *b, unsigned char *out)
{
    toy_xor16(a, b, out);
    toy_xor16(out, b, out);
}
EOF
write_file("$tree/tools/openssl-symbols/toy-x86_64.txt",
           "# The toy module of test/t/99-toy-module.t.\ntoy_xor16  test/t/99-toy-module.t:toy\n");
open(my $tab, '>>', "$tree/modules.txt") or die "$tree/modules.txt: $!\n";
print $tab 'toy-x86_64 x86_64 crypto/toy/asm/toy-x86_64.pl - elf,macosx,mingw64,nasm,masm'
         . " crypto/toy/toy_glue.c - CASM_TOY_ASM tools/openssl-symbols/toy-x86_64.txt crypto/toy/toy-x86_64.s\n";
close $tab or die;

# --- the build -------------------------------------------------------------
($st, $out) = capture('nice', 'make', '-s', '-C', $tree, '-j2', 'build/libcrypto-asm.a');
result($st == 0, 'make builds build/libcrypto-asm.a with the toy row') or diag($out);
my ($nst, $nm) = capture('nm', '--defined-only', "$tree/build/libcrypto-asm.a");
result($nst == 0 && $nm =~ /^toy-x86_64\.o:\n(?:.*\n)*?\S+ T toy_xor16$/m,
       'nm: the archive member toy-x86_64.o defines toy_xor16');
result($nm =~ /^toy_glue\.o:\n(?:.*\n)*?\S+ T toy_xor16_twice$/m,
       'nm: the glue crypto/toy/toy_glue.c is in the archive (toy_xor16_twice)');
result((slurp("$tree/build/gen/config") // '') =~ /ASM_MODULES=\S+.* toy-x86_64 .*-DCASM_TOY_ASM/,
       'the build configuration names the module and its -DCASM_TOY_ASM');

# --- symbol parity ---------------------------------------------------------
($st, $out) = capture($^X, "$tree/test/t/90-symbol-parity.t");
result($out =~ /^ok \d+ - toy-x86_64 exports toy_xor16$/m,
       "the symbol-parity test checks the toy's exports against its list") or diag($out);
result($out =~ /^ok \d+ - toy-x86_64: crypto\/\*\/asm\/toy-x86_64\.pl has a row/m
       && $out =~ m{^ok \d+ - tools/openssl-symbols/toy-x86_64\.txt is the symbols file of a module}m,
       'and sees its script and symbols file belong to a row');
result($out =~ /^not ok \d+ - the module tables of README\.md and docs\/openssl-fork\.md are modules\.txt's$/m
       && $out =~ /--update-readme/,
       'the README check fails, saying how to regenerate the table');

# --- the drop-in tool ------------------------------------------------------
($st, $out) = capture($^X, "$tree/tools/openssl-dropin.pl", '--list-modules');
result($st == 0 && $out =~ m{^toy-x86_64\s+x86_64\s+crypto/toy/asm/toy-x86_64\.pl\s+crypto/toy/toy-x86_64\.s$}m,
       'openssl-dropin.pl --list-modules lists the toy, its script and the file it replaces') or diag($out);
my $ossl = "$dir/openssl";
write_file("$ossl/VERSION.dat", "MAJOR=3\nMINOR=0\nPATCH=99\n");
write_file("$ossl/Configure", "#!/bin/sh\nexit 1\n");
($st, $out) = capture($^X, "$tree/tools/openssl-dropin.pl", '--src', $ossl, '--check-only',
                      '--modules', 'toy-x86_64');
result($st == 0 && $out =~ /toy-x86_64: exports every symbol of tools\/openssl-symbols \(1\)/,
       'openssl-dropin.pl --check-only checks the toy against its list') or diag($out);

# --- the README ------------------------------------------------------------
($st, $out) = capture($^X, "$tree/tools/module-table.pl", '--update-readme');
my ($cst) = capture($^X, "$tree/tools/module-table.pl", '--check-readme');
result($st == 0 && $cst == 0
       && !grep({ (slurp("$tree/$_") // '') !~ m{^\| `toy-x86_64` \| x86_64 \| `crypto/toy/asm/toy-x86_64\.pl` \| `crypto/toy/toy-x86_64\.s` \|}m }
                qw(README.md docs/openssl-fork.md)),
       'module-table.pl --update-readme adds the toy to both module tables, then the check passes') or diag($out);

finish();
