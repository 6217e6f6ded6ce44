"""Helpers of the operations tests: reading a metrics page, addresses that fail, and
the web app under gunicorn."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

from tests.platform.pipeline import support as pipeline


def metric(text: str, name: str, **labels: str) -> float:
    """The sum of the samples called `name` whose labels include these; 0 if none."""
    total = 0.0
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                total += sample.value
    return total


def has_metric(text: str, name: str) -> bool:
    return any(
        sample.name == name
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    )


def closed_port() -> int:
    """A local TCP port nothing listens on (it was free a moment ago)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@contextlib.contextmanager
def silent_server() -> Iterator[int]:
    """A local port that accepts connections (the kernel completes them) and never
    answers: a hung server. Its port while the block runs."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.bind(("127.0.0.1", 0))
        server.listen(16)
        yield server.getsockname()[1]


@contextlib.contextmanager
def gunicorn(
    env: dict[str, str], log: Path, *, workers: int = 2, args: Sequence[str] = ()
) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """The web app under gunicorn, as `agon up` serves it, with `workers` workers and
    this environment; its process and URL once it answers /healthz. Stopped gracefully,
    then by force, at the end. Its output goes to `log`."""
    port = closed_port()
    with log.open("wb") as output:
        process = subprocess.Popen(  # noqa: S603 - a fixed argv
            [
                sys.executable,
                "-m",
                "gunicorn",
                "agon.wsgi",
                "--workers",
                str(workers),
                "--bind",
                f"127.0.0.1:{port}",
                "--no-control-socket",
                *args,
            ],
            cwd=pipeline.REPO_DIR,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"

    def answers() -> bool:
        assert process.poll() is None, log.read_text(errors="replace")[-4000:]
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=5):  # noqa: S310 - local
                return True
        except OSError:
            return False

    try:
        pipeline.wait_for(answers, timeout=60, what="gunicorn to answer")
        yield process, url
    finally:
        process.send_signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=15)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
