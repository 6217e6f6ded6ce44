"""Analyses asked for and made: beat chooses the newest finished ranked and tournament
matches within the day's budget, an owner asks for the others, a worker makes each once
and stores it; a replay that does not play through fails, with its reason; a lost
message is sent again and a dead worker's analysis taken back."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.utils import timezone

from agon.analysis import services
from agon.analysis.models import MatchAnalysis
from agon.analysis.services import AnalysisRefused, analyses_schedule, analysis_request
from agon.analysis.tasks import analyses_schedule as schedule_task
from agon.bots.models import BotVersion
from agon.ladders.models import Ladder
from agon.matches.models import Match
from engine.replay import Replay
from engine.search.analysis import analyse_replay
from tests.platform.datasets.support import play_for_real, played_replay

pytestmark = pytest.mark.django_db

GAME = "architekton"


def test_beat_chooses_finished_ranked_and_tournament_matches_newest_first(
    ladder: Ladder, versions: list[BotVersion], sent: list[int], settings: Any
) -> None:
    ranked = [play_for_real(ladder, versions, seed=seed) for seed in (1, 2)]
    tournament = play_for_real(ladder, versions, seed=3, kind=Match.Kind.TOURNAMENT)
    challenge = play_for_real(ladder, versions, seed=4, kind=Match.Kind.CHALLENGE)

    assert analyses_schedule(limit=2) == 2
    assert sent == [tournament.id, ranked[1].id]
    assert analyses_schedule(limit=10) == 1
    assert sent[2:] == [ranked[0].id]
    assert not MatchAnalysis.objects.filter(match=challenge).exists()
    # Validation matches (made by make_bot) are never chosen by beat either.
    assert MatchAnalysis.objects.count() == 3


def test_beat_stops_at_the_days_budget_and_goes_on_a_day_later(
    ladder: Ladder, versions: list[BotVersion], sent: list[int], settings: Any
) -> None:
    settings.AGON_ANALYSIS_PER_DAY = 2
    for seed in (1, 2, 3):
        play_for_real(ladder, versions, seed=seed)

    assert schedule_task() == 2
    assert analyses_schedule(limit=10) == 0
    MatchAnalysis.objects.update(requested=timezone.now() - timedelta(days=1, seconds=1))
    assert analyses_schedule(limit=10) == 1
    assert len(sent) == 3


def test_a_budget_of_nothing_analyses_nothing(
    ladder: Ladder, versions: list[BotVersion], sent: list[int], settings: Any
) -> None:
    settings.AGON_ANALYSIS_PER_DAY = 0
    play_for_real(ladder, versions, seed=1)

    assert analyses_schedule(limit=10) == 0
    assert sent == []


def test_a_worker_makes_the_analysis_once_and_stores_every_step(
    ladder: Ladder, versions: list[BotVersion], sent: list[int]
) -> None:
    match = play_for_real(ladder, versions, seed=5)
    analyses_schedule(limit=1)

    assert services.analysis_run(match_id=match.id) is True
    assert services.analysis_run(match_id=match.id) is False  # a task sent twice

    made = MatchAnalysis.objects.get(match=match)
    replay = played_replay(match)
    expected = analyse_replay(replay)
    assert made.status == MatchAnalysis.Status.DONE
    assert made.level == "mcts-1"
    assert made.attempts == 1
    assert made.values == [[round(value * 1000) for value in step] for step in expected.values]
    assert made.movers == expected.movers
    assert len(made.values) == len(replay.actions) + 1
    assert made.cpu_seconds is not None and made.cpu_seconds >= 0


def test_a_replay_that_does_not_play_through_fails_with_its_reason(
    ladder: Ladder, versions: list[BotVersion], sent: list[int]
) -> None:
    match = play_for_real(ladder, versions, seed=6)
    replay = played_replay(match)
    broken = Replay.from_json({**replay.to_json(), "engine_version": "0"})
    match.replay.save("broken.json", ContentFile(json.dumps(broken.to_json()).encode()))
    analyses_schedule(limit=1)

    assert services.analysis_run(match_id=match.id) is True

    made = MatchAnalysis.objects.get(match=match)
    assert made.status == MatchAnalysis.Status.FAILED
    assert "version 0" in made.error
    assert made.values == []


def test_a_lost_message_is_sent_again_and_a_dead_workers_analysis_taken_back(
    ladder: Ladder, versions: list[BotVersion], sent: list[int], settings: Any
) -> None:
    lost, dead, dying = (play_for_real(ladder, versions, seed=seed) for seed in (7, 8, 9))
    analyses_schedule(limit=3)
    long_ago = timezone.now() - timedelta(seconds=settings.AGON_ANALYSIS_RESEND_SECONDS + 1)
    MatchAnalysis.objects.filter(match=lost).update(sent=long_ago)
    stale = timezone.now() - timedelta(seconds=settings.AGON_ANALYSIS_TIME_LIMIT + 61)
    MatchAnalysis.objects.filter(match__in=[dead, dying]).update(
        status=MatchAnalysis.Status.RUNNING, started=stale, attempts=1
    )
    MatchAnalysis.objects.filter(match=dying).update(attempts=settings.AGON_ANALYSIS_MAX_ATTEMPTS)
    sent.clear()

    assert analyses_schedule(limit=10) == 2

    assert sorted(sent) == sorted([lost.id, dead.id])
    assert MatchAnalysis.objects.get(match=dead).status == MatchAnalysis.Status.QUEUED
    assert MatchAnalysis.objects.get(match=dying).status == MatchAnalysis.Status.FAILED
    assert services.analysis_run(match_id=dead.id) is True


def test_an_owner_asks_for_a_challenge_and_a_stranger_may_not(
    ladder: Ladder, versions: list[BotVersion], sent: list[int], carol: User, alice: User
) -> None:
    match = play_for_real(ladder, versions, seed=10, kind=Match.Kind.CHALLENGE)

    with pytest.raises(AnalysisRefused) as refused:
        analysis_request(match=match, user=carol)
    assert refused.value.reason == "not-owner"

    made = analysis_request(match=match, user=alice)
    again = analysis_request(match=match, user=alice)

    assert made.pk == again.pk and made.requested_by == alice
    assert sent == [match.id]


def test_an_owner_is_held_to_their_own_day_and_to_the_sites(
    ladder: Ladder, versions: list[BotVersion], sent: list[int], alice: User, settings: Any
) -> None:
    first, second = (
        play_for_real(ladder, versions, seed=seed, kind=Match.Kind.CHALLENGE) for seed in (11, 12)
    )
    settings.AGON_ANALYSIS_PER_USER_PER_DAY = 1
    analysis_request(match=first, user=alice)

    with pytest.raises(AnalysisRefused) as refused:
        analysis_request(match=second, user=alice)
    assert refused.value.reason == "own-budget"

    settings.AGON_ANALYSIS_PER_USER_PER_DAY = 10
    settings.AGON_ANALYSIS_PER_DAY = 1
    with pytest.raises(AnalysisRefused) as refused:
        analysis_request(match=second, user=alice)
    assert refused.value.reason == "budget"


def test_a_failed_analysis_may_be_asked_for_again(
    ladder: Ladder, versions: list[BotVersion], sent: list[int], alice: User
) -> None:
    match = play_for_real(ladder, versions, seed=13, kind=Match.Kind.CHALLENGE)
    MatchAnalysis.objects.create(
        match=match, requested=timezone.now(), status=MatchAnalysis.Status.FAILED, error="x"
    )

    made = analysis_request(match=match, user=alice)

    assert made.status == MatchAnalysis.Status.QUEUED and made.error == ""
    assert sent == [match.id]


def test_an_unfinished_match_cannot_be_analysed(
    ladder: Ladder, versions: list[BotVersion], alice: User
) -> None:
    match = play_for_real(ladder, versions, seed=14, kind=Match.Kind.CHALLENGE)
    Match.objects.filter(id=match.id).update(status=Match.Status.RUNNING)
    match.refresh_from_db()

    with pytest.raises(AnalysisRefused) as refused:
        analysis_request(match=match, user=alice)
    assert refused.value.reason == "not-finished"
