# SPDX-License-Identifier: Apache-2.0
package Dropin::Files;
# Small file and command helpers of tools/openssl-dropin.pl.
use strict;
use warnings;
use Exporter qw(import);
use File::Copy qw(copy);
use Dropin::Report qw(fail);

our @EXPORT_OK = qw(write_file copy_keep_time in_path sha_file);

sub write_file {
    my ($file, $text) = @_;
    open(my $fh, '>', $file) or fail("$file: $!");
    print $fh $text;
    close $fh or fail("$file: $!");
}

# A copy with the original's access and modification times.
sub copy_keep_time {
    my ($from, $to) = @_;
    copy($from, $to) or return 0;
    my @st = stat $from;
    return utime($st[8], $st[9], $to);
}

sub in_path {
    my ($cmd) = @_;
    return grep { -x "$_/$cmd" } split /:/, $ENV{PATH} // '';
}

sub sha_file {
    my ($file) = @_;
    require Digest::SHA;
    return Digest::SHA->new(256)->addfile($file, 'b')->hexdigest;
}

1;
