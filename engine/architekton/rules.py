"""Architekton as an Agon game: setup, turns, scoring during play, the end and the result.

The rules are those of the project's rules file for Architekton (seed game 003); each
function names the rule it carries out. Decisions the rules leave open are documented
in docs/bot-protocol.md and marked "Our decision" here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.architekton.actions import LegalActions, Raw, parse_action
from engine.architekton.board import (
    building_cells,
    building_fits,
    facing_terrains,
    fitting_rotations,
    house_groups,
    is_surrounded,
    kept_houses,
    landscape_cells,
    landscape_fits,
    landscape_sides,
    largest_group,
    mismatches,
)
from engine.architekton.components import (
    BUILDING_BY_ID,
    BUILDINGS,
    DISPLAY_PER_KIND,
    HOUSES_PER_PLAYER,
    LANDSCAPE_TILES,
    RESERVE_PER_PILE,
    STARTING_POINTS,
    TERRAINS,
    TILES_PER_TURN,
    rotated_edges,
)
from engine.architekton.greedy import GreedyBot
from engine.architekton.render import render_state
from engine.architekton.state import (
    MOVE_HOUSE,
    OVER,
    REMOVE_HOUSE,
    RESERVE_TURN,
    ArchitektonState,
    Decision,
    board_to_json,
    state_from_json,
    state_from_observation,
    state_to_json,
)
from engine.core import (
    JSON,
    IllegalAction,
    InvalidOptions,
    MatchResult,
    OptionSpec,
    competition_ranks,
    normalize_options,
)
from engine.rng import SplitMix64
from engine.squaregrid import NEIGHBOUR_STEPS, decode, encode, in_range

STARTING_CELLS = (encode(0, 0), encode(1, 1))
"""The two starting landscapes, touching at a corner."""
IDLE_TURNS_TO_END = 2
"""Our decision (safety rule): when a player can place none of the display's tiles at the
start of a turn, the display is swept (see `sweep_display_if_stuck`); two turns in a row
in which nothing could be placed even so end the normal play, as if a pile had run out."""


class Architekton:
    id = "architekton"
    name = "Architekton"
    player_counts: tuple[int, ...] = (2,)
    options: tuple[OptionSpec, ...] = ()

    # --- setup -----------------------------------------------------------------------

    def new_state(self, seed: int, players: int, options: Mapping[str, JSON]) -> ArchitektonState:
        if not isinstance(players, int) or isinstance(players, bool) or players != 2:
            raise InvalidOptions(f"Architekton is for exactly 2 players, not {players!r}")
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
            raise InvalidOptions(f"the seed must be an integer in [0, 2**64), not {seed!r}")
        normalized = normalize_options(self.options, players, options)
        rng = SplitMix64(seed)
        buildings = [tile.id for tile in BUILDINGS]
        landscapes = list(LANDSCAPE_TILES)
        rng.shuffle(buildings)
        rng.shuffle(landscapes)
        reserve_buildings, buildings = buildings[:RESERVE_PER_PILE], buildings[RESERVE_PER_PILE:]
        reserve_landscapes, landscapes = (
            landscapes[:RESERVE_PER_PILE],
            landscapes[RESERVE_PER_PILE:],
        )
        start = {cell: landscapes.pop(0) for cell in STARTING_CELLS}
        display_buildings = [buildings.pop(0) for _ in range(DISPLAY_PER_KIND)]
        display_landscapes = [landscapes.pop(0) for _ in range(DISPLAY_PER_KIND)]
        return ArchitektonState(
            seed=seed,
            players=players,
            options=normalized,
            landscapes=start,
            buildings={},
            houses={},
            building_pile=buildings,
            landscape_pile=landscapes,
            reserve_buildings=reserve_buildings,
            reserve_landscapes=reserve_landscapes,
            display_buildings=display_buildings,
            display_landscapes=display_landscapes,
            points=[STARTING_POINTS] * players,
            supply=[HOUSES_PER_PLAYER] * players,
            removed=[0] * players,
        )

    # --- whose move ------------------------------------------------------------------

    def current_player(self, state: ArchitektonState) -> int:
        """The player who owes the first pending decision, else the player whose turn it
        is (a surrounded building's owner may be asked during the other's turn)."""
        if state.pending:
            return state.pending[0].player
        return state.turn_player

    def is_over(self, state: ArchitektonState) -> bool:
        return state.stage == OVER

    def turn_number(self, state: ArchitektonState) -> int:
        return state.turn

    # --- legal actions ---------------------------------------------------------------

    def legal_actions(self, state: ArchitektonState) -> LegalActions:
        if self.is_over(state):
            return LegalActions(())
        if state.pending:
            return LegalActions(decision_options(state, state.pending[0]))
        placements = legal_placements(state)
        return LegalActions(placements if placements else [("pass",)])

    def apply(self, state: ArchitektonState, action: JSON) -> None:
        if self.is_over(state):
            raise IllegalAction("the game is over")
        raw = parse_action(action)
        if state.pending:
            resolve_decision(state, state.pending[0], raw)
        elif raw[0] == "building":
            place_building(state, raw)
        elif raw[0] == "landscape":
            place_landscape(state, raw)
        elif raw[0] == "pass":
            if legal_placements(state):
                raise IllegalAction("a player may pass only when no tile can be placed")
            end_turn(state)
        else:
            raise IllegalAction(f"{action} answers no pending decision")
        state.turn += 1
        continue_turn(state)

    # --- the end ---------------------------------------------------------------------

    def result(self, state: ArchitektonState) -> MatchResult:
        if state.loser is not None:
            keys = [(0 if p == state.loser else 1, state.points[p]) for p in range(state.players)]
            details: list[JSON] = [
                {"points": state.points[p], "lost_early": p == state.loser}
                for p in range(state.players)
            ]
            return MatchResult(
                scores=list(state.points), ranks=competition_ranks(keys), details=details
            )
        kept = kept_houses(state)
        scores, keys, details = [], [], []
        for player in range(state.players):
            houses = [code for code, owner in kept.items() if owner == player]
            group = largest_group(houses)
            total = state.points[player] + group
            scores.append(total)
            keys.append((total, len(houses)))
            details.append(
                {
                    "points": state.points[player],
                    "largest_group": group,
                    "houses_kept": len(houses),
                    "lost_early": False,
                }
            )
        return MatchResult(scores=scores, ranks=competition_ranks(keys), details=details)

    # --- what players see ------------------------------------------------------------

    def observation(self, state: ArchitektonState, player: int) -> dict[str, Any]:
        unseen_buildings = sorted(state.building_pile + state.reserve_buildings)
        unseen_landscapes = state.landscape_pile + state.reserve_landscapes
        return {
            "game": self.id,
            "player": player,
            "players": state.players,
            "turn": state.turn,
            "current_player": self.current_player(state),
            "turn_player": state.turn_player,
            "options": dict(state.options),
            "stage": state.stage,
            "turns_taken": list(state.turns_taken),
            "placed_this_turn": state.placed_this_turn,
            "idle_turns": state.idle_turns,
            "points": list(state.points),
            "houses_in_supply": list(state.supply),
            "houses_removed": list(state.removed),
            "lost_early": state.loser,
            "display": {
                "buildings": [
                    {"tile": t, "edges": [TERRAINS[e] for e in rotated_edges(t, 0)]}
                    for t in state.display_buildings
                ],
                "landscapes": [TERRAINS[t] for t in state.display_landscapes],
            },
            "piles": {
                "buildings": len(state.building_pile),
                "landscapes": len(state.landscape_pile),
            },
            "reserve": {
                "buildings": len(state.reserve_buildings),
                "landscapes": len(state.reserve_landscapes),
            },
            "unseen_buildings": unseen_buildings,
            "unseen_landscapes": {
                name: unseen_landscapes.count(t) for t, name in enumerate(TERRAINS)
            },
            "board": board_to_json(state),
            "pending": [decision.to_json() for decision in state.pending],
        }

    def state_to_json(self, state: ArchitektonState) -> dict[str, Any]:
        return state_to_json(state)

    def state_from_json(self, data: JSON) -> ArchitektonState:
        return state_from_json(data)

    def copy_state(self, state: ArchitektonState) -> ArchitektonState:
        return state.copy()

    def render_text(self, state: ArchitektonState) -> str:
        return render_state(self, state)

    def greedy_bot(self, seed: int) -> GreedyBot:
        return GreedyBot(seed)

    def state_from_observation(self, observation: JSON) -> ArchitektonState:
        """A state for lookahead built from what a player sees. The piles and the reserve
        are face down, so they hold the unseen tiles in a fixed order: a guess."""
        return state_from_observation(observation)


# --- placing tiles -------------------------------------------------------------------


def legal_placements(state: ArchitektonState) -> list[Raw]:
    """Every legal placement from the display: buildings first (by display position, cell,
    rotation), then landscapes (by terrain as first seen in the display, cell)."""
    if state.placed_this_turn >= TILES_PER_TURN:
        return []
    placements: list[Raw] = []
    if state.display_buildings:
        cells = [(*decode(code), landscape_sides(state, code)) for code in building_cells(state)]
        for tile_id in state.display_buildings:
            edges = BUILDING_BY_ID[tile_id].edges
            for x, y, sides in cells:
                for rotation in fitting_rotations(edges, sides):
                    placements.append(("building", tile_id, x, y, rotation))
    if state.display_landscapes:
        facing = [(*decode(code), facing_terrains(state, code)) for code in landscape_cells(state)]
        for terrain in dict.fromkeys(state.display_landscapes):
            for x, y, terrains in facing:
                if terrain in terrains:
                    placements.append(("landscape", terrain, x, y))
    return placements


def can_place_any(state: ArchitektonState) -> bool:
    """Whether some display tile fits somewhere (stops at the first fit)."""
    if state.display_buildings:
        layouts = {BUILDING_BY_ID[t].edges for t in state.display_buildings}
        for code in building_cells(state):
            sides = landscape_sides(state, code)
            if any(fitting_rotations(edges, sides) for edges in layouts):
                return True
    if state.display_landscapes:
        terrains = set(state.display_landscapes)
        return any(terrains & facing_terrains(state, code) for code in landscape_cells(state))
    return False


def _cell(x: int, y: int) -> int:
    if not in_range(x, y):
        raise IllegalAction(f"({x}, {y}) is far outside the city")
    return encode(x, y)


def place_building(state: ArchitektonState, raw: Raw) -> None:
    """Place a display building (rotated as chosen) and put a house on it: one from the
    supply, or, with none left, a placed one the player moves (a decision)."""
    _, tile_id, x, y, rotation = raw
    if tile_id not in state.display_buildings:
        raise IllegalAction(f"building tile {tile_id} is not in the display")
    if state.placed_this_turn >= TILES_PER_TURN:
        raise IllegalAction("two tiles have been placed this turn")
    code = _cell(x, y)
    if not building_fits(state, code, tile_id, rotation):
        raise IllegalAction(
            f"building {tile_id} cannot stand on ({x}, {y}) turned {rotation}: it needs an "
            "empty cell next to a landscape, each touching edge showing that landscape"
        )
    player = state.turn_player
    state.display_buildings.remove(tile_id)
    state.buildings[code] = (tile_id, rotation)
    state.placed_this_turn += 1
    if state.supply[player] > 0:
        state.supply[player] -= 1
        state.houses[code] = player
        score_surrounded(state, [code])
    elif any(owner == player for owner in state.houses.values()):
        state.pending.append(Decision(MOVE_HOUSE, player, code))
    # Our decision: with every house removed from play, the building stays empty.


def place_landscape(state: ArchitektonState, raw: Raw) -> None:
    """Place a display landscape next to a building whose edge matches it; the buildings
    it surrounds score."""
    _, terrain, x, y = raw
    if terrain not in state.display_landscapes:
        raise IllegalAction(f"there is no {TERRAINS[terrain]} landscape in the display")
    if state.placed_this_turn >= TILES_PER_TURN:
        raise IllegalAction("two tiles have been placed this turn")
    code = _cell(x, y)
    if not landscape_fits(state, code, terrain):
        raise IllegalAction(
            f"a {TERRAINS[terrain]} landscape cannot go on ({x}, {y}): it needs an empty cell "
            "next to a building whose edge there shows that terrain"
        )
    state.display_landscapes.remove(terrain)
    state.landscapes[code] = terrain
    state.placed_this_turn += 1
    neighbours = [code + step for step in NEIGHBOUR_STEPS]
    score_surrounded(state, sorted(n for n in neighbours if n in state.buildings))


# --- scoring during play -------------------------------------------------------------


def score_surrounded(state: ArchitektonState, candidates: list[int]) -> None:
    """Buildings whose four edges are now covered score for their owner: +1 if all four
    match, else one point lost per mismatching edge. Our decision: the gains of one
    placement are paid first, then the losses one by one in board order (x, then y),
    each after its owner decided whether to remove the house."""
    losses = []
    for code in candidates:
        owner = state.houses.get(code)
        if owner is None or not is_surrounded(state, code):
            continue
        wrong = mismatches(state, code)
        if wrong == 0:
            state.points[owner] += 1
        else:
            losses.append(Decision(REMOVE_HOUSE, owner, code, wrong))
    state.pending.extend(losses)


def decision_options(state: ArchitektonState, decision: Decision) -> list[Raw]:
    if decision.kind == MOVE_HOUSE:
        return [
            ("house", *decode(code))
            for code in sorted(state.houses)
            if state.houses[code] == decision.player and code != decision.cell
        ]
    return [("remove_house", False), ("remove_house", True)]


def resolve_decision(state: ArchitektonState, decision: Decision, raw: Raw) -> None:
    if decision.kind == MOVE_HOUSE:
        if raw[0] != "house":
            raise IllegalAction('move one of your houses onto the new building: {"house": [x, y]}')
        source = _cell(raw[1], raw[2])
        if state.houses.get(source) != decision.player or source == decision.cell:
            raise IllegalAction(f"player {decision.player} has no house to move at {list(raw[1:])}")
        del state.houses[source]
        state.houses[decision.cell] = decision.player
        state.pending.pop(0)
        score_surrounded(state, [decision.cell])
        return
    if raw[0] != "remove_house":
        raise IllegalAction('say whether to remove the house: {"remove_house": true or false}')
    state.pending.pop(0)
    loss = decision.loss
    if raw[1]:
        del state.houses[decision.cell]
        state.removed[decision.player] += 1
        loss -= 1
    if loss > state.points[decision.player]:
        # A player who cannot pay a loss loses at once.
        state.loser = decision.player
        state.stage = OVER
        state.pending.clear()
        return
    state.points[decision.player] -= loss


# --- turns and the end ---------------------------------------------------------------


def continue_turn(state: ArchitektonState) -> None:
    """After an action: the turn ends once both tiles are placed and no decision waits."""
    if state.stage == OVER or state.pending:
        return
    if state.placed_this_turn >= TILES_PER_TURN:
        end_turn(state)


def end_turn(state: ArchitektonState) -> None:
    """Refill the display; when a pile cannot refill it, the player who has had a turn
    fewer plays one last turn from the reserve, then the game ends."""
    player = state.turn_player
    state.turns_taken[player] += 1
    state.idle_turns = state.idle_turns + 1 if state.placed_this_turn == 0 else 0
    state.placed_this_turn = 0
    if state.stage == RESERVE_TURN:
        state.stage = OVER
        return
    refill(state.display_buildings, state.building_pile)
    refill(state.display_landscapes, state.landscape_pile)
    short = (
        len(state.display_buildings) < DISPLAY_PER_KIND
        or len(state.display_landscapes) < DISPLAY_PER_KIND
    )
    if short or state.idle_turns >= IDLE_TURNS_TO_END:
        behind = min(range(state.players), key=lambda p: (state.turns_taken[p], p))
        if state.turns_taken[behind] == max(state.turns_taken):
            state.stage = OVER
            return
        refill(state.display_buildings, state.reserve_buildings)
        refill(state.display_landscapes, state.reserve_landscapes)
        state.stage = RESERVE_TURN
        state.turn_player = behind
        return
    state.turn_player = (player + 1) % state.players
    sweep_display_if_stuck(state)


def sweep_display_if_stuck(state: ArchitektonState) -> None:
    """Our decision: if none of the display's tiles can be placed at the start of a turn,
    they go under their piles (in display order) and the display is refilled from the
    piles; a player who still cannot place anything passes."""
    if can_place_any(state):
        return
    state.building_pile.extend(state.display_buildings)
    state.landscape_pile.extend(state.display_landscapes)
    state.display_buildings.clear()
    state.display_landscapes.clear()
    refill(state.display_buildings, state.building_pile)
    refill(state.display_landscapes, state.landscape_pile)


def refill(display: list[int], pile: list[int]) -> None:
    while len(display) < DISPLAY_PER_KIND and pile:
        display.append(pile.pop(0))


def house_group_sizes(state: ArchitektonState, player: int) -> list[int]:
    """Sizes of a player's groups of houses, largest first (for displays and tests)."""
    houses = [code for code, owner in state.houses.items() if owner == player]
    return sorted((len(g) for g in house_groups(houses)), reverse=True)


ARCHITEKTON = Architekton()
