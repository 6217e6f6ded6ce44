"""Version tests under concurrency, on PostgreSQL: the two games of a pair ending at the
same moment in two workers count the pair once, and two starts racing for the last of a
budget let one through."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connections
from pytest_django import Settings

from agon.bots.models import Bot
from agon.matches.listed import listed_entry_of_finishing
from agon.matches.models import Match
from agon.version_testing import services
from agon.version_testing.models import VersionTest
from agon.version_testing.services import Baseline, BudgetExceeded, version_test_create
from tests.platform.conftest import MakeBot
from tests.platform.version_testing.support import (
    bot_with_two_versions,
    finish_for_candidate,
    queued_games,
)

pytestmark = pytest.mark.django_db(transaction=True)  # each thread has its connection


@pytest.fixture
def hero(make_bot: MakeBot, alice: User) -> Bot:
    return bot_with_two_versions(make_bot, alice)


def together(*work: Callable[[], Any]) -> list[BaseException | Any]:
    """Run each function in its own thread (and database connection); what each returned
    or raised."""
    results: list[BaseException | Any] = [None] * len(work)

    def run(index: int) -> None:
        try:
            results[index] = work[index]()
        except BaseException as error:  # handed back to the test
            results[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(work))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


@pytest.fixture
def meeting_point(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Barrier]:
    """Both games' ends wait here, each inside its own transaction with its match row
    locked and its seats written, then go on together. (Here, not later: from here a
    finish holds its bots' rows, and the two games share the candidate's bot, so the
    second waits for the first to commit.)"""
    barrier = threading.Barrier(2, timeout=20)

    def meet_then_list(*args: Any) -> str:
        barrier.wait()
        return listed_entry_of_finishing(*args)

    monkeypatch.setattr("agon.matches.services.listed_entry_of_finishing", meet_then_list)
    yield barrier


def test_a_pair_whose_games_end_together_is_counted_once(
    hero: Bot, alice: User, meeting_point: threading.Barrier
) -> None:
    test = version_test_create(user=alice, bot=hero, candidate=2, baseline=Baseline(version=1))
    first, second, *_ = queued_games(test)

    results = together(
        lambda: finish_for_candidate(first, test, "win"),
        lambda: finish_for_candidate(second, test, "draw"),
    )

    assert not [r for r in results if isinstance(r, BaseException)], results
    test.refresh_from_db()
    assert test.pairs_counted == 1 and test.pentanomial == [0, 0, 0, 1, 0]
    assert len(test.llr_history) == 1
    assert test.pairs_created == 3, "one more pair queued, once"
    assert Match.objects.filter(version_test_game__test=test).count() == 6


def test_two_starts_racing_for_the_last_of_a_budget_let_one_through(
    hero: Bot, alice: User, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.AGON_VERSION_TEST_GAMES_PER_DAY = 100
    barrier = threading.Barrier(2, timeout=20)
    checked = services._sprt

    def check_then_meet(*args: Any) -> Any:
        sprt = checked(*args)
        barrier.wait()  # both past their checks, about to take the budget
        return sprt

    monkeypatch.setattr(services, "_sprt", check_then_meet)

    def start() -> VersionTest:
        return version_test_create(
            user=User.objects.get(id=alice.id),
            bot=Bot.objects.get(id=hero.id),
            candidate=2,
            baseline=Baseline(version=1),
            max_games=60,
        )

    results = together(start, start)

    assert sorted(type(r).__name__ for r in results) == ["BudgetExceeded", "VersionTest"]
    assert VersionTest.objects.count() == 1
    assert isinstance(next(r for r in results if isinstance(r, BudgetExceeded)), BudgetExceeded)
