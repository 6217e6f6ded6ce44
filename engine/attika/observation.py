"""What one player sees, and a complete state guessed back from it for lookahead.

Public: the map, every building on it, the buildings on every player's board (they lie
face up), the discard, the number of cards in each hand and of buildings in each stack,
amphorae, and the tiles not yet placed (not their order). Private to a player: their own
hand and the building they have just drawn. Never shown: the order of the deck and of the
tile pile, what any stack holds, the seed and the reshuffle PRNG.
"""

from __future__ import annotations

import functools
from typing import Any

from engine.attika.actions import BUILDING_TEXT
from engine.attika.components import (
    BUILDING_COUNT,
    BUILDINGS,
    CARDS_PER_LANDSCAPE,
    GROUPS,
    IS_MAIN,
    LANDSCAPES,
    LETTER_OF_LANDSCAPE,
)
from engine.attika.map_text import map_text
from engine.attika.state import MODE_NAMES, AttikaState, PlayerState
from engine.attika.state_json import cell_json, pending_json, state_from_json
from engine.core import compact_json
from engine.hexgrid import decode


def observation(state: AttikaState, player: int) -> dict[str, Any]:
    head, tail = _observation_parts(state, player)
    return {**head, "map": map_json(state), **tail}


def observation_text(state: AttikaState, player: int) -> str:
    """`observation(state, player)` as JSON text only, written without building it: what
    a boxed bot is sent. The map, most of it, comes from the text kept between turns
    (`map_text`); the rest is small and written field by field."""
    seat = state.seats[player]
    pending = state.pending
    if pending is None:
        pending_text = "null"
    else:
        shown = pending_json(pending)
        if shown is not None and shown["kind"] == "drawn" and state.current != player:
            shown["building"] = None
        pending_text = compact_json(shown)
    seats = ",".join(map(_seat_text, state.seats, state.index.colonies))
    return (
        f'{{"game":"attika","player":{player},"players":{state.players},'
        f'"turn":{state.turn},"current_player":{state.current},'
        f'"options":{options_text(tuple(state.options.items()))},'
        f'"over":{_FLAG[state.over]},"winner":{_or_null(state.winner)},'
        f'"win_reason":{"null" if state.win_reason is None else compact_json(state.win_reason)},'
        f'"action":"{MODE_NAMES[state.mode]}","actions_left":{state.actions_left},'
        f'"took_cards":{_FLAG[state.took_cards]},"acted":{_FLAG[state.acted]},'
        f'"pending":{pending_text},"passes":{state.passes},"map":{map_text(state)},'
        f'"unplaced_tiles":[{_pile_text(state)}],'
        f'"deck_size":{len(state.deck)},"discard":{_cards_text(state.discard)},'
        f'"amphora_supply":{state.amphora_supply},"hand":{_cards_text(seat.hand)},'
        f'"board":[{_board_text(seat)}],"seats":[{seats}]}}'
    )


_FLAG = {False: "false", True: "true"}
_GROUP_TEXT = tuple(compact_json(group.id) for group in GROUPS)


def _seat_text(seat: PlayerState, colonies: int) -> str:
    """What every player sees of a seat, as JSON text: kept on the seat with what tells
    whether it changed, and written again only then (a seat changes on its own turns,
    and the message shows every seat every turn). Stacks only lose their first
    building and amphora groups and buildings on the map only grow, so their totals
    tell whether they changed, within a seat and its copies."""
    board_text = _board_text(seat)
    stacks, groups = seat.stacks, seat.amphora_groups
    changes = (
        sum(seat.hand),
        board_text,
        sum(map(len, stacks)),
        seat.amphorae,
        len(groups),
        len(seat.placed),
        colonies,
    )
    kept = seat.shown_text
    if kept is not None and kept[0] == changes:
        return kept[1]
    hand_size, _, _, amphorae, _, on_map, _ = changes
    text = (
        f'{{"hand_size":{hand_size},"board_size":{len(seat.board)},"board":[{board_text}],'
        f'"stack_sizes":[{",".join(map(str, map(len, stacks)))}],"amphorae":{amphorae},'
        f'"amphora_groups":[{",".join(map(_GROUP_TEXT.__getitem__, groups))}],'
        f'"buildings_on_map":{on_map},"colonies":{colonies}}}'
    )
    seat.shown_text = (changes, text)
    return text


def _pile_text(state: AttikaState) -> str:
    """The face-down tiles' ids, sorted, as JSON text without the brackets (kept)."""
    left = len(state.tile_pile)
    kept = state.pile_text
    if kept is None or kept[0] != left:
        kept = state.pile_text = (left, ",".join(map(str, sorted(state.tile_pile))))
    return kept[1]


def _board_text(seat: PlayerState) -> str:
    """The seat's board as JSON text without its brackets, kept on the seat."""
    text = seat.board_text
    if text is None:
        text = seat.board_text = ",".join(map(BUILDING_TEXT.__getitem__, seat.board))
    return text


def _or_null(value: int | None) -> str:
    return "null" if value is None else str(value)


_CARDS_FORMAT = "{{" + ",".join(f'"{name}":{{}}' for name in LANDSCAPES) + "}}"


def _cards_text(counts: list[int]) -> str:
    """Cards counted per landscape, as `cards_json` gives them, as JSON text."""
    return _CARDS_FORMAT.format(*counts)


@functools.lru_cache(maxsize=64)
def options_text(options: tuple[tuple[str, bool], ...]) -> str:
    """The match's options as JSON text (a handful of combinations in all)."""
    return compact_json(dict(options))


def _observation_parts(state: AttikaState, player: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The observation's fields before its map, and those after it."""
    seat = state.seats[player]
    pending = pending_json(state.pending)
    if pending is not None and pending["kind"] == "drawn" and state.current != player:
        pending["building"] = None
    head = {
        "game": "attika",
        "player": player,
        "players": state.players,
        "turn": state.turn,
        "current_player": state.current,
        "options": dict(state.options),
        "over": state.over,
        "winner": state.winner,
        "win_reason": state.win_reason,
        "action": MODE_NAMES[state.mode],
        "actions_left": state.actions_left,
        "took_cards": state.took_cards,
        "acted": state.acted,
        "pending": pending,
        "passes": state.passes,
    }
    tail = {
        "unplaced_tiles": sorted(state.tile_pile),
        "deck_size": len(state.deck),
        "discard": dict(zip(LANDSCAPES, state.discard, strict=True)),
        "amphora_supply": state.amphora_supply,
        "hand": dict(zip(LANDSCAPES, seat.hand, strict=True)),
        "board": [BUILDINGS[b].id for b in seat.board],
        "seats": [
            {
                "hand_size": sum(other.hand),
                "board_size": len(other.board),
                "board": [BUILDINGS[b].id for b in other.board],
                "stack_sizes": [len(stack) for stack in other.stacks],
                "amphorae": other.amphorae,
                "amphora_groups": [GROUPS[g].id for g in other.amphora_groups],
                "buildings_on_map": len(other.placed),
                "colonies": state.index.colonies[index],
            }
            for index, other in enumerate(state.seats)
        ],
    }
    return head, tail


def map_json(state: AttikaState) -> dict[str, Any]:
    hexes = []
    for cell in sorted(state.index.symbol_at):
        q, r = decode(cell)
        symbol = state.index.symbol_at[cell]
        owner = state.index.owner_at.get(cell)
        hexes.append(
            {
                "q": q,
                "r": r,
                "landscape": None if symbol < 0 else LANDSCAPES[symbol],
                "player": owner,
                "building": None if owner is None else BUILDINGS[state.index.building_at[cell]].id,
            }
        )
    return {
        "tiles": [
            {"tile": tile, "q": q, "r": r, "rotation": rotation}
            for tile, q, r, rotation in state.tiles
        ],
        "shrines": [cell_json(cell) for cell in state.shrines],
        "hexes": hexes,
    }


def state_from_observation(seen: dict[str, Any]) -> AttikaState:
    """A full state consistent with what the player sees. What is hidden is filled in a
    fixed way, a guess and not the truth: unseen cards are dealt round-robin by
    landscape (mountain, hill, forest, water, mountain, ...) to the other hands in seat
    order, the rest forming the deck; each player's unseen buildings fill, in the order
    of the component data, a hidden drawn building, the main stack, then the other
    stacks (boards are seen); the tile pile is the unplaced tiles in id order; the PRNG
    state is 0."""
    players = int(seen["players"])
    placed: list[list[dict[str, Any]]] = [[] for _ in range(players)]
    for h in seen["map"]["hexes"]:
        if h["player"] is not None:
            placed[h["player"]].append({"building": h["building"], "cell": [h["q"], h["r"]]})
    pending = seen["pending"]
    current = int(seen["current_player"])
    hands = _deal_unseen_cards(seen)
    seats = []
    for index, info in enumerate(seen["seats"]):
        known = {entry["building"] for entry in placed[index]}
        board = list(info["board"])
        known.update(board)
        in_play = None  # the building of this seat's pending decision, if known
        if pending is not None and index == current and pending.get("building") is not None:
            in_play = pending["building"]
            known.add(in_play)
        unseen_main = [b.id for i, b in enumerate(BUILDINGS) if IS_MAIN[i] and b.id not in known]
        unseen_other = [
            b.id for i, b in enumerate(BUILDINGS) if not IS_MAIN[i] and b.id not in known
        ]
        hidden_draw = pending is not None and pending["kind"] == "drawn"
        if hidden_draw and index == current and pending["building"] is None:
            source = unseen_main if pending["stack"] == 0 else unseen_other
            pending = {**pending, "building": source.pop(0)}
        sizes = info["stack_sizes"]
        stacks = [unseen_main[: sizes[0]]]
        for size in sizes[1:]:
            stacks.append(unseen_other[:size])
            unseen_other = unseen_other[size:]
        seats.append(
            {
                "hand": hands[index],
                "board": board,
                "stacks": stacks,
                "amphorae": info["amphorae"],
                "amphora_groups": info["amphora_groups"],
                "buildings": placed[index],
            }
        )
    data = {
        "game": "attika",
        "seed": 0,
        "players": players,
        "options": seen["options"],
        "turn": seen["turn"],
        "current": current,
        "action": seen["action"],
        "actions_left": seen["actions_left"],
        "took_cards": seen["took_cards"],
        "acted": seen["acted"],
        "pending": pending,
        "passes": seen["passes"],
        "winner": seen["winner"],
        "win_reason": seen["win_reason"],
        "over": seen["over"],
        "map_tiles": seen["map"]["tiles"],
        "shrines": seen["map"]["shrines"],
        "tile_pile": seen["unplaced_tiles"],
        "deck": hands.pop(),
        "discard": seen["discard"],
        "rng_state": 0,
        "amphora_supply": seen["amphora_supply"],
        "seats": seats,
    }
    state = state_from_json(data)
    for seat in state.seats:
        owned = len(seat.board) + sum(len(stack) for stack in seat.stacks) + len(seat.placed)
        if owned > BUILDING_COUNT:
            raise ValueError("the observation does not add up to 30 buildings per player")
    return state


def _deal_unseen_cards(seen: dict[str, Any]) -> list[Any]:
    """Each seat's hand as a {landscape: count} dict (the viewer's own as seen), then the
    deck as a string of letters."""
    me = int(seen["player"])
    left = [CARDS_PER_LANDSCAPE - seen["hand"][name] - seen["discard"][name] for name in LANDSCAPES]
    order: list[int] = []
    while any(left):
        for landscape in range(4):
            if left[landscape]:
                order.append(landscape)
                left[landscape] -= 1
    hands: list[Any] = []
    for index, info in enumerate(seen["seats"]):
        if index == me:
            hands.append(dict(seen["hand"]))
            continue
        dealt, order = order[: info["hand_size"]], order[info["hand_size"] :]
        hands.append({name: dealt.count(i) for i, name in enumerate(LANDSCAPES)})
    hands.append("".join(LETTER_OF_LANDSCAPE[card] for card in order))
    return hands
