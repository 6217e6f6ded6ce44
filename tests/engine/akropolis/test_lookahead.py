"""`agon_bot.Lookahead` on Akropolis: the scores it reads after each try are those of the
finished-game `result`, the position it tries moves on never changes, and the example
lookahead bot built on it plays whole games over the protocol."""

from __future__ import annotations

import json

import pytest

from agon_bot import Lookahead
from tests.engine.akropolis.fast.test_running_score import ALL_VARIANTS, random_states
from tests.engine.megalopolis.test_example_bots import example_match
from tests.engine.support import GAME


def test_its_scores_after_each_move_are_those_of_the_result() -> None:
    for state in random_states((5, 3, ALL_VARIANTS)):
        if state.turn == 24:
            break
    observation = json.loads(json.dumps(GAME.observation(state, GAME.current_player(state))))
    position = Lookahead("akropolis", observation)
    seen = GAME.state_to_json(position.state)
    assert position.state.variants == state.variants
    legal = GAME.legal_actions(position.state)
    for index in range(0, len(legal), 7):
        after = GAME.copy_state(position.state)
        GAME.apply(after, legal[index])
        scores = GAME.result(after).scores
        assert position.scores_after(legal[index]) == scores
        me = position.player
        assert position.score_after(legal[index]) == scores[me]
        # By index into its own legal actions: the same move, not checked again.
        assert position.legal[index] == legal[index]
        assert GAME.state_to_json(position.after(index)) == GAME.state_to_json(after)
        assert position.scores_after(index) == scores
        assert position.score_after(index) == scores[me]
        assert position.lead_after(index) == position.lead_after(legal[index])
        assert position.lead_after(legal[index]) == scores[me] - max(
            s for seat, s in enumerate(scores) if seat != me
        )
    assert GAME.state_to_json(position.state) == seen
    assert position.scores() == GAME.result(position.state).scores


def test_the_example_lookahead_bot_plays_akropolis_to_the_end() -> None:
    replay = example_match("akropolis", 3, seed=2)
    assert replay.faults == []
    assert replay.result is not None


def test_an_index_out_of_its_legal_actions_is_refused() -> None:
    state = GAME.new_state(3, 2, {})
    position = Lookahead("akropolis", json.loads(json.dumps(GAME.observation(state, 0))))
    for index in (len(position.legal), -1):
        with pytest.raises(IndexError):
            position.after(index)


def test_a_finished_game_has_no_index_to_apply() -> None:
    state = GAME.new_state(4, 2, {})
    while not GAME.is_over(state):
        GAME.apply(state, GAME.legal_actions(state)[0])
    with pytest.raises(IndexError):
        GAME.apply_legal(state, GAME.legal_actions(state), 0)
