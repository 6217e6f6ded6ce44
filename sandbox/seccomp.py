"""A seccomp filter for every box: sysinfo(2) fails with ENOSYS.

sysinfo(2) answers with the host's load averages, free memory and number of threads,
which move with what the other boxes do: like /proc's host-wide files (`host_view`), a
frozen bot could read its opponent's work in them between two of its turns. No mount can
hide a system call, so a classic BPF program refuses it: bubblewrap loads it (--seccomp);
in a Docker box `INSTALL_THEN_RUN_BOT` stacks it on Docker's own profile (which a profile
of ours would replace whole) before the bot's first instruction. The standard library
never calls sysinfo (glibc does for sysconf's page counts only).

System calls of another ABI than the host's own (32-bit x86 on x86-64, and x32) are
refused too: they would reach sysinfo under another number.
"""

from __future__ import annotations

import errno
import platform
import struct

# Classic BPF, as linux/filter.h and linux/seccomp.h define it.
LOAD_WORD = 0x20  # BPF_LD | BPF_W | BPF_ABS
JUMP_IF_EQUAL = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
JUMP_IF_AT_LEAST = 0x35  # BPF_JMP | BPF_JGE | BPF_K
RETURN = 0x06  # BPF_RET | BPF_K
ALLOW = 0x7FFF0000  # SECCOMP_RET_ALLOW
FAIL = 0x00050000  # SECCOMP_RET_ERRNO, the error number in the low 16 bits
NUMBER_OFFSET, ARCH_OFFSET = 0, 4  # in struct seccomp_data
X32_BIT = 0x40000000

HOSTS = {
    # machine: (AUDIT_ARCH_*, sysinfo's number, whether x32 calls share the architecture)
    "x86_64": (0xC000003E, 99, True),
    "aarch64": (0xC00000B7, 179, False),
}


def _instruction(code: int, k: int, if_true: int = 0, if_false: int = 0) -> bytes:
    return struct.pack("=HBBI", code, if_true, if_false, k)


def sysinfo_filter(machine: str | None = None) -> bytes | None:
    """The filter as bubblewrap reads it (struct sock_filter[]), or None on a machine
    this module does not know (the box then runs without it)."""
    host = HOSTS.get(machine or platform.machine())
    if host is None:
        return None
    arch, sysinfo, has_x32 = host
    refuse = _instruction(RETURN, FAIL | errno.ENOSYS)
    allow = _instruction(RETURN, ALLOW)
    # Jumps count the instructions to skip; the last two are `allow` then `refuse`.
    checks = [_instruction(JUMP_IF_EQUAL, sysinfo, if_true=1)]
    if has_x32:
        checks.insert(0, _instruction(JUMP_IF_AT_LEAST, X32_BIT, if_true=2))
    program = [
        _instruction(LOAD_WORD, ARCH_OFFSET),
        _instruction(JUMP_IF_EQUAL, arch, if_false=len(checks) + 2),
        _instruction(LOAD_WORD, NUMBER_OFFSET),
        *checks,
        allow,
        refuse,
    ]
    return b"".join(program)


INSTALL_THEN_RUN_BOT = """\
import ctypes, os, sys
program = open(sys.argv[1], "rb").read()
class Program(ctypes.Structure):
    _fields_ = [("length", ctypes.c_ushort), ("instructions", ctypes.c_char_p)]
libc = ctypes.CDLL(None, use_errno=True)
# PR_SET_NO_NEW_PRIVS (38), then PR_SET_SECCOMP (22) with SECCOMP_MODE_FILTER (2)
installed = Program(len(program) // 8, program)
if libc.prctl(38, 1, 0, 0, 0) or libc.prctl(22, 2, ctypes.byref(installed), 0, 0):
    error = os.strerror(ctypes.get_errno())
    sys.exit("agon: the box's seccomp filter could not be installed: " + error)
os.execvp("python3", ["python3", "main.py"])
"""
"""Python for `python3 -c`, with the filter's file as its argument: installs the filter on
itself (inherited by all it starts) and becomes `python3 main.py`."""
