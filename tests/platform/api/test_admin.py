"""The admin lists and shows every model, and lets nobody add results by hand."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from agon.bots.models import Bot, BotVersion
from agon.bots.services import bot_open_to_events
from agon.ladders.models import Ladder, Rating, RatingChange
from agon.matches.models import Match
from agon.notifications.models import Delivery
from agon.notifications.services import webhook_create
from agon.tournaments.models import Tournament, TournamentGame
from agon.tournaments.scheduling import tournament_close_entry
from agon.version_testing.models import VersionTest
from agon.version_testing.services import Baseline, version_test_create
from tests.platform.conftest import MakeBot
from tests.platform.support import play_ranked
from tests.platform.tournaments.support import after_entry, enter, open_tournament

pytestmark = pytest.mark.django_db

MODELS = [
    Bot,
    BotVersion,
    Ladder,
    Rating,
    RatingChange,
    Match,
    Tournament,
    TournamentGame,
    VersionTest,
    Delivery,
]


@pytest.fixture
def staff(make_bot: MakeBot, alice: User, bob: User, ladder_2p: Ladder) -> Client:
    webhook_create(user=alice, url="https://hooks.example.org/agon", style="generic")
    ant = make_bot(alice, "ant")
    bee = bot_open_to_events(bot=make_bot(bob, "bee"), open_to_events=True)
    play_ranked(ladder_2p, [ant, bee], scores=[1, 2])
    tournament = open_tournament(alice, format="gauntlet")
    enter(tournament, [ant, bee], user=alice)
    tournament_close_entry(tournament_id=tournament.id, now=after_entry(tournament))
    version_test_create(user=alice, bot=ant, candidate=1, baseline=Baseline(builtin="greedy"))
    client = Client()
    client.force_login(User.objects.create_superuser("root"))
    return client


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.__name__)
def test_the_admin_lists_and_shows_each_model(staff: Client, model: type[Bot]) -> None:
    url = f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
    first = model.objects.order_by("pk").first()
    assert first is not None

    assert staff.get(url).status_code == 200
    assert staff.get(f"{url}{first.pk}/change/").status_code == 200


@pytest.mark.parametrize(
    "model",
    [Bot, BotVersion, Rating, RatingChange, Match, TournamentGame, VersionTest, Delivery],
    ids=lambda model: model.__name__,
)
def test_results_cannot_be_added_in_the_admin(staff: Client, model: type[Bot]) -> None:
    url = f"/admin/{model._meta.app_label}/{model._meta.model_name}/add/"

    assert staff.get(url).status_code == 403


def test_ladders_can_be_added_in_the_admin(staff: Client) -> None:
    assert staff.get("/admin/ladders/ladder/add/").status_code == 200
