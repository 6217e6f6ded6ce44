"""Broken versions are paused from matchmaking (`agon.bots.pausing`): the rule alone, then
through finished matches, the matchmaker, the API and the owner's page."""

from __future__ import annotations

from random import Random

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from pytest_django import Settings
from rest_framework.test import APIClient

from agon.bots.models import Bot, BotVersion
from agon.bots.pausing import _judged_seats, broken_reason
from agon.bots.services import version_submit
from agon.ladders.models import Ladder, Rating
from agon.ladders.services import matchmaking_round
from agon.matches.models import Match
from agon.matches.services import match_create
from tests.platform.conftest import MakeBot
from tests.platform.support import finish_match, pass_validation, py_upload


def rule(faults: list[str], total: int | None = None) -> str | None:
    total = sum(map(bool, faults)) if total is None else total
    return broken_reason(faults, total, window=20, share=0.1, most=50)


def test_a_version_faulting_in_more_than_a_tenth_of_its_last_matches_is_broken() -> None:
    assert rule(["", "crash"] + [""] * 18) is None, "one fault alone is never enough"
    assert rule(["crash", "timeout"] + [""] * 18) is None, "2 of 20 is not more than 10%"
    reason = rule(["crash", "timeout", "crash"] + [""] * 17)
    assert reason == "it faulted in 3 of its last 20 matches (crash, timeout), more than 10%"


def test_only_the_last_matches_count_and_a_short_record_is_judged_on_what_it_has() -> None:
    assert rule([""] * 20 + ["crash"] * 10, total=10) is None, "old faults are forgiven"
    assert rule(["illegal", "illegal", ""]) is not None, "2 of 3"


def test_more_than_the_most_faults_in_all_is_broken_whatever_the_share() -> None:
    assert rule([""] * 20, total=51) == "it faulted in 51 matches, more than 50"
    assert rule([""] * 20, total=50) is None


@pytest.fixture
def fault_settings(settings: Settings) -> Settings:
    settings.AGON_FAULT_RECENT_MATCHES = 10
    settings.AGON_FAULT_SHARE = 0.1
    settings.AGON_FAULT_MAX = 50
    return settings


def play(ladder: Ladder, bots: list[Bot], faulty: Bot | None = None, kind: str = "ranked") -> Match:
    versions = [BotVersion.objects.get(bot=bot, status=BotVersion.Status.ACTIVE) for bot in bots]
    match = match_create(
        kind=kind,
        ladder=ladder,
        game=ladder.game,
        players=ladder.players,
        options=ladder.options,
        seats=versions,
    )
    faults = {bots.index(faulty): "crash"} if faulty is not None else None
    return finish_match(match, scores=[3, 2], faults=faults)


def active(bot: Bot) -> BotVersion:
    return BotVersion.objects.get(bot=bot, status=BotVersion.Status.ACTIVE)


@pytest.mark.django_db
@pytest.mark.usefixtures("fault_settings")
def test_a_crashing_version_is_paused_its_ratings_kept_and_left_out_of_matchmaking(
    ladder_2p: Ladder,
    make_bot: MakeBot,
    alice: User,
    bob: User,
) -> None:
    carol = User.objects.create_user("carol")
    crashy, steady, other = make_bot(alice, "crashy"), make_bot(bob, "steady"), make_bot(carol, "x")
    play(ladder_2p, [crashy, steady])
    play(ladder_2p, [crashy, steady], faulty=crashy)
    assert not active(crashy).paused_reason, "one fault in two matches: still playing"
    play(ladder_2p, [steady, crashy], faulty=crashy)

    version = active(crashy)
    assert version.paused_reason.startswith("Paused from matchmaking: it faulted in 2 of")
    assert not active(steady).paused_reason
    assert Rating.objects.get(ladder=ladder_2p, bot=crashy).games == 3, "its rating is kept"

    made = [m for _ in range(5) for m in matchmaking_round(rng=Random(1))]
    seated = {seat.version.bot_id for m in made for seat in m.seats.all() if seat.version}
    assert crashy.id not in seated
    assert {steady.id, other.id} <= seated


@pytest.mark.django_db
def test_the_judge_reads_the_last_matches_only_and_counts_every_fault_past_them(
    settings: Settings, ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User
) -> None:
    """The faults in all count the matches before the window too; the rows read are
    the window's, however long the version's record (it grows with every match)."""
    settings.AGON_FAULT_RECENT_MATCHES = 3
    settings.AGON_FAULT_SHARE = 1.0  # never more than all of them
    settings.AGON_FAULT_MAX = 1_000
    flaky, steady = make_bot(alice, "flaky"), make_bot(bob, "steady")
    for faulty in (flaky, flaky, None, None, None):
        play(ladder_2p, [flaky, steady], faulty=faulty)
    both = [active(flaky), active(steady)]
    assert _judged_seats(both, 3) == {both[0].id: (["", "", ""], 2), both[1].id: (["", "", ""], 0)}
    assert _judged_seats(both[:1], 10) == {both[0].id: (["", "", "", "crash", "crash"], 2)}
    assert _judged_seats(both, 0) == {both[0].id: ([], 2), both[1].id: ([], 0)}

    settings.AGON_FAULT_MAX = 2
    play(ladder_2p, [flaky, steady], faulty=flaky)
    assert active(flaky).paused_reason == (
        "Paused from matchmaking: it faulted in 3 matches, more than 2."
    )


@pytest.mark.django_db
@pytest.mark.usefixtures("fault_settings")
@pytest.mark.parametrize(
    "kind", [Match.Kind.CHALLENGE, Match.Kind.TOURNAMENT, Match.Kind.VERSION_TEST]
)
def test_faults_in_games_somebody_chose_never_pause_a_version(
    kind: str, ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User
) -> None:
    victim, steady = make_bot(alice, "rarely-buggy"), make_bot(bob, "steady")
    for _ in range(5):  # a user steers it into its rare bug, game after game
        play(ladder_2p, [steady, victim], faulty=victim, kind=kind)
    assert not active(victim).paused_reason

    play(ladder_2p, [victim, steady])  # a ranked game judges the ranked games alone
    assert not active(victim).paused_reason
    play(ladder_2p, [victim, steady], faulty=victim)
    assert not active(victim).paused_reason, "one fault in two ranked games: still playing"


@pytest.mark.django_db
@pytest.mark.usefixtures("fault_settings")
def test_a_new_version_plays_again(ladder_2p: Ladder, make_bot: MakeBot, alice: User) -> None:
    crashy, steady = make_bot(alice, "crashy"), make_bot(alice, "steady")
    for _ in range(2):
        play(ladder_2p, [crashy, steady], faulty=crashy)
    assert active(crashy).paused_reason

    pass_validation(version_submit(bot=crashy, upload=py_upload()))

    assert active(crashy).number == 2
    assert not active(crashy).paused_reason


@pytest.mark.django_db
@pytest.mark.usefixtures("fault_settings")
def test_its_owner_resumes_it_through_the_api_and_only_its_owner_sees_why(
    ladder_2p: Ladder,
    make_bot: MakeBot,
    alice: User,
    bob: User,
    alice_client: APIClient,
    bob_client: APIClient,
) -> None:
    crashy, steady = make_bot(alice, "crashy"), make_bot(bob, "steady")
    for _ in range(2):
        play(ladder_2p, [crashy, steady], faulty=crashy)

    [seen_by_bob] = bob_client.get(f"/api/bots/{crashy.id}/").json()["versions"]
    assert (seen_by_bob["paused"], seen_by_bob["paused_reason"]) == (True, None)
    [seen_by_alice] = alice_client.get(f"/api/bots/{crashy.id}/").json()["versions"]
    assert seen_by_alice["paused_reason"].startswith("Paused from matchmaking: it faulted")

    assert bob_client.post(f"/api/bots/{crashy.id}/resume/").status_code == 403
    assert active(crashy).paused_reason
    response = alice_client.post(f"/api/bots/{crashy.id}/resume/")
    assert response.status_code == 200
    assert (response.json()["paused"], response.json()["paused_reason"]) == (False, "")

    play(ladder_2p, [crashy, steady], faulty=crashy)
    assert not active(crashy).paused_reason, "the faults before resuming are forgiven"
    play(ladder_2p, [crashy, steady], faulty=crashy)
    assert active(crashy).paused_reason, "new faults pause it again"


@pytest.mark.django_db
@pytest.mark.usefixtures("fault_settings")
def test_the_owners_page_says_why_and_its_button_resumes_it(
    ladder_2p: Ladder, make_bot: MakeBot, alice: User, client: Client
) -> None:
    crashy, steady = make_bot(alice, "crashy"), make_bot(alice, "steady")
    for _ in range(2):
        play(ladder_2p, [crashy, steady], faulty=crashy)
    client.force_login(alice)
    page = client.get(reverse("web:my-bot", args=[crashy.id])).content.decode()
    assert "v1 is paused" in page and "it faulted in 2 of its last 2 matches (crash)" in page

    response = client.post(reverse("web:my-bot-resume", args=[crashy.id]))

    assert response.status_code == 302
    assert not active(crashy).paused_reason
    page = client.get(reverse("web:my-bot", args=[crashy.id])).content.decode()
    assert "is paused" not in page and "plays ranked matches again" in page


@pytest.mark.django_db
def test_the_owners_resume_button_is_refused_past_its_limit(
    make_bot: MakeBot, alice: User, client: Client, settings: Settings
) -> None:
    settings.AGON_RATE_LIMITS = {**settings.AGON_RATE_LIMITS, "resume": "1/hour"}
    bot = make_bot(alice, "sleepy")
    client.force_login(alice)
    assert client.post(reverse("web:my-bot-resume", args=[bot.id])).status_code == 302

    refused = client.post(reverse("web:my-bot-resume", args=[bot.id]))

    assert refused.status_code == 429
    assert refused["Retry-After"] == "3600"
    assert "Too many resumptions: try again in 60 minutes." in refused.content.decode()
