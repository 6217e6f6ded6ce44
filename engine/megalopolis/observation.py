"""What a Megalopolis player sees, and a state for lookahead guessed from it.

Hidden from a player: the deck, the other players' hands (only their sizes show), the
kinds of face-down tiles, the tiles another player looks at with a Library, and the seed.
The player whose decision it is sees what their decision needs: the Library's tiles, the
hand a Temple plays from.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.megalopolis.components import ALL_TILES, KIND_NAMES, TEMPLE
from engine.megalopolis.state import Frame, MegalopolisState, known
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


def state_from_observation(
    observation: dict[str, Any], rng: SplitMix64 | None = None
) -> MegalopolisState:
    """A full state consistent with the observation. The unseen tiles are shuffled with a
    fixed seed (mixed with the turn), or with `rng` when given (a determinization for
    search, `engine.search`), and dealt to the face-down tiles (by position), the other
    players' hands (by seat), a Library's hidden tiles, then the deck."""
    me = observation["player"]
    pool = [name for name in KIND_NAMES for _ in range(observation["unseen"].get(name, 0))]
    (rng or SplitMix64(DETERMINIZE_SEED ^ observation["turn"])).shuffle(pool)

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
