"""The admin lists and shows every model, and lets nobody add results by hand."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from agon.bots.models import Bot, BotVersion
from agon.ladders.models import Ladder, Rating, RatingChange
from agon.matches.models import Match
from tests.platform.conftest import MakeBot
from tests.platform.support import play_ranked

pytestmark = pytest.mark.django_db

MODELS = [Bot, BotVersion, Ladder, Rating, RatingChange, Match]


@pytest.fixture
def staff(make_bot: MakeBot, alice: User, bob: User, ladder_2p: Ladder) -> Client:
    play_ranked(ladder_2p, [make_bot(alice, "ant"), make_bot(bob, "bee")], scores=[1, 2])
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
    "model", [Bot, BotVersion, Rating, RatingChange, Match], ids=lambda model: model.__name__
)
def test_results_cannot_be_added_in_the_admin(staff: Client, model: type[Bot]) -> None:
    url = f"/admin/{model._meta.app_label}/{model._meta.model_name}/add/"

    assert staff.get(url).status_code == 403


def test_ladders_can_be_added_in_the_admin(staff: Client) -> None:
    assert staff.get("/admin/ladders/ladder/add/").status_code == 200
