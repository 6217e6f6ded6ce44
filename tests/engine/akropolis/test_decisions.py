"""Decisions of docs/rules/akropolis-decisions.md not checked elsewhere, by anchor (the
other decisions' tests cite theirs in the modules of their subject)."""

from __future__ import annotations

from engine.akropolis import Akropolis, AkropolisState
from engine.akropolis.components import QUARRY
from tests.engine.support import action, build_city

BOX_STONES = 40


def test_the_stone_supply_never_runs_out(game: Akropolis, two_player_state: AkropolisState) -> None:
    """Decision #stone-supply: the players hold all 40 stones of the box, and covering
    three quarries still gives three."""
    two_player_state.cities[0] = build_city(
        (q, r, 1, QUARRY, 100 + (i > 0)) for i, (q, r) in enumerate([(0, 0), (1, 0), (1, -1)])
    )
    two_player_state.stones = [BOX_STONES // 2, BOX_STONES // 2]
    game.apply(two_player_state, action(1, 0, 0, 0))
    assert two_player_state.stones == [BOX_STONES // 2 - 1 + 3, BOX_STONES // 2]
