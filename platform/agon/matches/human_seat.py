"""A seat played by a person in the browser, as the referee sees it: a `Player` whose
`act` asks the database and waits.

The match's task plays a human game like any other match, on a worker, the bots in
their boxes (frozen between their turns, so frozen all the while the human thinks).
When the human's turn comes, `HumanSeat.act` writes a `HumanTurn` row (the seat's
observation, its legal actions, a deadline) and polls that row for the move the web
writes into it, first every 50 ms, then less and less often, at most every 0.5 s. The
database is the channel because it is the one both sides share on every installation
(SQLite and the file-system broker as well as PostgreSQL and Redis).

No move by the deadline is a timeout like a bot's: the seat faults, the match's stand-in
plays its remaining moves at once, and the game ends and is stored as any other; the
pool process is free again.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from datetime import timedelta

from django.utils import timezone

from agon.matches.models import HumanTurn
from engine.core import JSON
from engine.players import BotFault, Player

POLL_FIRST_SECONDS = 0.05
POLL_MAX_SECONDS = 0.5
POLL_GROWTH = 1.5
MAX_LEGAL_ACTIONS = 50_000
"""More legal actions than any game's position has had (Akropolis' widest is a few
thousand): a bound on the row, not a rule."""


class HumanSeat(Player):
    """A human's seat: each turn a `HumanTurn` row, answered from the browser."""

    def __init__(
        self,
        *,
        match_id: int,
        seat: int,
        turn_seconds: float,
        game_seconds: float,
        before_waiting: Callable[[], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        poll_first: float = POLL_FIRST_SECONDS,
        poll_max: float = POLL_MAX_SECONDS,
    ) -> None:
        self.match_id = match_id
        self.seat = seat
        self.turn_seconds = turn_seconds
        self.clock = clock
        self.sleep = sleep
        self.game_ends = clock() + game_seconds
        self.before_waiting = before_waiting
        self.poll_first = poll_first
        self.poll_max = poll_max
        self.number = 0
        self.waited_seconds = 0.0
        """Wall time spent waiting for the human: what the game holds of its worker."""
        self.waiting_cpu_seconds = 0.0
        """The CPU time of the thread that waited (polling the row): the pool process's."""
        self.polls = 0

    def act(self, observation: JSON, legal_actions: Sequence[JSON]) -> JSON:
        allowed = min(self.turn_seconds, self.game_ends - self.clock())
        if allowed <= 0:
            raise BotFault("timeout", "the human game's time is up")
        legal = list(legal_actions[:MAX_LEGAL_ACTIONS])
        now = timezone.now()
        turn = HumanTurn.objects.create(
            match_id=self.match_id,
            seat=self.seat,
            number=self.number,
            observation=observation,
            legal=legal,
            asked=now,
            deadline=now + timedelta(seconds=allowed),
        )
        self.number += 1
        if self.before_waiting is not None:
            self.before_waiting()  # those watching see the bots' moves before the human's
        move = self._wait(turn.id, self.clock() + allowed)
        if move is None:
            raise BotFault("timeout", f"the human did not move within {allowed:.3g} s")
        return move

    def _wait(self, turn_id: int, deadline: float) -> JSON | None:
        """The move once the web wrote it; None at the deadline (the turn then expires,
        unless the move came in the meantime: one conditional update decides)."""
        started, cpu = self.clock(), time.thread_time()
        interval = self.poll_first
        try:
            while True:
                self.polls += 1
                moved = HumanTurn.objects.filter(id=turn_id, moved__isnull=False)
                move = moved.values_list("move", flat=True).first()
                if move is not None:
                    return move
                remaining = deadline - self.clock()
                if remaining <= 0:
                    break
                self.sleep(min(interval, remaining))
                interval = min(self.poll_max, interval * POLL_GROWTH)
            expired = HumanTurn.objects.filter(id=turn_id, moved__isnull=True)
            if expired.update(expired=True) == 1:
                return None
            return HumanTurn.objects.values_list("move", flat=True).get(id=turn_id)
        finally:
            self.waited_seconds += self.clock() - started
            self.waiting_cpu_seconds += time.thread_time() - cpu
