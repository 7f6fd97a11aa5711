#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# test/lib/ChildTap.pm, the reader of a child program's TAP that run_child
# and wine_subtest share, on made-up output: which children pass, the
# reason a failing one is given, a whole-program SKIP, CRLF line endings
# and the indented echo.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use ChildTap;

# Feeds LINES to a new reader; returns (reader, what it echoed).
sub read_tap {
    my (@lines) = @_;
    my $tap = ChildTap->new;
    open(my $out, '>', \my $echo) or die "in-memory file: $!\n";
    my $old = select $out;
    $tap->line($_) for @lines;
    select $old;
    close $out;
    return ($tap, $echo);
}

sub verdict_is {
    my ($lines, $status, $why_first, $want, $name) = @_;
    my ($tap) = read_tap(@$lines);
    is_deeply([ $tap->verdict('prog', $status, $why_first) ], $want, $name);
}

my @passing = ("1..2\n", "ok 1 - a\n", "ok 2 - b\n");
verdict_is(\@passing, 0, undef, [ 1, 'prog', undef ], 'a plan, no failure, exit 0: passes');
verdict_is([ "ok 1\n", "ok 2\n" ], 0, undef, [ 0, 'prog (no TAP plan)', undef ],
           'no plan: fails');
verdict_is([ "1..3\n", "not ok 1\n", "ok 2\n", "not ok 3 - c\n" ], 0, undef,
           [ 0, 'prog (2 failed)', undef ], 'each not ok is counted');
verdict_is([ "1..1\n", "    not ok 1 - nested\n", "ok 1\n" ], 0, undef, [ 1, 'prog', undef ],
           'an indented not ok belongs to a nested subtest: not counted');
verdict_is(\@passing, 3 << 8, undef, [ 0, 'prog (exit status 3)', undef ],
           'a non-zero exit fails even with every test ok');
verdict_is(\@passing, 11, undef, [ 0, 'prog (killed by signal 11)', undef ],
           'a signal is named');
verdict_is(\@passing, 0, 'timed out after 5 s', [ 0, 'prog (timed out after 5 s)', undef ],
           "the caller's reason outranks the child's output");
verdict_is([ "1..0 # SKIP no AES-NI\n" ], 0, undef, [ 1, 'prog', 'SKIP no AES-NI' ],
           '1..0 # SKIP and exit 0: ok # SKIP with the reason');
verdict_is([ "1..0 # skip  lower case\n" ], 0, undef, [ 1, 'prog', 'SKIP lower case' ],
           'the SKIP directive is matched in any case');
verdict_is([ "1..0 # SKIP no AES-NI\n" ], 1 << 8, undef, [ 0, 'prog (exit status 1)', undef ],
           'a skipping child that exits non-zero fails');

# wine's console: CRLF.
my ($tap, $echo) = read_tap("1..0 # SKIP no wine\r\n", "# diag\r\n", "last\n");
is_deeply([ $tap->verdict('prog', 0) ], [ 1, 'prog', 'SKIP no wine' ],
          'a CR ending the line is not part of the SKIP reason');
is($tap->crlf, 2, 'the lines that ended in CRLF are counted');
is($tap->lines, 3, 'every line is counted');
is($tap->text, "1..0 # SKIP no wine\n# diag\nlast", 'text: the lines without their endings');
is($echo, "    1..0 # SKIP no wine\n    # diag\n    last\n",
   'each line is echoed indented by four spaces, with one newline');

(undef, $echo) = read_tap("ok 1 - no newline at the end");
is($echo, "    ok 1 - no newline at the end\n", 'a last line without its newline is echoed with one');

done_testing();
