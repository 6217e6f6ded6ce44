"""Matches played for real (the engine's builtin bots, in process, no sandbox) and
finished through the real services, so that a dataset has decisions to hold."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from agon.bots.models import BotVersion
from agon.ladders.models import Ladder
from agon.matches.models import Match
from agon.matches.services import match_create
from engine.bots import builtin_bot
from engine.match import play_match
from engine.registry import get_game
from engine.replay import Replay
from sandbox.limits import limits_for
from sandbox.runner import MatchRecord, SeatReport
from tests.platform.support import finish_with, seat_report


def played_replay(match: Match, bot: str = "random") -> Replay:
    game = get_game(match.game)
    return play_match(
        game,
        seed=match.seed,
        players=match.players,
        options=dict(match.options),
        bots=[builtin_bot(bot, match.game, match.seed, seat) for seat in range(match.players)],
        bot_ids=[f"seat{seat}" for seat in range(match.players)],
    )


def turn_milliseconds(seat: int) -> list[int]:
    """The made-up time of each of a seat's turns: 1000 * seat + its move's index."""
    return [1000 * seat + move for move in range(500)]


def timed_report(seat: int) -> SeatReport:
    return dataclasses.replace(seat_report(), turn_milliseconds=turn_milliseconds(seat))


def play_for_real(
    ladder: Ladder,
    versions: Sequence[BotVersion],
    *,
    seed: int,
    kind: str = Match.Kind.RANKED,
    private: bool = False,
) -> Match:
    """A match of `kind` between `versions` on the ladder's settings, played by the
    random builtin bots standing in for them, and finished as the match task would."""
    match = match_create(
        kind=kind,
        ladder=ladder if kind == Match.Kind.RANKED else None,
        game=ladder.game,
        players=ladder.players,
        options=dict(ladder.options),
        seats=versions,
        seed=seed,
        private=private,
    )
    record = MatchRecord(
        replay=played_replay(match),
        seats=[timed_report(seat) for seat in range(match.players)],
        backend="played in process by the test",
        limits=limits_for(match.game),
        match_seconds=0.5,
    )
    return finish_with(match, record)
