"""The builtin greedy bot: the action with the best immediate gain in its own score.

Gain = the city's score after the placement (stones included, so a tile's cost and the
quarries it covers count) minus the score before. Ties go to the first legal action.
The bot uses `gains.fast_gains`; `naive_gains` rescores the whole city for every action
and stays as the oracle it must equal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.akropolis.components import hex_code
from engine.akropolis.fast.gains import fast_gains
from engine.akropolis.observation import observation
from engine.akropolis.rules import current_player
from engine.akropolis.scoring import VARIANTS, placed_surface, score_surface, surface_from_json
from engine.core import JSON
from engine.players import Player

__all__ = ["GreedyBot", "move_values", "naive_gains"]


def naive_gains(observation: dict[str, Any], legal_actions: Sequence[dict[str, int]]) -> list[int]:
    """The gain of every legal action by rescoring the whole city: slow, obviously right."""
    me = observation["player"]
    variants = [name for name in VARIANTS if observation["options"].get(name)]
    stones = observation["stones"][me]
    surface = surface_from_json(observation["cities"][me]["hexes"])
    before = score_surface(surface, stones, variants).total
    site_codes = [
        [hex_code(h["kind"], h.get("color")) for h in entry["hexes"]]
        for entry in observation["site"]
    ]
    gains = []
    for action in legal_actions:
        after, quarries = placed_surface(surface, action, site_codes[action["tile"]])
        stones_after = stones - action["tile"] + quarries
        gains.append(score_surface(after, stones_after, variants).total - before)
    return gains


def move_values(state: Any, legal_actions: Sequence[dict[str, int]]) -> list[int]:
    """The greedy bot's gain of each legal action of the player to move (its choice the
    first of the best): the search bots' guide."""
    return fast_gains(observation(state, current_player(state)), legal_actions)


class GreedyBot(Player):
    def __init__(self, seed: int = 0) -> None:
        self.seed = seed  # the greedy bot draws nothing at random; kept for a uniform interface

    def act(self, observation: JSON, legal_actions: Sequence[JSON]) -> JSON:
        gains = fast_gains(observation, legal_actions)
        return legal_actions[gains.index(max(gains))]  # the first of the best
