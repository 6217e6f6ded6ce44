"""A progress bar on standard error for long commands (`match`, `tournament`, `submit`,
`test`): rich's where rich is installed (the platform), else one line rewritten in place
(the bot kit, which installs no other package). Either is silent when standard error is
not a terminal."""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import Any, TextIO


class LineProgress:
    """The part of rich's `Progress` the commands use, as one line: `description
    completed/total elapsed`, or `description elapsed` for a total of None (something
    that is not counted, only waited for)."""

    def __init__(
        self, total: int | None, description: str, *, stream: TextIO | None = None
    ) -> None:
        self.stream = stream or sys.stderr
        self.shown = self.stream.isatty()
        self.total = total
        self.completed = 0
        self.description = description
        self.started = time.monotonic()
        self.task_ids = [0]
        self.console = self

    def __enter__(self) -> LineProgress:
        self._draw()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()

    def update(
        self,
        task: int,
        *,
        total: int | None = None,
        completed: int | None = None,
        description: str | None = None,
    ) -> None:
        if total is not None:
            self.total = total
        if completed is not None:
            self.completed = completed
        if description is not None:
            self.description = description
        self._draw()

    def advance(self, task: int, amount: int = 1) -> None:
        self.update(task, completed=self.completed + amount)

    def print(self, *parts: object) -> None:
        """A line above the bar (rich's `progress.console.print`)."""
        if self.shown:
            self.stream.write("\r\033[K")
        print(*parts, file=self.stream)
        self._draw()

    def _draw(self) -> None:
        if not self.shown:
            return
        elapsed = int(time.monotonic() - self.started)
        of = f"/{self.total}" if self.total else ""
        count = "" if self.total is None else f" {self.completed}{of}"
        line = f"{self.description}{count} {elapsed // 60}:{elapsed % 60:02d}"
        self.stream.write(f"\r\033[K{line}")
        self.stream.flush()


def progress_bar(total: int | None, description: str) -> Any:
    """A bar on standard error when it is a terminal, nothing otherwise; for a total of
    None, a spinner and the time taken."""
    try:
        # rich if installed: the platform has it, the bot kit does not.
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            ProgressColumn,
            SpinnerColumn,
            TextColumn,
            TimeElapsedColumn,
        )
    except ImportError:  # the bot kit: no rich
        return LineProgress(total, description)
    counted: tuple[ProgressColumn, ...] = (BarColumn(), MofNCompleteColumn())
    progress = Progress(
        TextColumn("{task.description}"),
        *(counted if total is not None else (SpinnerColumn(),)),
        TimeElapsedColumn(),
        console=Console(file=sys.stderr),
        disable=not sys.stderr.isatty(),
        transient=True,
    )
    progress.add_task(description, total=total)
    return progress
