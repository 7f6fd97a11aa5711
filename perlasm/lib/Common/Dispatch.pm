# SPDX-License-Identifier: Apache-2.0
# A module's variants, declared once as data: the file beside its script
# with ".dispatch" for ".pl" (crypto/sha/asm/sha1-x86_64.dispatch).  Both
# perlasm layers read it to write OpenSSL's dispatching entries, the
# capability tests and a fixed-path symbol per variant (X64::Dispatch,
# X86::Dispatch); crypto/dispatch/gen_registry_rows.pl reads it to write the C registry's
# rows and the variants' prototypes.  Nothing else states which variant
# needs what.
#
# One statement a line, "#" to the end of a line is a comment, words
# separated by blanks; CAPS is a comma-separated list of the capability
# names of Common::IA32Cap, or "-" for none:
#
#   table aes|sha1 order=N   the registry table the rows go to; rows of
#                            lower N come first (faster modules first)
#   needs CAPS               what every variant needs (the module's own
#                            instructions; never tested by the assembly)
#   variant NAME needs=CAPS [force=CAPS] [row=ROW] [select=N]
#                            in order of preference, the last the one
#                            taken when no other's needs are met (its
#                            needs, if any, are the module's).  force:
#                            what an OPENSSL_ia32cap mask clears so the
#                            dispatching entries (ours and OpenSSL's)
#                            choose it; without it the entries reach it
#                            only by default or not at all.
#                            row: its name in the registry (default NAME).
#                            select: the value an in-body entry passes
#                            for it (X64::Dispatch::selector_entries).
#                            avoid: on a CPU with all of CAPS the
#                            dispatching entries and the registry's
#                            default pass it over (it runs there, but a
#                            later variant is as fast); its fixed path
#                            and its registry row still take it; not
#                            for a variant taken when all else fails.
#   entry SYMBOL slot=SLOT [variants=LIST] [needs=CAPS] [min=N]
#         [wrap=block128]    a dispatching entry: OpenSSL's SYMBOL chooses
#                            among LIST (default: every variant; the last
#                            needs nothing of its own) and SYMBOL_VARIANT
#                            is each one's fixed path.  needs: what its
#                            variants but the last need on top of their
#                            own; min: the shortest input for which it
#                            leaves the last variant; wrap: as for call.
#   call SLOT SYMBOL [variants=LIST] [wrap=block128]
#                            a row's slot filled by a function that does
#                            not dispatch (default: in every variant's row)
#   rule NAME needs=CAPS     a choice inside a variant's code, tested by
#                            name (X64::Dispatch::if_caps)
package Common::Dispatch;

use strict;
use warnings;
use Carp qw(croak);
use Common::IA32Cap;

# The registry tables and the slots of their rows (crypto/impl.h).
our %SLOTS = (
    aes  => [qw(set_encrypt_key set_decrypt_key encrypt decrypt ecb cbc ctr32
                xts_enc xts_dec ccm64_enc ccm64_dec ocb_enc ocb_dec)],
    sha1 => [qw(block)],
);

# The declaration of the module SCRIPT (a path ending in .pl).
sub for_script {
    my ($script) = @_;
    (my $file = $script) =~ s/\.pl$/.dispatch/ or croak "$script: not a .pl script";
    return read_file($file);
}

sub _caps {
    my ($where, $text) = @_;
    return [] if $text eq '-';
    my @caps = split /,/, $text;
    for (@caps) {
        eval { Common::IA32Cap::word($_); 1 } or die "$where: unknown capability '$_'\n";
    }
    return \@caps;
}

# Parses FILE; dies with "FILE:LINE: reason" on anything it does not know.
sub read_file {
    my ($file) = @_;
    open(my $fh, '<', $file) or die "$file: $!\n";
    my $d = bless { file => $file, needs => [], variants => [], entries => [],
                    calls => [], rules => {} }, __PACKAGE__;
    my %ATTRS = (table => [qw(order)], variant => [qw(needs force row select avoid)],
                 entry => [qw(slot variants needs min wrap)], call => [qw(variants wrap)],
                 rule => [qw(needs)], needs => []);
    while (my $line = <$fh>) {
        $line =~ s/#.*//;
        my ($kw, @w) = split ' ', $line;
        next unless defined $kw;
        my $where = "$file:$.";
        die "$where: unknown statement '$kw'\n" unless $ATTRS{$kw};
        my (@pos, %a);
        for (@w) {
            if (/^(\w+)=(.*)$/) {
                die "$where: $kw takes no $1=\n" unless grep { $_ eq $1 } @{ $ATTRS{$kw} };
                $a{$1} = $2;
            } else {
                push @pos, $_;
            }
        }
        if ($kw eq 'table') {
            die "$where: table NAME order=N\n" unless @pos == 1 && $SLOTS{ $pos[0] } && defined $a{order};
            @$d{qw(table order)} = ($pos[0], $a{order});
        } elsif ($kw eq 'needs') {
            die "$where: needs CAPS\n" unless @pos == 1;
            $d->{needs} = _caps($where, $pos[0]);
        } elsif ($kw eq 'variant') {
            die "$where: variant NAME needs=CAPS\n" unless @pos == 1 && defined $a{needs};
            die "$where: variant $pos[0] twice\n" if $d->variant($pos[0]);
            push @{ $d->{variants} }, { name => $pos[0], needs => _caps($where, $a{needs}),
                force => defined $a{force} && $a{force} ne '-' ? _caps($where, $a{force}) : undef,
                row => $a{row} // $pos[0], select => $a{select},
                avoid => _caps($where, $a{avoid} // '-') };
        } elsif ($kw eq 'entry') {
            die "$where: entry SYMBOL slot=SLOT\n" unless @pos == 1 && defined $a{slot};
            push @{ $d->{entries} }, { symbol => $pos[0], slot => $a{slot}, min => $a{min}, wrap => $a{wrap},
                needs => _caps($where, $a{needs} // '-'),
                variants => defined $a{variants} ? [ split /,/, $a{variants} ] : undef,
                where => $where };
        } elsif ($kw eq 'call') {
            die "$where: call SLOT SYMBOL\n" unless @pos == 2;
            push @{ $d->{calls} }, { slot => $pos[0], symbol => $pos[1], wrap => $a{wrap},
                variants => defined $a{variants} ? [ split /,/, $a{variants} ] : undef,
                where => $where };
        } else {
            die "$where: rule NAME needs=CAPS\n" unless @pos == 1 && defined $a{needs};
            $d->{rules}{ $pos[0] } = _caps($where, $a{needs});
        }
    }
    close $fh;
    die "$file: no table statement\n" unless $d->{table};
    die "$file: no variant\n" unless @{ $d->{variants} };
    my %slot = map { $_ => 1 } @{ $SLOTS{ $d->{table} } };
    for my $e (@{ $d->{entries} }, @{ $d->{calls} }) {
        die "$e->{where}: no slot '$e->{slot}' in table $d->{table}\n" unless $slot{ $e->{slot} };
        $e->{variants} //= [ map { $_->{name} } @{ $d->{variants} } ];
        for my $v (@{ $e->{variants} }) {
            die "$e->{where}: no variant '$v'\n" unless $d->variant($v);
        }
    }
    for my $e (@{ $d->{entries} }) {
        my $last = $d->variant($e->{variants}[-1]);
        die "$e->{where}: an entry's last variant must need nothing of its own\n" if @{ $last->{needs} };
        die "$e->{where}: variant $last->{name} is this entry's last, taken when all else fails:"
            . " it cannot avoid\n" if @{ $last->{avoid} };
    }
    die "$file: variant " . $d->last_variant->{name} . " is the module's last: it cannot avoid\n"
        if @{ $d->last_variant->{avoid} };
    return $d;
}

sub table     { return $_[0]{table} }
sub order     { return $_[0]{order} }
sub variants  { return @{ $_[0]{variants} } }
sub entries   { return @{ $_[0]{entries} } }
sub calls     { return @{ $_[0]{calls} } }
sub last_variant { return $_[0]{variants}[-1] }
sub variant   { my ($d, $name) = @_; return (grep { $_->{name} eq $name } @{ $d->{variants} })[0] }

sub entry {
    my ($d, $symbol) = @_;
    return (grep { $_->{symbol} eq $symbol } @{ $d->{entries} })[0]
        // croak "$d->{file}: no entry '$symbol'";
}

# The variants an entry chooses among, as declarations, in preference order.
sub entry_variants {
    my ($d, $symbol) = @_;
    return map { $d->variant($_) } @{ $d->entry($symbol)->{variants} };
}

# The symbol of one variant of a dispatching entry.
sub fixed_symbol { my ($d, $symbol, $variant) = @_; return "${symbol}_$variant" }

# Whether VARIANT is what the entry takes when the others' tests fail.
sub _entry_last { my ($e, $variant) = @_; return $e->{variants}[-1] eq $variant }

# What the entry's code for VARIANT tests before taking it (nothing for
# the entry's last variant).
sub tested_caps {
    my ($d, $symbol, $variant) = @_;
    return () if _entry_last($d->entry($symbol), $variant);
    return (@{ $d->variant($variant)->{needs} }, @{ $d->entry($symbol)->{needs} });
}

# What makes the entries and the registry pass VARIANT over (read_file
# refuses avoid= on a variant that is taken when all else fails).
sub avoided_caps {
    my ($d, $variant) = @_;
    return @{ $d->variant($variant)->{avoid} };
}

# A registry row's needs: the module's, the variant's and the own needs of
# every entry that has it but not as its last.
sub row_caps {
    my ($d, $variant) = @_;
    my @caps = (@{ $d->{needs} }, @{ $d->variant($variant)->{needs} });
    push @caps, map { @{ $_->{needs} } }
        grep { (grep { $_ eq $variant } @{ $_->{variants} }) && !_entry_last($_, $variant) } @{ $d->{entries} };
    my %seen;
    return grep { !$seen{$_}++ } @caps;
}

sub rule_caps {
    my ($d, $name) = @_;
    return @{ $d->{rules}{$name} // croak "$d->{file}: no rule '$name'" };
}

# CAPS as the words to test: [word, mask] pairs in word order.
sub word_masks {
    my (@caps) = @_;
    my %mask;
    $mask{ Common::IA32Cap::word($_) } |= 1 << Common::IA32Cap::bit($_) for @caps;
    return map { [ $_, $mask{$_} ] } sort { $a <=> $b } keys %mask;
}

1;
