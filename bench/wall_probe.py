"""Monotonic timestamps of a match's steps, for bench/match_wall.py: a Celery app module.

`celery --app agon_wall_probe worker ...` (match_wall.py copies this file under that
name beside the worker, so that it runs on top of any checkout's code, old or new) loads
the platform's app and wraps the functions a match goes through, writing one line per
step to a file of its own process in AGON_WALL_PROBE_DIR: `match step time pid value`.
CLOCK_MONOTONIC is the machine's, so the bench's own lines and every worker process's
line up. Nothing here changes what the wrapped functions do; a function a checkout
lacks is left out (its step is then missing from the split).
"""

from __future__ import annotations

import functools
import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, SupportsIndex

PROBE_DIR_ENV = "AGON_WALL_PROBE_DIR"

_current = {"match": 0}
_files: dict[int, Any] = {}
_writing = threading.Lock()
"""A match opens its boxes in threads: their lines must not mix."""


def record(step: str, match_id: int | None = None, value: float = 0.0) -> None:
    """One line: the match (this process's current one if not given), the step, now."""
    now = time.monotonic()
    pid = os.getpid()
    out = _files.get(pid)
    if out is None:
        folder = Path(os.environ[PROBE_DIR_ENV])
        out = _files[pid] = (folder / f"probe-{pid}.log").open("a", buffering=1)
    match = _current["match"] if match_id is None else match_id
    with _writing:
        out.write(f"{match} {step} {now:.6f} {pid} {value:.6f}\n")


def _wrap(owner: Any, name: str, before: str | None, after: str | None) -> None:
    """Record `before` as `owner.name` is called and `after` as it returns."""
    original = getattr(owner, name, None)
    if original is None:
        return

    @functools.wraps(original)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if before:
            record(before)
        try:
            return original(*args, **kwargs)
        finally:
            if after:
                record(after)

    setattr(owner, name, wrapper)


def _timed(owner: Any, name: str, step: str) -> None:
    """Record `step` with how long each call of `owner.name` took, at its return."""
    original = getattr(owner, name, None)
    if original is None:
        return

    @functools.wraps(original)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        began = time.monotonic()
        try:
            return original(*args, **kwargs)
        finally:
            record(step, value=time.monotonic() - began)

    setattr(owner, name, wrapper)


def _sleeps(
    original: Callable[[float], None],
) -> Callable[[float | SupportsIndex], None]:
    """time.sleep, recording each sleep of a match's referee with the module asleep."""

    def sleep(seconds: float | SupportsIndex) -> None:
        began = time.monotonic()
        original(float(seconds))
        if _current["match"]:
            caller = sys._getframe(1).f_globals.get("__name__", "?")
            record(f"sleep:{caller}", value=time.monotonic() - began)

    return sleep


def install_worker_probes() -> None:
    """Wrap the match's steps in this (worker) process; its pool processes inherit them."""
    from celery.signals import task_postrun, task_prerun, task_received

    from agon.matches import services
    from sandbox import referee, runner
    from sandbox.cgroups import BoxCgroup

    def received(request: Any, **kwargs: Any) -> None:
        args = request.args if isinstance(request.args, list | tuple) else []
        record("received", int(args[0]) if args and isinstance(args[0], int) else -1)

    def prerun(args: Any = (), **kwargs: Any) -> None:
        match = args[0] if args and isinstance(args[0], int) else -1
        _current["match"] = match
        record("prerun")

    def postrun(**kwargs: Any) -> None:
        record("postrun")
        _current["match"] = 0

    task_received.connect(received, weak=False)
    task_prerun.connect(prerun, weak=False)
    task_postrun.connect(postrun, weak=False)
    _wrap(services, "match_claim", None, "claimed")
    _wrap(services, "run_match", "run_start", "run_end")
    _wrap(runner, "play_match", "boxes_up", "played")
    _wrap(services, "_finish", "finish_start", "finish_committed")
    _wrap(services, "store_finished_timeline", None, "timeline_stored")
    _timed(referee.BoxBot, "act", "turn")
    _timed(referee.BoxBot, "end", "end")
    _timed(referee.BoxBot, "close", "close")
    _timed(runner, "unpack_bot", "unpack")
    _timed(BoxCgroup, "freeze", "freeze")
    _timed(BoxCgroup, "thaw", "thaw")
    _timed(BoxCgroup, "__init__", "cgroup_made")
    _timed(BoxCgroup, "remove", "cgroup_removed")
    original_act = referee.BoxBot.act

    @functools.wraps(original_act)
    def act(self: Any, *args: Any, **kwargs: Any) -> Any:
        reply = original_act(self, *args, **kwargs)
        record("move")
        return reply

    referee.BoxBot.act = act  # type: ignore[method-assign]
    time.sleep = _sleeps(time.sleep)
    from sandbox import fork_server
    from sandbox.backends import base, bwrap

    _timed(bwrap.BwrapBackend, "open", "box_open")
    _timed(base.ProcessBox, "close", "box_close")
    _timed(fork_server.ForkedBox, "close", "box_close")
    _timed(BoxCgroup, "kill_all", "cgroup_kill_all")


def _on_worker_init(**kwargs: Any) -> None:
    """Once Django is set up, before the pool processes are forked."""
    import django  # the worker's own set-up, which the probes' imports need

    django.setup()
    install_worker_probes()


if os.environ.get(PROBE_DIR_ENV) and __name__ != "__main__":
    from celery.signals import worker_init

    from agon.celery import app

    worker_init.connect(_on_worker_init, weak=False)
    __all__ = ["app"]
