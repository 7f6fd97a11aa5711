# SPDX-License-Identifier: Apache-2.0
package Dropin::Translator;
# The translator mode of tools/openssl-dropin.pl: OpenSSL's own x86_64
# modules, generated through our perlasm/x86_64-xlate.pl.  What it needs
# from the tree: which generated files come from scripts that pipe into
# crypto/perlasm/x86_64-xlate.pl (and the objects compiled from them), and
# a shim in that script's place which execs ours and notes each run.
use strict;
use warnings;
use Exporter qw(import);
use File::Spec;
use Dropin::Report qw(fail);
use Dropin::Tree qw(objects_from);

our @EXPORT_OK = qw(XLATE xlate_outputs write_shim shim_outputs);

# OpenSSL's translator, relative to the source tree.
use constant XLATE => 'crypto/perlasm/x86_64-xlate.pl';

# [generated file, [objects]] for every rule of BUILD's Makefile whose
# generator (its first prerequisite) is a script that uses the translator.
sub xlate_outputs {
    my ($build, $src) = @_;
    open(my $mk, '<', "$build/Makefile") or fail("$build/Makefile: $!");
    my @out;
    my %uses;
    while (<$mk>) {
        my ($file, $gen) = /^(\S+\.s):\s*(\S+\.pl)\s*$/ or next;
        my $script = File::Spec->rel2abs($gen, $build);
        $uses{$script} //= do {
            open(my $fh, '<', $script) or fail("$script (generator of $file): $!");
            local $/;
            (<$fh> // '') =~ /x86_64-xlate\.pl/ ? 1 : 0;
        };
        push @out, [ $file, [ objects_from($build, $file) ] ] if $uses{$script};
    }
    fail("$build/Makefile generates nothing through " . XLATE . ' (configured no-asm?)')
        unless @out;
    return @out;
}

# The shim: runs our translator with the same arguments and appends the
# output file it was asked for to $log, so the build can be shown to
# have gone through it.
sub write_shim {
    my ($path, $ours, $log) = @_;
    open(my $fh, '>', $path) or fail("cannot write $path: $!");
    print $fh <<"EOT";
#!/usr/bin/env perl
# Written by perlasm-x86's tools/openssl-dropin.pl --translator; the
# original is put back when the run ends.
if (open(my \$log, '>>', '$log')) { print \$log "\$ARGV[-1]\\n"; close \$log }
exec(\$^X, '$ours', \@ARGV) or die "cannot run $ours: \$!\\n";
EOT
    close $fh or fail("cannot write $path: $!");
    chmod 0755, $path;
}

# The output files the shim was run for (as the build named them).
sub shim_outputs {
    my ($log) = @_;
    open(my $fh, '<', $log) or return ();
    return map { chomp; $_ } <$fh>;
}

1;
