"""The rating seam of `competition.ratings` and its Elo (`competition.ratings.elo`): no database,
plain numbers."""

from __future__ import annotations

import re
from pathlib import Path
from random import Random

import pytest

from competition import ratings
from competition.ratings import RatingEstimate, elo
from competition.ratings.elo import (
    K_FACTOR,
    PROVISIONAL_GAMES,
    PROVISIONAL_K_FACTOR,
    START_RATING,
    expected_score,
    k_factor,
    rating_changes,
)

SETTLED = PROVISIONAL_GAMES  # a game count past the provisional period
README = Path(__file__).resolve().parents[3] / "README.md"


def test_a_bot_is_provisional_while_its_deviation_is_as_wide_as_the_readme_says() -> None:
    """The README's figure is read, not copied, so the two cannot drift apart; the games
    played do not matter."""
    documented = re.search(r"provisional while its deviation is (\d+) or more", README.read_text())
    assert documented is not None, "the README no longer states the provisional rule"
    threshold = float(documented[1])
    for games in (0, 20, 500):
        assert ratings.is_provisional(RatingEstimate(1500.0, threshold), games)
        assert not ratings.is_provisional(RatingEstimate(1500.0, threshold - 0.1), games)


def test_expected_score_is_symmetric_and_even_between_equals() -> None:
    assert expected_score(1500.0, 1500.0) == pytest.approx(0.5)
    assert expected_score(1700.0, 1500.0) + expected_score(1500.0, 1700.0) == pytest.approx(1.0)
    assert expected_score(1900.0, 1500.0) == pytest.approx(10 / 11)


def test_two_player_win_between_equals_moves_k_over_two_each_way() -> None:
    changes = rating_changes([START_RATING, START_RATING], [1, 2], [SETTLED, SETTLED])
    assert changes == pytest.approx([K_FACTOR / 2, -K_FACTOR / 2])


def test_draw_between_equals_changes_nothing() -> None:
    assert rating_changes([1600.0, 1600.0], [1, 1], [SETTLED, 0]) == pytest.approx([0.0, 0.0])


def test_upset_moves_more_than_expected_win() -> None:
    favourite_wins = rating_changes([1700.0, 1500.0], [1, 2], [SETTLED, SETTLED])
    underdog_wins = rating_changes([1700.0, 1500.0], [2, 1], [SETTLED, SETTLED])
    assert 0 < favourite_wins[0] < K_FACTOR / 2 < underdog_wins[1]


def test_four_players_between_equals_spread_by_rank() -> None:
    changes = rating_changes([1500.0] * 4, [1, 2, 3, 4], [SETTLED] * 4)
    third = K_FACTOR / 3
    assert changes == pytest.approx([1.5 * third, 0.5 * third, -0.5 * third, -1.5 * third])


@pytest.mark.parametrize("seed", range(20))
def test_four_player_changes_sum_to_zero_for_equal_k(seed: int) -> None:
    rng = Random(seed)
    ratings = [rng.uniform(1000.0, 2200.0) for _ in range(4)]
    ranks = [rng.randint(1, 4) for _ in range(4)]  # ties included
    games = rng.choice([[0] * 4, [SETTLED + rng.randrange(100) for _ in range(4)]])
    assert sum(rating_changes(ratings, ranks, games)) == pytest.approx(0.0, abs=1e-9)


def test_provisional_k_applies_below_the_provisional_period() -> None:
    provisional = [k_factor(games) for games in range(PROVISIONAL_GAMES)]
    assert provisional[0] == PROVISIONAL_K_FACTOR
    assert all(k > K_FACTOR for k in provisional)
    assert provisional == sorted(provisional, reverse=True)  # it falls as games accrue
    assert k_factor(PROVISIONAL_GAMES) == k_factor(10 * PROVISIONAL_GAMES) == K_FACTOR


def test_each_seat_uses_its_own_k() -> None:
    newcomer, veteran = rating_changes([1500.0, 1500.0], [1, 2], [0, PROVISIONAL_GAMES])
    assert newcomer == pytest.approx(PROVISIONAL_K_FACTOR / 2)
    assert veteran == pytest.approx(-K_FACTOR / 2)
    late_newcomer, _ = rating_changes(
        [1500.0, 1500.0], [1, 2], [PROVISIONAL_GAMES - 1, PROVISIONAL_GAMES]
    )
    assert late_newcomer == pytest.approx(k_factor(PROVISIONAL_GAMES - 1) / 2)
    assert K_FACTOR / 2 < late_newcomer < PROVISIONAL_K_FACTOR / 2


@pytest.mark.parametrize(
    ("values", "ranks", "games"),
    [
        ([1500.0], [1], [0]),
        ([1500.0] * 7, list(range(1, 8)), [0] * 7),
        ([1500.0, 1500.0], [1], [0, 0]),
        ([1500.0, 1500.0], [1, 2], [0]),
    ],
)
def test_mismatched_too_few_or_too_many_seats_are_refused(
    values: list[float], ranks: list[int], games: list[int]
) -> None:
    with pytest.raises(ValueError, match="each of 2 to 6 seats"):
        ratings.update([RatingEstimate(value) for value in values], ranks, games)


# --- the seam -------------------------------------------------------------------------------

GOLDEN_VALUES = [
    1446.898036805962,
    1527.0085086669776,
    1513.444308447552,
    1508.7242009090269,
    1512.475921921617,
    1574.0562232826537,
    1491.6638941761382,
    1439.0021470540307,
]
"""Where 200 matches of 2 to 6 of 8 bots (`_golden_ladder`) left the Elo ratings before it
went behind the seam, computed with `rating_changes` and `+=` as the ladders then did."""


def _golden_ladder() -> tuple[list[RatingEstimate], list[int]]:
    rng = Random("agon ratings golden")
    rated, games = [ratings.initial()] * 8, [0] * 8
    for _ in range(200):
        seats = rng.sample(range(8), rng.randint(2, 6))
        ranks = [rng.randint(1, len(seats)) for _ in seats]
        afters = ratings.update([rated[b] for b in seats], ranks, [games[b] for b in seats])
        for bot, after in zip(seats, afters, strict=True):
            rated[bot] = after
            games[bot] += 1
    return rated, games


@pytest.fixture
def the_elo(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Elo as the platform's system, as it was before the Glicko."""
    monkeypatch.setattr(ratings, "SYSTEM", elo)


@pytest.mark.usefixtures("the_elo")
def test_the_seam_rates_exactly_as_the_elo_before_it() -> None:
    rated, games = _golden_ladder()
    assert [rating.value for rating in rated] == GOLDEN_VALUES  # to the last bit
    assert games == [93, 92, 93, 80, 111, 105, 113, 94]
    assert {rating.deviation for rating in rated} == {None}


@pytest.mark.usefixtures("the_elo")
def test_elo_starts_a_bot_at_the_start_rating_without_an_uncertainty() -> None:
    assert ratings.initial() == RatingEstimate(START_RATING, None)


@pytest.mark.usefixtures("the_elo")
def test_elo_is_provisional_by_games_whatever_the_rating() -> None:
    for rating in (RatingEstimate(900.0), RatingEstimate(START_RATING), RatingEstimate(2400.0)):
        assert ratings.is_provisional(rating, PROVISIONAL_GAMES - 1)
        assert not ratings.is_provisional(rating, PROVISIONAL_GAMES)


def test_a_rating_and_a_change_are_shown_whole() -> None:
    assert ratings.display(RatingEstimate(1522.6)) == "1523"
    assert ratings.display(RatingEstimate(1499.4)) == "1499"
    assert ratings.display_change(RatingEstimate(1500.0), RatingEstimate(1512.4)) == "+12"
    assert ratings.display_change(RatingEstimate(1500.0), RatingEstimate(1487.6)) == "-12"
    assert ratings.display_change(RatingEstimate(1500.0), RatingEstimate(1500.2)) == "+0"
