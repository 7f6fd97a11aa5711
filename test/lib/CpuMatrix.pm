# SPDX-License-Identifier: Apache-2.0
# The parts the two CPU-model matrices share (test/t/13-dispatch.t over
# the 64-bit library, test/t/87-dispatch32.t over the -m32 one): what a
# set of capability words demands, the words a run sees, one traced run
# compared with the paths the words demand, and the table of the runs.
#
#   has($caps, NAME...)              every named capability is set
#   first_entry($entries, $caps)     the entry a dispatcher picks, from
#                                    ImplRuns::registry's list
#   my ($caps, $stderr) = caps_under($capdump, $prefix, $env)
#   jobs()                           parallel jobs for run_children
#   run_kats(\%registry, [[prog, path], ...], \%seen, {row, name, caps,
#            prefix, env}, ...)      the known answers of every run
#   words($caps)                     the four words as hex
#   trace_row(name => ..., label => ..., what => ..., want => {call => path},
#             env => {...}, PathTrace::trace's arguments)
#   write_matrix($file, $heading, [[title, sub { row => text }], ...], \@rows)
package CpuMatrix;

use strict;
use warnings;
use Exporter 'import';
use File::Temp ();
use Common::IA32Cap;
use ImplRuns qw(result run_children set_env);
use PathTrace;

our @EXPORT_OK = qw(has first_entry caps_under jobs run_kats words trace_row write_matrix);

my %CAP = Common::IA32Cap::word_bit_pairs();

sub has {
    my ($caps, @names) = @_;
    return !grep { !($caps->[ $CAP{$_}[0] ] >> $CAP{$_}[1] & 1) } @names;
}

# The first entry whose needs the words meet and whose avoid words they
# do not all have ([name, mask, [need words], [avoid words]] per entry,
# in the registry's order), or undef.
sub first_entry {
    my ($entries, $caps) = @_;
    my $all = sub { my ($w) = @_; !grep { ($caps->[$_] & $w->[$_]) != $w->[$_] } 0 .. $#$w };
    for my $e (@$entries) {
        my $avoid = $e->[3] // [];
        next if grep({ $_ } @$avoid) && $all->($avoid);
        return $e->[0] if $all->($e->[2]);
    }
    return undef;
}

# The capability words the library sees when $capdump runs under @$prefix
# with %$env; and what the run wrote to stderr (an emulator's warnings).
sub caps_under {
    my ($capdump, $prefix, $env) = @_;
    my $err = File::Temp->new;
    local %ENV = %ENV;
    set_env($env);
    my $out = `@$prefix $capdump 2>$err`;
    my $stderr = '';
    if (open(my $fh, '<', "$err")) { local $/; $stderr = <$fh> // '' }
    return ([ map { hex } split ' ', ($out // '') ], $stderr);
}

# Parallel jobs: the CPUs online, at most 4 (each job is one CPU's work).
sub jobs {
    my ($n) = `getconf _NPROCESSORS_ONLN 2>/dev/null` =~ /(\d+)/;
    return !$n ? 1 : $n > 4 ? 4 : $n;
}

# Each program of @$progs ([name, path]) on each planned run ({row, name,
# caps, prefix, env}) as PROG --impl ENTRY --expect-dispatch, ENTRY the
# first entry of $registry->{name} the run's words allow, two or more at
# a time.  Sets $row->{name} (the entry, or 'none') and $row->{kats}
# ('pass' or 'FAIL'); counts each entry chosen in $seen->{name}{entry}.
sub run_kats {
    my ($registry, $progs, $seen, @plan) = @_;
    my @jobs;
    for my $p (@plan) {
        $p->{row}{kats} = 'pass';
        for my $prog (@$progs) {
            my ($name, $path) = @$prog;
            my $want = first_entry($registry->{$name}, $p->{caps});
            $p->{row}{$name} = $want // 'none';
            next unless result(defined $want, "$p->{name}: $name has an implementation for this CPU");
            $seen->{$name}{$want}++;
            push @jobs, [ $p->{row}, "$p->{name}: $name dispatch picks $want and all vectors pass",
                          $p->{env}, @{ $p->{prefix} }, $path, '--impl', $want, '--expect-dispatch' ];
        }
    }
    my @passed = run_children(jobs(), map { [ @$_[1 .. $#$_] ] } @jobs);
    $jobs[$_][0]{kats} = 'FAIL' for grep { !$passed[$_] } 0 .. $#jobs;
}

sub words { return join ' ', map { sprintf '%08x', $_ } @{ $_[0] } }

# One traced run (PathTrace::trace) under %$env, each call's path compared
# with $want->{call}: a result "NAME: WHAT", or "NAME: LABEL traced" failed
# with gdb's story.  Returns {call => path}, or undef.
sub trace_row {
    my (%a) = @_;
    my ($paths, $err);
    {
        local %ENV = %ENV;
        set_env($a{env});
        ($paths, $err) = PathTrace::trace(map { exists $a{$_} ? ($_ => $a{$_}) : () }
                                          qw(prog where calls prefix gdb out args));
    }
    if (!$paths) {
        result(0, "$a{name}: $a{label} traced");
        print map { "# $_\n" } split /\n/, $err;
        return undef;
    }
    my @wrong = grep { $paths->{ $_->[0] } ne ($a{want}{ $_->[0] } // '?') } @{ $a{calls} };
    result(!@wrong, "$a{name}: $a{what}")
        or print map { "#   $_->[0] ($_->[1]): took $paths->{$_->[0]}, expected "
                       . ($a{want}{ $_->[0] } // '?') . "\n" } @wrong;
    return $paths;
}

# The table, one line per row and a column per [title, sub], aligned,
# after the comment lines of $heading; written to $file and returned.
sub write_matrix {
    my ($file, $heading, $cols, $rows) = @_;
    my @table = ([ map { $_->[0] } @$cols ], map { my $r = $_; [ map { $_->[1]->($r) } @$cols ] } @$rows);
    my @width = map { my $i = $_; (sort { $b <=> $a } map { length $_->[$i] } @table)[0] } 0 .. $#$cols;
    my @lines = map { my $r = $_; join('  ', map { sprintf '%-*s', $width[$_], $r->[$_] } 0 .. $#$cols) =~ s/\s+$//r }
                @table;
    my $text = $heading . join('', map { "$_\n" } @lines);
    open(my $fh, '>', "$file.tmp") or die "$file.tmp: $!\n";
    print $fh $text;
    close $fh or die "$file.tmp: $!\n";
    rename "$file.tmp", $file or die "$file: $!\n";
    return $text;
}

1;
