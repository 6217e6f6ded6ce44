"""Each kind of event tells each user who wants it exactly once, where the change it
tells of is saved: a validation, a pause and a resume, a version test's verdict, a
tournament's phases and result, a rating's milestone."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from pytest_django import Settings

from agon.bots.models import Bot, BotVersion
from agon.bots.pausing import version_resume
from agon.bots.services import bot_open_to_events, validation_conclude, version_submit
from agon.ladders.models import Ladder, Rating
from agon.ladders.notices import milestone_reached
from agon.matches.models import Match
from agon.matches.services import match_create
from agon.notifications.kinds import KINDS
from agon.notifications.models import Notification
from agon.notifications.services import choices_set
from agon.tournaments.cancellation import tournament_cancel
from agon.tournaments.scheduling import tournament_close_entry
from agon.version_testing.models import VersionTest
from agon.version_testing.services import Baseline, version_test_create
from tests.platform.conftest import MakeBot
from tests.platform.support import (
    fail_validation,
    finish_match,
    latest_version,
    play_ranked,
    py_upload,
    validation_match,
)
from tests.platform.tournaments.support import after_entry, enter, open_tournament, play_out
from tests.platform.version_testing.support import bot_with_two_versions, play_queued

pytestmark = pytest.mark.django_db


def told(user: User, kind: str) -> list[Notification]:
    return list(Notification.objects.filter(user=user, kind=kind).order_by("id"))


def wants_nothing(user: User) -> None:
    choices_set(user=user, choices={kind: [] for kind in KINDS})


def test_a_failed_validation_is_told_once_to_its_owner_and_not_to_one_who_wants_none(
    make_bot: MakeBot, alice: User, bob: User
) -> None:
    wants_nothing(bob)
    mine = make_bot(alice, "mine", active=False)
    theirs = make_bot(bob, "theirs", active=False)
    version = fail_validation(latest_version(mine))
    fail_validation(latest_version(theirs))
    validation_conclude(match=validation_match(version))  # concluded again: judged already

    (notice,) = told(alice, "validation_failed")
    assert notice.title == "mine v1 failed its validation"
    assert notice.text.startswith("Rejected: ") and notice.path == f"/my/bots/{mine.id}/"
    assert notice.data["reason"] == version.reason
    assert told(bob, "validation_failed") == []
    passed = version_submit(bot=mine, upload=py_upload())
    finish_match(validation_match(passed), scores=[30, 10])
    assert len(told(alice, "validation_failed")) == 1, "a version that passes is no news"


@pytest.fixture
def fault_settings(settings: Settings) -> Settings:
    settings.AGON_FAULT_RECENT_MATCHES = 10
    settings.AGON_FAULT_SHARE = 0.1
    settings.AGON_FAULT_MAX = 50
    return settings


def play(ladder: Ladder, bots: list[Bot], faulty: Bot | None = None) -> Match:
    versions = [BotVersion.objects.get(bot=bot, status=BotVersion.Status.ACTIVE) for bot in bots]
    match = match_create(
        kind=Match.Kind.RANKED,
        ladder=ladder,
        game=ladder.game,
        players=2,
        options=ladder.options,
        seats=versions,
    )
    return finish_match(
        match, scores=[3, 2], faults={bots.index(faulty): "crash"} if faulty else None
    )


@pytest.mark.usefixtures("fault_settings")
def test_a_pause_and_a_resume_are_each_told_once_and_a_second_pause_again(
    ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User
) -> None:
    crashy, steady = make_bot(alice, "crashy"), make_bot(bob, "steady")
    for _ in range(4):
        play(ladder_2p, [crashy, steady], faulty=crashy)
    version = BotVersion.objects.get(bot=crashy, status=BotVersion.Status.ACTIVE)
    assert version.paused_reason
    (paused,) = told(alice, "bot_paused")
    assert paused.title == "crashy v1 is paused from matchmaking"
    assert version.paused_reason in paused.text
    assert told(bob, "bot_paused") == []

    version_resume(version=version)
    version_resume(version=version)  # resumed twice: it was paused once
    (resumed,) = told(alice, "bot_resumed")
    assert resumed.title == "crashy v1 plays ranked matches again"

    for _ in range(2):
        play(ladder_2p, [crashy, steady], faulty=crashy)
    assert len(told(alice, "bot_paused")) == 2, "paused again after the resume: news again"


def test_a_version_tests_verdict_is_told_once_to_who_started_it(
    make_bot: MakeBot, alice: User
) -> None:
    hero = bot_with_two_versions(make_bot, alice)
    test = version_test_create(
        user=alice, bot=hero, candidate=2, baseline=Baseline(version=1), max_games=400
    )
    while test.status == VersionTest.Status.RUNNING:
        play_queued(test, "win")
        test.refresh_from_db()
    (verdict,) = told(alice, "version_test_verdict")
    assert verdict.title == "Version test of hero v2: H1 accepted"
    assert "against alice/hero@v1" in verdict.text.lower()
    assert verdict.path == f"/bots/{hero.id}/tests/{test.id}/"
    assert verdict.data["verdict"] == "H1"


def test_a_tournaments_start_and_result_are_told_once_to_each_entrants_owner(
    make_bot: MakeBot, alice: User, bob: User, carol: User
) -> None:
    wants_nothing(carol)
    tournament = open_tournament(alice, public=False, format="round-robin")
    bots = [make_bot(alice, "one"), make_bot(alice, "two"), make_bot(bob, "three")]
    enter(tournament, bots[:2])
    quiet = make_bot(carol, "quiet")
    for bot in (bots[2], quiet):
        bot_open_to_events(bot=bot, open_to_events=True)
    enter(tournament, [bots[2], quiet], user=alice)
    for _ in range(2):
        tournament_close_entry(tournament_id=tournament.id, now=after_entry(tournament))

    for user in (alice, bob):
        (started,) = told(user, "tournament_phase")
        assert started.title == "the cup has started"
    assert told(carol, "tournament_phase") == []

    play_out(tournament)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    (alices,) = told(alice, "tournament_result")
    assert [place["version"] for place in alices.data["places"]] == sorted(
        ["alice/one@v1", "alice/two@v1"],
        key=lambda label: [row["version"] for row in tournament.standings].index(label),
    )
    assert "placed" in alices.text and alices.data["entrants"] == 4
    (bobs,) = told(bob, "tournament_result")
    assert bobs.text.startswith("bob/three@v1 placed ")
    assert told(carol, "tournament_result") == []


def test_a_cancelled_tournament_is_told_to_its_entrants_owners(
    make_bot: MakeBot, alice: User, bob: User
) -> None:
    tournament = open_tournament(alice, public=False)
    bot = make_bot(alice, "one")
    enter(tournament, [bot])
    tournament_cancel(user=alice, tournament_id=tournament.id)
    (cancelled,) = told(alice, "tournament_phase")
    assert cancelled.title == "the cup was cancelled"
    assert cancelled.text.startswith("cancelled by alice")


def test_a_new_hundred_is_told_once_per_bot_and_ladder(
    ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User
) -> None:
    climber, other = make_bot(alice, "climber"), make_bot(bob, "other")
    play_ranked(ladder_2p, [climber, other], [30, 10])
    rating = Rating.objects.get(ladder=ladder_2p, bot=climber)
    assert told(alice, "rating_milestone") == [], "a provisional rating reaches nothing"

    def settled_at(value: float) -> None:
        Rating.objects.filter(id=rating.id).update(
            rating=value, deviation=60.0, rankable=True, version_games=40
        )

    settled_at(1599.5)
    play_ranked(ladder_2p, [climber, other], [30, 10])
    (milestone,) = told(alice, "rating_milestone")
    assert milestone.title == f"climber reached 1600 on {ladder_2p.name}"
    assert milestone.data["milestone"] == 1600
    settled_at(1599.5)  # fell back below, and climbs again: 1600 is not news twice
    play_ranked(ladder_2p, [climber, other], [30, 10])
    assert Rating.objects.get(id=rating.id).rating >= 1600, "it did reach 1600 again"
    assert len(told(alice, "rating_milestone")) == 1
    assert told(bob, "rating_milestone") == []


@pytest.mark.parametrize(
    ("before", "after", "settled_before", "reached"),
    [
        (1590.0, 1610.0, True, 1600),
        (1610.0, 1690.0, True, None),
        (1690.0, 1820.0, True, 1800),
        (1610.0, 1590.0, True, None),
        (1480.0, 1505.0, True, None),
        (1650.0, 1660.0, False, 1600),
        (1400.0, 1450.0, False, None),
    ],
)
def test_a_milestone_is_a_new_hundred_above_the_start(
    before: float, after: float, settled_before: bool, reached: int | None
) -> None:
    assert milestone_reached(before, after, settled_before=settled_before) == reached
