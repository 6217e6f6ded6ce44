"""Decisions of docs/rules/attika-decisions.md not checked elsewhere, by anchor (the other
decisions' tests cite theirs in the modules of their subject)."""

from __future__ import annotations

import pytest

from tests.engine.attika.support import GAME, random_game


@pytest.mark.parametrize(("seed", "players"), [(21, 2), (22, 3), (23, 4)])
def test_a_player_is_only_ever_asked_to_choose(seed: int, players: int) -> None:
    """Decision #forced-decisions: every position a player is asked about offers at
    least two actions; single ones were taken for them."""
    for state, action in random_game(seed, players):
        if action is not None:
            assert len(GAME.legal_actions(state)) >= 2
