"""The analysis in the API and on the match page: whoever may see the match reads it (a
private one's stays hidden like the match), an owner asks for one; a bot's own
evaluations come with its log, to its owner only, and never to a stranger."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from agon.analysis import services
from agon.analysis.models import MatchAnalysis
from agon.analysis.services import analyses_schedule
from agon.bots.models import BotVersion
from agon.ladders.models import Ladder
from agon.matches.models import Match, MatchSeat
from tests.platform.conftest import PASSWORD, client_for
from tests.platform.datasets.support import play_for_real

pytestmark = pytest.mark.django_db

GAME = "architekton"


@pytest.fixture
def analysed(ladder: Ladder, versions: list[BotVersion], sent: list[int]) -> Match:
    match = play_for_real(ladder, versions, seed=21)
    analyses_schedule(limit=1)
    services.analysis_run(match_id=match.id)
    return match


def test_anybody_reads_a_public_matchs_analysis(analysed: Match, anonymous: APIClient) -> None:
    response = anonymous.get(f"/api/matches/{analysed.id}/analysis/")

    assert response.status_code == 200
    body = response.json()
    made = MatchAnalysis.objects.get(match=analysed)
    assert body["status"] == "done" and body["level"] == "mcts-1"
    assert body["seats"] == 2 and body["can_request"] is False
    assert body["values"] == [[value / 1000 for value in step] for step in made.values]
    assert body["movers"] == made.movers
    for drop in body["drops"]:
        assert body["movers"][drop["step"]] == drop["seat"]
        assert drop["before"] - drop["after"] >= 0.2 - 1e-3
    assert "evaluations" not in str(body)


def test_a_match_not_analysed_says_so_and_who_may_ask(
    ladder: Ladder, versions: list[BotVersion], alice: User, sent: list[int]
) -> None:
    match = play_for_real(ladder, versions, seed=22, kind=Match.Kind.CHALLENGE)

    stranger = APIClient().get(f"/api/matches/{match.id}/analysis/").json()
    owner = client_for(alice).get(f"/api/matches/{match.id}/analysis/").json()

    assert stranger["status"] == owner["status"] == "none"
    assert stranger["can_request"] is False and owner["can_request"] is True
    assert owner["planned"] is False  # beat leaves challenges alone

    asked = client_for(alice).post(f"/api/matches/{match.id}/analysis/")
    assert asked.status_code == 202 and asked.json()["status"] == "queued"
    assert sent == [match.id]


def test_a_ranked_match_not_analysed_yet_is_planned_and_an_analysed_one_not(
    ladder: Ladder, versions: list[BotVersion], analysed: Match
) -> None:
    waiting = play_for_real(ladder, versions, seed=27)

    assert APIClient().get(f"/api/matches/{waiting.id}/analysis/").json()["planned"] is True
    assert APIClient().get(f"/api/matches/{analysed.id}/analysis/").json()["planned"] is False


def test_a_stranger_may_not_ask_for_it(
    ladder: Ladder, versions: list[BotVersion], carol: User, sent: list[int]
) -> None:
    match = play_for_real(ladder, versions, seed=26, kind=Match.Kind.CHALLENGE)

    response = client_for(carol).post(f"/api/matches/{match.id}/analysis/")

    assert response.status_code == 403
    assert sent == [] and not MatchAnalysis.objects.filter(match=match).exists()


def test_an_owner_over_the_budget_is_told_to_wait(
    ladder: Ladder, versions: list[BotVersion], alice: User, sent: list[int], settings: Any
) -> None:
    settings.AGON_ANALYSIS_PER_DAY = 0
    match = play_for_real(ladder, versions, seed=23, kind=Match.Kind.CHALLENGE)

    response = client_for(alice).post(f"/api/matches/{match.id}/analysis/")

    assert response.status_code == 429
    assert "spent" in str(response.json())


def test_a_private_matchs_analysis_does_not_exist_for_a_stranger(
    ladder: Ladder, versions: list[BotVersion], carol: User, alice: User, sent: list[int]
) -> None:
    match = play_for_real(ladder, versions, seed=24, kind=Match.Kind.VERSION_TEST, private=True)
    services.analysis_request(match=match, user=alice)

    for client in (APIClient(), client_for(carol)):
        assert client.get(f"/api/matches/{match.id}/analysis/").status_code == 404
        assert client.post(f"/api/matches/{match.id}/analysis/").status_code in (401, 404)
    alice.is_staff = True  # staff see every private match
    alice.save()
    assert client_for(alice).get(f"/api/matches/{match.id}/analysis/").status_code == 200


def test_evaluations_come_with_the_log_to_its_owner_only(
    analysed: Match, alice: User, bob: User
) -> None:
    MatchSeat.objects.filter(match=analysed, seat=0).update(
        log=b"hello\nagon-eval 0.25\nagon-eval 0.75\nagon-eval 9\n",
        log_turn_offsets=[0, 6],
    )

    owner = client_for(alice).get(f"/api/matches/{analysed.id}/logs/0/")
    stranger = client_for(bob).get(f"/api/matches/{analysed.id}/logs/0/")

    assert owner.status_code == 200
    assert owner.json()["evaluations"] == [None, 0.75]
    assert stranger.status_code == 403
    assert "0.75" not in stranger.content.decode()


def test_the_match_page_offers_the_owner_the_evaluations_and_a_stranger_nothing(
    analysed: Match, alice: User
) -> None:
    MatchSeat.objects.filter(match=analysed, seat=0).update(log=b"agon-eval 0.625\n")
    owner, stranger = Client(), Client()
    owner.login(username="alice", password=PASSWORD)

    mine = owner.get(f"/matches/{analysed.id}/").content.decode()
    theirs = stranger.get(f"/matches/{analysed.id}/").content.decode()

    assert f"/api/matches/{analysed.id}/logs/0/" in mine
    assert "/logs/" not in theirs and "0.625" not in theirs
    assert f"/api/matches/{analysed.id}/analysis/" in theirs
    assert "Analyse this match" not in theirs


def test_an_owner_asks_from_the_match_page(
    ladder: Ladder, versions: list[BotVersion], alice: User, sent: list[int]
) -> None:
    match = play_for_real(ladder, versions, seed=25, kind=Match.Kind.CHALLENGE)
    owner, stranger = Client(), Client()
    owner.login(username="alice", password=PASSWORD)

    assert "Analyse this match" in owner.get(f"/matches/{match.id}/").content.decode()
    refused = stranger.post(f"/matches/{match.id}/analysis/")
    assert refused.status_code == 302 and "signin" in refused["Location"]
    assert sent == []

    response = owner.post(f"/matches/{match.id}/analysis/", follow=True)

    assert sent == [match.id]
    page = response.content.decode()
    assert "being analysed" in page and "Analyse this match" not in page


def test_the_schema_describes_the_analysis(anonymous: APIClient) -> None:
    schema = anonymous.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    document = schema.json()

    path = document["paths"]["/api/matches/{match_id}/analysis/"]
    assert set(path) >= {"get", "post"}
    assert "Analysis" in document["components"]["schemas"]
    log = document["components"]["schemas"]["SeatLog"]["properties"]
    assert "evaluations" in log
