# SPDX-License-Identifier: Apache-2.0
# Loaded into a generator (PERL5OPT=-MStopAtRename) by
# test/t/66-generator-abuse.t: the process stops itself (SIGSTOP) just
# before it renames a temporary "PATH.tmp.PID" into place, so a test can
# deliver a signal while the temporary exists, at a known moment, and
# then SIGCONT it.  Nothing else changes.
#
# STOP_AT_RENAME_NO_HANDLERS=1 is the negative control: the signal
# handlers the write installed are reset to the default before stopping,
# as if there were none (the temporary must then be left behind).
package StopAtRename;

use strict;
use warnings;

BEGIN {
    *CORE::GLOBAL::rename = sub {
        my ($from, $to) = @_;
        if ($from =~ /\.tmp\.\d+\z/) {
            @SIG{qw(INT TERM HUP PIPE)} = ('DEFAULT') x 4 if $ENV{STOP_AT_RENAME_NO_HANDLERS};
            kill 'STOP', $$;
        }
        return CORE::rename($from, $to);
    };
}

1;
