"""A game's statistics from its ranked matches, each figure fed its extreme cases: no
match, one match, a clean sweep, all draws, 2, 3 and 4 players; what is not a finished
public ranked match is not counted; the window bounds the matches counted; the document
is kept in the cache."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.core.cache import cache

from agon.game_stats import stats as stats_module
from agon.game_stats.stats import game_stats, game_stats_kept
from agon.matches.models import Match
from tests.platform.game_stats.support import ranked

pytestmark = pytest.mark.django_db


def section(stats: dict[str, Any], players: int) -> dict[str, Any]:
    found: dict[str, Any]
    (found,) = [part for part in stats["player_counts"] if part["players"] == players]
    return found


def test_a_game_without_ranked_matches_has_no_figures() -> None:
    stats = game_stats("akropolis")

    assert stats["matches"] == 0
    assert stats["player_counts"] == []


def test_one_match_gives_each_seat_one_result_with_a_wide_interval() -> None:
    ranked([2, 1], [30, 45], turns=24, openings=["tile 1 of the site (free) at (-3, 1)", "x"])

    two = section(game_stats("akropolis"), 2)

    assert two["matches"] == 1 and two["digested"] == 1
    first, second = two["seats"]
    assert (first["seat"], first["played"], first["wins"], first["win_rate"]) == (0, 1, 0, 0.0)
    assert (second["seat"], second["played"], second["wins"], second["win_rate"]) == (1, 1, 1, 1.0)
    assert first["interval"][0] == 0.0 and first["interval"][1] > 0.7
    assert second["interval"][1] == 1.0 and second["interval"][0] < 0.3
    assert two["turns"] == {
        "count": 1,
        "mean": 24.0,
        "median": 24.0,
        "low": 24,
        "high": 24,
        "bins": [{"low": 24, "high": 24, "count": 1}],
    }
    assert two["scores"]["count"] == 2 and two["scores"]["low"] == 30
    assert [row["move"] for row in two["openings"]] == [
        "tile 1 of the site (free) at (-3, 1)",
        "x",
    ]


def test_a_clean_sweep_by_the_first_seat_shows_its_edge() -> None:
    for _ in range(12):
        ranked([1, 2, 3], turns=30, openings=["a", "b", "c"])

    three = section(game_stats("akropolis"), 3)

    seats = {row["seat"]: row for row in three["seats"]}
    assert seats[0]["win_rate"] == 1.0 and seats[0]["wins"] == 12
    assert seats[0]["interval"][0] > three["even_rate"] == pytest.approx(1 / 3)
    assert seats[1]["win_rate"] == seats[2]["win_rate"] == 0.0
    assert seats[1]["interval"][1] < three["even_rate"]
    openings = {row["move"]: row for row in three["openings"]}
    assert openings["a"]["win_rate"] == 1.0 and openings["b"]["played"] == 12


def test_all_draws_give_every_seat_its_share_and_no_win() -> None:
    for _ in range(8):
        ranked([1, 1], [50, 50], turns=20, openings=["same", "same"])
    for _ in range(4):
        ranked([1, 1, 1, 1], [9, 9, 9, 9])

    two = section(game_stats("akropolis"), 2)
    four = section(game_stats("akropolis"), 4)

    assert all(row["wins"] == 0 and row["shared_firsts"] == 8 for row in two["seats"])
    assert all(row["win_rate"] == pytest.approx(0.5) for row in two["seats"])
    assert all(row["win_rate"] == pytest.approx(0.25) for row in four["seats"])
    assert two["scores"]["bins"] == [{"low": 50, "high": 50, "count": 16}]
    (same,) = two["openings"]
    assert (same["played"], same["wins"], same["shared_firsts"]) == (16, 0, 16)
    assert same["win_rate"] == pytest.approx(0.5)
    assert four["turns"]["count"] == 0 and four["turns"]["bins"] == []  # not digested
    assert four["digested"] == 0 and four["openings"] == []


def test_player_counts_are_apart_and_in_order() -> None:
    ranked([1, 2, 3, 4])
    ranked([2, 1])
    ranked([3, 1, 2])
    ranked([1, 2], game="attika")

    stats = game_stats("akropolis")

    assert [part["players"] for part in stats["player_counts"]] == [2, 3, 4]
    assert stats["matches"] == 3
    assert [len(part["seats"]) for part in stats["player_counts"]] == [2, 3, 4]
    assert section(stats, 4)["even_rate"] == 0.25


def test_a_tie_for_first_among_three_of_four_gives_each_a_third() -> None:
    ranked([1, 1, 1, 4])

    seats = section(game_stats("akropolis"), 4)["seats"]

    assert [row["win_rate"] for row in seats] == pytest.approx([1 / 3, 1 / 3, 1 / 3, 0.0])
    assert [row["shared_firsts"] for row in seats] == [1, 1, 1, 0]


@pytest.mark.parametrize(
    "other",
    [
        {"kind": Match.Kind.CHALLENGE},
        {"kind": Match.Kind.TOURNAMENT},
        {"kind": Match.Kind.VALIDATION},
        {"status": Match.Status.RUNNING},
        {"status": Match.Status.FAILED},
        {"private": True},
    ],
)
def test_only_finished_public_ranked_matches_count(other: dict[str, Any]) -> None:
    ranked([1, 2], **other, turns=5, openings=["hidden", "hidden"])

    assert game_stats("akropolis")["player_counts"] == []


def test_the_window_counts_the_latest_matches_only(settings: Any) -> None:
    settings.AGON_GAME_STATS_MATCHES = 3
    for _ in range(5):
        ranked([2, 1])  # old: the second seat won
    for _ in range(3):
        ranked([1, 2])

    two = section(game_stats("akropolis"), 2)

    assert two["matches"] == 3
    assert two["seats"][0]["win_rate"] == 1.0


def test_faulted_and_unscored_seats_count_in_the_results_not_the_scores() -> None:
    ranked([1, 2], [12, None])

    two = section(game_stats("akropolis"), 2)

    assert two["seats"][1]["played"] == 1
    assert two["scores"]["count"] == 1


def test_the_document_is_kept_for_the_cache_seconds(settings: Any) -> None:
    settings.AGON_GAME_STATS_CACHE_SECONDS = 60
    ranked([1, 2])
    before = game_stats_kept("akropolis")
    ranked([1, 2])

    assert game_stats_kept("akropolis") == before
    settings.AGON_GAME_STATS_CACHE_SECONDS = 0
    assert game_stats_kept("akropolis")["matches"] == 2


def test_a_stale_document_is_served_while_another_reader_remakes_it(
    settings: Any, django_assert_num_queries: Any
) -> None:
    settings.AGON_GAME_STATS_CACHE_SECONDS = 60
    ranked([1, 2])
    before = game_stats_kept("akropolis")
    ranked([1, 2])
    key = stats_module.CACHE_KEY + "akropolis"
    kept = cache.get(key)
    cache.set(key, {**kept, "fresh_until": time.time() - 1}, 600)
    cache.add(key + ":making", 1, 60)  # another reader is counting

    with django_assert_num_queries(0):
        assert game_stats_kept("akropolis") == before

    cache.delete(key + ":making")  # that reader gave up: the next one remakes it
    assert game_stats_kept("akropolis")["matches"] == 2
    with django_assert_num_queries(0):
        assert game_stats_kept("akropolis")["matches"] == 2


def test_the_counting_takes_a_fixed_number_of_queries(
    django_assert_num_queries: Any,
) -> None:
    for players in (2, 3, 4):
        for _ in range(3):
            ranked(list(range(1, players + 1)), turns=10 * players, openings=["o"] * players)

    with django_assert_num_queries(6):
        stats = game_stats("akropolis")

    assert [part["matches"] for part in stats["player_counts"]] == [3, 3, 3]


def test_the_first_mover_is_counted_whichever_seat_it_was() -> None:
    # As in Megalopolis, which draws its first player: seat 2 moved first and won each
    # time, seat 1 moved first and lost each time.
    for _ in range(5):
        ranked([2, 1], turns=9, openings=["a", "b"], first_mover=1)
    for _ in range(5):
        ranked([2, 1], turns=9, openings=["a", "b"], first_mover=0)
    ranked([1, 2])  # not digested: its first mover is not known

    two = section(game_stats("akropolis"), 2)

    assert [row["win_rate"] for row in two["seats"]] == pytest.approx([1 / 11, 10 / 11])
    assert two["first_mover"]["played"] == 10
    assert two["first_mover"]["win_rate"] == pytest.approx(0.5)


def test_without_digests_there_is_no_first_mover() -> None:
    ranked([1, 2])

    assert section(game_stats("akropolis"), 2)["first_mover"] is None
