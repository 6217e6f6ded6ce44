"""A test lists what a box can call: a probe bot makes each system call of a named list
in a real box, on every backend that isolates, and the refused ones are exactly those
named here, each failing with ENOSYS, while what Python needs still works.

The list is written out here, not read from `sandbox.seccomp`, so that the test says
what the boxes refuse rather than repeat what the filter holds. The call numbers come
from `sandbox.seccomp.SYSCALL_NUMBERS`, which `test_seccomp.py` checks against the
kernel's headers.
"""

from __future__ import annotations

import errno
import platform
from typing import Any

import pytest

from sandbox.runner import Program
from sandbox.seccomp import SYSCALL_NUMBERS
from tests.sandbox.support import Arena, assert_no_fault, only_report

RANDOM = Program.builtin("random")
NOTHING = 0
BAD_FD = -1
KEY_SPEC_SESSION_KEYRING = -3
KEYCTL_GET_KEYRING_ID = 0
PTRACE_PEEKDATA = 2
QUERY_PERSONALITY = 0xFFFFFFFF
SYSLOG_ACTION_SIZE_BUFFER = 10
SYSFS_COUNT = 3
BAD_ADDRESS = 1
"""A pointer no page holds: a call that reads its arguments fails with EFAULT there."""

REFUSED: dict[str, tuple[Any, ...]] = {
    # name: harmless arguments, should the call be let through
    "sysinfo": (BAD_ADDRESS,),
    "add_key": (NOTHING,) * 5,
    "request_key": (NOTHING,) * 4,
    "keyctl": (KEYCTL_GET_KEYRING_ID, KEY_SPEC_SESSION_KEYRING, 0),
    "fadvise64": (BAD_FD, 0, 0, 0),
    "readahead": (BAD_FD, 0, 0),
    "mincore": (BAD_ADDRESS, 4096, NOTHING),
    "cachestat": (BAD_FD, NOTHING, NOTHING, 0),
    "preadv2": (BAD_FD, NOTHING, 0, 0, 0, 0),
    "pwritev2": (BAD_FD, NOTHING, 0, 0, 0, 0),
    "remap_file_pages": (NOTHING, 0, 0, 0, 0),
    "process_madvise": (BAD_FD, NOTHING, 0, 0, 0),
    "io_uring_setup": (0, NOTHING),
    "io_uring_enter": (BAD_FD, 0, 0, 0, NOTHING, 0),
    "io_uring_register": (BAD_FD, 0, NOTHING, 0),
    "bpf": (-1, NOTHING, 0),
    "perf_event_open": (NOTHING, 0, -1, -1, 0),
    "userfaultfd": (-1,),
    "ptrace": (PTRACE_PEEKDATA, 0, 0, 0),
    "process_vm_readv": (0, NOTHING, 0, NOTHING, 0, 0),
    "process_vm_writev": (0, NOTHING, 0, NOTHING, 0, 0),
    "kcmp": (0, 0, 99, 0, 0),
    "pidfd_getfd": (BAD_FD, 0, 0),
    "personality": (QUERY_PERSONALITY,),
    "syslog": (SYSLOG_ACTION_SIZE_BUFFER, NOTHING, 0),
    "lookup_dcookie": (0, NOTHING, 0),
    "kexec_load": (0, 0, NOTHING, 0),
    "kexec_file_load": (BAD_FD, BAD_FD, 0, NOTHING, 0),
    "init_module": (NOTHING, 0, NOTHING),
    "finit_module": (BAD_FD, NOTHING, 0),
    "delete_module": (NOTHING, 0),
    "reboot": (0, 0, 0, NOTHING),
    "swapon": (NOTHING, 0),
    "swapoff": (NOTHING,),
    "acct": (BAD_ADDRESS,),
    "quotactl": (0, NOTHING, 0, NOTHING),
    "quotactl_fd": (BAD_FD, 0, 0, NOTHING),
    "iopl": (0,),
    "ioperm": (0, 0, 0),
    "sethostname": (NOTHING, 0),
    "setdomainname": (NOTHING, 0),
    "settimeofday": (NOTHING, NOTHING),
    "clock_settime": (0, NOTHING),
    "clock_adjtime": (0, NOTHING),
    "adjtimex": (NOTHING,),
    "vhangup": (),
    "uselib": (NOTHING,),
    "ustat": (0, NOTHING),
    "sysfs": (SYSFS_COUNT,),
    "_sysctl": (NOTHING,),
    "mount": (NOTHING,) * 5,
    "umount2": (NOTHING, 0),
    "pivot_root": (NOTHING, NOTHING),
    "chroot": (NOTHING,),
    "unshare": (0,),
    "setns": (BAD_FD, 0),
    "open_tree": (BAD_FD, NOTHING, 0),
    "move_mount": (BAD_FD, NOTHING, BAD_FD, NOTHING, 0),
    "fsopen": (NOTHING, 0),
    "fsconfig": (BAD_FD, 0, NOTHING, NOTHING, 0),
    "fsmount": (BAD_FD, 0, 0),
    "fspick": (BAD_FD, NOTHING, 0),
    "mount_setattr": (BAD_FD, NOTHING, 0, NOTHING, 0),
    "name_to_handle_at": (BAD_FD, NOTHING, NOTHING, NOTHING, 0),
    "open_by_handle_at": (BAD_FD, NOTHING, 0),
    "fanotify_init": (0, 0),
    "mbind": (NOTHING, 0, 0, NOTHING, 0, 0),
    "set_mempolicy": (0, NOTHING, 0),
    "get_mempolicy": (NOTHING, NOTHING, 0, NOTHING, 0),
    "migrate_pages": (0, 0, NOTHING, NOTHING),
    "move_pages": (0, 0, NOTHING, NOTHING, NOTHING, 0),
    "set_mempolicy_home_node": (NOTHING, 0, 0, 0),
    "clone3": (NOTHING, 0),
}
"""Every call a box refuses: no Python bot needs them, and each would show it the host or
what another box left there (`docs/threat-model.md`, "System calls")."""

ALLOWED: dict[str, tuple[dict[str, int], tuple[Any, ...]]] = {
    # name: numbers on x86_64 and aarch64, arguments with which the call succeeds
    "getpid": ({"x86_64": 39, "aarch64": 172}, ()),
    "sched_yield": ({"x86_64": 24, "aarch64": 124}, ()),
    "madvise": ({"x86_64": 28, "aarch64": 233}, (NOTHING, 0, 0)),
    "prctl": ({"x86_64": 157, "aarch64": 167}, (39, 0, 0, 0, 0)),  # PR_GET_NO_NEW_PRIVS
    "getrandom": ({"x86_64": 318, "aarch64": 278}, ({"buffer": 16}, 16, 0)),
    "clock_gettime": ({"x86_64": 228, "aarch64": 113}, (1, {"buffer": 16})),
    "uname": ({"x86_64": 63, "aarch64": 160}, ({"buffer": 6 * 65},)),
    "getcwd": ({"x86_64": 79, "aarch64": 17}, ({"buffer": 4096}, 4096)),
    "sched_getaffinity": ({"x86_64": 204, "aarch64": 123}, (0, 128, {"buffer": 128})),
    "read": ({"x86_64": 0, "aarch64": 63}, (0, {"buffer": 1}, 0)),
}
"""Calls the standard library makes, with arguments that succeed (a read of 0 bytes)."""


def probe_calls(machine: str) -> dict[str, list[Any]]:
    numbers = SYSCALL_NUMBERS[machine]
    calls = {
        name: [numbers[name], list(arguments)]
        for name, arguments in REFUSED.items()
        if name in numbers
    }
    for name, (by_machine, arguments) in ALLOWED.items():
        calls[name] = [by_machine[machine], list(arguments)]
    return calls


def test_a_box_refuses_exactly_the_listed_calls_and_python_still_works(
    boxed_arena: Arena,
) -> None:
    machine = platform.machine()
    if machine not in SYSCALL_NUMBERS:
        pytest.skip(f"no system call numbers for {machine}")
    calls = probe_calls(machine)
    probe = boxed_arena.hostile("syscall_probe", attack_turn=0, calls=calls)
    record = boxed_arena.play(probe, RANDOM, limits={"first_turn_seconds": 20})
    assert_no_fault(record)
    found = only_report(record.seats[0].log)
    refused = {name for name, number in found["errno"].items() if number == errno.ENOSYS}
    assert refused == set(REFUSED) & set(calls)
    assert {name: found["errno"][name] for name in ALLOWED} == dict.fromkeys(ALLOWED, 0)
    assert found["python"] == dict.fromkeys(found["python"], "ok")
