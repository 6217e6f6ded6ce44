"""The builtin greedy bot and the text picture for `agon replay show`."""

from __future__ import annotations

from engine.bots import builtin_bot
from engine.match import play_match
from engine.megalopolis import Megalopolis
from engine.megalopolis.greedy import GreedyBot
from tests.engine.megalopolis.support import GAME, choose, down, play, random_game, table, up


def test_the_greedy_bot_is_deterministic_and_legal(game: Megalopolis) -> None:
    for state, action in random_game(2, 3):
        if action is None:
            break
        legal = game.legal_actions(state)
        seen = game.observation(state, game.current_player(state))
        first = GreedyBot(1).act(seen, legal)
        assert first in legal
        assert GreedyBot(2).act(seen, legal) == first
        assert GreedyBot().act(seen, game.legal_actions_from_json(legal.compact())) == first


def test_it_plays_where_its_group_grows_to_score(game: Megalopolis) -> None:
    state = table({(0, 0): up("housing", 0), (1, 0): up("housing", 0), (5, 0): up("factory")},
                  hands=[["housing"], []])  # fmt: skip
    action = GreedyBot().act(game.observation(state, 0), game.legal_actions(state))
    touching = {(2, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1)}
    assert (action["x"], action["y"]) in touching


def test_it_clears_the_opponents_best_tile_with_a_security_guard(game: Megalopolis) -> None:
    state = table(
        {(0, 0): up("housing", 1), (1, 0): up("housing", 1), (2, 0): up("housing", 1),
         (0, 2): up("housing", 0)},
        hands=[["security_guard"], []],
    )  # fmt: skip
    play(state, "security_guard", 0, 1)
    action = GreedyBot().act(game.observation(state, 0), game.legal_actions(state))
    assert action == {"tile": [0, 0]}  # breaks the opponent's group (first of the best)


def test_it_beats_the_random_bot_most_of_the_time(game: Megalopolis) -> None:
    wins = 0
    for seed in range(12):
        seat = seed % 2
        names = ["greedy" if s == seat else "random" for s in range(2)]
        bots = [builtin_bot(name, game.id, seed, s) for s, name in enumerate(names)]
        replay = play_match(game, seed=seed, players=2, options={}, bots=bots, bot_ids=names)
        wins += replay.result["ranks"][seat] == 1
    assert wins >= 10


def test_the_text_picture_shows_tiles_tokens_and_what_is_being_resolved(
    game: Megalopolis,
) -> None:
    state = table({(0, 0): up("bank", 0, 1, 1), (1, 0): down("capitol")},
                  hands=[["housing"], []])  # fmt: skip
    text = game.render_text(state)
    assert "BNK011" in text and "###" in text and "capitol" not in text.split("\n\n")[1]
    assert "Player 0: 14 tokens left" in text
    play(state, "housing", 0, 1)
    assert "resolving housing at (0, 1)" in game.render_text(state)
    choose(state, {"tile": [1, 0]})
    assert "CAP0" in game.render_text(state)


def test_the_text_picture_says_how_the_game_ended() -> None:
    for state, action in random_game(3, 2):
        if action is None:
            assert f"(game over: {state.end_reason})" in GAME.render_text(state)
