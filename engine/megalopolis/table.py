"""The primitive moves on the Megalopolis table: tiles, tokens, hands, the deck, the end.

Every change of a tile on the table (placed, taken, moved, turned face up, its tokens) is
made here and marks the tile's cell (`mark_changed`), so that the next message rewrites
only those tiles' texts (`board_text`).
"""

from __future__ import annotations

import bisect

from engine.megalopolis.board import power_stations_in_play
from engine.megalopolis.components import HAND_SIZE, POWER_STATIONS_TO_END
from engine.megalopolis.state import MegalopolisState, Tile

END_TOKENS = "last_token"
END_POWER_STATIONS = "power_stations"
END_NO_MOVES = "no_player_can_act"
END_TURN_LIMIT = "turn_limit"


def mark_changed(state: MegalopolisState, code: int) -> None:
    """The tile at `code` (or the cell, now empty) changed: the next message writes its
    text again (`board_text`). Every change of a tile on the table calls this."""
    kept = state.board_text_kept
    if kept is not None:
        kept.changed.add(code)


def place_tile(state: MegalopolisState, code: int, tile: Tile) -> None:
    state.board[code] = tile
    mark_changed(state, code)


def take_tile(state: MegalopolisState, code: int) -> Tile:
    """Take the tile at `code` off the table (its tokens stay on it)."""
    mark_changed(state, code)
    return state.board.pop(code)


def swap_tiles(state: MegalopolisState, first: int, second: int) -> None:
    board = state.board
    board[first], board[second] = board[second], board[first]
    mark_changed(state, first)
    mark_changed(state, second)


def move_tokens(state: MegalopolisState, source: int, target: int, player: int, count: int) -> None:
    """Move `count` of the player's tokens from the tile at `source` to that at `target`."""
    state.board[source].tokens[player] -= count
    state.board[target].tokens[player] += count
    mark_changed(state, source)
    mark_changed(state, target)


def take_back_token(state: MegalopolisState, code: int, player: int) -> None:
    """One of the player's tokens goes from the tile at `code` back to their supply."""
    state.board[code].tokens[player] -= 1
    state.supply[player] += 1
    mark_changed(state, code)


def put_token(state: MegalopolisState, code: int, player: int) -> bool:
    """Put one of the player's tokens on the tile at `code`. True if the tile was face
    down: it is now face up and its text must be resolved."""
    tile = state.board[code]
    mark_changed(state, code)
    state.supply[player] -= 1
    tile.tokens[player] += 1
    if state.supply[player] == 0 and state.last_token_by is None:
        state.last_token_by = player
    if tile.face_up:
        return False
    tile.face_up = True
    return True


def return_tokens(state: MegalopolisState, code: int) -> None:
    """Every token on the tile goes back to its owner's supply."""
    tile = state.board[code]
    mark_changed(state, code)
    for player, count in enumerate(tile.tokens):
        state.supply[player] += count
        tile.tokens[player] = 0


def new_tile(state: MegalopolisState, kind: int, *, face_up: bool) -> Tile:
    tile = Tile(kind, state.next_serial, face_up, [0] * state.players)
    state.next_serial += 1
    return tile


def add_to_hand(state: MegalopolisState, player: int, kind: int) -> None:
    bisect.insort(state.hands[player], kind)


def take_from_hand(hand: list[int], kind: int) -> None:
    hand.remove(kind)


def draw(state: MegalopolisState, player: int, count: int) -> None:
    """Draw up to `count` tiles from the top of the deck (fewer if it runs out)."""
    for _ in range(min(count, len(state.deck))):
        add_to_hand(state, player, state.deck.pop(0))


def refill_hand(state: MegalopolisState, player: int) -> None:
    draw(state, player, HAND_SIZE - len(state.hands[player]))


def end_game(state: MegalopolisState, reason: str) -> None:
    state.over = True
    state.end_reason = reason
    state.stack.clear()
    state.resolving = False


def end_if_all_power_stations(state: MegalopolisState) -> bool:
    """When all five Power Stations are in play the game ends at once."""
    if power_stations_in_play(state) >= POWER_STATIONS_TO_END:
        end_game(state, END_POWER_STATIONS)
        return True
    return False
