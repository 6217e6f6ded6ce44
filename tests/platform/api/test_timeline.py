"""GET /api/matches/{id}/timeline/: the viewer's timeline through the API."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache, caches
from rest_framework.renderers import JSONRenderer
from rest_framework.test import APIClient

from agon.ladders.models import Ladder
from agon.matches.models import Match
from agon.matches.services import match_create
from agon.matches.stored_timelines import timeline_name
from agon.matches.timeline import match_timeline
from tests.platform.conftest import MakeBot
from tests.platform.web.support import play_and_finish

pytestmark = pytest.mark.django_db


def test_anybody_reads_a_finished_match_step_by_step(
    anonymous: APIClient, ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User
) -> None:
    bots = [make_bot(alice, "ant"), make_bot(bob, "bee")]
    match = play_and_finish(
        match_create(
            kind=Match.Kind.RANKED,
            ladder=ladder_2p,
            game="akropolis",
            players=2,
            options={},
            seats=[bot.versions.get(status="active") for bot in bots],
        )
    )

    whole = anonymous.get(f"/api/matches/{match.id}/timeline/").json()
    tail = anonymous.get(f"/api/matches/{match.id}/timeline/?since=3").json()

    assert whole["status"] == "finished" and whole["final"] is True
    assert whole["steps"][0]["text"] == "the table after setup"
    assert whole["steps"][1]["text"].startswith("took tile ")
    assert tail["since"] == 3 and tail["steps"] == whole["steps"][3:]


def test_a_bad_since_or_match_is_refused(anonymous: APIClient) -> None:
    assert anonymous.get("/api/matches/99999/timeline/").status_code == 404
    assert anonymous.get("/api/matches/99999/timeline/?since=-1").status_code in (400, 404)


def test_what_a_seat_saw_is_shown_once_the_match_has_finished_and_not_before(
    anonymous: APIClient, ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User
) -> None:
    bots = [make_bot(alice, "ant"), make_bot(bob, "bee")]
    match = match_create(
        kind=Match.Kind.RANKED,
        ladder=ladder_2p,
        game="akropolis",
        players=2,
        options={},
        seats=[bot.versions.get(status="active") for bot in bots],
    )
    for status in (Match.Status.QUEUED, Match.Status.RUNNING):
        Match.objects.filter(id=match.id).update(status=status)
        early = anonymous.get(f"/api/matches/{match.id}/timeline/?seat=1")
        assert early.status_code == 403
        assert early.json()["error"] == (
            "what a seat was shown stays hidden until the match has finished"
        )
    Match.objects.filter(id=match.id).update(status=Match.Status.QUEUED)
    play_and_finish(match)

    shown = anonymous.get(f"/api/matches/{match.id}/timeline/?seat=1").json()
    first = shown["steps"][0]["observation_patch"]["$set"]
    assert first["player"] == 1
    assert anonymous.get(f"/api/matches/{match.id}/timeline/?seat=2").status_code == 400


def test_a_timeline_is_kept_in_the_bounded_timelines_cache_not_beside_the_lists(
    anonymous: APIClient, ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User
) -> None:
    """The timelines' entries are big (up to ~130 KiB each): the embedded setup keeps them
    in a cache of their own, of AGON_LOCAL_TIMELINE_ENTRIES, where they push out no list."""
    bots = [make_bot(alice, "ant"), make_bot(bob, "bee")]
    match = play_and_finish(
        match_create(
            kind=Match.Kind.RANKED,
            ladder=ladder_2p,
            game="akropolis",
            players=2,
            options={},
            seats=[bot.versions.get(status="active") for bot in bots],
        )
    )
    caches["timelines"].clear()
    cache.clear()

    assert anonymous.get(f"/api/matches/{match.id}/timeline/?seat=1").status_code == 200

    kept = caches["timelines"]._cache  # type: ignore[attr-defined]  # LocMem's own dict
    assert len(kept) == 2, "the timeline and what seat 1 saw"
    assert not cache._cache  # type: ignore[attr-defined]
    assert caches["timelines"]._max_entries == 48


def test_a_finished_timeline_is_sent_as_the_renderer_would_write_it_from_kept_json(
    anonymous: APIClient, ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User
) -> None:
    """A finished match's steps are kept as JSON, one piece a step, and joined per request:
    the bytes are those DRF's renderer gives the document, from any step on."""
    bots = [make_bot(alice, "ant"), make_bot(bob, "bee")]
    match = play_and_finish(
        match_create(
            kind=Match.Kind.RANKED,
            ladder=ladder_2p,
            game="akropolis",
            players=2,
            options={},
            seats=[bot.versions.get(status="active") for bot in bots],
        )
    )
    match.refresh_from_db()

    for since in (0, 3, 10_000):
        sent = anonymous.get(f"/api/matches/{match.id}/timeline/?since={since}")
        assert sent["Content-Type"] == "application/json"
        assert sent.content == JSONRenderer().render(match_timeline(match, since=since))
    parts = caches["timelines"].get(f"{timeline_name(match.replay.name, match.game)}:json")
    assert isinstance(parts, list) and all(isinstance(part, bytes) for part in parts)
