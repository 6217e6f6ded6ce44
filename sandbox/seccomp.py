"""The seccomp filter of every box: the system calls a Python bot never needs that would
let it see the host or the other boxes fail with ENOSYS (`REFUSED`, with why).

One filter serves both backends, so they refuse the same calls in the same way:
bubblewrap loads it (--seccomp); in a Docker box the box's launcher
(`sandbox/box_launch.c`) stacks it on Docker's own profile (which a profile of ours would
replace whole) before it starts the bot's interpreter. Where Docker's profile refuses a
call too, the errno is still ours (of two refusals the kernel keeps the last filter's).

ENOSYS, "no such call", is what software takes for a kernel without the feature and
falls back from: glibc's preadv2 turns into preadv when it gets ENOSYS (so os.preadv
without flags keeps working), its pthread_create's clone3 into clone. A refused call
cannot be told from a kernel that lacks it.

System calls of another ABI than the host's own (32-bit x86 on x86-64, and x32) are
refused too: they would reach the same calls under other numbers.
"""

from __future__ import annotations

import errno
import platform
import struct
from collections.abc import Iterable

REFUSED_GROUPS: dict[str, tuple[str, ...]] = {
    # sysinfo(2) answers with the host's load averages, free memory and number of
    # threads, which move with what the other boxes do (like /proc's host-wide files,
    # `host_view`).
    "the host's load": ("sysinfo",),
    # Keys live in the kernel, per user and session, not per box: where the worker runs
    # with a session keyring, a key one match adds, the next match's box reads back.
    "keyrings": ("add_key", "request_key", "keyctl"),
    # The page cache of the files boxes share (the host's /usr, the image's layers)
    # outlives a box. These clear a page's residency (fadvise DONTNEED), set it
    # (readahead) or read it without touching it (mincore, cachestat, a RWF_NOWAIT
    # read): a storage channel with exact reads and writes. Python's own I/O uses none
    # of them (os.preadv and os.pwritev call preadv2/pwritev2 only when given flags).
    "page cache": (
        "fadvise64",
        "readahead",
        "mincore",
        "cachestat",
        "preadv2",
        "pwritev2",
        "remap_file_pages",
        "process_madvise",
    ),
    # A second way to do every I/O, with its own paths around the limits above (and a
    # history of kernel flaws); Python never uses it.
    "io_uring": ("io_uring_setup", "io_uring_enter", "io_uring_register"),
    # Programs in the kernel, performance counters, other processes' memory, page-fault
    # handling in user space, the kernel's log, the execution domain (ASLR off): tools
    # for debuggers and profilers, not for bots.
    "tracing and the kernel's inside": (
        "bpf",
        "perf_event_open",
        "userfaultfd",
        "ptrace",
        "process_vm_readv",
        "process_vm_writev",
        "kcmp",
        "pidfd_getfd",
        "personality",
        "syslog",
        "lookup_dcookie",
    ),
    # The machine's administration: all need capabilities a box does not have; refused
    # before the kernel looks at them.
    "the machine": (
        "kexec_load",
        "kexec_file_load",
        "init_module",
        "finit_module",
        "delete_module",
        "reboot",
        "swapon",
        "swapoff",
        "acct",
        "quotactl",
        "quotactl_fd",
        "iopl",
        "ioperm",
        "sethostname",
        "setdomainname",
        "settimeofday",
        "clock_settime",
        "clock_adjtime",
        "adjtimex",
        "vhangup",
        "uselib",
        "ustat",
        "sysfs",
        "_sysctl",
    ),
    # The box's file system and namespaces are set before the bot starts; file handles
    # open files by number, around the mounts.
    "mounts and namespaces": (
        "mount",
        "umount2",
        "pivot_root",
        "chroot",
        "unshare",
        "setns",
        "open_tree",
        "move_mount",
        "fsopen",
        "fsconfig",
        "fsmount",
        "fspick",
        "mount_setattr",
        "name_to_handle_at",
        "open_by_handle_at",
        "fanotify_init",
    ),
    # Where on the host's NUMA nodes memory lives: a box has one CPU's worth; Docker's
    # profile refuses these without CAP_SYS_NICE, and NumPy's BLAS does without them.
    "memory placement": (
        "mbind",
        "set_mempolicy",
        "get_mempolicy",
        "migrate_pages",
        "move_pages",
        "set_mempolicy_home_node",
    ),
    # clone3 takes namespace flags in a structure no filter can read; Docker's profile
    # refuses it with ENOSYS for that reason, and glibc then uses clone.
    "clone3": ("clone3",),
}
"""What a box may not call, by why."""

REFUSED: tuple[str, ...] = tuple(name for names in REFUSED_GROUPS.values() for name in names)

SYSCALL_NUMBERS: dict[str, dict[str, int]] = {
    # From the kernel's asm/unistd_64.h (`tests/sandbox/test_seccomp.py` checks them
    # against the headers where they are installed); a name missing is no call there.
    "x86_64": {
        "sysinfo": 99,
        "add_key": 248,
        "request_key": 249,
        "keyctl": 250,
        "fadvise64": 221,
        "readahead": 187,
        "mincore": 27,
        "cachestat": 451,
        "preadv2": 327,
        "pwritev2": 328,
        "remap_file_pages": 216,
        "process_madvise": 440,
        "io_uring_setup": 425,
        "io_uring_enter": 426,
        "io_uring_register": 427,
        "bpf": 321,
        "perf_event_open": 298,
        "userfaultfd": 323,
        "ptrace": 101,
        "process_vm_readv": 310,
        "process_vm_writev": 311,
        "kcmp": 312,
        "pidfd_getfd": 438,
        "personality": 135,
        "syslog": 103,
        "lookup_dcookie": 212,
        "kexec_load": 246,
        "kexec_file_load": 320,
        "init_module": 175,
        "finit_module": 313,
        "delete_module": 176,
        "reboot": 169,
        "swapon": 167,
        "swapoff": 168,
        "acct": 163,
        "quotactl": 179,
        "quotactl_fd": 443,
        "iopl": 172,
        "ioperm": 173,
        "sethostname": 170,
        "setdomainname": 171,
        "settimeofday": 164,
        "clock_settime": 227,
        "clock_adjtime": 305,
        "adjtimex": 159,
        "vhangup": 153,
        "uselib": 134,
        "ustat": 136,
        "sysfs": 139,
        "_sysctl": 156,
        "mount": 165,
        "umount2": 166,
        "pivot_root": 155,
        "chroot": 161,
        "unshare": 272,
        "setns": 308,
        "open_tree": 428,
        "move_mount": 429,
        "fsopen": 430,
        "fsconfig": 431,
        "fsmount": 432,
        "fspick": 433,
        "mount_setattr": 442,
        "name_to_handle_at": 303,
        "open_by_handle_at": 304,
        "fanotify_init": 300,
        "mbind": 237,
        "set_mempolicy": 238,
        "get_mempolicy": 239,
        "migrate_pages": 256,
        "move_pages": 279,
        "set_mempolicy_home_node": 450,
        "clone3": 435,
    },
    # From asm-generic/unistd.h, which arm64 uses: it never had the x86-only calls.
    "aarch64": {
        "sysinfo": 179,
        "add_key": 217,
        "request_key": 218,
        "keyctl": 219,
        "fadvise64": 223,
        "readahead": 213,
        "mincore": 232,
        "cachestat": 451,
        "preadv2": 286,
        "pwritev2": 287,
        "remap_file_pages": 234,
        "process_madvise": 440,
        "io_uring_setup": 425,
        "io_uring_enter": 426,
        "io_uring_register": 427,
        "bpf": 280,
        "perf_event_open": 241,
        "userfaultfd": 282,
        "ptrace": 117,
        "process_vm_readv": 270,
        "process_vm_writev": 271,
        "kcmp": 272,
        "pidfd_getfd": 438,
        "personality": 92,
        "syslog": 116,
        "lookup_dcookie": 18,
        "kexec_load": 104,
        "kexec_file_load": 294,
        "init_module": 105,
        "finit_module": 273,
        "delete_module": 106,
        "reboot": 142,
        "swapon": 224,
        "swapoff": 225,
        "acct": 89,
        "quotactl": 60,
        "quotactl_fd": 443,
        "sethostname": 161,
        "setdomainname": 162,
        "settimeofday": 170,
        "clock_settime": 112,
        "clock_adjtime": 266,
        "adjtimex": 171,
        "vhangup": 58,
        "mount": 40,
        "umount2": 39,
        "pivot_root": 41,
        "chroot": 51,
        "unshare": 97,
        "setns": 268,
        "open_tree": 428,
        "move_mount": 429,
        "fsopen": 430,
        "fsconfig": 431,
        "fsmount": 432,
        "fspick": 433,
        "mount_setattr": 442,
        "name_to_handle_at": 264,
        "open_by_handle_at": 265,
        "fanotify_init": 262,
        "mbind": 235,
        "set_mempolicy": 237,
        "get_mempolicy": 236,
        "migrate_pages": 238,
        "move_pages": 239,
        "set_mempolicy_home_node": 450,
        "clone3": 435,
    },
}

# Classic BPF, as linux/filter.h and linux/seccomp.h define it.
LOAD_WORD = 0x20  # BPF_LD | BPF_W | BPF_ABS
JUMP_IF_EQUAL = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
JUMP_IF_AT_LEAST = 0x35  # BPF_JMP | BPF_JGE | BPF_K
RETURN = 0x06  # BPF_RET | BPF_K
ALLOW = 0x7FFF0000  # SECCOMP_RET_ALLOW
FAIL = 0x00050000  # SECCOMP_RET_ERRNO, the error number in the low 16 bits
NUMBER_OFFSET, ARCH_OFFSET = 0, 4  # in struct seccomp_data
X32_BIT = 0x40000000
MAX_JUMP = 255  # a conditional jump's offsets are one byte

HOSTS = {
    # machine: (AUDIT_ARCH_*, whether x32 calls share the architecture)
    "x86_64": (0xC000003E, True),
    "aarch64": (0xC00000B7, False),
}


def _instruction(code: int, k: int, if_true: int = 0, if_false: int = 0) -> bytes:
    return struct.pack("=HBBI", code, if_true, if_false, k)


def refused_numbers(machine: str | None = None, refused: Iterable[str] = REFUSED) -> dict[str, int]:
    """The refused calls that exist on `machine` (this one by default), by name."""
    numbers = SYSCALL_NUMBERS.get(machine or platform.machine(), {})
    return {name: numbers[name] for name in refused if name in numbers}


def box_filter(machine: str | None = None, refused: Iterable[str] = REFUSED) -> bytes | None:
    """The filter as bubblewrap reads it (struct sock_filter[]), or None on a machine
    this module does not know (the box then runs without it). `refused` is for the
    benches, which weigh the list against a shorter one.

    A plain list of comparisons: the kernel remembers which calls a filter always
    allows whatever their arguments (since Linux 5.11) and skips it for them, so its
    length costs only the refused calls, which no bot makes twice."""
    machine = machine or platform.machine()
    host = HOSTS.get(machine)
    if host is None:
        return None
    arch, has_x32 = host
    refuse = _instruction(RETURN, FAIL | errno.ENOSYS)
    allow = _instruction(RETURN, ALLOW)
    tests = [(JUMP_IF_AT_LEAST, X32_BIT)] if has_x32 else []
    tests += [(JUMP_IF_EQUAL, number) for number in refused_numbers(machine, refused).values()]
    if len(tests) + 2 > MAX_JUMP:
        raise ValueError("too many refused calls for one list of comparisons")
    # Jumps count the instructions to skip; the last two are `allow` then `refuse`.
    checks = [
        _instruction(code, k, if_true=len(tests) - position)
        for position, (code, k) in enumerate(tests)
    ]
    program = [
        _instruction(LOAD_WORD, ARCH_OFFSET),
        _instruction(JUMP_IF_EQUAL, arch, if_false=len(checks) + 2),
        _instruction(LOAD_WORD, NUMBER_OFFSET),
        *checks,
        allow,
        refuse,
    ]
    return b"".join(program)
