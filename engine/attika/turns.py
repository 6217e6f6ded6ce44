"""A turn of Attika, one decision at a time.

A turn starts with the first draw or build, which fixes the turn's action: 2 draws or
3 builds. Each amphora spent adds one more of them, or buys a landscape card. Ending the
turn takes one landscape card per draw or build left; a player who has drawn and built
nothing takes 3. After any card taken by choice (a forgone action or an amphora traded)
the player may no longer draw or build this turn.

A drawn building is built at once (paid as usual) or kept on the board, except the last
building of a stack: the rules text has it placed on the map, paying its cost, so it is
kept only when it cannot be built anywhere. A draw that empties one of the player's four
stacks makes the player place a new map tile next.
A decision with exactly one legal action is taken automatically (not recorded), so a
player who can do nothing but end the turn is never asked.

Where a building may go and what it costs are the rules of `costs` and `map`; a turn asks
them of their fast paths (`fast.builds.legal_builds` for `costs.legal_builds`,
`fast.map_rules` for `costs.build_cost` and the map's questions), which agree with them.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import compress
from typing import Any

from engine.attika.actions import (
    AMPHORA_ACTION,
    AMPHORA_CARD,
    DRAW_ACTIONS,
    END_TURN,
    KEEP,
    BuildOptions,
    Parsed,
    TilePlacements,
    parse_action,
    pay_action,
)
from engine.attika.components import BUILDINGS, LANDSCAPES
from engine.attika.costs import (
    Cards,
    can_pay,
    is_exact_payment,
    only_payment,
    payments,
)
from engine.attika.effects import place_building, take_cards
from engine.attika.fast import builds, map_rules
from engine.attika.fast.legal_text import LegalActionsText
from engine.attika.map import ROTATIONS, place_tile
from engine.attika.state import (
    BUILD_MODE,
    DRAW_MODE,
    NO_MODE,
    AttikaState,
    Pending,
)
from engine.core import JSON, IllegalAction
from engine.hexgrid import decode

ACTIONS_OF_MODE = {DRAW_MODE: 2, BUILD_MODE: 3}
FORGO_ALL_CARDS = 3


# --- what may be done ------------------------------------------------------------------


def may_start(state: AttikaState, mode: int) -> bool:
    """The player may make one more draw (or build) in this turn."""
    if state.took_cards:
        return False
    return state.mode == NO_MODE or (state.mode == mode and state.actions_left > 0)


def cards_left(state: AttikaState) -> bool:
    return bool(state.deck) or any(state.discard)


def extra_action_useful(state: AttikaState) -> bool:
    """An amphora may buy one more draw or build: the turn's action is chosen, no card
    has been taken, and there is something to draw or build."""
    if state.took_cards or state.mode == NO_MODE:
        return False
    seat = state.seats[state.current]
    if state.mode == DRAW_MODE:
        return any(seat.stacks)
    return bool(builds.legal_builds(state, state.current, seat.board))


def may_keep(state: AttikaState, pending: Pending, options: BuildOptions) -> bool:
    """The building just drawn may go to the board instead of the map (`options`, where
    it may be built): always, but the last building of a stack only if it cannot be
    built."""
    last_of_its_stack = not state.seats[state.current].stacks[pending.stack]
    return not last_of_its_stack or not any(cells for _, cells in options)


def legal_actions(state: AttikaState) -> LegalActionsText:
    """The legal actions, kept in the state's caches until the state changes."""
    if state.caches.legal is None:
        state.caches.legal = _legal_actions(state)
    legal: LegalActionsText = state.caches.legal
    return legal


def _legal_actions(state: AttikaState) -> LegalActionsText:
    if state.over:
        return LegalActionsText([], [])
    player = state.current
    seat = state.seats[player]
    pending = state.pending
    if pending is not None:
        if pending.kind == "drawn":
            drawn = builds.legal_builds(state, player, [pending.building])
            return LegalActionsText([KEEP] if may_keep(state, pending, drawn) else [], drawn)
        if pending.kind == "pay":
            cost = map_rules.build_cost(state, player, pending.building, pending.cell)
            payable = [pay_action(cards) for cards in payments(seat.hand, cost)]
            return LegalActionsText(payable, [])
        centres = map_rules.tile_centres(state)
        return LegalActionsText(TilePlacements(centres, ROTATIONS[pending.tile]), [])
    mode = state.mode
    # may_start(state, DRAW_MODE) and may_start(state, BUILD_MODE), read once
    may_act = not state.took_cards and (mode == NO_MODE or state.actions_left > 0)
    others: list[dict[str, Any]] = (
        list(compress(DRAW_ACTIONS, seat.stacks)) if may_act and mode != BUILD_MODE else []
    )  # a draw from each non-empty stack
    buildable = (
        builds.legal_builds(state, player, seat.board) if may_act and mode != DRAW_MODE else []
    )
    if seat.amphorae:
        if extra_action_useful(state):
            others.append(AMPHORA_ACTION)
        if cards_left(state):
            others.append(AMPHORA_CARD)
    others.append(END_TURN)
    return LegalActionsText(others, buildable)


# --- doing it --------------------------------------------------------------------------


def apply_action(state: AttikaState, action: JSON) -> None:
    """Validate and apply one decision, then take every forced decision that follows."""
    if state.over:
        raise IllegalAction("the game is over")
    parsed = parse_action(action)
    _apply(state, parsed)
    state.turn += 1
    settle(state)


def settle(state: AttikaState) -> None:
    """Take the decisions that have only one legal action."""
    while not state.over:
        legal = state.caches.legal
        if legal is None:
            legal = state.caches.legal = _legal_actions(state)
        if legal.size != 1:
            return
        _apply(state, parse_action(legal.first()))


def _apply(state: AttikaState, parsed: Parsed) -> None:
    kind = parsed[0]
    pending = state.pending
    if pending is None:
        if kind in _ANSWERS:
            raise IllegalAction(f"there is nothing to {kind} now")
    elif kind not in _EXPECTED[pending.kind]:
        raise IllegalAction(f"player {state.current} must first {_owed(state)}, not {kind}")
    state.caches.legal = None
    handler = _HANDLERS[kind]
    handler(state, *parsed[1:])


_EXPECTED = {"drawn": ("build", "keep"), "pay": ("pay",), "tile": ("extend",)}
"""The actions that answer each pending decision."""
_ANSWERS = ("keep", "pay", "extend")


def _owed(state: AttikaState) -> str:
    pending = _pending(state)
    if pending.kind == "drawn":
        return f"build or keep the drawn {BUILDINGS[pending.building].id}"
    if pending.kind == "pay":
        return f"pay for the {BUILDINGS[pending.building].id}"
    return f"place map tile {pending.tile}"


def _pending(state: AttikaState) -> Pending:
    if state.pending is None:  # _apply lets these actions through only with one
        raise IllegalAction("there is no decision pending")
    return state.pending


def _draw(state: AttikaState, stack: int) -> None:
    if not may_start(state, DRAW_MODE):
        raise IllegalAction(_why_not(state, "draw"))
    seat = state.seats[state.current]
    if not 0 <= stack < len(seat.stacks) or not seat.stacks[stack]:
        raise IllegalAction(f"stack {stack} is not a non-empty stack of yours (0-3)")
    _begin(state, DRAW_MODE)
    building = seat.stacks[stack].pop(0)
    extend = not seat.stacks[stack] and bool(state.tile_pile)
    state.pending = Pending("drawn", building=building, stack=stack, extend=extend)


def _build(state: AttikaState, building: int, cell: int) -> None:
    player = state.current
    seat = state.seats[player]
    pending = state.pending
    from_draw = pending is not None
    if pending is not None:
        if building != pending.building:
            raise IllegalAction(f"only the drawn {BUILDINGS[pending.building].id} may be built now")
    else:
        if not may_start(state, BUILD_MODE):
            raise IllegalAction(_why_not(state, "build"))
        if building not in seat.board:
            raise IllegalAction(f"{BUILDINGS[building].id} is not on your board")
    if not map_rules.is_free(state, cell):
        q, r = decode(cell)
        raise IllegalAction(f"({q}, {r}) is not a free map space")
    cost = map_rules.build_cost(state, player, building, cell)
    if not can_pay(seat.hand, cost):
        q, r = decode(cell)
        raise IllegalAction(
            f"{BUILDINGS[building].id} on ({q}, {r}) costs more than your cards can pay"
        )
    extend = pending.extend if pending is not None else False
    if pending is None:
        _begin(state, BUILD_MODE)
        seat.board.remove(building)
    state.pending = None
    only = only_payment(seat.hand, cost)
    if only is not None:
        _pay_and_place(state, building, cell, only, extend)
    else:
        state.pending = Pending(
            "pay", building=building, cell=cell, extend=extend, from_draw=from_draw
        )


def _keep(state: AttikaState) -> None:
    pending = _pending(state)
    if not may_keep(state, pending, builds.legal_builds(state, state.current, [pending.building])):
        raise IllegalAction(
            f"the {BUILDINGS[pending.building].id} is the last building of its stack: it "
            "must be built, since it can be"
        )
    seat = state.seats[state.current]
    seat.board.append(pending.building)
    seat.board.sort()
    state.pending = None
    if pending.extend:
        state.pending = Pending("tile", tile=state.tile_pile.pop(0))


def _pay(state: AttikaState, cards: Cards) -> None:
    pending = _pending(state)
    seat = state.seats[state.current]
    cost = map_rules.build_cost(state, state.current, pending.building, pending.cell)
    if not is_exact_payment(seat.hand, cost, cards):
        raise IllegalAction(
            f"{dict(zip(LANDSCAPES, cards, strict=True))} is not an exact payment of "
            f"{_describe_cost(cost)} from your hand"
        )
    state.pending = None
    _pay_and_place(state, pending.building, pending.cell, cards, pending.extend)


def _extend(state: AttikaState, centre: int, rotation: int) -> None:
    pending = _pending(state)
    q, r = decode(centre)
    if rotation not in ROTATIONS[pending.tile]:
        raise IllegalAction(
            f"rotation {rotation} is not offered for tile {pending.tile} "
            f"(its distinct rotations are {list(ROTATIONS[pending.tile])})"
        )
    if not map_rules.tile_fits(state, centre):
        raise IllegalAction(f"a tile centred on ({q}, {r}) would cover the map or not touch it")
    place_tile(state, pending.tile, q, r, rotation)
    state.pending = None


def _amphora(state: AttikaState, use: str) -> None:
    seat = state.seats[state.current]
    if not seat.amphorae:
        raise IllegalAction("you have no amphora")
    if use == "action":
        if not extra_action_useful(state):
            raise IllegalAction(
                "an amphora buys one more draw or build only after the turn's first one, "
                "before any card is taken, and when there is something to draw or build"
            )
        state.actions_left += 1
    else:
        if not cards_left(state):
            raise IllegalAction("no landscape card is left to take")
        take_cards(state, state.current, 1)
        state.took_cards = True
    seat.amphorae -= 1
    state.amphora_supply += 1


def _end_turn(state: AttikaState) -> None:
    take_cards(state, state.current, state.actions_left if state.acted else FORGO_ALL_CARDS)
    if state.acted or cards_left(state):
        state.passes = 0
    else:
        state.passes += 1
        if state.passes >= state.players:
            state.over = True
    state.current = (state.current + 1) % state.players
    state.mode, state.actions_left = NO_MODE, 0
    state.took_cards = state.acted = False
    state.pending = None


_HANDLERS: dict[str, Callable[..., None]] = {
    "draw": _draw,
    "build": _build,
    "keep": _keep,
    "pay": _pay,
    "extend": _extend,
    "amphora": _amphora,
    "end_turn": _end_turn,
}


def _begin(state: AttikaState, mode: int) -> None:
    if state.mode == NO_MODE:
        state.mode = mode
        state.actions_left = ACTIONS_OF_MODE[mode]
    state.actions_left -= 1
    state.acted = True


def _why_not(state: AttikaState, what: str) -> str:
    if state.took_cards:
        return f"no {what} after taking a landscape card this turn"
    if state.mode != NO_MODE and state.actions_left == 0:
        return f"no {what} left this turn"
    return f"this turn's action is to {'draw' if state.mode == DRAW_MODE else 'build'}"


def _describe_cost(cost: tuple[Cards, int]) -> str:
    required, extra = cost
    parts = [f"{n} {name}" for n, name in zip(required, LANDSCAPES, strict=True) if n]
    if extra:
        parts.append(f"{extra} of any landscape")
    return " + ".join(parts) or "nothing"


def _pay_and_place(
    state: AttikaState, building: int, cell: int, cards: Cards, extend: bool
) -> None:
    seat = state.seats[state.current]
    hand, discard = seat.hand, state.discard
    for landscape in range(4):
        n = cards[landscape]
        if n:
            hand[landscape] -= n
            discard[landscape] += n
    place_building(state, state.current, building, cell)
    if extend and not state.over:
        state.pending = Pending("tile", tile=state.tile_pile.pop(0))
