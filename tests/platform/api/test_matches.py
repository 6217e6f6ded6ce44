"""Matches: the list and its filters, one match, its replay, and a seat's log."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework import serializers
from rest_framework.test import APIClient

from agon.api.common import api_datetime
from agon.api.matches import MatchDetailSerializer, MatchSerializer
from agon.bots.models import Bot
from agon.ladders.models import Ladder
from agon.matches.models import Match
from tests.platform.conftest import MakeBot
from tests.platform.support import (
    finish_match,
    latest_version,
    play_ranked,
    ranked_match,
    validation_match,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def rivals(make_bot: MakeBot, alice: User, bob: User) -> tuple[Bot, Bot]:
    return make_bot(alice, "ant"), make_bot(bob, "bee")


def queued_match(ladder: Ladder, bots: list[Bot]) -> Match:
    return ranked_match(ladder, [latest_version(bot) for bot in bots])


# --- the list ---------------------------------------------------------------------------


def test_anybody_lists_matches_newest_first_with_their_seats(
    anonymous: APIClient, ladder_2p: Ladder, rivals: tuple[Bot, Bot]
) -> None:
    ant, bee = rivals
    played = play_ranked(ladder_2p, [ant, bee], scores=[40, 30])
    queued = queued_match(ladder_2p, [bee, ant])

    response = anonymous.get("/api/matches/")

    assert response.status_code == 200
    results = response.json()["results"]
    assert [match["id"] for match in results][:2] == [queued.id, played.id]
    assert [match["id"] for match in results] == sorted(
        (match["id"] for match in results), reverse=True
    )
    newest, ranked = results[0], results[1]
    assert newest["status"] == "queued"
    assert newest["finished"] is None
    assert ranked == {
        "id": played.id,
        "kind": "ranked",
        "ladder": ladder_2p.id,
        "game": "akropolis",
        "players": 2,
        "status": "finished",
        "created": ranked["created"],
        "finished": ranked["finished"],
        "seats": [
            {
                "seat": 0,
                "bot": ant.id,
                "version": 1,
                "bot_label": "alice/ant@v1",
                "rank": 1,
                "score": 40,
                "fault": "",
            },
            {
                "seat": 1,
                "bot": bee.id,
                "version": 1,
                "bot_label": "bob/bee@v1",
                "rank": 2,
                "score": 30,
                "fault": "",
            },
        ],
    }
    assert ranked["created"] and ranked["finished"]


def test_a_listed_match_is_what_the_match_serializer_writes(
    anonymous: APIClient, ladder_2p: Ladder, rivals: tuple[Bot, Bot], make_bot: MakeBot, bob: User
) -> None:
    ant, bee = rivals
    play_ranked(ladder_2p, [ant, bee], scores=[40, 30])
    faulted = play_ranked(ladder_2p, [bee, ant], scores=[10, 20])
    Match.objects.filter(id=faulted.id).update(
        finished=datetime(2026, 5, 1, 12, 0, 0, tzinfo=UTC),  # no microseconds
        listed="",  # its entry, written as it finished, is made again as it is read
    )
    finish_match(queued_match(ladder_2p, [ant, bee]), scores=[3, 4], faults={0: "timeout"})
    queued_match(ladder_2p, [bee, ant])
    Match.objects.create(kind=Match.Kind.CHALLENGE, game="akropolis", players=2, seed=1)  # no seats
    make_bot(bob, "cicada")  # a validation match against a builtin

    listed = anonymous.get("/api/matches/?page_size=200").json()["results"]

    serialized = [MatchSerializer(match).data for match in Match.objects.order_by("-id")]
    assert len(listed) == Match.objects.count() >= 6
    assert listed == json.loads(json.dumps(serialized))


@pytest.mark.parametrize("zone", ["UTC", "Europe/Athens"])
@pytest.mark.parametrize(
    "moment",
    [
        datetime(2026, 11, 23, 18, 48, 19, 123456, tzinfo=UTC),
        datetime(2026, 11, 23, 18, 48, 19, tzinfo=UTC),
        datetime(2026, 7, 1, 23, 59, 59, 1, tzinfo=UTC),
    ],
)
def test_listed_timestamps_are_written_as_drf_writes_them(moment: datetime, zone: str) -> None:
    with timezone.override(zone):
        drf = serializers.DateTimeField().to_representation(moment)
        assert api_datetime(moment, timezone.get_current_timezone()) == drf


def test_it_filters_matches_by_bot(
    anonymous: APIClient, ladder_2p: Ladder, rivals: tuple[Bot, Bot], make_bot: MakeBot, alice: User
) -> None:
    ant, bee = rivals
    other = make_bot(alice, "other")
    with_bee = play_ranked(ladder_2p, [ant, bee], scores=[1, 2])
    play_ranked(ladder_2p, [ant, other], scores=[1, 2])

    listed = anonymous.get(f"/api/matches/?bot={bee.id}").json()["results"]

    assert [match["id"] for match in listed] == [
        with_bee.id,
        validation_match(latest_version(bee)).id,
    ]


def test_it_filters_matches_by_ladder_status_and_game(
    anonymous: APIClient, ladders: list[Ladder], ladder_2p: Ladder, rivals: tuple[Bot, Bot]
) -> None:
    ant, bee = rivals
    played = play_ranked(ladder_2p, [ant, bee], scores=[1, 2])
    queued = queued_match(ladder_2p, [ant, bee])

    def ids(query: str) -> list[int]:
        return [match["id"] for match in anonymous.get(f"/api/matches/?{query}").json()["results"]]

    assert ids(f"ladder={ladder_2p.id}") == [queued.id, played.id]
    assert ids(f"ladder={ladder_2p.id}&status=finished") == [played.id]
    assert ids("status=queued") == [queued.id]
    assert ids("status=failed") == []
    assert len(ids("game=akropolis")) == Match.objects.count()
    assert ids(f"bot={ant.id}&status=queued&game=akropolis&ladder={ladder_2p.id}") == [queued.id]


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("status=lost", 'status: "lost" is not a valid choice.'),
        ("game=chess", 'game: "chess" is not a valid choice.'),
        ("bot=ant", "bot: A valid integer is required."),
        ("ladder=x", "ladder: A valid integer is required."),
    ],
)
def test_it_refuses_a_bad_filter_with_a_clear_message(
    anonymous: APIClient, query: str, message: str
) -> None:
    response = anonymous.get(f"/api/matches/?{query}")

    assert response.status_code == 400
    assert response.json()["error"] == message


def test_it_lists_matches_in_pages(
    anonymous: APIClient, ladder_2p: Ladder, rivals: tuple[Bot, Bot]
) -> None:
    for _ in range(3):
        queued_match(ladder_2p, list(rivals))
    total = Match.objects.count()

    first = anonymous.get("/api/matches/?page_size=2").json()
    beyond = anonymous.get("/api/matches/?page_size=2&page=99")

    assert first["count"] == total
    assert len(first["results"]) == 2
    assert beyond.status_code == 404
    assert beyond.json()["error"] == "Invalid page."


def test_a_page_holds_at_most_200_matches(
    anonymous: APIClient, ladder_2p: Ladder, rivals: tuple[Bot, Bot]
) -> None:
    for _ in range(205):
        queued_match(ladder_2p, list(rivals))

    default = anonymous.get("/api/matches/").json()
    largest = anonymous.get("/api/matches/?page_size=200").json()
    too_large = anonymous.get("/api/matches/?page_size=1000")

    assert len(default["results"]) == 50
    assert len(largest["results"]) == 200
    # The schema says at most 200: more is refused, not silently cut.
    assert too_large.status_code == 400
    assert too_large.json()["error"] == "page_size: a whole number from 1 to 200, not '1000'"


def test_listing_matches_takes_the_same_few_queries_however_many_there_are(
    anonymous: APIClient, ladder_2p: Ladder, rivals: tuple[Bot, Bot]
) -> None:
    def queries_to_list() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert anonymous.get("/api/matches/").status_code == 200
        return len(queries)

    few = queries_to_list()
    for _ in range(20):
        play_ranked(ladder_2p, list(rivals), scores=[1, 2])

    # count, page, seats, their versions, their bots with owners
    assert queries_to_list() == few <= 5


# --- one match --------------------------------------------------------------------------


def test_a_match_shows_its_scores_ranks_faults_and_duration(
    anonymous: APIClient, ladder_2p: Ladder, rivals: tuple[Bot, Bot]
) -> None:
    ant, bee = rivals
    match = finish_match(queued_match(ladder_2p, [ant, bee]), scores=[0, 25], faults={0: "timeout"})

    response = anonymous.get(f"/api/matches/{match.id}/")

    assert response.status_code == 200
    body = response.json()
    assert body["scores"] == [0, 25]
    assert body["ranks"] == [2, 1]
    assert body["faults"] == [
        {
            "seat": 0,
            "kind": "timeout",
            "turn": 1,
            "move": 1,
            "detail": "a timeout made up by the test",
        }
    ]
    assert body["match_seconds"] == 1.5
    assert body["options"] == {}
    assert [(seat["bot_label"], seat["fault"]) for seat in body["seats"]] == [
        ("alice/ant@v1", "timeout"),
        ("bob/bee@v1", ""),
    ]


def test_a_match_written_field_by_field_is_what_the_detail_serializer_writes(
    anonymous: APIClient, ladder_2p: Ladder, rivals: tuple[Bot, Bot], make_bot: MakeBot, bob: User
) -> None:
    """The detail is written without the serializer: the same JSON for a finished match
    with a fault, a queued one, one without seats or ladder and a validation match."""
    ant, bee = rivals
    finish_match(queued_match(ladder_2p, [ant, bee]), scores=[3, 4], faults={0: "timeout"})
    queued_match(ladder_2p, [bee, ant])
    Match.objects.create(kind=Match.Kind.CHALLENGE, game="akropolis", players=2, seed=1)
    make_bot(bob, "cicada")

    for match in Match.objects.order_by("id"):
        shown = anonymous.get(f"/api/matches/{match.id}/").json()
        assert shown == json.loads(json.dumps(MatchDetailSerializer(match).data))
    assert Match.objects.count() >= 4


def test_a_validation_match_shows_its_builtin_opponent(
    anonymous: APIClient, rivals: tuple[Bot, Bot]
) -> None:
    match = validation_match(latest_version(rivals[0]))

    seats = anonymous.get(f"/api/matches/{match.id}/").json()["seats"]

    assert [(seat["bot"], seat["version"], seat["bot_label"]) for seat in seats] == [
        (rivals[0].id, 1, "alice/ant@v1"),
        (None, None, "builtin:random"),
    ]


def test_an_unknown_match_is_404(anonymous: APIClient) -> None:
    response = anonymous.get("/api/matches/999999/")

    assert response.status_code == 404
    assert response.json()["error"] == "there is no match 999999"


# --- replays ----------------------------------------------------------------------------


def test_anybody_gets_a_finished_match_s_replay_as_stored(
    anonymous: APIClient, ladder_2p: Ladder, rivals: tuple[Bot, Bot]
) -> None:
    match = play_ranked(ladder_2p, list(rivals), scores=[3, 4])

    response = anonymous.get(f"/api/matches/{match.id}/replay/")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    content = b"".join(response.streaming_content)  # type: ignore[attr-defined]
    with match.replay.open("rb") as stored:
        assert content == stored.read()
    replay = json.loads(content)
    assert replay["format"] == "agon-replay/1"
    assert replay["bots"] == ["alice/ant@v1", "bob/bee@v1"]
    assert replay["result"] == {"scores": [3, 4], "ranks": [2, 1]}


def test_a_replay_is_404_until_the_match_has_finished(
    anonymous: APIClient, ladder_2p: Ladder, rivals: tuple[Bot, Bot]
) -> None:
    match = queued_match(ladder_2p, list(rivals))

    response = anonymous.get(f"/api/matches/{match.id}/replay/")

    assert response.status_code == 404
    assert response.json()["error"] == (
        f"match {match.id} is queued: its replay exists once it has finished"
    )


def test_a_failed_match_has_no_replay(
    anonymous: APIClient, ladder_2p: Ladder, rivals: tuple[Bot, Bot]
) -> None:
    match = queued_match(ladder_2p, list(rivals))
    Match.objects.filter(id=match.id).update(status=Match.Status.FAILED, error="no sandbox")

    response = anonymous.get(f"/api/matches/{match.id}/replay/")

    assert response.status_code == 404
    assert "is failed" in response.json()["error"]


# --- logs -------------------------------------------------------------------------------


@pytest.fixture
def logged_match(ladder_2p: Ladder, rivals: tuple[Bot, Bot]) -> Match:
    return finish_match(
        queued_match(ladder_2p, list(rivals)),
        scores=[5, 6],
        logs={0: "ant thinking\n", 1: "bee thinking\n"},
    )


def test_the_owner_of_a_seat_s_bot_reads_its_log(
    alice_client: APIClient, bob_client: APIClient, logged_match: Match
) -> None:
    ant_log = alice_client.get(f"/api/matches/{logged_match.id}/logs/0/")
    bee_log = bob_client.get(f"/api/matches/{logged_match.id}/logs/1/")

    assert ant_log.status_code == bee_log.status_code == 200
    assert ant_log.json() == {
        "seat": 0,
        "log": "ant thinking\n",
        "log_base64": "YW50IHRoaW5raW5nCg==",
        "log_dropped_bytes": 0,
        "turn_logs": [],
        "evaluations": [],
    }
    assert bee_log.json()["log"] == "bee thinking\n"


def test_nobody_else_reads_a_seat_s_log(
    alice_client: APIClient, anonymous: APIClient, logged_match: Match
) -> None:
    others = alice_client.get(f"/api/matches/{logged_match.id}/logs/1/")
    anybody = anonymous.get(f"/api/matches/{logged_match.id}/logs/0/")

    assert others.status_code == 403
    assert others.json()["error"] == "only the owner of a seat's bot may read its log"
    assert anybody.status_code == 401


def test_a_builtin_bot_s_log_is_nobody_s_to_read(
    alice_client: APIClient, rivals: tuple[Bot, Bot]
) -> None:
    match = validation_match(latest_version(rivals[0]))

    assert alice_client.get(f"/api/matches/{match.id}/logs/1/").status_code == 403


def test_the_log_of_a_seat_that_does_not_exist_is_404(
    alice_client: APIClient, logged_match: Match
) -> None:
    response = alice_client.get(f"/api/matches/{logged_match.id}/logs/7/")

    assert response.status_code == 404
    assert response.json()["error"] == f"match {logged_match.id} has no seat 7"
    assert alice_client.get("/api/matches/999999/logs/0/").status_code == 404
