"""The legal placements come from the frontier kept as tiles are placed; they must be
those a scan of the whole board gives (`slow_legal_placements`), every turn of random
games, and a copy that plays on its own must not change its original's."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.architekton import ARCHITEKTON
from engine.architekton.turns import legal_placements, slow_legal_placements
from engine.rng import SplitMix64
from tests.engine.support import property_settings


@property_settings(40)
@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_the_kept_frontier_gives_the_placements_a_full_scan_gives(seed: int) -> None:
    state = ARCHITEKTON.new_state(seed, 2, {})
    rng = SplitMix64(seed)
    while not ARCHITEKTON.is_over(state):
        assert legal_placements(state) == slow_legal_placements(state)
        legal = ARCHITEKTON.legal_actions(state)
        if state.turn % 5 == 0:  # a copy parts ways: the original's frontier stays its own
            twin = ARCHITEKTON.copy_state(state)
            twin_legal = ARCHITEKTON.legal_actions(twin)
            ARCHITEKTON.apply(twin, twin_legal[len(twin_legal) - 1])
            assert legal_placements(twin) == slow_legal_placements(twin)
        ARCHITEKTON.apply(state, legal[rng.below(len(legal))])
