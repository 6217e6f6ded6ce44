"""Version tests on the pages: started from the owner's page of a bot, listed there, and
each with its page (the question and its answer in words, W/D/L, Elo and interval, the
evidence's chart, the games)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from pytest_django import Settings

from agon.bots.models import Bot
from agon.matches.models import Match
from agon.version_testing.models import VersionTest
from agon.version_testing.services import Baseline, version_test_create
from agon.web.charts import llr_chart
from competition.sprt import Sprt
from tests.platform.conftest import PASSWORD, MakeBot
from tests.platform.version_testing.support import bot_with_two_versions, play_queued

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
    hero: Bot, alice: User, alice_browser: Client
) -> None:
    test = version_test_create(
        user=alice, bot=hero, candidate=2, baseline=Baseline(version=1), max_games=100
    )
    while test.status == VersionTest.Status.RUNNING:
        play_queued(test, "win")
        test.refresh_from_db()

    page = alice_browser.get(reverse("web:version-test", args=[hero.id, test.id])).content.decode()

    assert "Is v2 at least 50 Elo stronger than v1?" in page
    assert (
        f"Yes: after {test.games_counted} games ({test.wins} won, 0 drawn, 0 lost), the test "
        "accepted H1 (v2 is at least 50 Elo stronger than v1) with 5% error rates."
    ) in page
    assert test.games_counted <= 20, "a sweep decides within 20 games"
    assert 'http-equiv="refresh"' not in page
    assert f"{test.wins} / 0 / 0" in page
    assert test.elo is not None and test.elo_low is not None and test.elo_high is None
    interval = f"{test.elo_low:+.0f} or more"
    assert f"Estimated {test.elo:+.0f} Elo (95%: {interval})." in page
    assert f'{test.elo:+.0f} <span class="muted ci">({interval})</span>' in page
    assert "1000" not in page.split("<footer")[0], "no clamped bound"
    assert '<svg class="chart llr-chart"' in page
    assert page.count('class="bound ') == 2
    played = Match.objects.filter(version_test_game__test=test, status=Match.Status.FINISHED)
    for match in played:
        assert reverse("web:match", args=[match.id]) in page
    assert page.count(">1st<") == played.count(), "the candidate won every game"
    assert page.count("not needed") == 2, "the pair in flight past the verdict"


def test_a_running_test_says_how_far_it_is(hero: Bot, alice: User, alice_browser: Client) -> None:
    test = version_test_create(
        user=alice, bot=hero, candidate=2, baseline=Baseline(builtin="random")
    )
    page = alice_browser.get(reverse("web:version-test", args=[hero.id, test.id])).content.decode()
    assert "Is v2 at least 50 Elo stronger than builtin:random?" in page
    assert "Running: no pair of games counted yet (at most 400 games)." in page
    assert "No Elo estimate yet." in page
    assert '<meta http-equiv="refresh"' in page, "the chart moves as the pairs come in"
    assert "builtin:random" in page
    assert (
        alice_browser.get(reverse("web:version-test", args=[hero.id, test.id + 1])).status_code
        == 404
    )


def test_drawn_pairs_show_an_interval_and_the_way_to_each_bound(
    hero: Bot, alice: User, alice_browser: Client
) -> None:
    test = version_test_create(user=alice, bot=hero, candidate=2, baseline=Baseline(version=1))
    for _ in range(3):
        play_queued(test, "draw")
        test.refresh_from_db()
    assert test.pentanomial == [0, 0, test.pairs_counted, 0, 0]

    page = alice_browser.get(reverse("web:version-test", args=[hero.id, test.id])).content.decode()

    toward_h1, toward_h0 = Sprt().progress(test.pentanomial)
    assert f"the evidence is {toward_h1:.0%} of the way to yes (H1) and {toward_h0:.0%}" in page
    assert f'<progress max="100" value="{round(100 * toward_h0)}">' in page
    assert re.search(r"Estimated \+0 Elo \(95%: -\d{3} to \+\d{3}\)\.", page), "no zero width"


def test_an_undecided_and_a_failed_test_say_so(
    hero: Bot, alice: User, alice_browser: Client
) -> None:
    test = version_test_create(
        user=alice, bot=hero, candidate=2, baseline=Baseline(version=1), max_games=4
    )
    play_queued(test, "win")
    test.refresh_from_db()
    assert test.verdict == VersionTest.Verdict.INCONCLUSIVE
    page = alice_browser.get(reverse("web:version-test", args=[hero.id, test.id])).content.decode()
    assert "Undecided: the test reached its limit of 4 games after 4 games" in page
    assert "of the way to yes (H1)" in page and "<progress" in page

    VersionTest.objects.filter(id=test.id).update(
        status=VersionTest.Status.FAILED, verdict="", error="match 9 failed 3 times"
    )
    page = alice_browser.get(reverse("web:version-test", args=[hero.id, test.id])).content.decode()
    assert "Stopped without an answer: match 9 failed 3 times" in page


def test_the_form_explains_the_hypotheses_and_error_rates(hero: Bot, alice_browser: Client) -> None:
    page = alice_browser.get(reverse("web:my-bot", args=[hero.id])).content.decode()
    assert "alpha is the chance that it says yes (H1) when H0 is true" in page
    assert "The chance of a wrong yes: accepting H1 when H0 is true." in page
    assert re.search(r'name="elo1" value="50(\.0)?"', page), "the default elo1"
    assert re.search(r'name="elo0" value="0(\.0)?"', page), "the default elo0"


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
