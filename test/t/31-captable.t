#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
# The capability table is the one place its facts are written:
#   - perlasm/lib/Common/IA32Cap.pm is well formed (names and bits unique,
#     words and bits in range);
#   - build/gen/ia32cap_bits.h is what the generator writes (reproducible)
#     and, compiled, gives every bit the Perl table gives;
#   - the module scripts hold no capability table or bare bit of their own;
#   - registry.c and bench/ hold no hand-written OPENSSL_ia32cap mask, and
#     no C file of the tree casts to a function-pointer type, casts a
#     function the build's objects define to an object pointer, or casts
#     what dlsym returns;
#   - kat_aes --list and kat_sha1 --list show for each entry exactly the
#     needs and the force mask its registry entry names, decoded through
#     the Perl table, and a need text (what SKIP messages print) that
#     names exactly the bits needed;
#   - Common::IA32Cap::clear_mask(NAME), the mask tests build from names,
#     clears exactly NAME's bit in the ten words the C parser gives
#     (build/test/capdump --all under that OPENSSL_ia32cap).
use strict;
use warnings;
no warnings 'portable';        # 64-bit mask halves
use FindBin;
use File::Temp qw(tempdir);
use Test::More;
use lib "$FindBin::Bin/../lib", "$FindBin::Bin/../../support/perl";
use Slurp qw(slurp_or_die);
use lib "$FindBin::Bin/../../perlasm/lib";
use Common::IA32Cap;

my $root  = "$FindBin::Bin/../..";
my $build = $ENV{BUILD} // 'build';
my $tmp   = tempdir(CLEANUP => 1);

# --- the table itself ------------------------------------------------------
my @caps = @Common::IA32Cap::CAPS;
my (%name_seen, %bit_seen, @bad);
for my $c (@caps) {
    my ($name, $w, $b, $what) = @$c;
    push @bad, "$name: name is not [a-z0-9]+" unless $name =~ /^[a-z0-9]+$/;
    push @bad, "$name: named twice" if $name_seen{$name}++;
    push @bad, "$name: word $w outside 0..$#Common::IA32Cap::WORDS"
        unless $w =~ /^\d+$/ && $w <= $#Common::IA32Cap::WORDS;
    push @bad, "$name: bit $b outside 0..31" unless $b =~ /^\d+$/ && $b <= 31;
    push @bad, "$name: word $w bit $b is also $bit_seen{\"$w/$b\"}"
        if $bit_seen{"$w/$b"};
    $bit_seen{"$w/$b"} //= $name;
    push @bad, "$name: no description" unless defined $what && length $what;
}
ok(@caps > 0 && !@bad, scalar(@caps) . ' capabilities, each named once at its own word and bit')
    or diag(join("\n", @bad));
is(scalar(@Common::IA32Cap::WORDS), 10, 'ten words, as OpenSSL 3.5\'s OPENSSL_ia32cap_P has');
is_deeply([ map { [ Common::IA32Cap::word($_->[0]), Common::IA32Cap::bit($_->[0]) ] } @caps ],
          [ map { [ $_->[1], $_->[2] ] } @caps ], 'word() and bit() read the table');
ok(!eval { Common::IA32Cap::bit('no_such_cap'); 1 }, 'an unknown name is an error');

# --- the generated C header ------------------------------------------------
my $hdr = "$build/gen/ia32cap_bits.h";
my $gen = "$root/crypto/cpuid/gen_ia32cap_bits.pl";
system($^X, $gen, "$tmp/a.h") == 0 && system($^X, $gen, "$tmp/b.h") == 0
    or BAIL_OUT("$gen failed");
ok(slurp_or_die("$tmp/a.h") eq slurp_or_die("$tmp/b.h"), 'the generator writes the same header twice');
ok(-f $hdr && slurp_or_die($hdr) eq slurp_or_die("$tmp/a.h"), "$hdr is the generator's output");

# Compiled, not read as text: every macro's value against the Perl table.
my $cc = $ENV{CC} // 'cc';
open(my $c, '>', "$tmp/dump.c") or die;
print $c "#include <stdio.h>\n#include \"ia32cap_bits.h\"\nint main(void)\n{\n";
for my $cap (@caps) {
    my ($name, $w) = @$cap;
    my $n = uc $name;
    print $c "    printf(\"$name %d %d %u\\n\", CASM_CAP_${n}_WORD, CASM_CAP_${n}_BIT, CAP_W${w}_$n);\n";
}
print $c "    return 0;\n}\n";
close $c;
my $compiled = system("$cc -std=c11 -Wall -Werror -I$build/gen -o $tmp/dump $tmp/dump.c") == 0;
ok($compiled, 'the generated header compiles with every macro the table implies');
my %got = map { my ($n, @v) = split; $n => \@v } split /\n/, $compiled ? `$tmp/dump` : '';
my @diff = grep {
    my ($name, $w, $b) = @$_;
    !$got{$name} || "@{ $got{$name} }" ne join(' ', $w, $b, 1 << $b)
} @caps;
ok($compiled && !@diff, 'C and Perl agree bit for bit')
    or diag('differ: ' . join(' ', map { $_->[0] } @diff));
my @extra = grep { my $n = lc $_; !$name_seen{$n} } slurp_or_die($hdr) =~ /^#define CASM_CAP_(\w+)_WORD/mg;
ok(!@extra, 'the header names no capability the table lacks') or diag("@extra");

# --- no other capability facts in the module scripts -----------------------
my @stray;
for my $f (qw(crypto/sha/asm/sha1-x86_64.pl crypto/aes/asm/AESNI/VAES.pm
              crypto/aes/asm/aes-586.pl)) {
    my $text = slurp_or_die("$root/$f");
    push @stray, "$f: a [word, bit] pair" if $text =~ /=>\s*\[\s*\d+\s*,\s*\d+\s*\]/;
    push @stray, "$f: a bare bt bit" if $text =~ /&bt\([^;]*,\s*\d+\s*\)/;
}
ok(!@stray, 'the module scripts take their bits from Common::IA32Cap') or diag(join("\n", @stray));

# --- no hand-written masks, no function-pointer casts ----------------------
# Every C file of the tree (git's list, so a new directory is covered too).
my @c_files = map { chomp; $_ } `cd $root && git ls-files '*.c' '*.h'`;
my %text_of = map { $_ => slurp_or_die("$root/$_") } @c_files;
# The function types the tree names: "typedef R NAME(...)" (a function
# type, cast as "(NAME *)") and "typedef R (*NAME)(...)" (a pointer, "(NAME)").
my (%fn_type, %fn_ptr);
for my $text (values %text_of) {
    $fn_type{$1} = 1 while $text =~ /\btypedef\s+[\w\s\*]+?\b(\w+)\s*\(/g;
    $fn_ptr{$1}  = 1 while $text =~ /\btypedef\s+[\w\s\*]+?\(\s*\*\s*(\w+)\s*\)\s*\(/g;
}
# The functions the tree defines (C and assembly, every build's objects),
# for casts of a function's name to an object pointer.
my %fn_name = map { /^(\S+) [TtW] / ? ($1 => 1) : () }
    split /\n/, `find $build -name '*.o' -print0 | xargs -0 nm -P --defined-only 2>/dev/null`;
my $type_cast = join '|', map { quotemeta } sort keys %fn_type;
my $ptr_cast  = join '|', map { quotemeta } sort keys %fn_ptr;
my (@masks, @casts);
for my $f (@c_files) {
    my $text = $text_of{$f};
    if ($f eq 'crypto/dispatch/registry.c' || $f =~ m{^bench/}) {
        push @masks, "$f: $1" while $text =~ /("[~:]*0x[0-9a-fA-F]+[^"]*")/g;
    }
    my $n = 0;
    for my $line (split /\n/, $text) {
        $n++;
        push @casts, "$f:$n: $line"
            if $line =~ /\(\s*(?:const\s+)?\w+_f\s*\)/             # (block128_f) etc.
            || $line =~ /\(\s*[\w\s]+\(\s*\*\s*\)\s*\([^()]*\)\s*\)/  # (void (*)(...))
            || ($type_cast ne '' && $line =~ /(?<!sizeof)\(\s*(?:$type_cast)\s*\*\s*\)/)   # (replay_fn *)
            || ($ptr_cast ne '' && $line =~ /\(\s*(?:const\s+)?(?:$ptr_cast)\s*\)\s*[\w(&]/)
            || $line =~ /\)\s*dlsym\s*\(/                     # any cast of dlsym's result
            # (const void *)AES_encrypt: the checkers take typed handles
            || ($line =~ /\(\s*(?:const\s+)?void\s*\*\s*\)\s*&?(\w+)/ && $fn_name{$1});
    }
}
ok(@c_files > 20 && !@masks, 'no OPENSSL_ia32cap mask literal in registry.c or bench/')
    or diag(join("\n", @masks));
ok(keys(%fn_type) + keys(%fn_ptr) > 10 && keys(%fn_name) > 100 && !@casts,
   scalar(@c_files) . ' C files, ' . (keys(%fn_type) + keys(%fn_ptr))
   . ' function typedefs, ' . keys(%fn_name) . ' functions: no function-pointer cast anywhere')
    or diag(join("\n", @casts));

# --- the registry's named needs and masks, against what the programs list --
my %word_bit = Common::IA32Cap::word_bit_pairs();

# Four words from named capabilities ("NONE" adds nothing).
sub words_of {
    my @w = (0) x 4;
    for my $n (map { lc } grep { $_ ne 'NONE' } @_) {
        die "registry.c names unknown capability $n\n" unless $word_bit{$n};
        $w[ $word_bit{$n}[0] ] |= 1 << $word_bit{$n}[1];
    }
    return \@w;
}

# "~V0:~V1" (either half may be empty or ~0) back to the four words cleared.
sub decode_mask {
    my ($text) = @_;
    return undef if $text eq '';
    my ($v0, $v1) = $text =~ /^(?:~(0x[0-9a-f]+|0))?:~(0x[0-9a-f]+|0)$/
        or return "not of the form [~V0]:~V1: $text";
    my ($a, $b) = map { defined $_ ? hex($_) : 0 } $v0, $v1;
    return [ $a & 0xffffffff, $a >> 32, $b & 0xffffffff, $b >> 32 ];
}

# The registry: its C rows by hand, its assembly rows generated from the
# modules' .dispatch files.
my $reg = slurp_or_die("$root/crypto/dispatch/registry.c") . slurp_or_die("$build/gen/registry_rows.h");
my %sets = map { $_->[0] => words_of(split /\s*,\s*/, $_->[1]) }
           map { [ /(\w+)\[4\] = CAPSET\(([^)]*)\)/ ] }
           $reg =~ /^(?:static )?const unsigned int \w+\[4\] = CAPSET\([^)]*\);/mg;
my %alt;          # FORCE macro => its values across the #if branches
push @{ $alt{$1} }, $2 while $reg =~ /^#define (\w+_FORCE) (\w+)/mg;

sub force_words {
    my ($expr) = @_;
    return [ undef ] if $expr eq 'NULL';
    return [ map { @{ force_words($_) } } @{ $alt{$expr} } ] if $alt{$expr};
    return [ $sets{$expr} ] if $sets{$expr};
    return [ words_of(split /\s*,\s*/, $1) ] if $expr =~ /CAPSET\(([^)]*)\)/;
    die "registry.c: cannot read force_clear = $expr\n";
}

for my $kind ([ aes => 'kat_aes' ], [ sha1 => 'kat_sha1' ]) {
    my ($type, $prog) = @$kind;
    my %src;
    while ($reg =~ /static const struct casm_${type}_impl \w+ = \{(.*?)\n\};/sg) {
        my $body = $1;
        my ($name) = $body =~ /\.name = "([^"]+)"/;
        my ($need) = $body =~ /CAPSET_NEED\(([^)]*)\)/;
        my ($force) = $body =~ /\.force_clear = (.*?),\n/;
        my ($avoid) = $body =~ /\.avoid = CAPSET\(([^)]*)\)/;
        $src{$name} = { need => words_of(split /\s*,\s*/, $need // ''),
                        avoid => words_of(split /\s*,\s*/, $avoid // ''),
                        force => force_words($force) };
    }
    # NAME<TAB>MASK<TAB>four need words<TAB>their names<TAB>four avoid words
    # (test/lib/impl_cli.c).
    my @listed = map { my ($n, $m, $w, $t, $a) = split /\t/;
                       [ $n, $m, [ map { hex } split ' ', $w ], $t, [ map { hex } split ' ', $a // '' ] ] }
                 split /\n/, `$build/test/$prog --list`;
    ok(@listed > 0, "$prog --list names entries");
    for my $e (@listed) {
        my ($name, $mask, $need, $need_name, $avoid) = @$e;
        my $s = $src{$name};
        ok($s, "$type $name is an entry of registry.c") or next;
        is("@$need", "@{ $s->{need} }", "$type $name: needs exactly its named capabilities");
        is("@$avoid", "@{ $s->{avoid} }", "$type $name: avoids exactly its named capabilities");
        # The text a SKIP message prints names exactly the bits needed.
        my $named = eval { words_of(split /\s*,\s*/, $need_name // '') };
        ok($named && "@$named" eq "@$need",
           "$type $name: its need text '" . ($need_name // '') . "' names exactly those bits")
            or diag($@ || 'decoded: ' . join(' ', map { sprintf '%08x', $_ } @{ $named // [] }));
        my $got = decode_mask($mask // '');
        ok(!defined $got ? grep({ !defined } @{ $s->{force} })
                         : ref $got && grep({ defined && "@$_" eq "@$got" } @{ $s->{force} }),
           "$type $name: mask '" . ($mask // '') . "' clears exactly its named capabilities")
            or diag(ref $got || !defined $got ? 'decoded: ' . join(' ', map { sprintf '%08x', $_ } @{ $got // [] }) : $got);
    }
}

# --- clear_mask: each name clears its bit and nothing else ------------------------
{
    my $capdump = "$build/test/capdump";
    my $words = sub {
        local $ENV{OPENSSL_ia32cap} = $_[0];
        return [ map { hex } split ' ', `$capdump --all` ];
    };
    # "~" masks act on what the CPU reports, so the words this CPU gives.
    my $all = $words->(':~0x0:~0x0:~0x0:~0x0');
    is(scalar(@$all), 10, "$capdump --all prints ten words");
    for my $cap (@caps) {
        my ($name, $w, $b) = @$cap;
        my $mask = Common::IA32Cap::clear_mask($name);
        my @want = @$all;
        $want[$w] &= ~(1 << $b) & 0xffffffff;
        my $got = $words->($mask);
        # Clearing FXSR also clears what needs the XMM state (OpenSSL's
        # rule, tested in 30-ia32cap.t): only its own bit is compared.
        if ($name eq 'fxsr') {
            ok(!($got->[$w] >> $b & 1), "clear_mask($name) = '$mask' clears word $w bit $b");
            next;
        }
        is(join(' ', map { sprintf '%08x', $_ } @$got), join(' ', map { sprintf '%08x', $_ } @want),
           "clear_mask($name) = '$mask' clears word $w bit $b and nothing else");
    }
}

done_testing();
