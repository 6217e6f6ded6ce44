"""The Megalopolis table: which tiles touch, where a tile may go, controlled groups, and
the primitive moves of tiles, tokens, hands and the deck that every rule is made of.

Two tiles are adjacent when they share a full edge (the four square-grid neighbours).
Every change of a tile on the table (placed, taken, moved, turned face up, its tokens) is
made here and says so to the state's caches (`Caches.tile_changed`), so that the next
message rewrites only those tiles' texts (`fast.board_text`).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable

from engine.megalopolis.components import HAND_SIZE, PLAZA, POWER_STATION, POWER_STATIONS_TO_END
from engine.megalopolis.fast.open_spaces import sorted_open_spaces
from engine.megalopolis.state import MegalopolisState, Tile
from engine.squaregrid import NEIGHBOUR_STEPS, connected_groups, encode

CENTRE = encode(0, 0)


def adjacent_tiles(state: MegalopolisState, code: int) -> list[int]:
    """Cells of the placed tiles sharing an edge with `code`, in direction order N E S W."""
    board = state.board
    return [code + step for step in NEIGHBOUR_STEPS if code + step in board]


def open_spaces(state: MegalopolisState, excluding: int | None = None) -> set[int]:
    """Empty cells sharing an edge with a placed tile (other than the one at `excluding`,
    whose own cell does not count as empty either)."""
    board = state.board
    spaces = {code + step for code in board if code != excluding for step in NEIGHBOUR_STEPS}
    spaces.difference_update(board)
    return spaces


def placement_spaces(state: MegalopolisState) -> list[int]:
    """Where a tile may be played or placed, sorted: next to a placed tile, and (Plaza)
    next to a face-up Plaza while such a space exists. An empty table (never reached in
    practice) offers its centre."""
    if not state.board:
        return [CENTRE]
    board = state.board
    by_plaza = {
        code + step
        for code, tile in board.items()
        if tile.kind == PLAZA and tile.face_up
        for step in NEIGHBOUR_STEPS
        if code + step not in board
    }
    if by_plaza:
        return sorted(by_plaza)
    return sorted_open_spaces(state)  # sorted(open_spaces(state)), kept between turns


def can_move_somewhere(state: MegalopolisState) -> bool:
    """With two tiles or more on the table, every tile has somewhere to be moved to: the
    outermost of the other tiles has an empty side that is not the moved tile's cell."""
    return len(state.board) >= 2


def move_destinations(state: MegalopolisState, code: int) -> list[int]:
    """Where the tile at `code` may be moved to (Post Office): an empty cell, other than
    its own, next to another placed tile. Moved tiles ignore the Plaza."""
    return sorted(open_spaces(state, excluding=code))


def face_up_count(state: MegalopolisState, kind: int) -> int:
    return sum(1 for tile in state.board.values() if tile.face_up and tile.kind == kind)


def power_stations_in_play(state: MegalopolisState) -> int:
    return face_up_count(state, POWER_STATION)


def controlled(state: MegalopolisState, player: int) -> set[int]:
    """Cells of the tiles on which the player has at least one token."""
    return {code for code, tile in state.board.items() if tile.tokens[player] > 0}


def groups(cells: Iterable[int]) -> list[set[int]]:
    """Groups of edge-adjacent cells."""
    return connected_groups(cells, NEIGHBOUR_STEPS)


def token_owners(tile: Tile) -> list[int]:
    return [player for player, count in enumerate(tile.tokens) if count > 0]


# --- the primitive moves ------------------------------------------------------------

END_TOKENS = "last_token"
END_POWER_STATIONS = "power_stations"
END_NO_MOVES = "no_player_can_act"
END_TURN_LIMIT = "turn_limit"


def place_tile(state: MegalopolisState, code: int, tile: Tile) -> None:
    state.board[code] = tile
    state.caches.tile_changed(code)


def take_tile(state: MegalopolisState, code: int) -> Tile:
    """Take the tile at `code` off the table (its tokens stay on it)."""
    state.caches.tile_changed(code)
    return state.board.pop(code)


def swap_tiles(state: MegalopolisState, first: int, second: int) -> None:
    board = state.board
    board[first], board[second] = board[second], board[first]
    state.caches.tile_changed(first)
    state.caches.tile_changed(second)


def move_tokens(state: MegalopolisState, source: int, target: int, player: int, count: int) -> None:
    """Move `count` of the player's tokens from the tile at `source` to that at `target`."""
    state.board[source].tokens[player] -= count
    state.board[target].tokens[player] += count
    state.caches.tile_changed(source)
    state.caches.tile_changed(target)


def take_back_token(state: MegalopolisState, code: int, player: int) -> None:
    """One of the player's tokens goes from the tile at `code` back to their supply."""
    state.board[code].tokens[player] -= 1
    state.supply[player] += 1
    state.caches.tile_changed(code)


def put_token(state: MegalopolisState, code: int, player: int) -> bool:
    """Put one of the player's tokens on the tile at `code`. True if the tile was face
    down: it is now face up and its text must be resolved."""
    tile = state.board[code]
    state.caches.tile_changed(code)
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
    state.caches.tile_changed(code)
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
