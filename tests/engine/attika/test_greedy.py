"""The builtin greedy bot: legal, deterministic, sensible."""

from __future__ import annotations

import json

from engine.attika.greedy import WIN, GreedyBot, action_values
from engine.bots import builtin_bot
from engine.match import play_match
from tests.engine.attika.support import (
    GAME,
    on_board,
    painted,
    play_to_turn,
    put,
    set_hand,
)


def test_it_plays_a_legal_action_and_always_the_same_one() -> None:
    for players, turn in ((2, 0), (3, 40), (4, 90)):
        state = play_to_turn(players, players, turn)
        me = GAME.current_player(state)
        seen = GAME.observation(state, me)
        legal = GAME.legal_actions(state)
        chosen = GreedyBot(1).act(seen, legal)
        assert chosen in legal
        assert GreedyBot(2).act(seen, legal) == chosen


def test_it_values_a_plain_list_of_actions_as_the_lazy_sequence() -> None:
    state = play_to_turn(8, 3, 33)
    me = GAME.current_player(state)
    guess = GAME.state_from_observation(GAME.observation(state, me))
    legal = GAME.legal_actions(state)
    plain = json.loads(json.dumps(list(legal)))
    assert action_values(guess, me, legal) == action_values(guess, me, plain)


def test_it_links_two_shrines_when_it_can() -> None:
    state = painted(shrines=((0, 3), (0, -3)))
    for name, r in (("road_1", 2), ("road_2", 1), ("quarry", 0), ("road_3", -1)):
        put(state, 0, name, 0, r)
    on_board(state, 0, "road_4", "mint")
    set_hand(state, 0, "MMWMMW")
    legal = GAME.legal_actions(state)
    # a painted map has no tiles to rebuild it from an observation: value the state itself
    values = action_values(state, 0, legal)
    best = legal[values.index(max(values))]
    assert best["type"] == "build" and (best["q"], best["r"]) == (0, -2)  # the only link
    assert max(values) == WIN


def test_it_beats_the_random_bot() -> None:
    wins = 0
    for seed in range(10):
        seats = [builtin_bot("greedy", "attika", seed, 0), builtin_bot("random", "attika", seed, 1)]
        greedy_seat = seed % 2
        if greedy_seat:
            seats.reverse()
        replay = play_match(GAME, seed=seed, players=2, options={}, bots=seats, bot_ids=["a", "b"])
        ranks = replay.result["ranks"]
        assert isinstance(ranks, list)
        wins += ranks[greedy_seat] == 1
    assert wins >= 8
