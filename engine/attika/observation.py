"""What one player sees, and a complete state guessed back from it for lookahead.

Public: the map, every building on it, the buildings on every player's board (they lie
face up), the discard, the number of cards in each hand and of buildings in each stack,
amphorae, and the tiles not yet placed (not their order). Private to a player: their own
hand and the building they have just drawn. Never shown: the order of the deck and of the
tile pile, what any stack holds, the seed and the reshuffle PRNG.
"""

from __future__ import annotations

from typing import Any

from engine.attika.components import (
    BUILDING_COUNT,
    BUILDINGS,
    CARDS_PER_LANDSCAPE,
    GROUPS,
    IS_MAIN,
    LANDSCAPES,
    LETTER_OF_LANDSCAPE,
)
from engine.attika.state import MODE_NAMES, AttikaState
from engine.attika.state_json import cell_json, pending_json, state_from_json
from engine.hexgrid import decode
from engine.rng import SplitMix64


def observation(state: AttikaState, player: int) -> dict[str, Any]:
    head, tail = _observation_parts(state, player)
    return {**head, "map": map_json(state), **tail}


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
                "colonies": state.caches.index.colonies[index],
            }
            for index, other in enumerate(state.seats)
        ],
    }
    return head, tail


def map_json(state: AttikaState) -> dict[str, Any]:
    hexes = []
    index = state.caches.index  # map.map_hexes and map.buildings_on_map, kept
    for cell in sorted(index.symbol_at):
        q, r = decode(cell)
        symbol = index.symbol_at[cell]
        owner = index.owner_at.get(cell)
        hexes.append(
            {
                "q": q,
                "r": r,
                "landscape": None if symbol < 0 else LANDSCAPES[symbol],
                "player": owner,
                "building": None if owner is None else BUILDINGS[index.building_at[cell]].id,
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


def state_from_observation(seen: dict[str, Any], rng: SplitMix64 | None = None) -> AttikaState:
    """A full state consistent with what the player sees. What is hidden is filled in a
    fixed way, a guess and not the truth: unseen cards are dealt round-robin by
    landscape (mountain, hill, forest, water, mountain, ...) to the other hands in seat
    order, the rest forming the deck; each player's unseen buildings fill, in the order
    of the component data, a hidden drawn building, the main stack, then the other
    stacks (boards are seen); the tile pile is the unplaced tiles in id order; the PRNG
    state is 0.

    Given `rng` (a determinization for search, `engine.search`), the same places are
    filled from shuffled orders drawn from it: the unseen cards, each player's unseen
    main and other buildings, the tile pile, and the PRNG state."""
    players = int(seen["players"])
    placed: list[list[dict[str, Any]]] = [[] for _ in range(players)]
    for h in seen["map"]["hexes"]:
        if h["player"] is not None:
            placed[h["player"]].append({"building": h["building"], "cell": [h["q"], h["r"]]})
    pending = seen["pending"]
    current = int(seen["current_player"])
    hands = _deal_unseen_cards(seen, rng)
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
        if rng is not None:
            rng.shuffle(unseen_main)
            rng.shuffle(unseen_other)
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
        "tile_pile": _tile_pile(seen["unplaced_tiles"], rng),
        "deck": hands.pop(),
        "discard": seen["discard"],
        "rng_state": 0 if rng is None else rng.next_u64(),
        "amphora_supply": seen["amphora_supply"],
        "seats": seats,
    }
    state = state_from_json(data)
    for seat in state.seats:
        owned = len(seat.board) + sum(len(stack) for stack in seat.stacks) + len(seat.placed)
        if owned > BUILDING_COUNT:
            raise ValueError("the observation does not add up to 30 buildings per player")
    return state


def _tile_pile(unplaced: list[int], rng: SplitMix64 | None) -> list[int]:
    pile = list(unplaced)
    if rng is not None:
        rng.shuffle(pile)
    return pile


def _deal_unseen_cards(seen: dict[str, Any], rng: SplitMix64 | None) -> list[Any]:
    """Each seat's hand as a {landscape: count} dict (the viewer's own as seen), then the
    deck as a string of letters (the cards in a shuffled order when given `rng`)."""
    me = int(seen["player"])
    left = [CARDS_PER_LANDSCAPE - seen["hand"][name] - seen["discard"][name] for name in LANDSCAPES]
    order: list[int] = []
    while any(left):
        for landscape in range(4):
            if left[landscape]:
                order.append(landscape)
                left[landscape] -= 1
    if rng is not None:
        rng.shuffle(order)
    hands: list[Any] = []
    for index, info in enumerate(seen["seats"]):
        if index == me:
            hands.append(dict(seen["hand"]))
            continue
        dealt, order = order[: info["hand_size"]], order[info["hand_size"] :]
        hands.append({name: dealt.count(i) for i, name in enumerate(LANDSCAPES)})
    hands.append("".join(LETTER_OF_LANDSCAPE[card] for card in order))
    return hands
