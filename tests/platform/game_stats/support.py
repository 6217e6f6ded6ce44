"""Ranked matches written straight into the tables the statistics read: the statistics
count rows, so a test states each match's ranks, scores, length and openings."""

from __future__ import annotations

from collections.abc import Sequence

from agon.game_stats.models import MatchDigest, SeatOpening
from agon.matches.models import Match, MatchSeat


def ranked(
    ranks: Sequence[int],
    scores: Sequence[int | None] | None = None,
    *,
    game: str = "akropolis",
    turns: int | None = None,
    openings: Sequence[str] = (),
    first_mover: int = 0,
    kind: str = Match.Kind.RANKED,
    status: str = Match.Status.FINISHED,
    private: bool = False,
) -> Match:
    """A finished ranked match of `game` whose seats ranked `ranks` (1 is first) with
    `scores`; digested with `turns` and `openings` (seat by seat) when `turns` is given,
    the seats having moved in turn from `first_mover` on."""
    match = Match.objects.create(
        kind=kind,
        game=game,
        players=len(ranks),
        options={},
        seed=1,
        status=status,
        private=private,
    )
    seats = MatchSeat.objects.bulk_create(
        MatchSeat(
            match=match,
            seat=seat,
            builtin="random",
            rank=rank,
            score=(scores[seat] if scores is not None else 10 * (len(ranks) - rank)),
        )
        for seat, rank in enumerate(ranks)
    )
    if turns is not None:
        MatchDigest.objects.create(match=match, turns=turns)
        SeatOpening.objects.bulk_create(
            SeatOpening(seat=seat, label=label, position=(seat.seat - first_mover) % len(ranks))
            for seat, label in zip(seats, openings, strict=False)
        )
    return match
