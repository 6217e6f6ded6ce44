"""The box's seccomp filter, read without a kernel: a small interpreter of classic BPF
runs it on system calls, and the call numbers are checked against the kernel's headers
(where linux-libc-dev installed them; a call newer than the headers is not checked)."""

from __future__ import annotations

import errno
import re
import struct
from pathlib import Path

import pytest

from sandbox import seccomp

HEADERS = {
    "x86_64": Path("/usr/include/x86_64-linux-gnu/asm/unistd_64.h"),
    "aarch64": Path("/usr/include/asm-generic/unistd.h"),
}
DEFINE = re.compile(r"^#define __NR(?:3264)?_(\w+)\s+(\d+)\s*$", re.MULTILINE)
REFUSED_WITH_ENOSYS = seccomp.FAIL | errno.ENOSYS


def run_filter(program: bytes, arch: int, number: int) -> int:
    """What the kernel would do with the call: the filter's return value."""
    accumulator: int = 0
    position = 0
    instructions = [struct.unpack("=HBBI", program[i : i + 8]) for i in range(0, len(program), 8)]
    data = struct.pack("=iI", number, arch)
    while True:
        code, if_true, if_false, k = instructions[position]
        position += 1
        if code == seccomp.LOAD_WORD:
            accumulator = struct.unpack_from("=I", data, k)[0]
        elif code == seccomp.JUMP_IF_EQUAL:
            position += if_true if accumulator == k else if_false
        elif code == seccomp.JUMP_IF_AT_LEAST:
            position += if_true if accumulator >= k else if_false
        elif code == seccomp.RETURN:
            return int(k)
        else:
            raise AssertionError(f"unknown instruction {code:#x}")


@pytest.mark.parametrize("machine", sorted(seccomp.HOSTS))
def test_the_filter_refuses_every_listed_call_and_allows_the_rest(machine: str) -> None:
    program = seccomp.box_filter(machine)
    assert program is not None
    arch = seccomp.HOSTS[machine][0]
    refused = set(seccomp.refused_numbers(machine).values())
    for number in range(512):
        expected = REFUSED_WITH_ENOSYS if number in refused else seccomp.ALLOW
        assert run_filter(program, arch, number) == expected, number


@pytest.mark.parametrize("machine", sorted(seccomp.HOSTS))
def test_the_filter_refuses_calls_of_another_abi(machine: str) -> None:
    program = seccomp.box_filter(machine)
    assert program is not None
    i386 = 0x40000003
    assert run_filter(program, i386, 0) == REFUSED_WITH_ENOSYS
    if machine == "x86_64":  # x32 calls share the architecture, with a bit set
        arch = seccomp.HOSTS[machine][0]
        assert run_filter(program, arch, seccomp.X32_BIT | 20) == REFUSED_WITH_ENOSYS


def test_every_refused_call_has_a_number_on_x86_64() -> None:
    assert set(seccomp.refused_numbers("x86_64")) == set(seccomp.REFUSED)


def test_an_unknown_machine_gets_no_filter() -> None:
    assert seccomp.box_filter("riscv64") is None


@pytest.mark.parametrize("machine", sorted(HEADERS))
def test_the_call_numbers_are_the_kernels(machine: str) -> None:
    header = HEADERS[machine]
    if not header.exists():
        pytest.skip(f"{header} is not installed (Debian package: linux-libc-dev)")
    defined = {name: int(number) for name, number in DEFINE.findall(header.read_text())}
    ours = seccomp.SYSCALL_NUMBERS[machine]
    assert {name: defined[name] for name in ours if name in defined} == {
        name: number for name, number in ours.items() if name in defined
    }
    assert len(set(ours) & set(defined)) > len(ours) - 5, "the header lacks too many calls"
