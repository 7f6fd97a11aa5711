# SPDX-License-Identifier: Apache-2.0
# Pieces both perlasm layers need: writing a generated file so that a
# failure never leaves a partial one behind.
package Common::Output;

use strict;
use warnings;
use Exporter 'import';

our @EXPORT_OK = qw(write_atomic);

# write_atomic(PATH, TEXT): writes TEXT to a temporary file beside PATH and
# renames it into place; "-" means standard output.  Returns undef on
# success, otherwise the reason (the temporary is removed).
sub write_atomic {
    my ($path, $text) = @_;
    if ($path eq '-') {
        return print(STDOUT $text) ? undef : "$!";
    }
    my $tmp = "$path.tmp.$$";
    my $ok = open(my $fh, '>', $tmp);
    $ok &&= print $fh $text;
    $ok &&= close $fh;
    $ok &&= rename($tmp, $path);
    return undef if $ok;
    my $why = "$!";
    unlink $tmp;
    return $why;
}

1;
