"""Tries to reach the network: the test's TCP listener on 127.0.0.1 and on the host's
own addresses, its abstract unix socket, an outside address, and DNS.
Expected: every attempt fails inside the box; the listeners see no connection."""

from __future__ import annotations

import itertools
import json
import socket
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from agon_bot import log, run

PARAMS: dict[str, Any] = json.loads((Path(__file__).parent / "params.json").read_text())
Path("/proc/self/comm").write_text(PARAMS["marker"])
TURNS = itertools.count()


def attempt(connect: Callable[[], object]) -> str:
    try:
        connect()
    except OSError as error:
        return f"blocked: {type(error).__name__}: {error}"
    return "connected"


def tcp(host: str, port: int) -> Callable[[], object]:
    return lambda: socket.create_connection((host, port), timeout=0.5)


def unix_abstract(name: str) -> Callable[[], object]:
    def connect() -> None:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(0.5)
            sock.connect("\0" + name)

    return connect


def act(observation: Any, legal_actions: Sequence[Any]) -> Any:
    if next(TURNS) == PARAMS["attack_turn"]:
        port = PARAMS["port"]
        attempts = {f"tcp {host}:{port}": tcp(host, port) for host in PARAMS["hosts"]}
        attempts["tcp outside 1.1.1.1:53"] = tcp("1.1.1.1", 53)
        attempts["abstract unix socket"] = unix_abstract(PARAMS["abstract_socket"])
        attempts["dns example.com"] = lambda: socket.getaddrinfo("example.com", 80)
        log("REPORT " + json.dumps({name: attempt(go) for name, go in attempts.items()}))
    return legal_actions[0]


if __name__ == "__main__":
    run(act)
