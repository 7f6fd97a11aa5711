# SPDX-License-Identifier: Apache-2.0
package Dropin::Translator;
# The translator mode of tools/openssl-dropin.pl: OpenSSL's own modules,
# generated through our layer in place of OpenSSL's.  What it needs from
# the tree: which generated files come from scripts that use OpenSSL's
# layer (and the objects compiled from them), and a shim in that layer's
# place which hands the work to ours and notes each run.
use strict;
use warnings;
use Exporter qw(import);
use File::Spec;
use Dropin::Report qw(fail);
use Dropin::Tree qw(objects_from);

our @EXPORT_OK = qw(translator_for translator_outputs write_shim write_refusal shim_outputs);

# Per architecture (--arch): OpenSSL's layer (relative to the source tree),
# ours (relative to this repository), how a generator shows it uses it,
# the suffix of what the build generates, and how the shim hands over:
#  - x86_64: the modules pipe their text into the translator, run as a
#    program: the shim execs ours with the same arguments;
#  - x86: the modules `require "x86asm.pl"`: the shim loads ours into the
#    module's process in its OpenSSL-conventions mode.  OpenSSL's layer
#    loads its flavour back ends itself; in their place go scripts that
#    stop the run, so none of them can go unnoticed.
use constant TRANSLATORS => {
    x86_64 => { theirs => 'crypto/perlasm/x86_64-xlate.pl', ours => 'perlasm/x86_64-xlate.pl',
                used_by => qr/x86_64-xlate\.pl/, suffix => 's', hand_over => 'exec', refused => [] },
    x86    => { theirs => 'crypto/perlasm/x86asm.pl', ours => 'perlasm/x86asm.pl',
                used_by => qr/require\s*["']x86asm\.pl["']/, suffix => 'S', hand_over => 'require',
                refused => [ map { "crypto/perlasm/$_.pl" } qw(x86gas x86nasm x86masm) ] },
};

sub translator_for {
    my ($arch) = @_;
    return TRANSLATORS->{$arch} // fail("no translator mode for --arch $arch", 2);
}

# [generated file, [objects]] for every rule of BUILD's Makefile whose
# generator (its first prerequisite) is a script that uses OpenSSL's layer.
sub translator_outputs {
    my ($build, $t) = @_;
    open(my $mk, '<', "$build/Makefile") or fail("$build/Makefile: $!");
    my @out;
    my %uses;
    while (<$mk>) {
        my ($file, $gen) = /^(\S+\.$t->{suffix}):\s*(\S+\.pl)(?:\s|$)/ or next;
        my $script = File::Spec->rel2abs($gen, $build);
        $uses{$script} //= do {
            open(my $fh, '<', $script) or fail("$script (generator of $file): $!");
            local $/;
            (<$fh> // '') =~ $t->{used_by} ? 1 : 0;
        };
        push @out, [ $file, [ objects_from($build, $file) ] ] if $uses{$script};
    }
    fail("$build/Makefile generates nothing through $t->{theirs} (configured no-asm?)")
        unless @out;
    return @out;
}

# The shim: appends the output file it was asked for (the last argument)
# to $log, so the build can be shown to have gone through it, then runs
# ours as the translator's kind asks.
sub write_shim {
    my ($path, $t, $ours, $log) = @_;
    my $hand_over = $t->{hand_over} eq 'exec'
        ? "exec(\$^X, '$ours', \@ARGV) or die \"cannot run $ours: \$!\\n\";\n"
        : "require '$ours';\nopenssl_conventions();\n1;\n";
    open(my $fh, '>', $path) or fail("cannot write $path: $!");
    print $fh <<"EOT" . $hand_over;
#!/usr/bin/env perl
# Written by perlasm-x86's tools/openssl-dropin.pl --translator; the
# original is put back when the run ends.
if (open(my \$log, '>>', '$log')) { print \$log "\$ARGV[-1]\\n"; close \$log }
EOT
    close $fh or fail("cannot write $path: $!");
    chmod 0755, $path;
}

# In place of a part of OpenSSL's layer that ours replaces whole: loading
# it stops the generator with a message naming it.
sub write_refusal {
    my ($path) = @_;
    open(my $fh, '>', $path) or fail("cannot write $path: $!");
    print $fh <<"EOT";
# Written by perlasm-x86's tools/openssl-dropin.pl --translator; the
# original is put back when the run ends.
die "$path: OpenSSL's own layer was loaded, although perlasm-x86's stands in for it\\n";
EOT
    close $fh or fail("cannot write $path: $!");
}

# The output files the shim was run for (as the build named them).
sub shim_outputs {
    my ($log) = @_;
    open(my $fh, '<', $log) or return ();
    return map { chomp; $_ } <$fh>;
}

1;
