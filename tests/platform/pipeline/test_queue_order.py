"""The order in which a real worker takes matches: the ones someone waits for (a
validation, a challenge) before every tournament game, and those before every ranked
match, on Redis and on the embedded broker; and on the embedded broker, first in, first
out even when kombu's clock (milliseconds since the machine started) gains a digit
between two messages."""

from __future__ import annotations

from unittest import mock

import pytest
from pytest_django import Settings

from agon.matches.models import Match
from agon.matches.services import match_create
from tests.platform.pipeline.conftest import Pipeline
from tests.platform.pipeline.support import embedded_broker, wait_finished

pytestmark = pytest.mark.django_db(transaction=True)


def quick_match(kind: str) -> Match:
    """A queued match of two builtin bots (no box, well under a second), on no ladder."""
    return match_create(
        kind=kind, game="architekton", players=2, options={}, seats=["random", "random"]
    )


def started_in_order(pipeline: Pipeline, matches: list[Match]) -> list[int]:
    """Play the queued matches with one worker taking one at a time; their ids in the
    order it started them."""
    pipeline.start_worker(concurrency=1)
    for match in matches:
        wait_finished(match, pipeline.explain(), timeout=60)
    return list(
        Match.objects.filter(id__in=[m.id for m in matches])
        .order_by("started")
        .values_list("id", flat=True)
    )


def test_a_worker_takes_challenges_and_validations_then_tournament_games_then_ranked_matches(
    pipeline: Pipeline, broker: str
) -> None:
    kinds = [
        "ranked",
        "tournament",
        "ranked",
        "ranked",
        "challenge",
        "tournament",
        "ranked",
        "validation",
        "challenge",
    ]
    matches = [quick_match(kind) for kind in kinds]
    waited_for = [m.id for m in matches if m.kind in (Match.Kind.VALIDATION, Match.Kind.CHALLENGE)]
    tournament = [m.id for m in matches if m.kind == Match.Kind.TOURNAMENT]
    ranked = [m.id for m in matches if m.kind == Match.Kind.RANKED]
    assert started_in_order(pipeline, matches) == waited_for + tournament + ranked


@pytest.mark.parametrize("boundary_ms", [10**6, 10**7])
def test_the_embedded_broker_keeps_the_order_when_the_uptime_gains_a_digit(
    pipeline: Pipeline, settings: Settings, boundary_ms: int
) -> None:
    with embedded_broker(settings, pipeline.folder / "broker"):
        matches = []
        for uptime_ms in range(boundary_ms - 2, boundary_ms + 2):
            # The match's message is sent on commit, at the end of match_create.
            with mock.patch("kombu.transport.filesystem.monotonic", return_value=uptime_ms / 1000):
                matches.append(quick_match("ranked"))
        assert started_in_order(pipeline, matches) == [m.id for m in matches]
