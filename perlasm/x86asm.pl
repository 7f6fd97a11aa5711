# The 32-bit perlasm API.  A module script does
#
#   push(@INC, "$dir/../../../perlasm");  require "x86asm.pl";
#   &asm_init($ARGV[0], $x86only = $ARGV[$#ARGV] eq "386");
#   &function_begin("f");  &mov("eax", &wparam(0));  ...  &function_end("f");
#   &asm_finish();
#
# and is run as  perl module.pl FLAVOUR [-fPIC] [-DOPENSSL_IA32_SSE2] [386] OUTPUT
# FLAVOUR: elf, macosx, coff (GNU as), win32n (nasm).  Instructions are
# called by name (&add, &movdqu, ...) and checked against X86::ISA; any
# error names the module's line and exits 1 before anything is written.
# The output is written in asm_finish, to a temporary renamed into place.
#
# A function named with a leading "_" is private (a local symbol, no
# endbr32: only direct calls reach it); &hidden(NAME) keeps a global inside
# the linked object.  &switch_stack(REG, SLOT) moves esp to REG after
# storing the old esp at SLOT(REG), &restore_stack() moves it back; in
# between the CFA is described as [esp+SLOT]+depth, so the CFI stays exact.
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
use X86::Operand ();
use X86::Diag ();
use Common::Output ();

my %BACKEND = (
    elf    => 'X86::Emit::Gas',
    macosx => 'X86::Emit::Gas',
    coff   => 'X86::Emit::Gas',
    win32n => 'X86::Emit::Nasm',
);

my ($program, $emitter, $output);
our ($elf, $macosx, $coff, $win32, $win32n, $pic, $sse2, $x86only);

sub usage_error {
    my ($msg) = @_;
    print STDERR "$0: $msg\nusage: perl $0 FLAVOUR [-fPIC] [-DOPENSSL_IA32_SSE2] [386] OUTPUT\n"
        . "  FLAVOUR: " . join(', ', sort keys %BACKEND) . "\n";
    exit 2;
}

sub prog { return $program || X86::Diag::fail("asm_init has not been called") }

sub asm_init {
    my ($flavour, $cpu386) = @_;
    usage_error("no flavour given") unless defined $flavour;
    my $class = $BACKEND{$flavour} or usage_error("unknown flavour \"$flavour\"");
    my @args = @ARGV;
    shift @args if @args && $args[0] eq $flavour;
    my @files = grep { !/^-/ && $_ ne '386' } @args;
    usage_error("no output file given") unless @files;
    usage_error("more than one output: @files") if @files > 1;
    $output = $files[0];
    for (grep { /^-/ } @args) {
        usage_error("unknown option \"$_\"") unless /^-(fPIC|DOPENSSL_IA32_SSE2|D\w+(=\S*)?)$/;
    }
    $pic  = (grep { $_ eq '-fPIC' } @args) ? 1 : 0;
    $sse2 = (grep { $_ eq '-DOPENSSL_IA32_SSE2' } @args) ? 1 : 0;
    $x86only = $cpu386 ? 1 : 0;
    $sse2 = 0 if $x86only;
    ($elf, $macosx, $coff, $win32n) = map { $flavour eq $_ ? 1 : 0 } qw(elf macosx coff win32n);
    $win32 = $coff || $win32n;
    # Mach-O i386 code is always position independent; ELF when asked.
    my $model = $macosx ? 'macho' : ($elf && $pic) ? 'got' : 'none';
    (my $file = $class) =~ s{::}{/}g;
    require "$file.pm";
    $program = X86::Program->new(pic => $model, x86only => $x86only);
    $emitter = $class->new(flavour => $flavour, pic => $model);
}

sub asm_finish {
    prog()->finish;
    my $text = $emitter->render($program);
    if (defined(my $why = Common::Output::write_atomic($output, $text))) {
        print STDERR "$0: cannot write $output: $why\n";
        exit 1;
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
sub stack_push       { prog()->insn('sub', 'esp', 4 * $_[0]) }
sub stack_pop        { prog()->insn('add', 'esp', 4 * $_[0]) }

# Memory operands: (DISPLACEMENT, BASE, INDEX, SCALE).
sub BP  { X86::Operand::memory(1, @_) }
sub WP  { X86::Operand::memory(2, @_) }
sub DWP { X86::Operand::memory(4, @_) }
sub QWP { X86::Operand::memory(8, @_) }

# Indirect branches through memory.
sub call_ptr { prog()->insn('call', @_) }
sub jmp_ptr  { prog()->insn('jmp', @_) }

# Every other &name(...) is an instruction.
our $AUTOLOAD;
sub AUTOLOAD {
    my $name = $AUTOLOAD;
    $name =~ s/.*:://;
    return if $name eq 'DESTROY';
    prog()->insn($name, @_);
}

1;
