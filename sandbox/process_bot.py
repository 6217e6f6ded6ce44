"""A bot program run as a child process that speaks the bot protocol.

This is the `none` backend: the program runs with the caller's rights, so it is only
for trusted local code. Boxed backends reuse the same conversation over their own pipes.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.core import JSON
from engine.players import Bot, BotFault
from sandbox import protocol

LOG_LIMIT_BYTES = 256 * 1024


class ProcessBot(Bot):
    def __init__(
        self, argv: Sequence[str], *, cwd: Path, env: dict[str, str], turn_timeout: float = 10.0
    ) -> None:
        self.argv = list(argv)
        self.cwd = cwd
        self.env = env
        self.turn_timeout = turn_timeout
        self.turn = 0
        self._log = tempfile.TemporaryFile()  # noqa: SIM115 - closed in close()
        self._buffer = b""
        self._process: subprocess.Popen[bytes] | None = None

    def _spawn(self) -> subprocess.Popen[bytes]:
        if self._process is None:
            self._process = subprocess.Popen(  # noqa: S603 - argv is ours, not a shell line
                self.argv,
                cwd=self.cwd,
                env=self.env,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._log,
                start_new_session=True,
            )
        return self._process

    def _send(self, message: dict[str, JSON]) -> None:
        stdin = self._spawn().stdin
        if stdin is None:
            raise RuntimeError("the bot process has no stdin pipe")
        try:
            stdin.write(protocol.encode(message))
            stdin.flush()
        except (BrokenPipeError, OSError):
            raise BotFault("crash", self._exit_detail()) from None

    def _read_line(self, timeout: float) -> bytes:
        stdout = self._spawn().stdout
        if stdout is None:
            raise RuntimeError("the bot process has no stdout pipe")
        deadline = time.monotonic() + timeout
        fd = stdout.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                if len(self._buffer) > protocol.MAX_MESSAGE_BYTES:
                    raise BotFault(
                        "output_limit", f"a line longer than {protocol.MAX_MESSAGE_BYTES} bytes"
                    )
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise BotFault("timeout", f"no answer within {timeout:g} s")
                if not selector.select(remaining):
                    continue
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise BotFault("crash", self._exit_detail())
                self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line

    def _exit_detail(self) -> str:
        process = self._process
        code = process.wait(timeout=5) if process is not None else None
        tail = self.log()[-500:].strip()
        return f"the program exited with code {code}" + (
            f"; last log lines: {tail}" if tail else ""
        )

    def start(self, info: dict[str, JSON]) -> None:
        self._send(protocol.start_message(info))

    def act(self, observation: JSON, legal_actions: Sequence[JSON]) -> Any:
        self._send(protocol.turn_message(self.turn, observation, legal_actions, None))
        self.turn += 1
        return protocol.parse_reply(self._read_line(self.turn_timeout))

    def end(self, result: dict[str, JSON]) -> None:
        try:
            self._send(protocol.end_message(result))
        finally:
            self.close()

    def log(self) -> str:
        self._log.seek(0)
        return self._log.read(LOG_LIMIT_BYTES).decode("utf-8", "replace")

    def close(self) -> None:
        process = self._process
        if process is None or process.poll() is not None:
            return
        if process.stdin:
            process.stdin.close()
        try:
            process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
