"""An Architekton turn: whose move, the legal actions, placing tiles, houses, scoring
surrounded buildings, the end.

Decisions the rules leave open are marked "Our decision" and written in
docs/rules/architekton-decisions.md.
"""

from __future__ import annotations

from engine.architekton.actions import Raw, parse_action
from engine.architekton.board import building_fits, is_surrounded, landscape_fits, mismatches
from engine.architekton.components import DISPLAY_PER_KIND, TERRAINS, TILES_PER_TURN
from engine.architekton.fast import frontier
from engine.architekton.fast.legal_text import LegalActionsText
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


def legal_actions(state: ArchitektonState) -> LegalActionsText:
    if is_over(state):
        return LegalActionsText(())
    if state.pending:
        return LegalActionsText(decision_options(state, state.pending[0]))
    # board.legal_placements, from the frontier kept as tiles are placed
    placements = frontier.legal_placements(state)
    return LegalActionsText(placements if placements else [("pass",)])


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
        if frontier.legal_placements(state):
            raise IllegalAction("a player may pass only when no tile can be placed")
        end_turn(state)
    else:
        raise IllegalAction(f"{action} answers no pending decision")
    state.turn += 1
    continue_turn(state)


# --- placing tiles -------------------------------------------------------------------


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
    if frontier.can_place_any(state):  # board.can_place_any, from the kept frontier
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
