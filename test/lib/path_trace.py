# SPDX-License-Identifier: Apache-2.0
# gdb script for test/lib/PathTrace.pm: runs a program to main (natively,
# or attached to qemu's gdb stub, x86_64 or i386), sets breakpoints that record a
# line and let the program go on, and writes what was hit, in order.
#
# Environment:
#   PATH_TRACE_SPEC    file of lines "call NAME LOCATION" (a call starts)
#                      and "mark NAME LOCATION" (a path was entered);
#                      LOCATION is a gdb location, e.g. *(sym+0x1c)
#   PATH_TRACE_OUT     the record: "call NAME", "mark NAME" lines, then
#                      "exit STATUS"; written only when the program exited
#   PATH_TRACE_REMOTE  the stub's socket when the program runs under qemu
import os

import gdb

events = []


class Recorder(gdb.Breakpoint):
    """A breakpoint that notes its name and never stops the program."""

    def __init__(self, kind, name, location):
        super().__init__(location, internal=True)
        self.kind, self.tag = kind, name

    def stop(self):
        events.append("%s %s" % (self.kind, self.tag))
        return False


def exited(event):
    status = getattr(event, "exit_code", None)
    with open(os.environ["PATH_TRACE_OUT"] + ".tmp", "w") as f:
        f.write("".join(e + "\n" for e in events))
        f.write("exit %s\n" % ("unknown" if status is None else status))
    os.rename(os.environ["PATH_TRACE_OUT"] + ".tmp", os.environ["PATH_TRACE_OUT"])


gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.events.exited.connect(exited)
# Breakpoints go in once the program is loaded at its run-time address.
gdb.execute("tbreak main")
if os.environ.get("PATH_TRACE_REMOTE"):
    gdb.execute("target remote " + os.environ["PATH_TRACE_REMOTE"])
    gdb.execute("continue")
else:
    gdb.execute("run")
with open(os.environ["PATH_TRACE_SPEC"]) as spec:
    for line in spec:
        kind, name, location = line.split(None, 2)
        Recorder(kind, name, location.strip())
gdb.execute("continue")
