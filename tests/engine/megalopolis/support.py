"""Helpers for the Megalopolis tests: seeded playthroughs and hand-built tables."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from engine.core import JSON, MatchResult
from engine.megalopolis import MEGALOPOLIS, MegalopolisState
from engine.megalopolis.components import KIND_NAMES, KIND_OF_NAME, TEMPLE, TOKENS_PER_PLAYER
from engine.megalopolis.state import Tile
from engine.rng import SplitMix64, derive_seed
from engine.squaregrid import encode

GAME = MEGALOPOLIS


def random_game(seed: int, players: int) -> Iterator[tuple[MegalopolisState, JSON | None]]:
    """A game of uniformly random legal actions, yielding the live state and the action
    about to be applied; the last pair has the finished state and None."""
    state = GAME.new_state(seed, players, {})
    rng = SplitMix64(derive_seed(seed, "tests"))
    while not GAME.is_over(state):
        legal = GAME.legal_actions(state)
        action = legal[rng.below(len(legal))]
        yield state, action
        GAME.apply(state, action)
    yield state, None


def state_json(state: MegalopolisState) -> str:
    return json.dumps(GAME.state_to_json(state), sort_keys=True)


def redeal_hidden(state: MegalopolisState, viewer: int, rng: SplitMix64) -> MegalopolisState:
    """The same game as `viewer` sees it, with every tile hidden from them dealt anew:
    the deck, the other hands, face-down tiles, and a Library's tiles unless theirs."""
    other = state.copy()
    other.seed = rng.next_u64()
    mine = viewer == other.turn_player
    shown = {
        frame.player for frame in other.stack if mine and frame.power == TEMPLE and frame.step == 1
    }
    pool: list[int] = list(other.deck)
    face_down = sorted(code for code, tile in other.board.items() if not tile.face_up)
    pool += [other.board[code].kind for code in face_down]
    hidden_hands = [p for p in range(other.players) if p != viewer and p not in shown]
    for seat in hidden_hands:
        pool += other.hands[seat]
    frames = [] if mine else [frame for frame in other.stack if frame.looked]
    for frame in frames:
        pool += frame.looked
    rng.shuffle(pool)
    other.deck = [pool.pop() for _ in other.deck]
    for code in face_down:
        other.board[code].kind = pool.pop()
    for seat in hidden_hands:
        other.hands[seat] = sorted(pool.pop() for _ in other.hands[seat])
    for frame in frames:
        frame.looked = [pool.pop() for _ in frame.looked]
    assert not pool
    return other


def rank_keys(result: MatchResult) -> list[tuple[int, ...]]:
    """More points, then the larger group."""
    return [
        (score, detail["largest_group"])
        for score, detail in zip(result.scores, result.details, strict=True)
    ]


def cell(x: int, y: int) -> int:
    return encode(x, y)


def up(kind: str, *owners: int) -> tuple[str, bool, tuple[int, ...]]:
    """A face-up tile with one token per seat listed (a seat listed twice has two)."""
    return kind, True, owners


def down(kind: str) -> tuple[str, bool, tuple[int, ...]]:
    """A face-down tile (no tokens)."""
    return kind, False, ()


def table(
    tiles: Mapping[tuple[int, int], tuple[str, bool, tuple[int, ...]]],
    *,
    players: int = 2,
    hands: list[list[str]] | None = None,
    deck: list[str] | None = None,
    turn_player: int = 0,
    supply: list[int] | None = None,
) -> MegalopolisState:
    """A hand-built position at the start of `turn_player`'s turn. Supplies default to
    15 minus the tokens on the table; hands default to empty, the deck to 20 housings."""
    board = {}
    placed = [0] * players
    for serial, ((x, y), (kind, face_up, owners)) in enumerate(tiles.items()):
        tokens = [0] * players
        for owner in owners:
            tokens[owner] += 1
            placed[owner] += 1
        board[encode(x, y)] = Tile(KIND_OF_NAME[kind], serial, face_up, tokens)
    return MegalopolisState(
        seed=0,
        players=players,
        options={},
        board=board,
        deck=[KIND_OF_NAME[k] for k in (deck if deck is not None else ["housing"] * 20)],
        hands=[sorted(KIND_OF_NAME[k] for k in hand) for hand in (hands or [[]] * players)],
        supply=supply or [TOKENS_PER_PLAYER - n for n in placed],
        first_player=turn_player,
        turn_player=turn_player,
        next_serial=len(board),
    )


def play(state: MegalopolisState, kind: str, x: int, y: int) -> None:
    GAME.apply(state, {"play": kind, "x": x, "y": y})


def choose(state: MegalopolisState, action: dict[str, Any]) -> None:
    GAME.apply(state, action)


def tile(x: int, y: int) -> dict[str, Any]:
    return {"tile": [x, y]}


def legal(state: MegalopolisState) -> list[dict[str, Any]]:
    return list(GAME.legal_actions(state))


def tokens_at(state: MegalopolisState, x: int, y: int) -> list[int]:
    return list(state.board[encode(x, y)].tokens)


def kind_at(state: MegalopolisState, x: int, y: int) -> str:
    return KIND_NAMES[state.board[encode(x, y)].kind]


def hand(state: MegalopolisState, player: int) -> list[str]:
    return [KIND_NAMES[k] for k in state.hands[player]]


def turns_to_the_end(state: MegalopolisState) -> list[int]:
    """Play the first legal action until the game ends; the seat of each turn played."""
    seats = []
    while not GAME.is_over(state):
        if not state.resolving:
            seats.append(state.turn_player)
        GAME.apply(state, GAME.legal_actions(state)[0])
    return seats
