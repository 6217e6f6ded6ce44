"""The command line of a Celery worker of this app: `agon up`, the pipeline tests and the
pipeline benches start theirs from here, so they run what production runs."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def worker_command(
    *, queues: Sequence[str], concurrency: int, hostname: str, alone: bool
) -> list[str]:
    """A prefork worker reading `queues` in that order (the first is served first).
    `alone`: the only worker on its broker, as with the embedded broker: no gossip, mingle
    or heartbeats (broadcasts between workers that would only leave files behind)."""
    command = [
        sys.executable,
        "-m",
        "celery",
        "--app",
        "agon.celery",
        "worker",
        "--queues",
        ",".join(dict.fromkeys(queues)),
        "--concurrency",
        str(concurrency),
        "--pool",
        "prefork",
        "--hostname",
        hostname,
        "--loglevel",
        "INFO",
    ]
    if alone:
        command += ["--without-gossip", "--without-mingle", "--without-heartbeat"]
    return command
