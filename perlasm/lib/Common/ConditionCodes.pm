# SPDX-License-Identifier: Apache-2.0
# The x86 condition-code suffixes (jCC, setCC, cmovCC), every spelling the
# assemblers accept, for both layers' instruction tables.
package Common::ConditionCodes;

use strict;
use warnings;
use Exporter 'import';

our @EXPORT_OK = qw(@CC);

our @CC = qw(o no b c nae ae nb nc e z ne nz be na a nbe s ns p pe np po
             l nge ge nl le ng g nle);

1;
