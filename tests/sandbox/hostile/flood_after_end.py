"""Plays a clean match, then answers the `end` message by writing to stdout and stderr
without end, from several threads at once through pipes made as large as they can be,
so the referee never finds them empty. Expected: the match still finishes promptly,
the referee keeps only a bounded amount of either, and the log stays cut at
`log_bytes`."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from agon_bot import Bot, run

PARAMS: dict[str, Any] = json.loads((Path(__file__).parent / "params.json").read_text())
Path("/proc/self/comm").write_text(PARAMS["marker"])


F_SETPIPE_SZ = 1031


def pour(fd: int) -> NoReturn:
    junk = b"y" * 65536
    while True:
        os.write(fd, junk)


class FloodAfterEnd(Bot):
    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        return legal_actions[0]

    def end(self, result: dict[str, Any]) -> None:
        fds = [fd for fd, name in ((1, "stdout"), (2, "stderr")) if name in PARAMS["streams"]]
        for fd in fds:
            with contextlib.suppress(OSError):  # 1 MiB is the most a user may ask for
                fcntl.fcntl(fd, F_SETPIPE_SZ, 1 << 20)
            for _ in range(3):
                threading.Thread(target=pour, args=(fd,), daemon=True).start()
        threading.Event().wait()


if __name__ == "__main__":
    run(FloodAfterEnd())
