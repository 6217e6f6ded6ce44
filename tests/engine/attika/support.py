"""Helpers for the Attika tests: seeded random games and hand-painted positions.

A painted position is a fresh game whose map is replaced by a disk of hexes given letter
by letter (M, H, F, W; anything else blank) and chosen shrines, with no building on it.
Painted maps have no tiles behind them, so they are never round-tripped through JSON.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping

from engine.attika import ATTIKA, AttikaState
from engine.attika.components import BUILDING_INDEX, LANDSCAPES, LETTER_OF_LANDSCAPE
from engine.attika.effects import place_building
from engine.core import MatchResult
from engine.hexgrid import distance, encode
from engine.rng import SplitMix64, derive_seed

GAME = ATTIKA


def random_game(seed: int, players: int) -> Iterator[tuple[AttikaState, dict[str, object] | None]]:
    """Play a game with uniformly random legal actions, yielding the live state and the
    action about to be applied; the last pair has the finished state and None."""
    state = GAME.new_state(seed, players, {})
    rng = SplitMix64(derive_seed(seed, "tests"))
    while not GAME.is_over(state):
        legal = GAME.legal_actions(state)
        action = legal[rng.below(len(legal))]
        yield state, action
        GAME.apply(state, action)
    yield state, None


def play_to_turn(seed: int, players: int, turn: int) -> AttikaState:
    for state, action in random_game(seed, players):
        if state.turn == turn or action is None:
            return state
    raise AssertionError("unreachable: random_game always ends with a finished state")


def state_json(state: AttikaState) -> str:
    return json.dumps(GAME.state_to_json(state), sort_keys=True)


def cell(q: int, r: int) -> int:
    return encode(q, r)


def b(name: str) -> int:
    """A building's index from its id."""
    return BUILDING_INDEX[name]


def cards(letters: str) -> list[int]:
    """A hand counted per landscape from letters, e.g. "MMHW"."""
    return [letters.count(letter) for letter in LETTER_OF_LANDSCAPE]


def payment(letters: str) -> dict[str, object]:
    return {"type": "pay", "cards": dict(zip(LANDSCAPES, cards(letters), strict=True))}


def painted(
    letters: Mapping[tuple[int, int], str] | None = None,
    *,
    players: int = 2,
    radius: int = 4,
    shrines: tuple[tuple[int, int], ...] = ((0, 5), (0, -5)),
    seed: int = 1,
) -> AttikaState:
    """A fresh game (seat 0 to move, all 30 buildings of each player in their stacks or
    on their board, as dealt) on a painted map: every hex within `radius` of (0, 0)
    blank unless `letters` says otherwise."""
    state = GAME.new_state(seed, players, {})
    symbols = {
        encode(q, r): -1
        for q in range(-radius, radius + 1)
        for r in range(-radius, radius + 1)
        if distance((0, 0), (q, r)) <= radius
    }
    for (q, r), letter in (letters or {}).items():
        symbols[encode(q, r)] = LETTER_OF_LANDSCAPE.find(letter)
    state.shrines = [encode(q, r) for q, r in shrines]
    for shrine in state.shrines:
        symbols.pop(shrine, None)
    state.hexes = symbols  # the tiles dealt stay listed, but the map is these hexes
    state.rebuild_caches()
    return state


def _take(state: AttikaState, player: int, building: int) -> None:
    """Take a building out of wherever the player keeps it (board or stacks)."""
    seat = state.seats[player]
    if building in seat.board:
        seat.board.remove(building)
        return
    for stack in seat.stacks:
        if building in stack:
            stack.remove(building)
            return
    raise AssertionError(f"building {building} of player {player} is not off the map")


def on_board(state: AttikaState, player: int, *names: str) -> None:
    """Move the buildings to the player's board."""
    seat = state.seats[player]
    for name in names:
        if b(name) not in seat.board:
            _take(state, player, b(name))
            seat.board.append(b(name))
    seat.board.sort()
    state.rebuild_caches()


def on_top(state: AttikaState, player: int, stack: int, name: str) -> None:
    """Move the building to the top of one of the player's stacks."""
    _take(state, player, b(name))
    state.seats[player].stacks[stack].insert(0, b(name))
    state.rebuild_caches()


def put(state: AttikaState, player: int, name: str, q: int, r: int) -> None:
    """Put a building on the map as if built (wins and amphorae included)."""
    _take(state, player, b(name))
    place_building(state, player, b(name), encode(q, r))
    state.rebuild_caches()


def set_hand(state: AttikaState, player: int, letters: str) -> None:
    state.seats[player].hand = cards(letters)
    state.rebuild_caches()


def build(name: str, q: int, r: int) -> dict[str, object]:
    return {"type": "build", "building": name, "q": q, "r": r}


def reshuffle_hidden(state: AttikaState, viewer: int, seed: int) -> AttikaState:
    """The same table with everything the viewer cannot see dealt differently: the other
    hands and the deck, every stack's contents (the boards lie face up and stay), the
    order of the tile pile, the seed and the PRNG."""
    other = GAME.copy_state(state)
    rng = SplitMix64(seed)
    pool = list(other.deck)
    for player, seat in enumerate(other.seats):
        if player != viewer:
            pool += [card for card, n in enumerate(seat.hand) for _ in range(n)]
    rng.shuffle(pool)
    for player, seat in enumerate(other.seats):
        if player != viewer:
            size = sum(seat.hand)
            dealt, pool = pool[:size], pool[size:]
            seat.hand = [dealt.count(card) for card in range(4)]
    other.deck = pool
    for seat in other.seats:
        mains = list(seat.stacks[0])
        rest = [b for stack in seat.stacks[1:] for b in stack]
        rng.shuffle(mains)
        rng.shuffle(rest)
        sizes = [len(stack) for stack in seat.stacks]
        seat.stacks = [mains]
        for size in sizes[1:]:
            seat.stacks.append(rest[:size])
            rest = rest[size:]
    rng.shuffle(other.tile_pile)
    other.seed = (state.seed + 1 + seed) % 2**64
    other.rng_state = rng.next_u64()
    other.rebuild_caches()
    return other


def redeal_hidden(state: AttikaState, viewer: int, rng: SplitMix64) -> AttikaState:
    """`reshuffle_hidden` drawing its seed from `rng`."""
    return reshuffle_hidden(state, viewer, rng.next_u64())


def rank_keys(result: MatchResult) -> list[tuple[int, ...]]:
    """The winner first; then more buildings on the map, then fewer left on the board."""
    return [
        (int(detail["winner"]), score, -detail["buildings_on_board"])
        for score, detail in zip(result.scores, result.details, strict=True)
    ]
