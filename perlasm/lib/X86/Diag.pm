# SPDX-License-Identifier: Apache-2.0
# Errors of the 32-bit layer name the module's own line: the first caller
# outside perlasm/ (a module calls &mov, &DWP, ... and those call into us).
package X86::Diag;

use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use Exporter 'import';

our @EXPORT_OK = qw(source_line fail);

# perlasm/ itself: frames from files under it are ours, not the module's.
my $OURS = abs_path(dirname(__FILE__) . '/../..');

sub ours {
    my ($file) = @_;
    my $abs = abs_path($file) // $file;
    return index($abs, "$OURS/") == 0;
}

# "file:line" of the module statement being executed.
sub source_line {
    for (my $i = 0; ; $i++) {
        my (undef, $file, $line) = caller($i);
        last unless defined $file;
        next if $file =~ /^\(eval/ || ours($file);
        return "$file:$line";
    }
    return "$0:?";
}

# fail(MESSAGE[, WHERE]): reports and exits 1.  Nothing has been written
# yet (output happens in asm_finish), so no file is left behind.
sub fail {
    my ($msg, $where) = @_;
    $where //= source_line();
    print STDERR "$where: $msg\n";
    exit 1;
}

1;
