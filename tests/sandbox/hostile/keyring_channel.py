"""Tries the kernel's keyrings as a channel between boxes: on its attack turn it adds a
key (`params["me"]`) to its session and user keyrings, which are not the box's but the
worker's session's and the user's; on the next it looks for the key the other seat
added (`params["other"]`) and reads it. Expected: every call refused with ENOSYS, so
nothing is written and nothing read."""

from __future__ import annotations

import ctypes
import errno
import itertools
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agon_bot import log, run

PARAMS: dict[str, Any] = json.loads((Path(__file__).parent / "params.json").read_text())
Path("/proc/self/comm").write_text(PARAMS["marker"])
TURNS = itertools.count()
LIBC = ctypes.CDLL(None, use_errno=True)
LIBC.syscall.restype = ctypes.c_long
NUMBERS: dict[str, int] = PARAMS["numbers"]
KEYRINGS = {"session": -3, "user": -4}  # KEY_SPEC_SESSION_KEYRING, KEY_SPEC_USER_KEYRING
KEYCTL_SET_TIMEOUT, KEYCTL_SEARCH, KEYCTL_READ = 15, 10, 11


def call(name: str, *arguments: Any) -> tuple[int, str]:
    """The call's result, and "" or why it failed."""
    ctypes.set_errno(0)
    result = LIBC.syscall(ctypes.c_long(NUMBERS[name]), *arguments)
    if result == -1:
        number = ctypes.get_errno()
        return result, f"refused: {errno.errorcode.get(number, number)}"
    return result, ""


def add(keyring: int) -> str:
    payload = b"the other seat holds three temples"
    key, failure = call(
        "add_key", b"user", PARAMS["me"].encode(), payload, ctypes.c_size_t(len(payload)),
        ctypes.c_long(keyring),
    )  # fmt: skip
    if failure:
        return failure
    call("keyctl", ctypes.c_long(KEYCTL_SET_TIMEOUT), ctypes.c_long(key), ctypes.c_long(30))
    return f"added key {key}"


def read(keyring: int) -> str:
    key, failure = call(
        "keyctl", ctypes.c_long(KEYCTL_SEARCH), ctypes.c_long(keyring), b"user",
        PARAMS["other"].encode(), ctypes.c_long(0),
    )  # fmt: skip
    if failure:
        return failure
    buffer = ctypes.create_string_buffer(256)
    size, failure = call(
        "keyctl", ctypes.c_long(KEYCTL_READ), ctypes.c_long(key), buffer, ctypes.c_long(256)
    )
    return failure or f"read: {buffer.raw[:size]!r}"


def act(observation: Any, legal_actions: Sequence[Any]) -> Any:
    turn = next(TURNS)
    if turn == PARAMS["attack_turn"]:
        log("REPORT " + json.dumps({name: add(ring) for name, ring in KEYRINGS.items()}))
    elif turn == PARAMS["attack_turn"] + 1:
        log("REPORT " + json.dumps({name: read(ring) for name, ring in KEYRINGS.items()}))
    return legal_actions[0]


if __name__ == "__main__":
    run(act)
