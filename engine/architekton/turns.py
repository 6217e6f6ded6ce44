"""An Architekton turn: whose move, the legal actions, placing tiles, houses, scoring
surrounded buildings, the end.

Decisions the rules leave open are marked "Our decision" and written in
docs/rules/architekton-decisions.md.
"""

from __future__ import annotations

from engine.architekton.actions import LegalActions, Raw, parse_action
from engine.architekton.board import (
    building_cells,
    building_fits,
    facing_terrains,
    fitting_rotations,
    is_surrounded,
    landscape_cells,
    landscape_fits,
    landscape_sides,
    mismatches,
)
from engine.architekton.components import (
    BUILDING_BY_ID,
    DISPLAY_PER_KIND,
    TERRAINS,
    TILES_PER_TURN,
)
from engine.architekton.frontier import FITTING, current_frontier, fits, frontier
from engine.architekton.state import (
    MOVE_HOUSE,
    OVER,
    REMOVE_HOUSE,
    RESERVE_TURN,
    ArchitektonState,
    Decision,
)
from engine.core import JSON, IllegalAction
from engine.squaregrid import NEIGHBOUR_STEPS, decode, encode, in_range

IDLE_TURNS_TO_END = 2
"""Our decision (safety rule): when a player can place none of the display's tiles at the
start of a turn, the display is swept (see `sweep_display_if_stuck`); two turns in a row
in which nothing could be placed even so end the normal play, as if a pile had run out."""


# --- whose move, the legal actions, applying one ----------------------------------------


def current_player(state: ArchitektonState) -> int:
    """The player who owes the first pending decision, else the player whose turn it
    is (a surrounded building's owner may be asked during the other's turn)."""
    if state.pending:
        return state.pending[0].player
    return state.turn_player


def is_over(state: ArchitektonState) -> bool:
    return state.stage == OVER


def legal_actions(state: ArchitektonState) -> LegalActions:
    if is_over(state):
        return LegalActions(())
    if state.pending:
        return LegalActions(decision_options(state, state.pending[0]))
    placements = legal_placements(state)
    return LegalActions(placements if placements else [("pass",)])


def apply_action(state: ArchitektonState, action: JSON) -> None:
    if is_over(state):
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


# --- placing tiles -------------------------------------------------------------------


def legal_placements(state: ArchitektonState) -> list[Raw]:
    """Every legal placement from the display: buildings first (by display position, cell,
    rotation), then landscapes (by terrain as first seen in the display, cell)."""
    if state.placed_this_turn >= TILES_PER_TURN:
        return []
    placements: list[Raw] = []
    where = frontier(state)
    if state.display_buildings:
        for tile_id in state.display_buildings:
            for x, y, sides in where.building_rows:
                for rotation in FITTING[sides * 256 + tile_id]:
                    placements.append(("building", tile_id, x, y, rotation))
    if state.display_landscapes:
        rows = where.landscape_rows
        for terrain in dict.fromkeys(state.display_landscapes):
            placements.extend(
                [("landscape", terrain, x, y) for x, y, shown in rows if terrain in shown]
            )
    return placements


def slow_legal_placements(state: ArchitektonState) -> list[Raw]:
    """`legal_placements` from a scan of the whole board: the tests' oracle."""
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
    """Whether some display tile fits somewhere (stops at the first fit). From the
    frontier when it is up to date; else from a scan of the board, which usually stops
    early (cheaper than bringing the frontier up to date for one question)."""
    where = current_frontier(state)
    if state.display_buildings:
        if where is not None:
            for sides in where.sides.values():
                if any(fits(tile_id, sides) for tile_id in state.display_buildings):
                    return True
        else:
            layouts = {BUILDING_BY_ID[t].edges for t in state.display_buildings}
            for code in building_cells(state):
                found = landscape_sides(state, code)
                if any(fitting_rotations(edges, found) for edges in layouts):
                    return True
    if state.display_landscapes:
        terrains = set(state.display_landscapes)
        if where is not None:
            return any(terrains & facing for facing in where.facing.values())
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
