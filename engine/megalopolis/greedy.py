"""The builtin greedy bot for Megalopolis: a one-step heuristic, ties to the first action.

Playing a tile (or a token on a Hotel) is valued by what controlling that tile adds to the
bot's own score at once (groups, printed bonus, silver majority), times 10, plus a small
preference for the tile's text (`TEXT_PREFERENCE`). Every other choice is tried on a copy
of the position rebuilt from the observation and valued by 10 x (the bot's score minus
the best other score) plus the size of its hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import JSON
from engine.megalopolis.actions import Choice, LegalActions, choice_json, parse_action
from engine.megalopolis.components import BONUS, KIND_OF_NAME, SILVER, SMALLEST_SCORING_GROUP
from engine.megalopolis.observation import state_from_observation
from engine.megalopolis.scoring import score_state
from engine.megalopolis.state import MegalopolisState
from engine.megalopolis.table import controlled, groups
from engine.megalopolis.turns import apply_action
from engine.players import Player
from engine.squaregrid import NEIGHBOUR_STEPS

TEXT_PREFERENCE: dict[str, int] = {
    "capitol": 6,
    "embassy": 3,
    "housing": 3,
    "bank": 3,
    "stadium": 3,
    "construction_site": 3,
    "library": 3,
    "temple": 3,
    "security_guard": 2,
    "disaster_site": 2,
    "power_station": 2,
    "police_hq": 1,
    "mausoleum": 1,
    "port": 1,
    "post_office": 1,
    "transit_station": 1,
    "factory": 1,
    "hotel": 1,
    "plaza": 0,
    "shopping_complex": 0,
    "arboretum": 0,
}
"""How much the bot likes to set a text off, all else equal (a tenth of a point each)."""
PREFERENCE_BY_KIND = {KIND_OF_NAME[name]: value for name, value in TEXT_PREFERENCE.items()}


def scoring_part(size: int) -> int:
    return size if size >= SMALLEST_SCORING_GROUP else 0


class ControlGain:
    """What controlling one more tile adds to a player's score, computed from the
    player's groups once per decision."""

    def __init__(self, state: MegalopolisState, player: int) -> None:
        self.group_of: dict[int, int] = {}
        self.sizes: list[int] = []
        for index, group in enumerate(groups(controlled(state, player))):
            self.sizes.append(len(group))
            for code in group:
                self.group_of[code] = index
        silver = [0] * state.players
        for tile in state.board.values():
            if SILVER[tile.kind]:
                for seat, count in enumerate(tile.tokens):
                    silver[seat] += count > 0
        self.my_silver = silver[player]
        self.best_other_silver = max(s for seat, s in enumerate(silver) if seat != player)

    def groups_gain(self, code: int) -> int:
        neighbours = (self.group_of.get(code + step) for step in NEIGHBOUR_STEPS)
        touching = {group for group in neighbours if group is not None}
        merged = 1 + sum(self.sizes[g] for g in touching)
        return scoring_part(merged) - sum(scoring_part(self.sizes[g]) for g in touching)

    def silver_gain(self, kind: int) -> int:
        if not SILVER[kind]:
            return 0
        mine, other = self.my_silver, self.best_other_silver
        before = mine if mine >= other and mine > 0 else 0
        return (mine + 1 if mine + 1 >= other else 0) - before

    def value(self, code: int, kind: int) -> int:
        gain = self.groups_gain(code) + BONUS[kind] + self.silver_gain(kind)
        return 10 * gain + PREFERENCE_BY_KIND[kind]


def position_value(state: MegalopolisState, player: int) -> int:
    totals = [score.total for score in score_state(state)]
    best_other = max(total for seat, total in enumerate(totals) if seat != player)
    return 10 * (totals[player] - best_other) + len(state.hands[player])


def move_values(state: MegalopolisState, legal_actions: Sequence[JSON]) -> list[int]:
    """The greedy bot's value of each legal action of the player to move (its choice the
    first of the best): the search bots' guide."""
    legal = legal_actions if isinstance(legal_actions, LegalActions) else None
    choices: list[Choice] = (
        [legal.choice(i) for i in range(len(legal))]
        if legal is not None
        else [parse_action(action) for action in legal_actions]
    )
    return GreedyBot().values(state, state.turn_player, choices)


class GreedyBot(Player):
    def __init__(self, seed: int = 0) -> None:
        self.seed = seed  # the greedy bot draws nothing at random; kept for a uniform interface

    def act(self, observation: JSON, legal_actions: Sequence[JSON]) -> JSON:
        if len(legal_actions) == 1:
            return legal_actions[0]
        legal = legal_actions if isinstance(legal_actions, LegalActions) else None
        choices: list[Choice] = (
            [legal.choice(i) for i in range(len(legal))]
            if legal is not None
            else [parse_action(action) for action in legal_actions]
        )
        state = state_from_observation(observation)
        player = observation["player"]
        values = self.values(state, player, choices)
        return legal_actions[values.index(max(values))]

    def values(self, state: MegalopolisState, player: int, choices: list[Choice]) -> list[int]:
        gain: ControlGain | None = None
        values = []
        for choice in choices:
            if choice[0] in ("play", "hotel"):
                gain = gain or ControlGain(state, player)
                if choice[0] == "play":
                    values.append(gain.value(choice[2], choice[1]))
                else:
                    values.append(gain.value(choice[1], state.board[choice[1]].kind))
            else:
                values.append(self.tried(state, player, choice))
        return values

    def tried(self, state: MegalopolisState, player: int, choice: Choice) -> int:
        after = state.copy()
        apply_action(after, choice_json(choice))
        return position_value(after, player)
