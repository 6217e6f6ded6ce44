"""The analysis of a replay: every seat's value after every move, by a search bot's
playouts from the whole state; deterministic from the match's seed; the biggest drops."""

from __future__ import annotations

import dataclasses
import math

import pytest

from engine.bots import builtin_bot
from engine.core import MatchResult
from engine.match import play_match
from engine.registry import game_ids, get_game
from engine.replay import Replay, ReplayError
from engine.search.analysis import (
    LEVELS,
    Drop,
    analyse_replay,
    biggest_drops,
    expected_rank,
)
from engine.search.uct import pairwise_rewards


def greedy_replay(game_id: str, players: int = 2, seed: int = 3) -> Replay:
    return play_match(
        get_game(game_id),
        seed=seed,
        players=players,
        options={},
        bots=[builtin_bot("greedy", game_id, seed, seat) for seat in range(players)],
        bot_ids=["greedy"] * players,
    )


@pytest.fixture(autouse=True)
def tiny_level(monkeypatch: pytest.MonkeyPatch) -> None:
    """mcts-1 with fewer playouts: the same code, a fraction of the time."""
    small = dataclasses.replace(LEVELS["mcts-1"], iterations=8, candidates=4)
    monkeypatch.setitem(LEVELS, "mcts-1", small)


@pytest.mark.parametrize("game_id", game_ids())
def test_every_step_has_a_value_per_seat_and_the_last_is_the_result(game_id: str) -> None:
    replay = greedy_replay(game_id)

    made = analyse_replay(replay)

    assert len(made.values) == len(replay.actions) + 1
    assert made.movers[0] is None
    assert all(len(values) == 2 for values in made.values)
    assert all(0.0 <= value <= 1.0 for values in made.values for value in values)
    # A position's values are every seat's share of the meetings: they sum to n/2.
    assert all(math.isclose(sum(values), 1.0, abs_tol=1e-9) for values in made.values)
    result = MatchResult(scores=replay.result["scores"], ranks=replay.result["ranks"])
    assert made.values[-1] == pairwise_rewards(result)
    assert made.playouts == 8 * len(replay.actions)


def test_the_movers_are_the_seats_that_moved() -> None:
    replay = greedy_replay("architekton")
    game = get_game("architekton")
    state = game.new_state(replay.seed, replay.players, replay.options)
    movers = []
    for action in replay.actions:
        movers.append(game.current_player(state))
        game.apply(state, action)

    assert analyse_replay(replay).movers[1:] == movers


def test_the_same_replay_gives_the_same_values_and_another_seed_others() -> None:
    replay = greedy_replay("akropolis")

    first, again = analyse_replay(replay), analyse_replay(replay)
    reseeded = analyse_replay(replay, seed=replay.seed + 1)

    assert first.values == again.values
    assert reseeded.values[1:-1] != first.values[1:-1]


def test_four_seats_values_sum_to_two_and_give_expected_ranks() -> None:
    replay = greedy_replay("akropolis", players=4)

    made = analyse_replay(replay)

    assert all(math.isclose(sum(values), 2.0, abs_tol=1e-9) for values in made.values)
    ranks = replay.result["ranks"]
    for seat, value in enumerate(made.values[-1]):
        # No ties in this deal: the final value gives back the rank.
        assert expected_rank(value, 4) == pytest.approx(ranks[seat])


def test_a_replay_that_does_not_play_through_is_refused() -> None:
    replay = greedy_replay("architekton")
    broken = dataclasses.replace(replay, actions=[*replay.actions, replay.actions[-1]])

    with pytest.raises(ReplayError):
        analyse_replay(broken)


def test_the_biggest_drops_are_the_movers_own_largest_falls() -> None:
    values = [[0.5, 0.5], [0.9, 0.1], [0.2, 0.8], [0.25, 0.75], [0.3, 0.7], [0.0, 1.0]]
    movers = [None, 0, 0, 1, 0, 0]

    drops = biggest_drops(values, movers, count=5, threshold=0.1)

    # Step 1: seat 0 rose. Step 2: seat 0 fell 0.7. Step 3: seat 1 fell 0.05 (under the
    # threshold). Step 5: seat 0 fell 0.3.
    assert [(drop.step, drop.seat) for drop in drops] == [(2, 0), (5, 0)]
    assert drops[0].size == pytest.approx(0.7)


def test_drops_of_a_flat_or_one_step_story_are_none() -> None:
    assert biggest_drops([[0.5, 0.5]] * 10, [None, *[0, 1] * 4, 0]) == []
    assert biggest_drops([[1.0, 0.0]], [None]) == []
    assert biggest_drops([], []) == []


def test_drops_keep_the_count_and_tie_on_the_earlier_step() -> None:
    values = [[1.0, 0.0], [0.5, 0.5], [1.0, 0.0], [0.5, 0.5], [1.0, 0.0], [0.5, 0.5]]
    movers = [None, 0, 1, 0, 1, 0]

    drops = biggest_drops(values, movers, count=2)

    # Every move costs its mover a half: the first two count.
    assert [drop.step for drop in drops] == [1, 2]
    assert biggest_drops(values, movers, count=0) == []
    assert all(isinstance(drop, Drop) for drop in drops)


def test_a_drop_names_no_seat_beyond_the_values() -> None:
    assert biggest_drops([[1.0, 0.0], [0.0, 1.0]], [None, 7]) == []


def test_the_expected_rank_runs_from_first_to_last() -> None:
    assert expected_rank(1.0, 4) == 1
    assert expected_rank(0.0, 4) == 4
    assert expected_rank(0.5, 2) == 1.5
