"""A real local HTTP server that plays a webhook receiver: it records what it was sent
and answers as the test scripts it (fail, then recover; redirect; dawdle)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    url: str
    answers: list[tuple[int, dict[str, str], bytes]] = field(default_factory=list)
    """What to answer to each request in turn; the last one for every later request."""
    delay: float = 0.0
    received: list[Received] = field(default_factory=list)


@contextmanager
def receiver(*answers: tuple[int, dict[str, str], bytes], port: int = 0) -> Iterator[Receiver]:
    """A receiver on 127.0.0.1 at `port` (0: a free one), answering `answers` (200 by
    default)."""
    state = Receiver(url="", answers=list(answers) or [(200, {}, b"ok")])

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            state.received.append(Received(self.path, dict(self.headers.items()), body))
            index = min(len(state.received), len(state.answers)) - 1
            status, headers, answer = state.answers[index]
            if state.delay:
                time.sleep(state.delay)
            try:
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)
            except OSError:
                pass  # the client gave up first

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    state.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
