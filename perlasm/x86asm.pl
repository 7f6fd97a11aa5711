# SPDX-License-Identifier: Apache-2.0
# The 32-bit perlasm API.  A module script does
#
#   push(@INC, "$dir/../../../perlasm");  require "x86asm.pl";
#   &asm_init($ARGV[0], $x86only = $ARGV[$#ARGV] eq "386");   # reads @ARGV
#   &function_begin("f");  &mov("eax", &wparam(0));  ...  &function_end("f");
#   &asm_finish();
#
# and is run as  perl module.pl FLAVOUR [COMPILER-FLAGS...] [386] [OUTPUT]
# (see asm_init, or --help).  FLAVOUR: one of OpenSSL's 32-bit perlasm
# schemes (@FLAVOURS below).  Instructions are called by name (&add,
# &movdqu, ...) and checked against X86::ISA; any error names the module's
# line and exits 1 before anything is written.
# The output is written in asm_finish, to a temporary renamed into place.
#
# A function named with a leading "_" is private (a local symbol, no
# endbr32: only direct calls reach it); &hidden(NAME) keeps a global inside
# the linked object.  &switch_stack(REG, SLOT) exchanges esp and REG and
# stores the old esp (now in REG) at SLOT(esp), never writing below esp;
# &restore_stack() moves it back; in between the CFA is described as
# [esp+SLOT]+depth, so the CFI stays exact.
# &leave is accepted only in an ebp frame the layer knows (&mov("ebp","esp")
# earlier in the function, ebp not written since).  A ret must find esp at
# the return address, function_end/function_end_A at the depth
# function_begin left, and function_end_B must follow a ret or jmp.
#
# Stages: this file (the API and the command line), X86::Operand (operand
# checks), X86::Program (statements, labels, stack depth and CFI),
# X86::Emit::Gas / X86::Emit::Nasm (text per flavour).
use strict;
use warnings;
use File::Basename ();
BEGIN { unshift @INC, File::Basename::dirname(__FILE__) . '/lib' }
use X86::Program;
use X86::Dispatch ();
use X86::Operand ();
use X86::Diag ();
use Common::Output ();
use Common::CommandLine ();

# OpenSSL's 32-bit perlasm schemes, each with the meaning its layer gives
# it: elf (ELF), a.out (leading underscores, no .size, CFI or ELF notes),
# macosx (Mach-O), coff (GNU as for Win32), win32n (nasm), win32 (MASM).
# Three write what
# another does, because what sets them apart in OpenSSL does not occur here:
# elf-1 reaches OPENSSL_ia32cap_P through the GOT in PIC code, as our elf
# always does; android registers constructors in .init_array, and the layer
# writes no constructor; gaswin is OpenSSL's other name for coff.
my @FLAVOURS = qw(elf elf-1 android a.out macosx coff gaswin win32n win32);
my %SAME_AS = ('elf-1' => 'elf', android => 'elf', gaswin => 'coff');

my ($program, $emitter, $output, $openssl);

# openssl_conventions(), called before asm_init (by the shim that puts
# this layer behind an OpenSSL tree's crypto/perlasm/x86asm.pl, see
# docs/x86asm-openssl.md): write what OpenSSL's own layer writes where
# this layer's defaults differ: endbr32 at every function, only where
# __CET__ is defined, none on the Win32 assemblers; and a change of esp
# the CFI cannot follow ends the function's described frame rather than
# failing (X86::Program::unknown_stack); and an object that uses
# OPENSSL_ia32cap_P defines it (16 bytes, common), reaching it PC-relative
# in ELF's position-independent code.
sub openssl_conventions { $openssl = 1 }
our ($elf, $aout, $macosx, $coff, $win32, $win32n, $masm, $pic, $sse2, $x86only);

sub prog { return $program || X86::Diag::fail("asm_init has not been called") }

# asm_init(FLAVOUR, CPU386[, PREFIX => \%SWITCHES]) is OpenSSL's call; the
# layer reads the whole command line itself (Common::CommandLine's rule):
#   perl MODULE.pl FLAVOUR [COMPILER-FLAGS...] [386] [OUTPUT]
# so FLAVOUR (normally $ARGV[0]) is not used.  "386" anywhere, or CPU386,
# drops MMX/SSE; -fPIC, -fpic or -KPIC (any case, as OpenSSL's layer reads
# them) ask for position-independent ELF code; -DOPENSSL_IA32_SSE2 sets
# $sse2; other compiler flags change nothing.  A module's own switches
# -DPREFIXNAME[=N] set $SWITCHES{NAME} to N (a number; bare: 1).
sub asm_init {
    # OpenSSL's older form asm_init(FLAVOUR, FILE, CPU386) names the file too.
    splice(@_, 1, 1) if @_ == 3;
    my (undef, $cpu386, %switches) = @_;
    my $cl = command_line('Writes the ' . Common::CommandLine::module_name()
                          . " module ($0) as 32-bit x86 assembly.", %switches);
    set_switches($cl->{defines}, %switches);
    my $flavour = $SAME_AS{ $cl->{flavour} } // $cl->{flavour};
    $output = $cl->{output} // '-';
    $pic  = (grep { /^-[fK]pic$/i } @{ $cl->{flags} }) ? 1 : 0;
    $sse2 = exists $cl->{defines}{OPENSSL_IA32_SSE2} ? 1 : 0;
    $x86only = ($cpu386 || $cl->{keywords}{386}) ? 1 : 0;
    $sse2 = 0 if $x86only;
    ($elf, $aout, $macosx, $coff, $win32n, $masm) = map { $flavour eq $_ ? 1 : 0 } qw(elf a.out macosx coff win32n win32);
    # As in OpenSSL: the Win32 flavours that are not GNU as (coff is).
    $win32 = $win32n || $masm;
    # Mach-O i386 code is always position independent; ELF and a.out when
    # asked (through the GOT).
    my $model = $macosx ? 'macho' : (($elf || $aout) && $pic) ? 'got' : 'none';
    my $class = $win32n ? 'X86::Emit::Nasm' : $masm ? 'X86::Emit::Masm' : 'X86::Emit::Gas';
    (my $file = $class) =~ s{::}{/}g;
    require "$file.pm";
    $program = X86::Program->new(pic => $model, x86only => $x86only,
                                 $openssl ? (endbr => $win32 ? 'none' : 'all', endbr_cet => 1,
                                                stop_at_unknown => 1, push_count => 1, begin_labels => 1,
                                                bare_label_push => 1,
                                                common => [ $X86::Dispatch::CAP, 16 ],
                                                # elf-1 is OpenSSL's GOT-only ELF
                                                pcrel => { $X86::Dispatch::CAP => $cl->{flavour} ne 'elf-1' }) : ());
    $emitter = $class->new(flavour => $flavour, pic => $model, near_jumps => $openssl);
}

# The parsed command line (exits with usage or an error line if it is bad).
sub command_line {
    my ($about, %switches) = @_;
    my $usage = <<"EOT";
usage: perl @{[ Common::CommandLine::program() ]} FLAVOUR [COMPILER-FLAGS...] [386] [OUTPUT]
$about
  FLAVOUR         @{[ join(', ', @FLAVOURS) ]}
  -fPIC, -fpic    position-independent code (ELF, a.out; Mach-O always is);
                  also -KPIC
  -DOPENSSL_IA32_SSE2
                  the module may use SSE2 and later (without it: none)
  386             no MMX/SSE instruction at all
  COMPILER-FLAGS  any other flag OpenSSL's build passes (-m32, -O3, -Wall,
                  -pthread, -Wa,--noexecstack, -I., -DNAME, ...): no effect
EOT
    for my $prefix (sort keys %switches) {
        $usage .= "  -D${prefix}NAME[=N]  this module's switches (another NAME is an error):\n"
            . "                  @{[ sort keys %{ $switches{$prefix} } ]}\n";
    }
    return Common::CommandLine::parse(
        args         => \@ARGV,
        flavours     => \@FLAVOURS,
        keywords     => ['386'],
        need_flavour => 1,
        usage        => $usage . Common::CommandLine::usage_tail(),
        options      => '--help, -fPIC, -DOPENSSL_IA32_SSE2, other compiler flags -X..., 386',
    );
}

# -DPREFIXNAME[=N] into $SWITCHES{NAME}; an unknown NAME or a value that is
# not a number is an error.
sub set_switches {
    my ($defines, %switches) = @_;
    for my $prefix (sort keys %switches) {
        my $opt = $switches{$prefix};
        for my $name (sort grep { /^\Q$prefix\E/ } keys %$defines) {
            my $key = substr($name, length $prefix);
            Common::CommandLine::fail("unknown switch -D$name (valid: "
                . join(', ', map { "-D$prefix$_" } sort keys %$opt) . ")") unless exists $opt->{$key};
            my $value = $defines->{$name};
            Common::CommandLine::fail("-D$name=$value: the value must be a number")
                unless $value =~ /^\d+$/;
            $opt->{$key} = $value;
        }
    }
}

my $finished;
sub asm_finish {
    prog()->finish;
    my $text = $emitter->render($program);
    Common::Output::write_output(Common::CommandLine::program(), $output, $text);
    $finished = 1;
}

# A module that returns without calling asm_finish has written nothing:
# an error rather than a silent exit 0.
END {
    if ($program && !$finished && $? == 0) {
        print STDERR Common::CommandLine::program() . ": the module ended without asm_finish:"
            . " nothing written to " . Common::Output::describe($output) . "\n";
        $? = 1;
    }
}

# --- functions, labels, data ---------------------------------------------
sub function_begin   { prog()->function_begin(@_) }
sub function_begin_B { prog()->function_begin_B(@_) }
sub function_end     { prog()->function_end(@_) }
sub function_end_A   { prog()->function_end_A(@_) }
sub function_end_B   { prog()->function_end_B(@_) }
sub label            { prog()->label(@_) }
sub set_label        { prog()->set_label(@_) }
sub align            { prog()->align(@_) }
sub comment          { prog()->comment(@_) }
sub external_label   { prog()->extern($_) for @_ }
sub data_byte        { prog()->data(1, @_) }
sub data_short       { prog()->data(2, @_) }
sub data_word        { prog()->data(4, @_) }
sub rodata           { prog()->section('rodata') }
sub text             { prog()->section('text') }
sub picmeup          { prog()->picmeup(@_) }
sub hidden           { prog()->hidden($_) for @_ }
sub switch_stack     { prog()->switch_stack(@_) }
sub restore_stack    { prog()->restore_stack(@_) }
sub wparam           { prog()->wparam(@_) }
sub swtmp            { X86::Operand::memory(4, 4 * $_[0], 'esp') }
sub stack_push       { prog()->insn('sub', 'esp', 4 * $_[0]); prog()->count_push(4 * $_[0]) }
sub stack_pop        { prog()->insn('add', 'esp', 4 * $_[0]); prog()->count_push(-4 * $_[0]) }

# Memory operands: (DISPLACEMENT, BASE, INDEX, SCALE).
sub BP  { X86::Operand::memory(1, @_) }
sub WP  { X86::Operand::memory(2, @_) }
sub DWP { X86::Operand::memory(4, @_) }
sub QWP { X86::Operand::memory(8, @_) }

# Indirect branches through memory.
sub call_ptr { prog()->insn('call', @_) }
sub jmp_ptr  { prog()->insn('jmp', @_) }

# --- OpenSSL's other API names -----------------------------------------------
# What OpenSSL's x86asm.pl offers beyond the calls above, with its meaning.
# Other names for instructions:
sub movb  { prog()->insn('mov', @_) }
sub xorb  { prog()->insn('xor', @_) }
sub rotl  { prog()->insn('rol', @_) }
sub rotr  { prog()->insn('ror', @_) }
sub exch  { prog()->insn('xchg', @_) }
sub movz  { prog()->insn('movzx', @_) }
sub halt  { prog()->insn('hlt') }
# blindpop(REG) pops what a `call` to the label just after it pushed (the
# position-independent call/pop); X86::Program already counts that push.
sub blindpop { prog()->insn('pop', @_); prog()->count_push(4) }
# movq(DST, SRC, 1): between two MMX registers as pshufw DST, SRC, 0xe4
# (the same value; some CPUs stall on movq between MMX registers).
sub movq {
    my ($dst, $src, $fast) = @_;
    return prog()->insn('pshufw', $dst, $src, 0xe4)
        if $fast && "$dst:$src" =~ /^mm[0-7]:mm[0-7]$/;
    prog()->insn('movq', $dst, $src);
}
# LB/HB(REG): the low and high byte register of eax..edx (or ax..dx).
sub LB { return byte_register($_[0], 'l') }
sub HB { return byte_register($_[0], 'h') }
sub byte_register {
    my ($reg, $half) = @_;
    my ($x) = (defined $reg && !ref $reg ? $reg : '') =~ /^e?([a-d])x$/
        or X86::Diag::fail("\"" . ($reg // 'undef') . "\" has no " . ($half eq 'l' ? 'low' : 'high') . " byte");
    return "$x$half";
}
# Constants: a number stays a number (its size comes from the instruction).
sub DWC { return $_[0] }
sub BC  { return $_[0] }
# A NUL-terminated string as bytes, 16 to a line.
sub asciz {
    my @bytes = (unpack('C*', $_[0] // X86::Diag::fail('asciz needs a string')), 0);
    prog()->data(1, splice(@bytes, 0, 16)) while @bytes;
}
sub static_label { prog()->static_label(@_) }
sub public_label { prog()->public_label(@_) }
sub islabel      { prog()->islabel(@_) }
sub endbranch    { prog()->endbranch }
sub dataseg      { prog()->section('data') }
sub initseg      { prog()->initseg(@_) }
sub safeseh      { prog()->safeseh(@_) }

# Run by itself, the layer only explains the command line of its modules.
if (!caller) {
    command_line('The command line of every module using this layer'
                 . ' (perlasm/x86asm.pl, the 32-bit perlasm API).');
    Common::CommandLine::fail('this is the 32-bit layer, it writes nothing by itself:'
                              . ' run a module (perl MODULE.pl FLAVOUR ... OUTPUT)');
}

# Every other &name(...) is an instruction.
our $AUTOLOAD;
sub AUTOLOAD {
    my $name = $AUTOLOAD;
    $name =~ s/.*:://;
    return if $name eq 'DESTROY';
    prog()->insn($name, @_);
}

1;
