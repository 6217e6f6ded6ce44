"""The builtin greedy bot and the text picture for `agon replay show`."""

from __future__ import annotations

from engine.architekton import Architekton
from engine.architekton.greedy import GreedyBot, landscape_value
from engine.bots import builtin_bot
from engine.match import play_match
from tests.engine.architekton.support import (
    FOREST,
    LAYOUT_WMPF,
    MOUNTAIN,
    PLAIN,
    WATER,
    empty_city,
    put_building,
    put_landscape,
    random_game,
    with_display,
)


def test_the_greedy_bot_is_deterministic_and_legal(game: Architekton) -> None:
    for state, action in random_game(2):
        if action is None:
            break
        legal = game.legal_actions(state)
        seen = game.observation(state, game.current_player(state))
        first = GreedyBot(1).act(seen, legal)
        assert first in legal
        assert GreedyBot(2).act(seen, legal) == first


def test_it_closes_its_own_building_with_a_match_rather_than_elsewhere(
    game: Architekton,
) -> None:
    state = empty_city()
    put_building(state, 0, 1, LAYOUT_WMPF, 0, 0)
    put_landscape(state, 0, 2, WATER)
    put_landscape(state, 1, 1, MOUNTAIN)
    put_landscape(state, 0, 0, PLAIN)
    with_display(state, [2, 3, 4], [FOREST, WATER, PLAIN])
    seen = game.observation(state, 0)
    action = GreedyBot().act(seen, game.legal_actions(state))
    assert action == {"landscape": "forest", "x": -1, "y": 1}


def test_it_hurts_the_opponents_building_when_it_can(game: Architekton) -> None:
    state = empty_city()
    put_building(state, 0, 1, LAYOUT_WMPF, 0, 1)
    put_building(state, -2, 1, LAYOUT_WMPF, 1, None)  # lets water go on (-1, 1)
    for x, y, terrain in ((0, 2, WATER), (1, 1, MOUNTAIN), (0, 0, PLAIN)):
        put_landscape(state, x, y, terrain)
    value = landscape_value(state, 0, {"landscape": "water", "x": -1, "y": 1})
    assert value == 6  # the opponent loses a point


def test_it_beats_the_random_bot_most_of_the_time(game: Architekton) -> None:
    wins = 0
    for seed in range(20):
        seat = seed % 2
        names = ["greedy" if s == seat else "random" for s in range(2)]
        bots = [builtin_bot(name, game.id, seed, s) for s, name in enumerate(names)]
        replay = play_match(game, seed=seed, players=2, options={}, bots=bots, bot_ids=names)
        wins += replay.result["ranks"][seat] == 1
    assert wins >= 15


def test_the_text_picture_shows_the_position(game: Architekton) -> None:
    state = empty_city()
    put_building(state, 0, 1, LAYOUT_WMPF, 0, 1)
    put_landscape(state, 0, 0, PLAIN)
    text = game.render_text(state)
    assert "Architekton, turn 0, player 0 to act" in text
    assert " W\nF1M\n P\n" in text
    assert "ppp\nppp\nppp" in text
    assert "Player 1: 1 points, 12 houses in supply" in text


def test_the_text_picture_says_when_the_game_is_over_and_who_must_decide(
    game: Architekton,
) -> None:
    for state, action in random_game(6):
        if state.pending:
            assert "remove the house?" in game.render_text(state) or "moves a house" in (
                game.render_text(state)
            )
        if action is None:
            assert "(game over)" in game.render_text(state)
