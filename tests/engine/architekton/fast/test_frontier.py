"""`fast.frontier`: the legal placements come from the frontier kept as tiles are placed;
they must be those the plain rule's scan of the whole board gives
(`board.legal_placements`, `board.can_place_any`), every turn of random games and on
boards painted at random; and a copy that plays on its own must not change its
original's."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.architekton import ARCHITEKTON, board
from engine.architekton.components import BUILDING_BY_ID, TERRAINS
from engine.architekton.fast import frontier
from engine.rng import SplitMix64
from engine.squaregrid import NEIGHBOUR_STEPS
from tests.engine.support import property_settings


@property_settings(40)
@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_the_kept_frontier_gives_the_placements_a_full_scan_gives(seed: int) -> None:
    state = ARCHITEKTON.new_state(seed, 2, {})
    rng = SplitMix64(seed)
    while not ARCHITEKTON.is_over(state):
        assert frontier.legal_placements(state) == board.legal_placements(state)
        assert frontier.can_place_any(state) == board.can_place_any(state)
        legal = ARCHITEKTON.legal_actions(state)
        if state.turn % 5 == 0:  # a copy parts ways: the original's frontier stays its own
            twin = ARCHITEKTON.copy_state(state)
            twin_legal = ARCHITEKTON.legal_actions(twin)
            ARCHITEKTON.apply(twin, twin_legal[len(twin_legal) - 1])
            assert frontier.legal_placements(twin) == board.legal_placements(twin)
        ARCHITEKTON.apply(state, legal[rng.below(len(legal))])


@property_settings(40)
@given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=1, max_value=12))
def test_the_frontier_follows_tiles_added_anywhere(seed: int, added: int) -> None:
    """Adversarial boards: once the frontier is kept, tiles are added where the rules
    would not put them (far off, in holes, both kinds side by side), a few at a time,
    with displays of any tiles; the kept frontier must follow them all."""
    rng = SplitMix64(seed)
    state = ARCHITEKTON.new_state(seed, 2, {})
    for _ in range(rng.below(30)):
        if ARCHITEKTON.is_over(state):
            break
        legal = ARCHITEKTON.legal_actions(state)
        ARCHITEKTON.apply(state, legal[rng.below(len(legal))])
    for _ in range(3):
        frontier.legal_placements(state)  # kept, then tiles come behind its back
        for _ in range(added):
            cells = [*state.landscapes, *state.buildings]
            near = cells[rng.below(len(cells))] + NEIGHBOUR_STEPS[rng.below(4)] * rng.below(3)
            if near in state.landscapes or near in state.buildings:
                continue
            if rng.below(2):
                state.landscapes[near] = rng.below(len(TERRAINS))
            else:
                state.buildings[near] = (1 + rng.below(len(BUILDING_BY_ID)), rng.below(4))
        state.display_buildings = [1 + rng.below(len(BUILDING_BY_ID)) for _ in range(3)]
        state.display_landscapes = [rng.below(len(TERRAINS)) for _ in range(3)]
        state.placed_this_turn = 0
        assert frontier.legal_placements(state) == board.legal_placements(state)
        assert frontier.can_place_any(state) == board.can_place_any(state)
