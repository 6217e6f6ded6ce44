"""Helpers of the web tests: matches played for real by the engine's builtin bots.

`play_and_finish` plays a queued match through the engine (`engine.match.play_match`)
with builtin bots in every seat, seeded from the match's seed, and finishes it through
the real services (`match_claim`, `match_finish`): the stored replay then re-runs in the
viewer's timeline exactly as a sandboxed match's would. Only the bot programs are
stand-ins; the browser tests that need a real upload play it in the sandbox.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from agon.matches.models import Match
from engine.bots import builtin_bot
from engine.match import play_match
from engine.players import Player
from engine.registry import get_game
from sandbox.limits import limits_for
from sandbox.runner import MatchRecord
from tests.platform.support import finish_with, seat_report


def play_and_finish(
    match: Match,
    *,
    bots: Sequence[str | Player] | None = None,
    logs: Mapping[int, str | bytes | Sequence[bytes]] | None = None,
) -> Match:
    """Play the queued match with these bots, builtin ones by name (greedy in every
    seat unless given), and finish it as the match task would. A seat's log is what it
    wrote on stderr: all of it, or (a list) what it wrote on each of its turns."""
    game = get_game(match.game)
    players = [
        builtin_bot(bot, match.game, match.seed, seat) if isinstance(bot, str) else bot
        for seat, bot in enumerate(bots or ["greedy"] * match.players)
    ]
    labels = [seat.bot_id_label for seat in match.seats.select_related("version__bot__owner")]
    replay = play_match(
        game,
        seed=match.seed,
        players=match.players,
        options=dict(match.options),
        bots=players,
        bot_ids=labels,
    )
    record = MatchRecord(
        replay=replay,
        seats=[seat_report((logs or {}).get(seat, "")) for seat in range(match.players)],
        backend="builtin bots of the test",
        limits=limits_for(match.game),
        match_seconds=0.5,
    )
    return finish_with(match, record)
