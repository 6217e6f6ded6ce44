"""Health checks: can this process reach the database and the broker, and (on a worker)
can it box a bot and play a match?

`GET /healthz` runs the first two (cheap: no sandbox in the web process); `agon health`
runs them too, and `agon health --worker` adds the sandbox self-test. Each check is
bounded: the database and broker checks open a fresh connection with a connect timeout
and are given up after AGON_HEALTH_TIMEOUT_SECONDS whatever happens (a server that
accepts connections but never answers included); the self-test plays one short match
under the referee's limits, and `run_match` removes every box it made.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import connections
from django.db.utils import load_backend

from agon.celery import app
from agon.ops.errors import describe_error
from agon.sandboxing import (
    Program,
    bwrap_box_path,
    fork_server_running,
    run_match,
    stop_fork_server,
)
from engine.match import fault_reason

SELF_TEST_GAME = "architekton"
SELF_TEST_SEED = 1
SELF_TEST_BOT = b'''\
"""Agon's sandbox self-test: the first legal action, every turn."""

from agon_bot import run


def act(observation, legal_actions):
    return legal_actions[0]


if __name__ == "__main__":
    run(act)
'''
"""Played in a box against a builtin bot (builtin bots run in the referee, unboxed)."""


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    seconds: float
    error: str = ""
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        shown: dict[str, Any] = {"ok": self.ok, "seconds": round(self.seconds, 4)}
        if self.error:
            shown["error"] = self.error
        return {**shown, **self.details}


@dataclass(frozen=True)
class Health:
    checks: list[Check]

    @property
    def ok(self) -> bool:
        return all(check.ok for check in self.checks)

    @property
    def failed(self) -> list[str]:
        return [check.name for check in self.checks if not check.ok]

    def to_json(self) -> dict[str, Any]:
        report: dict[str, Any] = {"status": "ok" if self.ok else "failing"}
        if not self.ok:
            report["failed"] = self.failed
        report["checks"] = {check.name: check.to_json() for check in self.checks}
        return report


def _timed(name: str, probe: Callable[[], dict[str, Any]], *, timeout: float | None) -> Check:
    """Run `probe` (details on success, an exception on failure). With a timeout it runs
    in a daemon thread that is given up on after `timeout` seconds: the caller gets an
    answer in time even if a socket hangs, and the thread ends with its own connect
    timeout without keeping the process alive."""
    started = time.monotonic()
    outcome: dict[str, Any] = {}

    def attempt() -> None:
        try:
            outcome["details"] = probe()
        except Exception as error:  # any failure is the check's answer
            outcome["error"] = describe_error(error)

    if timeout is None:
        attempt()
    else:
        thread = threading.Thread(target=attempt, name=f"agon-health-{name}", daemon=True)
        thread.start()
        thread.join(timeout)
        if thread.is_alive():
            outcome = {"error": f"no answer within {timeout:g} s"}
    seconds = time.monotonic() - started
    if "error" in outcome:
        return Check(name, ok=False, seconds=seconds, error=outcome["error"])
    return Check(name, ok=True, seconds=seconds, details=outcome.get("details", {}))


def _probe_database(alias: str, timeout: float) -> dict[str, Any]:
    """`SELECT 1` over a new connection (not this thread's: it may be fine while new
    ones fail, and a new one can be given a connect timeout)."""
    settings_dict = dict(connections[alias].settings_dict)
    options = dict(settings_dict.get("OPTIONS") or {})
    vendor = connections[alias].vendor
    if vendor == "postgresql":
        # libpq counts whole seconds, at least 2.
        options["connect_timeout"] = max(2, math.ceil(timeout))
        options.pop("pool", None)  # a connection of its own, not one from a pool
    settings_dict["OPTIONS"] = options
    wrapper = load_backend(settings_dict["ENGINE"]).DatabaseWrapper(settings_dict, alias)
    try:
        with wrapper.cursor() as cursor:
            cursor.execute("SELECT 1")
            (one,) = cursor.fetchone()
        if one != 1:
            raise RuntimeError(f"SELECT 1 gave {one!r}")
    finally:
        wrapper.close()
    return {"vendor": vendor}


def check_database(*, timeout: float | None = None, alias: str = "default") -> Check:
    limit = settings.AGON_HEALTH_TIMEOUT_SECONDS if timeout is None else timeout
    return _timed("database", lambda: _probe_database(alias, limit), timeout=limit)


def _probe_broker(timeout: float) -> dict[str, Any]:
    # The URL and options from the settings as they are now (Celery's copy is read once).
    with app.connection_for_write(
        url=settings.CELERY_BROKER_URL,
        connect_timeout=timeout,
        transport_options={**settings.CELERY_BROKER_TRANSPORT_OPTIONS, "socket_timeout": timeout},
    ) as connection:
        connection.ensure_connection(
            max_retries=0, interval_start=0, interval_step=0, timeout=math.ceil(timeout)
        )
        transport = connection.transport.driver_type
        if transport == "redis":
            # The connection is made lazily: a round trip proves the server answers.
            channel: Any = connection.default_channel
            channel.client.ping()
    return {"transport": transport}


def check_broker(*, timeout: float | None = None) -> Check:
    limit = settings.AGON_HEALTH_TIMEOUT_SECONDS if timeout is None else timeout
    return _timed("broker", lambda: _probe_broker(limit), timeout=limit)


def _probe_sandbox() -> dict[str, Any]:
    backend = settings.AGON_SANDBOX
    if backend == "none" and not settings.AGON_ALLOW_UNSANDBOXED:
        raise RuntimeError(
            "AGON_SANDBOX is none and AGON_ALLOW_UNSANDBOXED is off: this worker would "
            "refuse every match"
        )
    settings.AGON_WORK_DIR.mkdir(parents=True, exist_ok=True)
    had_a_fork_server = fork_server_running()
    try:
        record = run_match(
            game_id=SELF_TEST_GAME,
            seed=SELF_TEST_SEED,
            options={},
            programs=[
                Program(bot_id="self-test", package=SELF_TEST_BOT, filename="main.py"),
                Program.builtin("random"),
            ],
            sandbox=backend,
            workdir=settings.AGON_WORK_DIR,
        )
        boxes = bwrap_box_path() if record.backend == "bwrap" else None
    finally:
        if not had_a_fork_server:  # the self-test leaves nothing it started running
            stop_fork_server()
    boxed = record.seats[0]
    if record.replay.faults:
        fault = record.replay.faults[0]
        log = " | ".join(boxed.log.strip().splitlines()[-3:])
        raise RuntimeError(
            f"the boxed bot faulted ({fault_reason(fault)})"
            + (f"; its log ends: {log}" if log else "")
        )
    if boxed.turns == 0:
        raise RuntimeError("the boxed bot played no turn")
    return {
        "backend": record.backend,
        **({"boxes": boxes} if boxes is not None else {}),
        "game": SELF_TEST_GAME,
        "turns": boxed.turns,
        "match_seconds": round(record.match_seconds, 4),
    }


def check_sandbox() -> Check:
    """A real match through the configured backend (AGON_SANDBOX): a boxed bot against a
    builtin one, which must end without a fault. Bounded by the referee's limits rather
    than a thread: the match must run to its end so that its boxes are removed."""
    return _timed("sandbox", _probe_sandbox, timeout=None)


def health(*, sandbox: bool = False) -> Health:
    """The database and broker checks, and the sandbox self-test if asked for."""
    checks = [check_database(), check_broker()]
    if sandbox:
        checks.append(check_sandbox())
    return Health(checks)
