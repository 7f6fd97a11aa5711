# SPDX-License-Identifier: Apache-2.0
package OpensslTree;
# An OpenSSL source tree as the tools that run its x86_64 modules through
# our translator see it: where the cached one is, which scripts are
# 64-bit perlasm modules, and a mirror of it in which the modules' pipe
# into crypto/perlasm/x86_64-xlate.pl reaches our translator instead.
use strict;
use warnings;
use Exporter qw(import);
use File::Basename qw(basename);
use File::Path qw(remove_tree);
use File::Spec;

our @EXPORT_OK = qw(cached_tree tree_version find_modules module_name make_shadow);

# The cached tree of OpenSSL $version (3.0, 3.5) as $tools/openssl-source.sh
# --cached names it: (path), or (undef, how to fetch it).  Dies when the
# script fails otherwise.
sub cached_tree {
    my ($tools, $version) = @_;
    my $out = qx{sh '$tools/openssl-source.sh' --cached '$version' 2>&1};
    my $st = $? >> 8;
    chomp $out;
    return $out if $st == 0;
    die "tools/openssl-source.sh --cached $version failed (exit $st): $out\n" if $st != 2;
    return (undef, $out =~ s/^openssl-source: //r);
}

# MAJOR.MINOR.PATCH from a tree's VERSION.dat, or undef.
sub tree_version {
    my ($src) = @_;
    open(my $fh, '<', "$src/VERSION.dat") or return undef;
    my %v = do { local $/; <$fh> } =~ /^(MAJOR|MINOR|PATCH)=(\d+)$/mg;
    return 3 == grep({ defined } @v{qw(MAJOR MINOR PATCH)}) ? "$v{MAJOR}.$v{MINOR}.$v{PATCH}" : undef;
}

# The scripts under crypto/ and engines/ that pipe into x86_64-xlate.pl,
# relative to the tree, sorted.
sub find_modules {
    my ($src) = @_;
    my @found;
    for my $top (qw(crypto engines)) {
        my @stack = ("$src/$top");
        while (my $d = shift @stack) {
            opendir(my $dh, $d) or next;
            for my $e (sort readdir $dh) {
                next if $e =~ /^\./;
                my $p = "$d/$e";
                if (-d $p && !-l $p) { push @stack, $p; next }
                next unless $e =~ /\.pl$/ && $e ne 'x86_64-xlate.pl';
                open(my $fh, '<', $p) or next;
                my $text = do { local $/; <$fh> };
                push @found, File::Spec->abs2rel($p, $src) if $text =~ /x86_64-xlate\.pl/;
            }
        }
    }
    return sort @found;
}

sub module_name { return basename($_[0]) =~ s/\.pl$//r }

# A symlink mirror of $src at $shadow whose crypto/perlasm/x86_64-xlate.pl
# execs $ours; the source tree itself is never written.  Dies on failure.
sub make_shadow {
    my ($src, $shadow, $ours) = @_;
    remove_tree($shadow);
    system('cp', '-rs', $src, $shadow) == 0 or die "cannot mirror $src into $shadow\n";
    my $shim = "$shadow/crypto/perlasm/x86_64-xlate.pl";
    unlink $shim;
    open(my $fh, '>', $shim) or die "cannot write $shim: $!\n";
    print $fh "#!/usr/bin/env perl\nexec(\$^X, '$ours', \@ARGV) or die \"exec $ours: \$!\\n\";\n";
    close $fh or die "cannot write $shim: $!\n";
}

1;
