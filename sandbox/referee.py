"""The referee's side of one boxed bot: the protocol conversation, its clock and its log.

The bot gets CPU only during its own turns: the box is frozen from the moment it
answers until its next turn. Every failure becomes a `BotFault` the match records.
"""

from __future__ import annotations

import os
import re
import select
import selectors
import signal
import time
from collections.abc import Sequence

from engine.core import JSON, EncodedText, JSONValue
from engine.players import BotFault, Player
from sandbox import protocol
from sandbox.backends.base import Box
from sandbox.limits import Limits

END_GRACE_SECONDS = 0.5
EXIT_POLL_SECONDS = 0.001
EXIT_WAIT_SECONDS = 0.25
"""How long the end of a bot's stdout may precede its exit status while its log is still
open, before it counts as closed by a bot that lives on."""
EXIT_STATUS_SECONDS = 2.0
"""How long an ended program's exit status may take (a container engine's is slow)."""
MAX_TURN_LOG_OFFSETS = 10_000
"""The most turns whose log offsets are kept (a turn is one int; games end long before)."""


class BoxBot(Player):
    takes_encoded = True  # the observation goes down the pipe as text, unread

    def __init__(self, box: Box, limits: Limits) -> None:
        self.box = box
        self.limits = limits
        self.turns = 0
        self.bank = limits.time_bank_seconds
        self.thinking_seconds = 0.0
        self.slowest_turn_seconds = 0.0
        self._stdout = bytearray()
        self._stdout_scanned = 0
        """How much of `_stdout` is known to hold no newline: each byte is looked at once."""
        self._log = bytearray()
        self._log_dropped = 0
        self._turn_log_offsets: list[int] = []
        self._turn_milliseconds: list[int] = []
        self._frozen = False
        self._closed = False
        self._leave_by: float | None = None
        """Until when `close` waits for the bot to exit: set by `end`."""
        self.memory_peak_bytes: int | None = None
        self._selector = selectors.DefaultSelector()
        self._open_fds = {box.stdout_fd, box.stderr_fd}
        for fd in self._open_fds:
            self._selector.register(fd, selectors.EVENT_READ)
        # Writes wait for room in the pipe only until the bot's time is up: a bot can
        # shrink its stdin pipe to a page and stop reading.
        self._stdin_fd = box.stdin.fileno()
        os.set_blocking(self._stdin_fd, False)
        # Held still from the start: start-up is paid from the first turn's allowance,
        # and a box gets no CPU while the other boxes start or the seats before it play.
        self._freeze()

    # --- the conversation ------------------------------------------------------------

    def start(self, info: dict[str, JSONValue]) -> None:
        limits: dict[str, JSONValue] = {
            "turn_ms": round(self.limits.turn_seconds * 1000),
            "first_turn_ms": round(self.limits.first_turn_seconds * 1000),
            "time_bank_ms": round(self.limits.time_bank_seconds * 1000),
            "memory_bytes": self.limits.memory_bytes,
        }
        deadline = time.monotonic() + self.limits.first_turn_seconds
        self._send(protocol.start_message({**info, "limits": limits}), deadline)

    def act(self, observation: JSONValue | EncodedText, legal_actions: Sequence[JSON]) -> JSONValue:
        allowance = self.limits.first_turn_seconds if self.turns == 0 else self.limits.turn_seconds
        budget = allowance + self.bank
        message = protocol.turn_line(self.turns, observation, legal_actions, round(budget * 1000))
        # What the bot wrote since its last reply (it is frozen: all of it is in the pipe)
        # belongs to the turns before; this turn's log starts here.
        self._drain_log()
        if len(self._turn_log_offsets) < MAX_TURN_LOG_OFFSETS:
            self._turn_log_offsets.append(len(self._log))
        self.turns += 1
        self._thaw()
        started = time.monotonic()
        try:
            self._write(message, started + budget)
            line = self._read_reply(started + budget)
        finally:
            elapsed = time.monotonic() - started
            self._freeze()
            # A turn that ends in a fault took its time too.
            self.thinking_seconds += elapsed
            self.slowest_turn_seconds = max(self.slowest_turn_seconds, elapsed)
            if len(self._turn_milliseconds) < MAX_TURN_LOG_OFFSETS:
                self._turn_milliseconds.append(round(elapsed * 1000))
        self.bank -= max(0.0, elapsed - allowance)
        if self.bank < 0:
            # The reply came after the turn's deadline (allowance + bank), but before the
            # referee woke to see the deadline pass: on a loaded machine either may come
            # first, and the bot gets the same word whichever did.
            raise BotFault("timeout", "did not answer in time")
        return protocol.parse_reply(line)

    def end(self, result: dict[str, JSONValue]) -> None:
        """Tell the bot the result and let it run to leave: `close` waits for its exit
        until END_GRACE_SECONDS after this, then ends the box. A match tells every seat
        before it closes any, so the bots leave at the same time, not one after another
        (each exit was a wait of tens of milliseconds on every match's critical path)."""
        self._thaw()
        deadline = time.monotonic() + END_GRACE_SECONDS
        try:
            self._send(protocol.end_message(result), deadline)
        except BotFault:
            self.close()  # it cannot even be told: nothing to wait for
        else:
            self._leave_by = deadline

    def sandbox_failure(self) -> str | None:
        """Why the box failed for a reason of the sandbox's, not the bot's (a forked
        box whose server ended: `sandbox.fork_server.ForkedBox`); None for a box that
        depends on nothing outside it, as every other box."""
        failure = getattr(self.box, "sandbox_failure", None)
        return failure() if failure is not None else None

    def close(self) -> None:
        """End the box, once the bot has left or its time to leave (`end`) is up."""
        if self._closed:
            return
        self._closed = True
        deadline, self._leave_by = self._leave_by, None
        try:
            while deadline is not None and self.box.exit_code() is None:
                if time.monotonic() >= deadline:
                    break
                self._pump(deadline, want_line=False)
        except BotFault:
            pass
        finally:
            self._drain_log()
            self._selector.close()
            self.memory_peak_bytes = self.box.memory_peak()
            self.box.close()

    # --- pipes -----------------------------------------------------------------------

    def _send(self, message: dict[str, JSONValue], deadline: float) -> None:
        self._write(protocol.encode(message), deadline)

    def _write(self, line: bytes, deadline: float) -> None:
        data = memoryview(line)
        while data:
            try:
                data = data[os.write(self._stdin_fd, data) :]
            except BlockingIOError:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise BotFault("timeout", "did not read its messages in time") from None
                select.select([], [self._stdin_fd], [], remaining)
            except OSError:
                raise self._exit_fault() from None

    def _read_reply(self, deadline: float) -> bytes:
        """The bot's next line, refused as soon as it passes `message_bytes`: what the
        referee reads and keeps of a reply grows with it, never with the square of it."""
        while (end := self._stdout.find(b"\n", self._stdout_scanned)) < 0:
            self._stdout_scanned = len(self._stdout)
            if len(self._stdout) > self.limits.message_bytes:
                raise self._line_too_long()
            if time.monotonic() >= deadline:
                raise BotFault("timeout", "did not answer in time")
            self._pump(deadline, want_line=True)
        line = bytes(self._stdout[:end])
        del self._stdout[: end + 1]
        self._stdout_scanned = 0
        if len(line) > self.limits.message_bytes:
            raise self._line_too_long()
        if self._stdout.strip():
            raise BotFault("bad_output", "sent more than one line for one turn")
        return line

    def _line_too_long(self) -> BotFault:
        return BotFault(
            "output_limit",
            f"sent a line longer than {self.limits.message_bytes} bytes "
            "(the longest reply a bot may send)",
        )

    def _pump(self, deadline: float, *, want_line: bool) -> None:
        """Wait for output until the deadline; stdout is kept, stderr goes to the log."""
        if not self._open_fds:
            if want_line:
                raise self._exit_fault()
            # Its pipes are closed and it is about to exit: look again soon (a bot's exit is
            # part of every match, 10 ms a look was 3% of a short one).
            time.sleep(max(0.0, min(EXIT_POLL_SECONDS, deadline - time.monotonic())))
            return
        remaining = max(0.0, deadline - time.monotonic())
        for key, _ in self._selector.select(remaining):
            chunk = os.read(key.fd, 65536)
            if not chunk:
                self._selector.unregister(key.fd)
                self._open_fds.discard(key.fd)
                if key.fd == self.box.stdout_fd and want_line:
                    raise self._exit_fault()
            elif key.fd == self.box.stderr_fd:
                self._keep_log(chunk)
            elif want_line:
                self._stdout += chunk
            # else: the match is over, and what the bot still prints is no answer to keep

    def _keep_log(self, chunk: bytes) -> None:
        room = max(0, self.limits.log_bytes - len(self._log))
        self._log += chunk[:room]
        self._log_dropped += max(0, len(chunk) - room)

    def _read_log_chunk(self) -> bool:
        """Read the log pipe once if it has something (or has ended), without waiting;
        whether it had."""
        fd = self.box.stderr_fd
        if fd not in self._open_fds or not any(key.fd == fd for key, _ in self._selector.select(0)):
            return False
        chunk = os.read(fd, 65536)
        if not chunk:
            self._selector.unregister(fd)
            self._open_fds.discard(fd)
        self._keep_log(chunk)
        return True

    def _drain_log(self) -> None:
        """Read what the log pipe holds now, without waiting."""
        while self._read_log_chunk():
            pass

    def _exit_fault(self) -> BotFault:
        """The bot's stdout has ended: it exited, was killed, or closed it and lives on.

        The fault is public (replays, match pages): it says how the program ended, with
        the exception's type at most, and never quotes the log, which is its owner's."""
        waited = time.monotonic()
        while self.box.exit_code() is None:
            self._read_log_chunk()
            alive = self.box.stderr_fd in self._open_fds  # a live program still holds it
            elapsed = time.monotonic() - waited
            if elapsed >= EXIT_STATUS_SECONDS or (alive and elapsed >= EXIT_WAIT_SECONDS):
                break
            time.sleep(0.005)
        self._drain_log()
        if self.box.oom_killed():
            return BotFault("memory", f"ran out of its {self.limits.memory_bytes} bytes of memory")
        code = self.box.exit_code()
        if code is None:
            return BotFault("crash", "closed its output and kept running")
        error = exception_type(bytes(self._log))
        return BotFault("crash", how_it_ended(code) + (f" after raising {error}" if error else ""))

    def _freeze(self) -> None:
        if not self._frozen and self.box.exit_code() is None:
            self.box.freeze()
            self._frozen = True

    def _thaw(self) -> None:
        if self._frozen:
            self.box.thaw()
            self._frozen = False

    # --- what the owner sees ---------------------------------------------------------

    def log(self) -> str:
        """The log as text to read (what could not be decoded is replaced)."""
        text = self._log.decode("utf-8", "replace")
        if self._log_dropped:
            text += f"\n[agon: {self._log_dropped} more bytes of log were dropped]\n"
        return text

    def log_bytes(self) -> bytes:
        """The log as the bot wrote it, byte for byte, up to `log_bytes`."""
        return bytes(self._log)

    @property
    def log_dropped_bytes(self) -> int:
        return self._log_dropped

    def turn_milliseconds(self) -> list[int]:
        """How long each turn took, in milliseconds, from the turn message sent to the
        reply read (a turn that ended in a fault too): the dataset's time per decision."""
        return list(self._turn_milliseconds)

    def turn_log_offsets(self) -> list[int]:
        """Where each turn's log begins in `log_bytes()`: turn k wrote
        `log_bytes()[offsets[k]:offsets[k + 1]]` (the last one, to the end). The box runs
        from its first turn on, so what it writes while starting is its first turn's."""
        return list(self._turn_log_offsets)


def how_it_ended(code: int) -> str:
    """An exit status in words: a negative code is a signal (a child of the referee),
    128 + N the shell's and container engines' way of saying signal N."""
    if code < 0:
        return f"the program was killed by {_signal_name(-code)}"
    if code > 128 and _signal_name(code - 128).startswith("SIG"):
        return f"the program exited with code {code} ({_signal_name(code - 128)})"
    return f"the program exited with code {code}"


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


TRACEBACK_START = b"Traceback (most recent call last):"
EXCEPTION_LINE = re.compile(rb"([A-Za-z_][A-Za-z0-9_.]{0,99})(?::|$)")


def exception_type(log: bytes) -> str | None:
    """The exception a Python program died of, as a bare (dotted) name, from its log's
    final line after a traceback; None when the log does not end that way."""
    if TRACEBACK_START not in log:
        return None
    lines = log.rstrip().rsplit(b"\n", 1)
    found = EXCEPTION_LINE.match(lines[-1].strip())
    return found.group(1).decode() if found else None
