"""What a Megalopolis player sees, and a state for lookahead guessed from it.

Hidden from a player: the deck, the other players' hands (only their sizes show), the
kinds of face-down tiles, the tiles another player looks at with a Library, and the seed.
The player whose decision it is sees what their decision needs: the Library's tiles, the
hand a Temple plays from.
"""

from __future__ import annotations

import functools
from collections import Counter
from typing import Any

from engine.core import compact_json
from engine.megalopolis.actions import KIND_TEXT
from engine.megalopolis.board_text import ALL_COUNTS, board_text
from engine.megalopolis.components import ALL_TILES, KIND_NAMES, TEMPLE
from engine.megalopolis.state import FRAME_POWER_NAMES, Frame, MegalopolisState, known
from engine.megalopolis.state_json import board_to_json, state_from_json
from engine.rng import SplitMix64

DETERMINIZE_SEED = 0x4D45_4741_4C4F
"""Seed of the fixed shuffle that deals the unseen tiles in `state_from_observation`."""


def temple_hand_shown(state: MegalopolisState, frame: Frame, player: int) -> bool:
    """The acting player sees the hand their Temple plays from while choosing the tile."""
    return frame.power == TEMPLE and frame.step == 1 and player == state.turn_player


def frame_view(state: MegalopolisState, frame: Frame, player: int) -> dict[str, Any]:
    data = frame.to_json()
    if player != state.turn_player:
        data["looked"] = []
        data["looked_count"] = len(frame.looked)
    elif temple_hand_shown(state, frame, player):
        data["hand"] = [KIND_NAMES[k] for k in state.hands[known(frame.player, "player")]]
    return data


def seen_kinds(state: MegalopolisState, player: int) -> Counter[int]:
    seen: Counter[int] = Counter(tile.kind for tile in state.board.values() if tile.face_up)
    seen.update(state.hands[player])
    for frame in state.stack:
        if player == state.turn_player:
            seen.update(frame.looked)
            if temple_hand_shown(state, frame, player):
                seen.update(state.hands[known(frame.player, "player")])
    return seen


def observation(state: MegalopolisState, player: int) -> dict[str, Any]:
    unseen = Counter(ALL_TILES)
    unseen.subtract(seen_kinds(state, player))
    return {
        "game": "megalopolis",
        "player": player,
        "players": state.players,
        "turn": state.turn,
        "turns_played": state.turns_played,
        "current_player": state.turn_player,
        "turn_player": state.turn_player,
        "first_player": state.first_player,
        "options": dict(state.options),
        "tokens_in_supply": list(state.supply),
        "hand": [KIND_NAMES[k] for k in state.hands[player]],
        "hand_sizes": [len(hand) for hand in state.hands],
        "deck_size": len(state.deck),
        "board": board_to_json(state, hide_face_down=True),
        "next_serial": state.next_serial,
        "unseen": {KIND_NAMES[k]: unseen[k] for k in range(len(KIND_NAMES)) if unseen[k]},
        "stack": [frame_view(state, frame, player) for frame in state.stack],
        "resolving": state.resolving,
        "factory_draws": state.factory_draws,
        "last_token_by": state.last_token_by,
        "final_round": None if state.final_round is None else list(state.final_round),
        "passes": state.passes,
        "over": state.over,
        "end_reason": state.end_reason,
    }


def observation_text(state: MegalopolisState, player: int) -> str:
    """`observation(state, player)` as JSON text only, written without building it: what
    a boxed bot is sent. The board's text is kept on the state and rewritten where
    tiles changed (`board_text`); the rest is small and written field by field."""
    tiles, unseen = board_text(state)
    unseen_for_player(state, player, unseen)
    unseen_text = _unseen_text(tuple(unseen))
    stack = ",".join([frame_text(state, frame, player) for frame in state.stack])
    return (
        f'{{"game":"megalopolis","player":{player},"players":{state.players},'
        f'"turn":{state.turn},"turns_played":{state.turns_played},'
        f'"current_player":{state.turn_player},"turn_player":{state.turn_player},'
        f'"first_player":{state.first_player},'
        f'"options":{options_text(tuple(state.options.items()))},'
        f'"tokens_in_supply":[{",".join(map(str, state.supply))}],'
        f'"hand":[{",".join([KIND_TEXT[k] for k in state.hands[player]])}],'
        f'"hand_sizes":[{",".join([str(len(hand)) for hand in state.hands])}],'
        f'"deck_size":{len(state.deck)},"board":[{tiles}],"next_serial":{state.next_serial},'
        f'"unseen":{{{unseen_text}}},"stack":[{stack}],"resolving":{_FLAG[state.resolving]},'
        f'"factory_draws":{state.factory_draws},"last_token_by":{_or_null(state.last_token_by)},'
        f'"final_round":{"null" if state.final_round is None else _ints(state.final_round)},'
        f'"passes":{state.passes},"over":{_FLAG[state.over]},'
        f'"end_reason":{"null" if state.end_reason is None else compact_json(state.end_reason)}}}'
    )


@functools.lru_cache(maxsize=4096)
def _unseen_text(unseen: tuple[int, ...]) -> str:
    """The unseen counts as the observation's JSON object, without its braces."""
    return ",".join([f"{KIND_TEXT[k]}:{n}" for k, n in enumerate(unseen) if n])


def unseen_counts(state: MegalopolisState, player: int) -> list[int]:
    """Per kind, the tiles the player has not seen: the observation's "unseen" (as
    `seen_kinds` counts them), without building Counters."""
    unseen = list(ALL_COUNTS)
    for tile in state.board.values():
        if tile.face_up:
            unseen[tile.kind] -= 1
    unseen_for_player(state, player, unseen)
    return unseen


def unseen_for_player(state: MegalopolisState, player: int, unseen: list[int]) -> None:
    """Take from the counts per kind what the player sees beyond the board: their hand,
    and while it is their turn the tiles a Library shows or a Temple's hand."""
    for kind in state.hands[player]:
        unseen[kind] -= 1
    if state.stack and player == state.turn_player:
        for frame in state.stack:
            for kind in frame.looked:
                unseen[kind] -= 1
            if temple_hand_shown(state, frame, player):
                for kind in state.hands[known(frame.player, "player")]:
                    unseen[kind] -= 1


def frame_text(state: MegalopolisState, frame: Frame, player: int) -> str:
    """`frame_view(state, frame, player)` as JSON text."""
    if player != state.turn_player:
        looked, more = "", f',"looked_count":{len(frame.looked)}'
    else:
        looked = ",".join([KIND_TEXT[k] for k in frame.looked])
        if temple_hand_shown(state, frame, player):
            hand = state.hands[known(frame.player, "player")]
            more = f',"hand":[{",".join([KIND_TEXT[k] for k in hand])}]'
        else:
            more = ""
    return (
        f'{{"power":"{FRAME_POWER_NAMES[frame.power]}","source":{_or_null(frame.source)},'
        f'"step":{frame.step},"count":{frame.count},"chosen":{_or_null(frame.chosen)},'
        f'"done":{_ints(frame.done)},"looked":[{looked}],"player":{_or_null(frame.player)}'
        f"{more}}}"
    )


def _ints(values: list[int]) -> str:
    return f"[{','.join(map(str, values))}]"


_FLAG = {False: "false", True: "true"}


def _or_null(value: int | None) -> str:
    return "null" if value is None else str(value)


@functools.lru_cache(maxsize=64)
def options_text(options: tuple[tuple[str, bool], ...]) -> str:
    """The match's options as JSON text (a handful of combinations in all)."""
    return compact_json(dict(options))


def state_from_observation(observation: dict[str, Any]) -> MegalopolisState:
    """A full state consistent with the observation. The unseen tiles are shuffled with a
    fixed seed (mixed with the turn) and dealt to the face-down tiles (by position), the
    other players' hands (by seat), a Library's hidden tiles, then the deck."""
    me = observation["player"]
    pool = [name for name in KIND_NAMES for _ in range(observation["unseen"].get(name, 0))]
    SplitMix64(DETERMINIZE_SEED ^ observation["turn"]).shuffle(pool)

    def deal(count: int) -> list[str]:
        dealt = pool[:count]
        del pool[:count]
        return dealt

    board = []
    for tile in observation["board"]:
        entry = dict(tile)
        if "kind" not in entry:
            entry["kind"] = deal(1)[0]
        board.append(entry)
    shown_hands = {
        frame["player"]: frame["hand"] for frame in observation["stack"] if "hand" in frame
    }
    hands = []
    for seat, size in enumerate(observation["hand_sizes"]):
        if seat == me:
            hands.append(list(observation["hand"]))
        elif seat in shown_hands:
            hands.append(list(shown_hands[seat]))
        else:
            hands.append(deal(size))
    stack = []
    for frame in observation["stack"]:
        entry = {key: value for key, value in frame.items() if key not in ("hand", "looked_count")}
        if frame.get("looked_count"):
            entry["looked"] = deal(frame["looked_count"])
        stack.append(entry)
    deck = deal(observation["deck_size"])
    if len(deck) != observation["deck_size"]:
        raise ValueError("the observation counts fewer unseen tiles than hidden places")
    # Tiles left in the pool (only in hand-built positions of fewer than 120 tiles) are
    # left out.
    data = {
        "game": "megalopolis",
        "seed": 0,
        "players": observation["players"],
        "options": observation["options"],
        "turn": observation["turn"],
        "turns_played": observation["turns_played"],
        "first_player": observation["first_player"],
        "turn_player": observation["turn_player"],
        "next_serial": observation["next_serial"],
        "resolving": observation["resolving"],
        "factory_draws": observation["factory_draws"],
        "last_token_by": observation["last_token_by"],
        "final_round": observation["final_round"],
        "passes": observation["passes"],
        "over": observation["over"],
        "end_reason": observation["end_reason"],
        "supply": observation["tokens_in_supply"],
        "board": board,
        "hands": hands,
        "deck": deck,
        "stack": stack,
    }
    return state_from_json(data)
