"""Each ranked match's digest, made once from its replay: its length in turns and every
seat's opening move, so that the statistics count them in the database instead of
reading replays.

A beat run (`agon.game_stats.tasks.game_stats_digest`) digests the ranked matches
finished since, oldest first, at most AGON_GAME_STATS_DIGESTS_PER_RUN of them: the cost
of a run is bounded, and the next one goes on where it stopped. A replay that cannot be
read or no longer plays through the engine gets a digest without length or openings
(it is not tried again), and the statistics count its match out of the lengths and
openings only.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import QuerySet

from agon.game_stats.models import MatchDigest, SeatOpening
from agon.game_stats.openings import opening_label
from agon.matches.models import Match, MatchSeat
from engine.core import IllegalAction
from engine.registry import UnknownGame, get_spec
from engine.replay import Replay, ReplayError, replay_states

log = logging.getLogger(__name__)


def ranked_matches(game: str | None = None) -> QuerySet[Match]:
    """The matches the statistics count: ranked ladder matches, finished, public."""
    found = Match.objects.filter(
        kind=Match.Kind.RANKED, status=Match.Status.FINISHED, private=False
    )
    return found if game is None else found.filter(game=game)


@dataclass
class Digest:
    turns: int | None = None
    openings: dict[int, str] = field(default_factory=dict)
    """Seat -> its first action's label, in the order the seats first acted."""


def replay_digest(replay: Replay) -> Digest:
    """The length and openings of a replay (ReplayError if it does not play through)."""
    try:
        spec = get_spec(replay.game)
    except UnknownGame as error:
        raise ReplayError(str(error)) from error
    game, spectator = spec.game, spec.spectator()
    openings: dict[int, str] = {}
    states = replay_states(replay)
    state = next(states)
    for action in replay.actions:
        seat = game.current_player(state)
        if seat not in openings:
            try:
                text = spectator.explain(state, seat, action).text
            except (IllegalAction, ValueError, KeyError, IndexError, TypeError):
                text = json.dumps(action, sort_keys=True)
            openings[seat] = opening_label(replay.game, text, action)
        state = next(states)
    return Digest(game.turn_number(state), openings)


def match_digest(match: Match) -> Digest:
    """The digest of a match's stored replay; an empty one when it cannot be had."""
    if not match.replay:
        return Digest()
    try:
        with match.replay.open("rb") as stored:
            replay = Replay.from_json(json.loads(stored.read()))
        return replay_digest(replay)
    except (ReplayError, OSError, ValueError, IllegalAction) as problem:
        log.warning("statistics of %s: match %s left out: %s", match.game, match.id, problem)
        return Digest()


def digests_make(*, limit: int) -> int:
    """Digest up to `limit` ranked matches not digested yet, oldest first; how many."""
    matches = list(ranked_matches().filter(digest__isnull=True).order_by("id")[:limit])
    for match in matches:
        digest = match_digest(match)
        seats = dict(MatchSeat.objects.filter(match=match).values_list("seat", "id"))
        with transaction.atomic():
            _, made = MatchDigest.objects.get_or_create(
                match_id=match.id, defaults={"turns": digest.turns}
            )
            if made:  # a run beside this one did it already otherwise
                SeatOpening.objects.bulk_create(
                    SeatOpening(seat_id=seats[seat], label=label, position=position)
                    for position, (seat, label) in enumerate(digest.openings.items())
                    if seat in seats
                )
    return len(matches)
