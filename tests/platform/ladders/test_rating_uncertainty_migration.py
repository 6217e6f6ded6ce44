"""The migration that gave the Elo-era ratings their uncertainty: a deviation as the
Glicko would have left it after their games, at least a new version's, and a rank only
for those settled enough."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.contrib.auth.models import User

from agon.ladders.models import Ladder, Rating
from competition.ratings import glicko
from tests.platform.conftest import MakeBot
from tests.platform.support import latest_version

pytestmark = pytest.mark.django_db

migration = importlib.import_module("agon.ladders.migrations.0006_rating_uncertainty")


def elo_era_rating(
    ladder: Ladder, bot_games: int, version_games: int, make_bot: MakeBot, owner: User, name: str
) -> Rating:
    bot = make_bot(owner, name)
    rating, _ = Rating.objects.update_or_create(
        ladder=ladder,
        bot=bot,
        defaults={"version": latest_version(bot), "rating": 1612.0},
    )
    Rating.objects.filter(pk=rating.pk).update(
        games=bot_games,
        version_games=version_games,
        deviation=None,
        deviation_at=None,
        rankable=False,
    )
    return rating


def test_settled_ratings_rank_and_new_versions_stay_provisional(
    ladder_2p: Ladder, make_bot: MakeBot, alice: User
) -> None:
    veteran = elo_era_rating(ladder_2p, 60, 60, make_bot, alice, "veteran")
    newcomer = elo_era_rating(ladder_2p, 3, 3, make_bot, alice, "newcomer")
    rewritten = elo_era_rating(ladder_2p, 60, 0, make_bot, alice, "rewritten")

    migration.give_deviations(apps, None)

    for rating in (veteran, newcomer, rewritten):
        rating.refresh_from_db()
    assert veteran.rating == 1612.0, "the value is kept"
    deviations = [r.deviation or 0.0 for r in (veteran, newcomer, rewritten)]
    assert deviations[0] < glicko.PROVISIONAL_DEVIATION and veteran.rankable
    assert deviations[1] > glicko.PROVISIONAL_DEVIATION and not newcomer.rankable
    assert deviations[2] >= glicko.NEW_VERSION_DEVIATION and not rewritten.rankable
    assert veteran.deviation_at == veteran.updated
