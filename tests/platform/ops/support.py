"""Helpers of the operations tests: reading a metrics page, and addresses that fail."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator

from prometheus_client.parser import text_string_to_metric_families


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
