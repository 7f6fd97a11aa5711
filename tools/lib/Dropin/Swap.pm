# SPDX-License-Identifier: Apache-2.0
package Dropin::Swap;
# The swap's saved state in an OpenSSL build directory, BUILD/STATE: each
# module's original file (MODULE.orig) and a manifest, one line a module:
# MODULE<TAB>FILE<TAB>OBJECT...  The manifest is written whole before the
# first file changes, so a state without one means nothing was swapped.
use strict;
use warnings;
use Exporter qw(import);
use File::Path qw(make_path remove_tree);
use Dropin::Files qw(write_file copy_keep_time);
use Dropin::Report qw(note complain fail);

our @EXPORT_OK = qw(STATE save_originals restore);

use constant STATE => '.perlasm-dropin';

# save_originals(BUILD, [module, file, [objects]], ...): OpenSSL's files
# saved and the manifest written, or fail().
sub save_originals {
    my ($build, @swaps) = @_;
    my $dir = "$build/" . STATE;
    make_path($dir);
    my $list = '';
    for my $s (@swaps) {
        my ($m, $file, $objs) = @$s;
        copy_keep_time("$build/$file", "$dir/$m.orig") or fail("cannot save $file: $!");
        $list .= join("\t", $m, $file, @$objs) . "\n";
    }
    write_file("$dir/manifest.tmp", $list);
    rename("$dir/manifest.tmp", "$dir/manifest") or fail("cannot write $dir/manifest: $!");
}

# Puts back every file the manifest saved and deletes the objects compiled
# from ours; idempotent, so a restore that is itself cut short can be
# rerun.  True when nothing is left to restore.
sub restore {
    my ($build) = @_;
    my $dir = "$build/" . STATE;
    return 1 unless -d $dir;
    if (!-f "$dir/manifest") {
        # Died while saving: nothing was swapped yet.
        remove_tree($dir);
        return 1;
    }
    open(my $fh, '<', "$dir/manifest") or do { complain("$dir/manifest: $!"); return 0 };
    my $ok = 1;
    my @done;
    for (<$fh>) {
        chomp;
        my ($m, $file, @objs) = split /\t/;
        if (!copy_keep_time("$dir/$m.orig", "$build/$file")) {
            complain("cannot restore $build/$file from $dir/$m.orig: $!");
            $ok = 0;
            next;
        }
        for my $obj (@objs) {
            next unless -e "$build/$obj";
            unlink "$build/$obj" or do { complain("cannot remove $obj: $!"); $ok = 0 };
        }
        push @done, $file;
    }
    close $fh;
    if ($ok) {
        remove_tree($dir);
        note('restored OpenSSL\'s own ' . join(', ', @done)
            . '; the next make there rebuilds the objects compiled from them');
    }
    return $ok;
}

1;
