"""The analyses through a real worker: beat (AGON_ANALYSIS_SECONDS shortened) sends a
finished ranked match to the `analysis` queue and the worker stores its story; an
owner's request for a challenge is played by the same worker. On Redis and on the
file-system broker of `agon up`."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from agon.analysis.models import MatchAnalysis
from agon.analysis.services import analysis_request
from agon.matches import services
from agon.matches.models import Match
from sandbox.limits import limits_for
from sandbox.runner import MatchRecord
from tests.platform.datasets.support import played_replay
from tests.platform.pipeline.conftest import Pipeline
from tests.platform.pipeline.support import wait_for
from tests.platform.support import finish_with, seat_report

pytestmark = pytest.mark.django_db(transaction=True)


def finished_match(kind: str, seats: list[str], seed: int) -> Match:
    match = services.match_create(
        kind=kind, game="architekton", players=2, options={}, seats=seats, seed=seed
    )
    record = MatchRecord(
        replay=played_replay(match),
        seats=[seat_report(), seat_report()],
        backend="played in process by the test",
        limits=limits_for("architekton"),
        match_seconds=0.5,
    )
    return finish_with(match, record)


def test_beat_and_an_owner_have_matches_analysed_by_a_real_worker(
    pipeline: Pipeline, broker: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(services, "_enqueue", lambda match_id: None)  # finished here
    ranked = finished_match(Match.Kind.RANKED, ["random", "greedy"], seed=1)
    pipeline.start_worker(beat=True, env={"AGON_ANALYSIS_SECONDS": "1"})

    def done(match: Match) -> bool:
        found = MatchAnalysis.objects.filter(match=match).first()
        assert found is None or found.status != MatchAnalysis.Status.FAILED, found.error
        return found is not None and found.status == MatchAnalysis.Status.DONE

    wait_for(
        lambda: done(ranked),
        timeout=120,
        what=f"beat and the worker to analyse match {ranked.id} ({broker})",
        explain=pipeline.explain(),
    )
    story = APIClient().get(f"/api/matches/{ranked.id}/analysis/").json()
    assert story["status"] == "done" and story["level"] == "mcts-1"
    assert len(story["values"]) == len(played_replay(ranked).actions) + 1

    staff = User.objects.create_user("referee", password="x" * 12, is_staff=True)
    challenge = finished_match(Match.Kind.CHALLENGE, ["random", "random"], seed=2)
    analysis_request(match=challenge, user=staff)
    wait_for(
        lambda: done(challenge),
        timeout=120,
        what=f"the worker to analyse the asked-for match {challenge.id} ({broker})",
        explain=pipeline.explain(),
    )
    made = MatchAnalysis.objects.get(match=challenge)
    assert made.requested_by == staff and made.attempts == 1
