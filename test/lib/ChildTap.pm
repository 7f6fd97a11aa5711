# SPDX-License-Identifier: Apache-2.0
# Reads the TAP a child test program prints, for the runners that show it
# as an indented subtest under one line of the script's own plan
# (ImplRuns::run_child natively, WineRun::wine_subtest under wine).
#
#   my $tap = ChildTap->new;
#   $tap->line($_) for <child output>;    # echoes each line indented
#   my ($ok, $name, $directive) = $tap->verdict($desc, $status);
#   result($ok, $name, $directive);
#
# A child passes only if it exited 0, printed a plan and no "not ok"; a
# child that planned 1..0 # SKIP and exited 0 becomes ok # SKIP.
package ChildTap;

use strict;
use warnings;

sub new {
    my ($class) = @_;
    return bless { plan => undef, skip_all => undef, not_ok => 0,
                   lines => [], crlf => 0 }, $class;
}

# One line of output, with or without its line ending.  wine's console
# ends lines with CRLF: the CR is counted, then dropped before matching.
sub line {
    my ($self, $line) = @_;
    $line =~ s/\n\z//;
    $self->{crlf}++ if $line =~ s/\r\z//;
    push @{ $self->{lines} }, $line;
    $self->{plan} = $1 if $line =~ /^1\.\.(\d+)/;
    $self->{skip_all} = $1 if $line =~ /^1\.\.0\s*#\s*SKIP\s*(.*)/i;
    $self->{not_ok}++ if $line =~ /^not ok/ && $line !~ /#\s*TODO\b/i;
    print "    $line\n";
}

sub lines { return scalar @{ $_[0]{lines} } }
sub crlf  { return $_[0]{crlf} }
sub text  { return join "\n", @{ $_[0]{lines} } }

# The arguments for ImplRuns::result: (ok, description, directive or
# undef).  $status is the child's $?; $why_first, when defined, is a
# failure the caller saw that outranks the exit status (a timeout).
sub verdict {
    my ($self, $desc, $status, $why_first) = @_;
    return (1, $desc, "SKIP $self->{skip_all}")
        if defined $self->{skip_all} && !$status;
    my $why = defined $why_first     ? $why_first
            : $status & 127          ? 'killed by signal ' . ($status & 127)
            : $status                ? 'exit status ' . ($status >> 8)
            : !defined $self->{plan} ? 'no TAP plan'
            : $self->{not_ok}        ? "$self->{not_ok} failed"
            :                          undef;
    return defined $why ? (0, "$desc ($why)", undef) : (1, $desc, undef);
}

1;
