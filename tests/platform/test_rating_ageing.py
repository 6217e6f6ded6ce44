"""The beat ages idle ratings in the database as the platform's rating system says
(`competition.ratings.glicko`, in plain numbers: tests/competition/ratings/test_glicko.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from agon.ladders.models import Ladder, Rating
from agon.ladders.services import ratings_age
from competition import ratings
from competition.ratings.glicko import PROVISIONAL_DEVIATION
from tests.platform.conftest import MakeBot
from tests.platform.support import play_ranked


@pytest.mark.django_db
def test_beat_ages_the_idle_ratings_and_unranks_those_grown_unsure(
    ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User
) -> None:
    idle, busy = make_bot(alice, "idle"), make_bot(bob, "busy")
    play_ranked(ladder_2p, [idle, busy], scores=[2, 1])
    now = timezone.now()
    Rating.objects.filter(ladder=ladder_2p, bot=idle).update(
        deviation=100.0, rankable=True, deviation_at=now - timedelta(days=60)
    )
    Rating.objects.filter(bot=busy).update(deviation=100.0, rankable=True, deviation_at=now)

    assert ratings_age(now=now) == 1

    aged, kept = (Rating.objects.get(ladder=ladder_2p, bot=bot) for bot in (idle, busy))
    assert aged.deviation is not None and aged.deviation > PROVISIONAL_DEVIATION
    assert (aged.rankable, aged.deviation_at) == (False, now)
    assert aged.ranking == ratings.ranking_value(aged.current), "ranked by its aged interval"
    assert (kept.deviation, kept.rankable) == (100.0, True)
