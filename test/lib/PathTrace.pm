# SPDX-License-Identifier: Apache-2.0
# Which code path the assembly chose inside its own entry points, seen
# from outside: build/test/cpu_paths (or its -m32 build) is run under gdb
# (natively, or attached to qemu-x86_64's or qemu-i386's gdb stub) with a
# non-stopping breakpoint on each entry point and on the first
# instruction of each path it can take (test/lib/path_trace.py), and the
# order of the hits says which path each call entered.
#
#   my ($where, $err) = PathTrace::sections($prog);   # from objdump -d
#   my ($paths, $err) = PathTrace::trace(prog => $prog, where => $where,
#        calls => [[name, symbol], ...], prefix => [qemu, -cpu, M] or [],
#        out => $file, args => [...]);                 # {name => path}
#
# The paths' addresses come from the code itself, not from a list kept
# here: in an aesni-x86_64 body, vaes_select compares the requested width
# (eax) with 512 and 256 right after the jump to the xmm code
# (`cmp $MIN,len; jb XMM; cmp $0x200,%eax; je ZMM; cmp $0x100,%eax; je
# YMM`); sha1_block_data_order (sha1-x86_64 and sha1-586 alike)
# tail-jumps to one variant symbol each; aes-586's AES_encrypt,
# AES_decrypt and AES_cbc_encrypt call the private round functions
# _aes586_{en,de}crypt[2]_{compact,sse,full}, themselves or in a function
# they tail-jump to, and each such call starts a path named by its rounds:
# 'sse' (the compact rounds in MMX/SSE), 'int' (the same in integer
# registers) or 'full' (the T-tables).  A path may start at several
# places (encryption and decryption in one CBC function): every place is
# marked.
package PathTrace;

use strict;
use warnings;
use File::Basename qw(dirname);
use File::Temp ();
use Time::HiRes qw(sleep time);
use POSIX ();

my %WIDTH = (0x200 => 'zmm', 0x100 => 'ymm');
my %ROUNDS = (sse => 'sse', compact => 'int', full => 'full');
my @AES586_ENTRIES = qw(AES_encrypt AES_decrypt AES_cbc_encrypt);

# {entry symbol => {path => [gdb location, ...]}} for every aesni_*_body,
# for sha1_block_data_order and for aes-586's entries; a second return
# value names what is wrong.
sub sections {
    my ($prog) = @_;
    open(my $fh, '-|', 'objdump', '-d', '--no-show-raw-insn', $prog)
        or return (undef, "cannot run objdump on $prog: $!");
    my (%insns, $func);
    while (my $line = <$fh>) {
        if ($line =~ /^[0-9a-f]+ <(\w+)>:$/) { $func = $1; next }
        next unless defined $func && $line =~ /^\s*([0-9a-f]+):\s+(\S+)\s*(.*?)\s*$/;
        push @{ $insns{$func} }, [ hex $1, $2, $3 ];
    }
    close $fh;
    return (undef, "objdump -d $prog failed") if $? || !%insns;
    my (%where, @bad);
    for my $body (sort grep { /^aesni_\w+_body$/ } keys %insns) {
        (my $entry = $body) =~ s/_body$//;
        my ($start, @i) = ($insns{$body}[0][0], @{ $insns{$body} });
        my @selects;
        for my $k (1 .. $#i - 1) {
            next unless $i[$k - 1][1] eq 'jb' && $i[$k][1] eq 'cmp'
                && $i[$k][2] =~ /^\$(0x200|0x100),%eax$/ && $i[$k + 1][1] eq 'je';
            my %p = (xmm => $i[$k - 1][2]);
            for (my $j = $k; $j < $#i && $i[$j][1] eq 'cmp' && $i[$j + 1][1] eq 'je'
                     && $i[$j][2] =~ /^\$(0x200|0x100),%eax$/; $j += 2) {
                $p{ $WIDTH{ hex $1 } } = $i[$j + 1][2];
            }
            push @selects, \%p;
        }
        if (@selects != 1) {
            push @bad, "$body: " . scalar(@selects) . ' width selections found, expected 1';
            next;
        }
        for my $path (sort keys %{ $selects[0] }) {
            my ($target) = $selects[0]{$path} =~ /^([0-9a-f]+)\b/;
            $where{$entry}{$path} = [ sprintf('*(%s+0x%x)', $body, hex($target) - $start) ];
        }
    }
    my @sha1 = grep { /^sha1_block_data_order_\w+$/ } _tail_jumps(\%insns, 'sha1_block_data_order');
    $where{sha1_block_data_order}{ s/^sha1_block_data_order_//r } = [$_] for @sha1;
    push @bad, 'sha1_block_data_order: no tail jump to a variant found'
        if $insns{sha1_block_data_order} && !@sha1;
    my $aes586 = grep { /^_aes586_/ } keys %insns;
    for my $entry (grep { $aes586 && $insns{$_} } @AES586_ENTRIES) {
        for my $f ($entry, _tail_jumps(\%insns, $entry)) {
            my $start = $insns{$f}[0][0];
            for my $i (@{ $insns{$f} }) {
                next unless $i->[1] eq 'call' && $i->[2] =~ /<_aes586_(?:en|de)crypt2?_(\w+)>$/
                    && $ROUNDS{$1};
                push @{ $where{$entry}{ $ROUNDS{$1} } }, sprintf('*(%s+0x%x)', $f, $i->[0] - $start);
            }
        }
        push @bad, "$entry: no call of an aes-586 round function found" unless $where{$entry};
    }
    return (\%where, @bad ? join('; ', @bad) : undef);
}

# The functions $func tail-jumps to: jumps to another function's first
# instruction.
sub _tail_jumps {
    my ($insns, $func) = @_;
    return grep { $_ ne $func && $insns->{$_} }
           map { $_->[2] =~ /<(\w+)>$/ ? $1 : () }
           grep { $_->[1] eq 'jmp' } @{ $insns->{$func} // [] };
}

# Runs @cmd with stdout and stderr to $log; kills it after $secs.
# Returns its wait status, or undef on a timeout.
sub _run_logged {
    my ($secs, $log, @cmd) = @_;
    my $pid = fork() // die "fork: $!\n";
    if (!$pid) {
        POSIX::setpgid(0, 0);
        open STDOUT, '>', $log or POSIX::_exit(126);
        open STDERR, '>&', \*STDOUT or POSIX::_exit(126);
        open STDIN, '<', '/dev/null' or POSIX::_exit(126);
        exec @cmd or POSIX::_exit(127);
    }
    return _wait_until($pid, time + $secs);
}

sub _wait_until {
    my ($pid, $deadline) = @_;
    while (time < $deadline) {
        my $r = waitpid($pid, POSIX::WNOHANG());
        return $? if $r == $pid;
        sleep 0.02;
    }
    kill 'KILL', -$pid;
    waitpid($pid, 0);
    return undef;
}

sub _tail {
    my ($file) = @_;
    open(my $fh, '<', $file) or return '';
    my @l = <$fh>;
    return join '', map { "    | $_" } grep { defined } @l[ -(@l < 6 ? @l : 6) .. -1 ];
}

# One traced run of $prog with @$args (none by default).  Returns
# ({call name => path}, undef) or (undef, why).  Every call of @calls must
# appear, in order; a call whose program left it out (no AES-NI) is given
# as path '-' when its entry was not hit.
sub trace {
    my (%a) = @_;
    my ($out, $where) = ($a{out}, $a{where});
    my $spec = "$out.spec";
    open(my $fh, '>', $spec) or return (undef, "cannot write $spec: $!");
    my %seen_entry;
    for my $c (@{ $a{calls} }) {
        my $sym = $c->[1];
        next if $seen_entry{$sym}++;
        return (undef, "no paths known for $sym") unless $where->{$sym};
        print $fh "call $sym $sym\n";
        for my $path (sort keys %{ $where->{$sym} }) {
            print $fh "mark $sym:$path $_\n" for @{ $where->{$sym}{$path} };
        }
    }
    close $fh;
    unlink $out;
    my $gdb_cmd = [ $a{gdb}, '-nx', '-batch', '-x', dirname(__FILE__) . '/path_trace.py' ];
    local $ENV{PATH_TRACE_SPEC} = $spec;
    local $ENV{PATH_TRACE_OUT} = $out;
    local $ENV{PATH_TRACE_REMOTE};
    delete $ENV{PATH_TRACE_REMOTE};
    my ($status, $qemu_pid, @args) = (undef, undef, @{ $a{args} // [] });
    if (@{ $a{prefix} }) {
        # A socket path has a length limit (108 bytes): keep it short.
        my $sock = File::Temp::tempdir(CLEANUP => 1) . '/gdb.sock';
        $qemu_pid = fork() // die "fork: $!\n";
        if (!$qemu_pid) {
            POSIX::setpgid(0, 0);
            open STDOUT, '>', "$out.qemu.log" or POSIX::_exit(126);
            open STDERR, '>&', \*STDOUT or POSIX::_exit(126);
            exec @{ $a{prefix} }, '-g', $sock, $a{prog}, @args or POSIX::_exit(127);
        }
        my $deadline = time + 10;
        sleep 0.02 while !-S $sock && time < $deadline && waitpid($qemu_pid, POSIX::WNOHANG()) == 0;
        $ENV{PATH_TRACE_REMOTE} = $sock;
        $status = _run_logged(60, "$out.gdb.log", @$gdb_cmd, $a{prog});
        _wait_until($qemu_pid, time + 5);
        unlink $sock;
    } else {
        $status = _run_logged(60, "$out.gdb.log", @$gdb_cmd, '--args', $a{prog}, @args);
    }
    return (undef, "gdb timed out\n" . _tail("$out.gdb.log")) unless defined $status;
    open(my $in, '<', $out)
        or return (undef, "gdb left no record (status $status)\n" . _tail("$out.gdb.log"));
    chomp(my @events = <$in>);
    close $in;
    my $exit = pop @events;
    return (undef, "the program ended with $exit") unless $exit eq 'exit 0';
    return _paths(\@events, $a{calls});
}

# The first path marked after each call's entry, matched to @calls in order.
sub _paths {
    my ($events, $calls) = @_;
    my (%path, @hit);
    for my $e (@$events) {
        if ($e =~ /^call (\S+)$/) { push @hit, [ $1, undef ]; next }
        my ($sym, $p) = $e =~ /^mark (\S+):(\S+)$/ or return (undef, "bad record line: $e");
        return (undef, "$sym:$p marked outside a call of $sym")
            unless @hit && $hit[-1][0] eq $sym;
        $hit[-1][1] //= $p;
    }
    for my $c (@$calls) {
        my ($name, $sym) = @$c;
        if (@hit && $hit[0][0] eq $sym) {
            my $h = shift @hit;
            return (undef, "$name: $sym entered no known path") unless defined $h->[1];
            $path{$name} = $h->[1];
        } else {
            $path{$name} = '-';
        }
    }
    return (undef, 'calls of unexpected entries: ' . join(' ', map { $_->[0] } @hit)) if @hit;
    return (\%path, undef);
}

1;
