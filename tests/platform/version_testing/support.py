"""Helpers of the version-test tests: a bot with two played versions, and a test's
games finished by hand with the candidate winning, drawing or losing."""

from __future__ import annotations

from django.contrib.auth.models import User

from agon.bots.models import Bot
from agon.bots.services import version_submit
from agon.matches.background import background_dispatch
from agon.matches.models import Match
from agon.version_testing.models import VersionTest
from tests.platform.conftest import MakeBot
from tests.platform.support import finish_match, latest_version, pass_validation, py_upload


def bot_with_two_versions(make_bot: MakeBot, owner: User, name: str = "hero") -> Bot:
    """A bot whose v1 played (now retired) and whose v2 is active."""
    bot = make_bot(owner, name)
    version_submit(bot=bot, upload=py_upload())
    pass_validation(latest_version(bot))
    return bot


def queued_games(test: VersionTest) -> list[Match]:
    """The test's queued matches: those its waiting games get from the background share
    (once a transaction commits, which a test's never does) included."""
    background_dispatch()
    return list(
        Match.objects.filter(version_test_game__test=test, status=Match.Status.QUEUED).order_by(
            "version_test_game__pair", "version_test_game__leg", "version_test_game__side"
        )
    )


def seat_of(match: Match, version_id: int | None) -> int | None:
    seats = [seat.seat for seat in match.seats.all() if seat.version_id == version_id]
    return seats[0] if seats else None


def finish_for_candidate(match: Match, test: VersionTest, outcome: str) -> Match:
    """Finish a game with the candidate doing better than the baseline ("win"), as well
    ("draw") or worse ("loss"): at a mirrored table with only one of them, that one
    finishes first or last, the fixed opponents tied in between."""
    points = {"win": 30, "draw": 20, "loss": 10}[outcome]
    scores = [20] * match.players
    candidate = seat_of(match, test.candidate_id)
    if candidate is not None:
        scores[candidate] = points
    baseline = seat_of(match, test.baseline_id) if test.baseline_id else None
    if baseline is not None:
        scores[baseline] = 40 - points
    return finish_match(match, scores=scores)


def play_queued(test: VersionTest, outcome: str) -> None:
    """Finish every game of the test queued now, all with the same outcome (but those
    dropped meanwhile, once the test reached its verdict)."""
    for match in queued_games(test):
        match.refresh_from_db()
        if match.status == Match.Status.QUEUED:
            finish_for_candidate(match, test, outcome)
