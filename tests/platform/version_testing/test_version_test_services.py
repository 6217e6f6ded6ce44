"""A version test on the platform: pairs of games queued a few at a time, counted in
order of pair number, stopped by the sequential test or the game limit, a failed game played again,
a bot's fault a lost game, no rating moved, and each owner's budget of games."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from pytest_django import Settings

from agon.bots.models import Bot
from agon.ladders.models import RatingChange
from agon.matches.background import background_dispatch
from agon.matches.models import Match
from agon.matches.services import match_claim, match_fail
from agon.version_testing.models import VersionTest
from agon.version_testing.services import (
    NOT_NEEDED,
    Baseline,
    BudgetExceeded,
    version_test_create,
)
from competition.sprt import Sprt
from tests.platform.conftest import MakeBot
from tests.platform.support import finish_match
from tests.platform.version_testing.support import (
    bot_with_two_versions,
    finish_for_candidate,
    play_queued,
    queued_games,
    seat_of,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def two_pairs_in_flight(settings: Settings) -> None:
    settings.AGON_VERSION_TEST_PAIRS_IN_FLIGHT = 2
    settings.AGON_VERSION_TEST_GAMES_PER_DAY = 2000
    settings.AGON_VERSION_TEST_REPLAYS = 2


@pytest.fixture
def hero(make_bot: MakeBot, alice: User) -> Bot:
    return bot_with_two_versions(make_bot, alice)


def start(user: User, bot: Bot, **given: object) -> VersionTest:
    arguments: dict[str, object] = {"candidate": 2, "baseline": Baseline(version=1), **given}
    return version_test_create(user=user, bot=bot, **arguments)  # type: ignore[arg-type]


def test_it_queues_a_few_pairs_of_games_with_the_seats_swapped_each_dealt_afresh(
    hero: Bot, alice: User
) -> None:
    test = start(alice, hero, max_games=100)
    games = queued_games(test)
    assert len(games) == 4, "two pairs in flight, two games each"
    assert {game.kind for game in games} == {Match.Kind.VERSION_TEST}
    first, second = games[0], games[1]
    assert len({game.seed for game in games}) == 4, "no two games dealt alike"
    candidate, baseline = test.candidate_id, test.baseline_id
    assert [s.version_id for s in first.seats.all()] == [candidate, baseline]
    assert [s.version_id for s in second.seats.all()] == [baseline, candidate]
    assert test.pairs_created == 2 and test.status == VersionTest.Status.RUNNING


def test_a_pair_is_counted_once_both_its_games_are_over_and_the_next_pair_is_queued(
    hero: Bot, alice: User
) -> None:
    test = start(alice, hero, max_games=100)
    first, second, third, _fourth = queued_games(test)
    finish_for_candidate(first, test, "win")
    test.refresh_from_db()
    assert test.pairs_counted == 0 and test.llr_history == []
    finish_for_candidate(second, test, "draw")
    test.refresh_from_db()
    assert test.pairs_counted == 1
    assert test.pentanomial == [0, 0, 0, 1, 0]
    assert (test.wins, test.draws, test.losses) == (1, 1, 0)
    assert test.llr_history == [pytest.approx(Sprt().evidence([0, 0, 0, 1, 0]))]
    assert test.pairs_created == 3, "one pair counted: one more queued"
    assert third.id in [m.id for m in queued_games(test)]


def test_pairs_are_counted_in_order_whichever_finishes_first(hero: Bot, alice: User) -> None:
    test = start(alice, hero, max_games=100)
    first, second, third, fourth = queued_games(test)
    finish_for_candidate(third, test, "loss")
    finish_for_candidate(fourth, test, "loss")
    test.refresh_from_db()
    assert test.pairs_counted == 0, "pair 1 waits for pair 0"
    finish_for_candidate(first, test, "win")
    finish_for_candidate(second, test, "win")
    test.refresh_from_db()
    assert test.pairs_counted == 2
    assert test.pentanomial == [1, 0, 0, 0, 1]
    sprt = Sprt()
    assert test.llr_history == [
        pytest.approx(sprt.evidence([0, 0, 0, 0, 1])),
        pytest.approx(sprt.evidence([1, 0, 0, 0, 1])),
    ]


def test_a_stronger_candidate_is_accepted_and_its_unplayed_games_are_dropped(
    hero: Bot, alice: User
) -> None:
    test = start(alice, hero, elo0=0, elo1=200, max_games=200)
    while test.status == VersionTest.Status.RUNNING:
        first, second, *_ = queued_games(test)
        finish_for_candidate(first, test, "win")
        finish_for_candidate(second, test, "draw" if test.pairs_counted % 2 else "win")
        test.refresh_from_db()
    assert test.verdict == VersionTest.Verdict.H1
    assert test.status == VersionTest.Status.FINISHED and test.finished is not None
    assert test.llr >= Sprt(elo0=0, elo1=200).upper
    assert len(test.llr_history) == test.pairs_counted
    assert test.elo is not None and test.elo_low is not None and test.elo_high is not None
    assert test.elo_low < test.elo < test.elo_high and test.elo > 0
    dropped = Match.objects.filter(version_test_game__test=test, status=Match.Status.FAILED)
    assert dropped.count() == 2, "the pair in flight past the verdict is not played"
    assert {m.error for m in dropped} == {NOT_NEEDED}
    assert queued_games(test) == []
    assert test.games_counted == 2 * test.pairs_counted


def test_a_sweep_is_accepted_within_twenty_games_with_the_defaults(hero: Bot, alice: User) -> None:
    # Issue 24: 20-0 in games ended "Inconclusive", LLR 0.28, Elo "1000.0 [1000.0, 1000.0]".
    test = version_test_create(
        user=alice, bot=hero, candidate=2, baseline=Baseline(version=1), max_games=400
    )
    assert (test.elo0, test.elo1, test.alpha, test.beta) == (0.0, 50.0, 0.05, 0.05)
    while test.status == VersionTest.Status.RUNNING:
        play_queued(test, "win")
        test.refresh_from_db()
    assert test.verdict == VersionTest.Verdict.H1
    assert test.games_counted <= 20 and test.wins == test.games_counted
    assert test.elo is not None and test.elo_low is not None
    assert 0 < test.elo_low < test.elo < 1000 and test.elo_high is None, "+X or more"


def test_drawn_pairs_have_an_interval_of_some_width(hero: Bot, alice: User) -> None:
    # Issue 24: three drawn pairs showed "0.0 [0.0, 0.0]".
    test = start(alice, hero, max_games=100)
    for _ in range(3):
        first, second, *_ = queued_games(test)
        finish_for_candidate(first, test, "draw")
        finish_for_candidate(second, test, "draw")
        test.refresh_from_db()
    assert test.pentanomial == [0, 0, 3, 0, 0] and test.status == VersionTest.Status.RUNNING
    assert test.elo == 0.0 and test.elo_low is not None and test.elo_high is not None
    assert test.elo_low < -100 and test.elo_high > 100


def test_a_weaker_candidate_is_rejected(hero: Bot, alice: User) -> None:
    test = start(alice, hero, elo0=0, elo1=200, max_games=200)
    while test.status == VersionTest.Status.RUNNING:
        play_queued(test, "loss")
        test.refresh_from_db()
    assert test.verdict == VersionTest.Verdict.H0
    assert test.elo is not None and test.elo < 0


def test_it_is_inconclusive_at_the_game_limit(hero: Bot, alice: User) -> None:
    test = start(alice, hero, max_games=6)
    for _ in range(3):
        play_queued(test, "draw")
    test.refresh_from_db()
    assert test.status == VersionTest.Status.FINISHED
    assert test.verdict == VersionTest.Verdict.INCONCLUSIVE
    assert test.pairs_counted == test.pairs_created == 3
    assert Match.objects.filter(version_test_game__test=test).count() == 6


def test_a_game_the_platform_failed_is_played_again_on_the_same_seats_dealt_afresh(
    hero: Bot, alice: User
) -> None:
    test = start(alice, hero, max_games=100)
    first = queued_games(test)[0]
    token = match_claim(match_id=first.id)
    assert token is not None
    assert match_fail(match_id=first.id, token=token, error="the sandbox failed: no docker")
    background_dispatch()  # as once the failure commits
    again = Match.objects.get(
        version_test_game__test=test, version_test_game__pair=0, version_test_game__leg=0
    )
    assert again.id != first.id and again.status == Match.Status.QUEUED
    assert again.seed != first.seed  # its bots may remember what they saw of the first
    assert [s.version_id for s in again.seats.all()] == [s.version_id for s in first.seats.all()]
    test.refresh_from_db()
    assert test.status == VersionTest.Status.RUNNING and test.pairs_counted == 0


def test_a_test_whose_game_keeps_failing_stops_as_failed(
    hero: Bot, alice: User, settings: Settings
) -> None:
    settings.AGON_VERSION_TEST_REPLAYS = 1
    test = start(alice, hero, max_games=100)
    for _ in range(2):
        match = Match.objects.get(
            version_test_game__test=test, version_test_game__pair=0, version_test_game__leg=0
        )
        token = match_claim(match_id=match.id)
        assert token is not None
        match_fail(match_id=match.id, token=token, error="the sandbox failed")
        background_dispatch()  # as once the failure commits
    test.refresh_from_db()
    assert test.status == VersionTest.Status.FAILED
    assert "failed 2 times" in test.error
    assert queued_games(test) == []


def test_a_bots_fault_loses_its_game(hero: Bot, alice: User) -> None:
    test = start(alice, hero, max_games=100)
    first, second, *_ = queued_games(test)
    for match in (first, second):
        seat = seat_of(match, test.candidate_id)
        assert seat is not None
        scores = [10, 10]
        scores[seat] = 99  # the best score, but it crashed
        finish_match(match, scores=scores, faults={seat: "crash"})
    test.refresh_from_db()
    assert (test.wins, test.draws, test.losses) == (0, 0, 2)
    assert test.pentanomial == [1, 0, 0, 0, 0]


def test_its_games_move_no_rating(hero: Bot, alice: User) -> None:
    test = start(alice, hero, max_games=100)
    play_queued(test, "win")
    assert not RatingChange.objects.exists()


def test_three_player_tables_mirror_the_two_versions_against_fixed_opponents(
    make_bot: MakeBot, alice: User
) -> None:
    bot = bot_with_two_versions(make_bot, alice)
    test = start(alice, bot, players=3, opponents=["greedy", "random"], max_games=100)
    games = queued_games(test)
    assert len(games) == 8, "two pairs of two legs of two mirrored tables"
    for candidate_table, baseline_table in zip(games[::2], games[1::2], strict=True):
        assert candidate_table.seed != baseline_table.seed  # mirrored seats, not deals
        mine = [(s.version_id, s.builtin) for s in candidate_table.seats.all()]
        theirs = [(s.version_id, s.builtin) for s in baseline_table.seats.all()]
        assert (test.candidate_id, "") in mine and (test.baseline_id, "") not in mine
        as_candidate = (test.candidate_id, "")
        assert mine == [as_candidate if v == (test.baseline_id, "") else v for v in theirs]
        assert sorted(b for _, b in mine if b) == ["greedy", "random"]
    for match in games[:4]:
        finish_for_candidate(match, test, "win")
    test.refresh_from_db()
    assert test.pentanomial == [0, 0, 0, 0, 1] and test.wins == 2


def test_it_measures_against_a_builtin_or_another_bot(
    hero: Bot, make_bot: MakeBot, alice: User, bob: User
) -> None:
    builtin = start(alice, hero, baseline=Baseline(builtin="greedy"))
    assert builtin.baseline is None and builtin.baseline_builtin == "greedy"
    assert {s.builtin for s in queued_games(builtin)[0].seats.all()} == {"", "greedy"}
    rival = make_bot(bob, "rival")
    rival.open_to_events = True  # public: other users may measure against it
    rival.save(update_fields=["open_to_events"])
    other = start(alice, hero, baseline=Baseline(bot=rival.id))
    assert other.baseline is not None and other.baseline.bot_id == rival.id


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"candidate": 7}, "has no version 7"),
        ({"baseline": Baseline(version=2)}, "another version"),
        ({"baseline": Baseline()}, "name one baseline"),
        ({"baseline": Baseline(version=1, builtin="greedy")}, "name one baseline"),
        ({"baseline": Baseline(builtin="stockfish")}, "no builtin bot"),
        ({"elo0": 10, "elo1": 0}, "elo0 must be below elo1"),
        ({"alpha": 0.9}, "alpha and beta"),
        ({"elo1": float("nan")}, "finite"),
        ({"max_games": 1}, "max_games"),
        ({"max_games": 10**6}, "max_games"),
        ({"players": 7}, "played by"),
        ({"players": 3, "opponents": ["me"]}, "builtin bots"),
    ],
)
def test_it_refuses_what_cannot_be_played(
    hero: Bot, alice: User, given: dict[str, object], message: str
) -> None:
    with pytest.raises(ValidationError, match=message):
        start(alice, hero, **given)
    assert not VersionTest.objects.exists()


def test_a_version_still_validating_cannot_be_tested(hero: Bot, alice: User) -> None:
    from agon.bots.services import version_submit
    from tests.platform.support import py_upload

    version_submit(bot=hero, upload=py_upload())
    with pytest.raises(ValidationError, match="has not passed validation"):
        start(alice, hero, candidate=3)


def test_only_the_owner_tests_a_bots_versions(hero: Bot, bob: User) -> None:
    with pytest.raises(PermissionDenied):
        start(bob, hero)


def test_the_budget_holds_a_running_tests_limit_and_gives_back_what_it_did_not_play(
    hero: Bot, alice: User, settings: Settings
) -> None:
    settings.AGON_VERSION_TEST_GAMES_PER_DAY = 100
    first = start(alice, hero, max_games=60, elo0=0, elo1=200)
    with pytest.raises(BudgetExceeded, match="60 are taken") as refused:
        start(alice, hero, max_games=60)
    assert 0 < refused.value.retry_after <= 24 * 3600
    start(alice, hero, max_games=40)  # exactly what is left
    with pytest.raises(BudgetExceeded):
        start(alice, hero, max_games=2)
    while first.status == VersionTest.Status.RUNNING:
        play_queued(first, "win")
        first.refresh_from_db()
    assert first.games_counted < 60
    start(alice, hero, max_games=60 - first.games_counted)


def test_the_budget_is_each_users_own(
    hero: Bot, make_bot: MakeBot, alice: User, bob: User, settings: Settings
) -> None:
    settings.AGON_VERSION_TEST_GAMES_PER_DAY = 10
    start(alice, hero, max_games=10)
    bobs = bot_with_two_versions(make_bot, bob, "bobs")
    start(bob, bobs, max_games=10)
