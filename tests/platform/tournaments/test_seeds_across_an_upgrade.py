"""A tournament running when the seeds' derivation changed goes on with the seeds it
stored: its format knows a game by its place and seats (competition.formats.core), so the
games stored under the old seeds are the ones it asks for, and only its new games take
the new seeds."""

from __future__ import annotations

import hashlib

import pytest
from django.contrib.auth.models import User

from agon.tournaments.models import Tournament, TournamentGame
from agon.tournaments.scheduling import tournament_close_entry
from competition.formats.core import meeting
from tests.platform.conftest import MakeBot
from tests.platform.tournaments.support import after_entry, enter, open_tournament, play_out


def colon_joined_seed(seed: int, *labels: object) -> int:
    """The tournaments' derivation before labels were framed by type and length."""
    text = ":".join(str(part) for part in (seed, *labels))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


@pytest.mark.django_db
@pytest.mark.parametrize("format", ["round-robin", "knockout"])
def test_a_running_tournament_keeps_its_stored_seeds_and_finishes(
    format: str, make_bot: MakeBot, alice: User
) -> None:
    tournament = open_tournament(alice, format=format, seed=11)
    enter(tournament, [make_bot(alice, f"bot{n}") for n in range(4)])
    assert tournament_close_entry(tournament_id=tournament.id, now=after_entry(tournament))
    stored = list(TournamentGame.objects.filter(tournament=tournament))
    for row in stored:  # as the code before the change stored them
        row.seed = colon_joined_seed(tournament.seed, row.tie, row.index // len(row.bots))
        row.save(update_fields=["seed"])
    old = {row.id: row.seed for row in stored}

    play_out(tournament)

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    games = TournamentGame.objects.filter(tournament=tournament)
    assert {row.id: row.seed for row in games.filter(id__in=old)} == old
    for row in games.exclude(id__in=old):  # paired after the change: the new seeds
        number = row.index // len(row.bots)
        assert row.seed == meeting(row.round, row.tie, row.bots, tournament.seed, number)[0].seed
