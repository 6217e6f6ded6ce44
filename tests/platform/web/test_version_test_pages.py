"""Version tests on the pages: started from the owner's page of a bot, listed there, and
each with its page (the verdict, W/D/L, Elo and interval, the LLR chart, the games)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from pytest_django import Settings

from agon.bots.models import Bot
from agon.matches.models import Match
from agon.tournaments.formats.sprt import Sprt
from agon.version_tests.models import VersionTest
from agon.version_tests.services import Baseline, version_test_create
from agon.web.charts import llr_chart
from tests.platform.conftest import PASSWORD, MakeBot
from tests.platform.version_tests.support import bot_with_two_versions, play_queued

pytestmark = pytest.mark.django_db

FORM = {
    "candidate": "2",
    "baseline": "version:1",
    "players": "2",
    "elo0": "0",
    "elo1": "200",
    "alpha": "0.05",
    "beta": "0.05",
    "max_games": "200",
}


@pytest.fixture
def hero(make_bot: MakeBot, alice: User) -> Bot:
    return bot_with_two_versions(make_bot, alice)


def test_the_owner_starts_a_test_from_the_bots_page(hero: Bot, alice_browser: Client) -> None:
    page = alice_browser.get(reverse("web:my-bot", args=[hero.id])).content.decode()
    assert "Start a version test" in page and 'value="version:1"' in page

    response = alice_browser.post(reverse("web:version-test-start", args=[hero.id]), FORM)

    test = VersionTest.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("web:version-test", args=[hero.id, test.id])
    assert (test.candidate.number, test.baseline and test.baseline.number) == (2, 1)
    assert test.elo1 == 200 and test.max_games == 200
    listed = alice_browser.get(reverse("web:my-bot", args=[hero.id])).content.decode()
    assert reverse("web:version-test", args=[hero.id, test.id]) in listed


def test_a_test_that_cannot_start_says_why_on_the_form(hero: Bot, alice_browser: Client) -> None:
    response = alice_browser.post(
        reverse("web:version-test-start", args=[hero.id]), {**FORM, "baseline": "version:2"}
    )
    assert response.status_code == 400
    assert "The test was not started: the baseline must be another version" in (
        response.content.decode()
    )
    assert not VersionTest.objects.exists()


def test_a_test_beyond_the_budget_is_refused_with_retry_after(
    hero: Bot, alice_browser: Client, settings: Settings
) -> None:
    settings.AGON_VERSION_TEST_GAMES_PER_DAY = 300
    url = reverse("web:version-test-start", args=[hero.id])
    assert alice_browser.post(url, FORM).status_code == 302
    refused = alice_browser.post(url, FORM)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "300 games a day" in refused.content.decode()


def test_nobody_else_starts_a_test_on_a_bot(hero: Bot, bob: User) -> None:
    client = Client()
    assert client.login(username="bob", password=PASSWORD)
    assert client.post(reverse("web:version-test-start", args=[hero.id]), FORM).status_code == 404
    assert Client().post(reverse("web:version-test-start", args=[hero.id]), FORM).status_code == 302
    assert not VersionTest.objects.exists()


def test_a_tests_page_shows_the_verdict_the_score_the_chart_and_the_games(
    hero: Bot, alice: User, client: Client
) -> None:
    test = version_test_create(
        user=alice, bot=hero, candidate=2, baseline=Baseline(version=1), elo1=200, max_games=100
    )
    while test.status == VersionTest.Status.RUNNING:
        play_queued(test, "win")
        test.refresh_from_db()

    page = client.get(reverse("web:version-test", args=[hero.id, test.id])).content.decode()

    assert "H1 accepted: v2 is stronger" in page
    assert 'http-equiv="refresh"' not in page
    assert f"{test.wins} / 0 / 0" in page
    assert f"{test.elo:.1f}" in page and f"[{test.elo_low:.1f}, {test.elo_high:.1f}]" in page
    assert '<svg class="chart llr-chart"' in page
    assert page.count('class="bound ') == 2
    played = Match.objects.filter(version_test_game__test=test, status=Match.Status.FINISHED)
    for match in played:
        assert reverse("web:match", args=[match.id]) in page
    assert page.count(">1st<") == played.count(), "the candidate won every game"
    # The pair stored past the verdict was still waiting for room: never played, never shown.
    assert "not needed" not in page


def test_a_running_test_says_how_far_it_is(hero: Bot, alice: User, client: Client) -> None:
    test = version_test_create(
        user=alice, bot=hero, candidate=2, baseline=Baseline(builtin="random")
    )
    page = client.get(reverse("web:version-test", args=[hero.id, test.id])).content.decode()
    assert "Running: 0 of at most 400 games counted." in page
    assert '<meta http-equiv="refresh"' in page, "the chart moves as the pairs come in"
    assert "builtin:random" in page
    assert client.get(reverse("web:version-test", args=[hero.id, test.id + 1])).status_code == 404


def test_the_llr_chart_draws_the_line_between_its_bounds_and_escapes_its_title() -> None:
    sprt = Sprt()
    chart = str(
        llr_chart(
            [0.5, -0.2, 1.25],
            lower=sprt.lower,
            upper=sprt.upper,
            title="<script>alert(1)</script> v2",
            chart_id="llr",
        )
    )
    assert "<script>" not in chart and "&lt;script&gt;" in chart
    (points,) = re.findall(r'<polyline points="([^"]+)"', chart)
    assert len(points.split()) == 4, "0 before the first pair, then one point a pair"
    assert f"H1 accepted ({sprt.upper:+.2f})" in chart
    assert f"H0 accepted ({sprt.lower:+.2f})" in chart
    ys = [float(p.split(",")[1]) for p in points.split()]
    assert ys[3] < ys[1] < ys[0] < ys[2], "higher LLR is drawn higher"
    empty = str(llr_chart([], lower=sprt.lower, upper=sprt.upper, title="t", chart_id="c"))
    assert "0 pairs counted" in empty and "H1 accepted" in empty
