"""Matchmaking rounds on the database: the queue of ranked matches stays short however
many ladders there are, and the ladders share the workers by need."""

from __future__ import annotations

from random import Random

import pytest
from django.contrib.auth.models import User
from pytest_django import Settings

from agon.ladders.models import Ladder
from agon.ladders.services import matchmaking_round
from agon.matches.models import Match
from tests.platform.conftest import MakeBot

pytestmark = pytest.mark.django_db

BOTS = 8


@pytest.fixture
def akropolis_ladders(make_bot: MakeBot, alice: User, ladders: list[Ladder]) -> list[Ladder]:
    """The three Akropolis ladders (2, 3 and 4 players), each with the same 8 bots."""
    Ladder.objects.exclude(game="akropolis").update(active=False)
    for number in range(BOTS):
        make_bot(alice, f"bot-{number}")
    return list(Ladder.objects.filter(active=True).order_by("players"))


def queued() -> list[Match]:
    return list(Match.objects.filter(kind=Match.Kind.RANKED, status=Match.Status.QUEUED))


def test_the_queue_holds_the_target_across_all_ladders(
    akropolis_ladders: list[Ladder], settings: Settings
) -> None:
    settings.AGON_QUEUE_TARGET = 3
    created = matchmaking_round(rng=Random(1))
    assert len(created) == len(queued()) == 3
    assert matchmaking_round(rng=Random(2)) == []


def test_ladders_share_the_workers_by_games_per_bot(
    akropolis_ladders: list[Ladder], settings: Settings
) -> None:
    """A worker plays the two oldest queued matches between rounds: over 30 rounds, every
    ladder's bots get about as many games as any other's, and the queue stays short."""
    settings.AGON_QUEUE_TARGET = 3
    for round_number in range(30):
        matchmaking_round(rng=Random(round_number))
        assert len(queued()) <= settings.AGON_QUEUE_TARGET
        played = sorted(queued(), key=lambda match: match.id)[:2]
        Match.objects.filter(id__in=[m.id for m in played]).update(status=Match.Status.FINISHED)
    games_per_bot = {
        ladder.players: Match.objects.filter(ladder=ladder, kind=Match.Kind.RANKED).count()
        * ladder.players
        / BOTS
        for ladder in akropolis_ladders
    }
    assert max(games_per_bot.values()) - min(games_per_bot.values()) <= 4 / BOTS, games_per_bot
