#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
# A dated Markdown section for docs/performance.md from the CSV files that
# `build/bench/bench --csv FILE` writes:
#
#   perl tools/perf-table.pl [--date YYYY-MM-DD] [--cpu TEXT]
#        [--command TEXT] [--output FILE] CSV...
#
# The heading names the date (default: today, UTC) and the CPU (default:
# vendor, family, model and name from /proc/cpuinfo), then the command
# that made the CSV; one table for AES and one for SHA-1, each of our rows
# beside each OpenSSL library's figure on the same path (the CSV's
# "openssl@NAME" rows with the same mode, key size and lengths, one per
# library the openssl column names) and their ratio, OpenSSL's c/B over
# ours (> 1: ours is faster); when the run measured several stack
# placements, our worst placement's c/B beside the median; then, per
# implementation, the lowest and highest ratio against each library.  The
# CSV of a bench from before the openssl and worst columns is read as one
# library measured at one placement.  A CSV that is not the benchmark's
# is one error line naming the file and line, exit 1, and no output file.
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use Getopt::Long qw(GetOptionsFromArray);
use POSIX qw(strftime);
use lib dirname(abs_path($0)) . '/../perlasm/lib';
use Common::Output ();

# The columns bench/csv.c writes, in its order; the bound's two and the
# library (ours) may be empty.  Older files end after of_bound.
my @COLUMNS = qw(table mode bits bytes update path cycles_per_byte mb_per_s
                 bound_cycles_per_byte of_bound openssl worst_cycles_per_byte);
my @OLD_COLUMNS = @COLUMNS[0 .. 9];
my $NUMBER = qr/^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

exit main(@ARGV);

sub usage {
    print STDERR "usage: $0 [--date YYYY-MM-DD] [--cpu TEXT] [--command TEXT]"
               . " [--output FILE] CSV...\n";
    exit 2;
}

sub fail { print STDERR "perf-table: $_[0]\n"; exit 1 }

# The CPU as docs/performance.md names it: vendor, family/model, model name.
sub cpu_text {
    open(my $fh, '<', '/proc/cpuinfo') or return 'unknown CPU';
    my %f;
    while (my $line = <$fh>) {
        last if $line =~ /^\s*$/ && %f;
        $f{$1} //= $2 if $line =~ /^(vendor_id|cpu family|model|model name)\s*:\s*(.*?)\s*$/;
    }
    close $fh;
    my $vendor = { GenuineIntel => 'Intel', AuthenticAMD => 'AMD' }->{ $f{vendor_id} // '' }
              // $f{vendor_id} // 'unknown vendor';
    return sprintf('%s, family %s model %s (%s)', $vendor, $f{'cpu family'} // '?',
                   $f{model} // '?', $f{'model name'} // 'no model name');
}

# Every figure of the files: { table, mode, bits, bytes, update, path, cpb, of_bound }.
sub read_csv {
    my ($file) = @_;
    open(my $fh, '<', $file) or fail("$file: $!");
    my @rows;
    my $header = <$fh>;
    fail("$file: empty, not the benchmark's CSV") unless defined $header;
    $header =~ s/\r?\n\z//;
    my @cols = $header eq join(',', @OLD_COLUMNS) ? @OLD_COLUMNS : @COLUMNS;
    fail("$file:1: header is not the benchmark's (" . join(',', @COLUMNS) . ')')
        unless $header eq join(',', @cols);
    while (my $line = <$fh>) {
        $line =~ s/\r?\n\z//;
        my @f = split /,/, $line, -1;
        fail("$file:$.: " . scalar(@f) . ' fields, want ' . scalar(@cols)) unless @f == @cols;
        my %r = (openssl => '', worst_cycles_per_byte => $f[6]);
        @r{@cols} = @f;
        fail("$file:$.: table '$r{table}', want aes or sha1") unless $r{table} =~ /^(aes|sha1)$/;
        fail("$file:$.: empty mode or path") unless length $r{mode} && length $r{path};
        for my $c (qw(bits bytes update)) {
            fail("$file:$.: $c '$r{$c}' is not a whole number") unless $r{$c} =~ /^\d+$/;
        }
        for my $c (qw(cycles_per_byte mb_per_s worst_cycles_per_byte)) {
            fail("$file:$.: $c '$r{$c}' is not a positive number") unless $r{$c} =~ $NUMBER && $r{$c} > 0;
        }
        for my $c (qw(bound_cycles_per_byte of_bound)) {
            fail("$file:$.: $c '$r{$c}' is not a number") unless $r{$c} eq '' || $r{$c} =~ $NUMBER;
        }
        fail("$file:$.: worst_cycles_per_byte $r{worst_cycles_per_byte} is below the median $r{cycles_per_byte}")
            if $r{worst_cycles_per_byte} < $r{cycles_per_byte};
        fail("$file:$.: an OpenSSL row names no library, or ours one")
            if @cols == @COLUMNS && ($r{path} =~ /^openssl/) != ($r{openssl} ne '');
        push @rows, { %r, file => $file, line => $. };
    }
    close $fh;
    fail("$file: no figures") unless @rows;
    return @rows;
}

sub key_of { my ($r, $path, $lib) = @_; return join "\0", @$r{qw(table mode bits bytes update)}, $path, $lib // '' }

sub fmt {
    my ($v) = @_;
    return '-' unless defined $v && $v ne '';
    return sprintf($v >= 10 ? '%.2f' : '%.3f', $v);
}

# "LOW-HIGH" of the defined values, "-" when none is.
sub range {
    my @v = sort { $a <=> $b } grep { defined } @_;
    return @v ? fmt($v[0]) . '-' . fmt($v[-1]) : '-';
}

# A row's figures from c/B on, as table cells: c/B, the worst placement's
# when shown, each library's c/B and ratio, the reference ratio, of bound.
sub row_tail {
    my ($r, $libs, $worst) = @_;
    my @v = ($r->{cycles_per_byte}, $worst ? $r->{worst_cycles_per_byte} : (),
             (map { ($r->{ossl}{$_}, $r->{ratio}{$_}) } @$libs), $r->{ref_ratio}, $r->{of_bound});
    return join(' | ', map { fmt($_) } @v) . ' |';
}

# The column headings of row_tail's cells.
sub tail_head {
    my ($reference, $libs, $worst) = @_;
    my @h = ('c/B', $worst ? 'worst c/B' : (),
             (map { ("$_ c/B", "ratio to $_") } map { $_ eq '' ? 'OpenSSL' : $_ } @$libs),
             "ratio to $reference", 'of bound');
    return ('| ' . join(' | ', @h) . ' |', '|---' x @h . '|');
}

sub main {
    my @argv = @_;
    my %opt;
    GetOptionsFromArray(\@argv, \%opt, 'date=s', 'cpu=s', 'command=s', 'output=s', 'help')
        or usage();
    usage() if $opt{help} || !@argv;
    fail("--date '$opt{date}' is not YYYY-MM-DD")
        if defined $opt{date} && $opt{date} !~ /^\d{4}-\d\d-\d\d$/;

    my @rows = map { read_csv($_) } @argv;
    my %figure;
    for my $r (@rows) {
        my $k = key_of($r, $r->{path}, $r->{openssl});
        fail("$r->{file}:$r->{line}: a second figure for $r->{path} $r->{mode} $r->{bits} $r->{bytes}"
             . ($r->{openssl} ne '' ? " of $r->{openssl}" : ''))
            if $figure{$k}++;
    }
    my @theirs = grep { $_->{path} =~ /^openssl/ } @rows;
    my %ossl = map { key_of($_, $_->{path}, $_->{openssl}) => $_->{cycles_per_byte} } @theirs;
    # The libraries, in the order the CSV first gives them.
    my (%seen_lib, @libs);
    $seen_lib{ $_->{openssl} }++ or push @libs, $_->{openssl} for @theirs;
    my @ours = grep { $_->{path} !~ /^openssl/ } @rows;
    fail('no figure of ours in ' . join(' ', @argv)) unless @ours;
    my $worst = grep { $_->{worst_cycles_per_byte} != $_->{cycles_per_byte} } @ours;
    # Each row beside each OpenSSL on the same path, and beside the one
    # reference the benchmark measures apart, in the first library (AES:
    # OpenSSL's table path, which code needing no CPU feature is compared
    # with; SHA-1: OpenSSL's best path).
    my %REFERENCE = (aes => 'openssl@table', sha1 => 'openssl');
    for my $r (@ours) {
        for my $lib (@libs) {
            my $o = $ossl{ key_of($r, "openssl\@$r->{path}", $lib) };
            $r->{ossl}{$lib}  = $o;
            $r->{ratio}{$lib} = defined $o ? $o / $r->{cycles_per_byte} : undef;
        }
        my $ref = @libs ? $ossl{ key_of($r, $REFERENCE{ $r->{table} }, $libs[0]) } : undef;
        $r->{ref_ratio} = defined $ref ? $ref / $r->{cycles_per_byte} : undef;
    }

    my $date = $opt{date} // strftime('%Y-%m-%d', gmtime);
    my $cpu  = $opt{cpu} // cpu_text();
    my @out = ("## $date — $cpu", '');
    push @out, 'Command:', '', '```sh', $opt{command}, '```', '' if defined $opt{command};
    push @out, 'TSC cycles per byte (c/B). Ratio = OpenSSL\'s c/B / ours on the same path (> 1: ours is'
             . ' faster); the reference path is OpenSSL\'s table path for AES (the one to compare code'
             . ' needing no CPU feature with) and its best path for SHA-1'
             . (@libs > 1 ? ", in $libs[0]" : '') . '; of bound as `bench` defines it.'
             . ($worst ? ' c/B is the median over the stack placements, worst c/B the slowest placement\'s.' : ''), '';

    # Implementations in the order the CSV first gives them.
    my (%order, $next);
    $order{"$_->{table} $_->{path}"} //= $next++ for @ours;
    my @aes = grep { $_->{table} eq 'aes' } @ours;
    if (@aes) {
        my ($head, $rule) = tail_head('OpenSSL\'s table path', \@libs, $worst);
        push @out, "| mode | bits | bytes | implementation $head", "|---|---|---|---$rule";
        push @out, map { "| $_->{mode} | $_->{bits} | $_->{bytes} | $_->{path} | " . row_tail($_, \@libs, $worst) }
                   sort { $a->{mode} cmp $b->{mode} || $a->{bits} <=> $b->{bits} || $a->{bytes} <=> $b->{bytes}
                          || $order{"aes $a->{path}"} <=> $order{"aes $b->{path}"} } @aes;
        push @out, '';
    }
    my @sha = grep { $_->{table} eq 'sha1' } @ours;
    if (@sha) {
        my ($head, $rule) = tail_head('OpenSSL\'s best path', \@libs, $worst);
        push @out, "| SHA-1 bytes | update | implementation $head", "|---|---|---$rule";
        push @out, map { "| $_->{bytes} | $_->{update} | $_->{path} | " . row_tail($_, \@libs, $worst) }
                   sort { $a->{bytes} <=> $b->{bytes} || $a->{update} <=> $b->{update}
                          || $order{"sha1 $a->{path}"} <=> $order{"sha1 $b->{path}"} } @sha;
        push @out, '';
    }

    my @lib_names = map { $_ eq '' ? 'OpenSSL' : $_ } @libs;
    push @out, '| implementation | rows | ' . join('', map { "ratio to $_, lowest-highest | " } @lib_names)
             . 'ratio to the reference path, lowest-highest |',
               '|---|---|' . '---|' x (@libs + 1);
    for my $n (sort { $order{$a} <=> $order{$b} } keys %order) {
        my @r = grep { "$_->{table} $_->{path}" eq $n } @ours;
        push @out, sprintf('| %s | %d | %s%s |', $n, scalar(@r),
                           join('', map { my $l = $_; range(map { $_->{ratio}{$l} } @r) . ' | ' } @libs),
                           range(map { $_->{ref_ratio} } @r));
    }
    my $text = join '', map { "$_\n" } @out;

    Common::Output::write_output('perf-table', $opt{output} // '-', $text);
    return 0;
}
