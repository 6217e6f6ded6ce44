"""A small tournament played to its end by a real worker with beat: the entry closes on
time, each round is queued as tournament matches and played in real boxes, the next
round is paired from the results, and the standings come out at the end, through the
API. Ratings do not move."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from agon.bots.services import bot_submit
from agon.ladders.models import RatingChange
from agon.matches.models import Match
from agon.tournaments.models import Tournament
from agon.tournaments.services import entry_create, tournament_create
from engine.replay import Replay, verify_replay
from tests.platform.pipeline.conftest import Pipeline
from tests.platform.pipeline.support import (
    EXAMPLE_BOTS,
    json_of,
    only_ladder,
    py_upload,
    wait_active,
    wait_for,
)

pytestmark = pytest.mark.django_db(transaction=True)

BEAT_ENV = {
    "AGON_TOURNAMENT_SECONDS": "1",
    # No ranked matches in the way: the bots play nothing but the tournament.
    "AGON_MATCHMAKING_SECONDS": "3600",
}


def test_a_swiss_of_three_bots_is_played_to_its_end_by_a_real_worker(
    pipeline: Pipeline,
) -> None:
    only_ladder("architekton", 2)
    owner = User.objects.create_user("dora")
    source = (EXAMPLE_BOTS / "random_bot.py").read_bytes()
    bots = [
        bot_submit(
            owner=owner, name=name, game="architekton", upload=py_upload("random_bot.py", source)
        )
        for name in ("ant", "bee", "cat")
    ]
    pipeline.start_worker(concurrency=2, env=BEAT_ENV, beat=True)
    for bot in bots:
        wait_active(bot.versions.get(), pipeline.explain())

    tournament = tournament_create(
        owner=owner,
        name="small swiss",
        game="architekton",
        format="swiss",
        rounds=2,
        entry_closes=timezone.now() + timedelta(seconds=2),
    )
    for bot in bots:
        entry_create(user=owner, tournament_id=tournament.id, bot_id=bot.id)

    def finished() -> Tournament | None:
        tournament.refresh_from_db()
        return tournament if tournament.status == Tournament.Status.FINISHED else None

    wait_for(finished, timeout=240, what="the tournament to finish", explain=pipeline.explain())

    client = APIClient()
    client.force_authenticate(owner)
    detail = json_of(client.get(f"/api/tournaments/{tournament.id}/"))
    assert detail["progress"] == {"games": 4, "decided": 4, "round": 2, "rounds": 2}
    assert [row["rank"] for row in detail["standings"]] == sorted(
        row["rank"] for row in detail["standings"]
    )
    assert len(detail["standings"]) == 3
    games = json_of(client.get(detail["games"]))["results"]
    played = [game for game in games if game["status"] != "bye"]
    assert [game["status"] for game in played] == ["finished"] * 4
    matches = Match.objects.filter(id__in=[game["match"] for game in played])
    assert {match.kind for match in matches} == {Match.Kind.TOURNAMENT}
    assert not RatingChange.objects.filter(match__in=matches).exists()
    for game in played:
        response: Any = client.get(game["replay"])
        assert response.status_code == 200
        replay = Replay.from_json(json.loads(b"".join(response.streaming_content)))
        verify_replay(replay)
        assert list(replay.result["ranks"]) == game["ranks"]
