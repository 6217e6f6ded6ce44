"""`fast.board_text`: the board's text is kept on the state and rewritten only at the
cells `table` marks as changed: a change of a tile that is not marked would leave its old
text in every later message. Random games, with copies going their own way from random
turns, every message compared with the encoding of the plain observation (the oracle)."""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from engine.megalopolis.fast.board_text import BoardText
from engine.megalopolis.fast.message_text import observation_text
from engine.megalopolis.observation import observation
from engine.megalopolis.state import FRAME_POWER_NAMES, Caches, MegalopolisState
from engine.rng import SplitMix64, derive_seed
from tests.engine.megalopolis.support import GAME, random_game
from tests.engine.support import property_settings

TILE_CHANGING_POWERS = {
    "arboretum",
    "bank",
    "capitol",
    "disaster_site",
    "embassy",
    "mausoleum",
    "port",
    "post_office",
    "stadium",
    "transit_station",
}
"""Powers that change tiles on the table at a decision (besides a tile played)."""


def plain(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


def assert_messages_right(state: MegalopolisState) -> None:
    for seat in range(state.players):
        assert observation_text(state, seat) == plain(observation(state, seat))


def play_on(state: MegalopolisState, rng: SplitMix64, turns: int) -> None:
    """Random legal actions for up to `turns` turns, the messages checked after each."""
    for _ in range(turns):
        if GAME.is_over(state):
            return
        legal = GAME.legal_actions(state)
        GAME.apply(state, legal[rng.below(len(legal))])
        assert_messages_right(state)


def resolved_powers(seed: int, players: int) -> Counter[str]:
    """The powers decided on in a game, the messages checked every turn, and from every
    tenth turn a copy played on its own way for a few turns."""
    rng = SplitMix64(derive_seed(seed, "board text"))
    decided: Counter[str] = Counter()
    for state, _ in random_game(seed, players):
        assert_messages_right(state)
        if state.stack:
            decided[FRAME_POWER_NAMES[state.stack[-1].power]] += 1
        if state.turn % 10 == 3:
            twin = GAME.copy_state(state)
            play_on(twin, rng, 6)
    return decided


@property_settings(10)
@given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=2, max_value=6))
def test_every_message_shows_the_board_as_it_is(seed: int, players: int) -> None:
    resolved_powers(seed, players)


def test_the_games_checked_change_tiles_in_every_way() -> None:
    decided: Counter[str] = Counter()
    for seed in range(12):
        decided += resolved_powers(seed, 2 + seed % 5)
    assert set(decided) >= TILE_CHANGING_POWERS


def test_a_change_not_marked_shows_in_the_message() -> None:
    """The oracle sees a tile changed behind `table`'s back: the test above can fail."""
    state = GAME.new_state(7, 3, {})
    while len(state.board) < 4:
        GAME.apply(state, GAME.legal_actions(state)[0])
    assert_messages_right(state)
    tile = next(iter(state.board.values()))
    tile.tokens[0] += 1
    assert observation_text(state, 0) != plain(observation(state, 0))
    state.caches = Caches()  # as a test painting a position does
    assert_messages_right(state)


def test_the_kept_text_is_the_text_written_from_scratch() -> None:
    state = GAME.new_state(11, 4, {})
    for _ in range(60):
        if GAME.is_over(state):
            break
        observation_text(state, 0)
        GAME.apply(state, GAME.legal_actions(state)[-1])
        kept = state.caches.board_text
        assert kept is not None
        kept.rewrite(state.board, list(kept.changed))
        fresh = BoardText.written(state.board)
        assert (kept.joined, kept.not_face_up, kept.order, kept.shown) == (
            fresh.joined,
            fresh.not_face_up,
            fresh.order,
            fresh.shown,
        )
