"""`fast.open_spaces`: the open spaces kept between calls, updated from the cells that
changed, must be those the plain rule (`table.open_spaces`) finds: every turn of random
games (tiles are played, moved, swapped and taken back), in copies that part ways, and
on tables changed behind the rules' back by few cells or many."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.megalopolis.fast.open_spaces import MOST_CHANGED, sorted_open_spaces
from engine.megalopolis.state import Tile
from engine.megalopolis.table import open_spaces
from engine.rng import SplitMix64
from engine.squaregrid import NEIGHBOUR_STEPS
from tests.engine.megalopolis.support import GAME, random_game
from tests.engine.support import property_settings


@property_settings(10)
@given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=2, max_value=6))
def test_the_kept_open_spaces_are_those_a_scan_finds(seed: int, players: int) -> None:
    copies = []
    for state, _ in random_game(seed, players):
        assert sorted_open_spaces(state) == sorted(open_spaces(state))
        if state.turn % 9 == 0:
            copies.append(GAME.copy_state(state))
    for twin in copies:  # each went on from where its original was, not where it is
        assert sorted_open_spaces(twin) == sorted(open_spaces(twin))


@property_settings(20)
@given(
    st.integers(min_value=0, max_value=2**64 - 1),
    st.integers(min_value=1, max_value=3 * MOST_CHANGED),
)
def test_tables_changed_by_few_cells_or_many_keep_their_open_spaces_right(
    seed: int, changes: int
) -> None:
    """Adversarial tables: after the open spaces were kept, tiles are taken away and put
    down at random (around the edge, in holes, far off), a few at a time or more than
    the update handles (then it scans afresh)."""
    rng = SplitMix64(seed)
    state = GAME.new_state(seed, 2 + rng.below(5), {})
    for _ in range(4):
        sorted_open_spaces(state)
        for _ in range(changes):
            cells = sorted(state.board)
            if len(cells) > 1 and rng.below(3) == 0:
                del state.board[cells[rng.below(len(cells))]]
            else:
                near = cells[rng.below(len(cells))] + NEIGHBOUR_STEPS[rng.below(4)]
                far = near + NEIGHBOUR_STEPS[rng.below(4)] * (1 + rng.below(3))
                state.board.setdefault(far, Tile(0, 99, False, [0] * state.players))
        assert sorted_open_spaces(state) == sorted(open_spaces(state))
