"""engine.bots: the builtin bots every game offers."""

from __future__ import annotations

import pytest

from engine.akropolis.greedy import GreedyBot
from engine.bots import BUILTIN_BOTS, builtin_bot
from engine.players import RandomBot
from engine.rng import derive_seed
from tests.engine.support import GAME


def test_the_builtin_bots_are_random_greedy_and_the_search_bots_weakest_first() -> None:
    assert BUILTIN_BOTS == ("random", "greedy", "mcts-1", "mcts-2", "mcts-3")


def test_a_random_bot_is_seeded_from_the_match_seed_its_name_and_seat() -> None:
    bot = builtin_bot("random", "akropolis", 17, 2)
    assert isinstance(bot, RandomBot)
    assert bot.rng.state == derive_seed(17, "random", 2)


def test_the_greedy_bot_comes_from_the_game() -> None:
    assert isinstance(builtin_bot("greedy", "akropolis", 17, 0), GreedyBot)


def test_an_unknown_builtin_bot_names_the_known_ones() -> None:
    with pytest.raises(
        ValueError,
        match="unknown builtin bot 'clever'; builtin bots: random, greedy, mcts-1, mcts-2, mcts-3",
    ):
        builtin_bot("clever", "akropolis", 1, 0)


def test_a_random_bot_picks_a_legal_action_from_its_own_stream() -> None:
    state = GAME.new_state(3, 2, {})
    legal = GAME.legal_actions(state)
    one, two = RandomBot(5), RandomBot(5)
    picks = [one.act(GAME.observation(state, 0), legal) for _ in range(10)]
    assert picks == [two.act(GAME.observation(state, 0), legal) for _ in range(10)]
    assert all(pick in legal for pick in picks)
    assert len({(p["tile"], p["q"], p["r"], p["rotation"]) for p in picks}) > 1
