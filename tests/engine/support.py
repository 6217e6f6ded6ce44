"""Helpers shared by the engine tests: seeded playthroughs and hand-built cities and surfaces.

Fixtures live in `conftest.py`; these are plain functions so that hypothesis tests, which
cannot take function-scoped fixtures, can use them too.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from hypothesis import HealthCheck, settings

from engine.akropolis import AKROPOLIS, AkropolisState
from engine.akropolis.city import City
from engine.akropolis.components import STARS_OF_CODE
from engine.core import JSON, MatchResult
from engine.hexgrid import DIRECTIONS, encode
from engine.replay import Replay
from engine.rng import SplitMix64, derive_seed

GAME = AKROPOLIS

OPTION_NAMES = ("houses", "markets", "barracks", "temples", "gardens")
ALL_VARIANTS: dict[str, JSON] = dict.fromkeys(OPTION_NAMES, True)


def property_settings(max_examples: int) -> settings:
    """Hypothesis settings for the seeded-game properties: the same examples on every run
    (no example database, derandomized), no per-example deadline since a game takes a while."""
    return settings(
        max_examples=max_examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


def random_game(
    seed: int, players: int, options: Mapping[str, JSON] | None = None
) -> Iterator[tuple[AkropolisState, dict[str, int] | None]]:
    """Play a game with uniformly random legal actions, yielding the live state and the
    action about to be applied; the last pair has the finished state and None.
    Callers must not change the state."""
    state = GAME.new_state(seed, players, dict(options or {}))
    rng = SplitMix64(derive_seed(seed, "tests"))
    while not GAME.is_over(state):
        legal = GAME.legal_actions(state)
        action = legal[rng.below(len(legal))]
        yield state, action
        GAME.apply(state, action)
    yield state, None


def play_to_turn(
    seed: int, players: int, turn: int, options: Mapping[str, JSON] | None = None
) -> AkropolisState:
    """The state of a random game after `turn` actions (or at its end)."""
    for state, action in random_game(seed, players, options):
        if state.turn == turn or action is None:
            return state
    raise AssertionError("unreachable: random_game always ends with a finished state")


def redeal_hidden(state: AkropolisState, viewer: int, rng: SplitMix64) -> AkropolisState:
    """The same table with what no player sees dealt differently: the tiles of the
    face-down stacks and the seed that ordered them."""
    other = state.copy()
    tiles = [tile for stack in other.stacks for tile in stack]
    rng.shuffle(tiles)
    for stack in other.stacks:
        stack[:] = tiles[: len(stack)]
        del tiles[: len(stack)]
    other.seed = rng.next_u64()
    return other


def rank_keys(result: MatchResult) -> list[tuple[int, ...]]:
    """More points, then more stones left."""
    details = result.details
    return [(score, detail["stones"]) for score, detail in zip(result.scores, details, strict=True)]


def state_json(state: AkropolisState) -> str:
    """The state's JSON as a canonical string, for before/after comparisons."""
    return json.dumps(GAME.state_to_json(state), sort_keys=True)


def cell(q: int, r: int) -> int:
    return encode(q, r)


def step(q: int, r: int, direction: int) -> tuple[int, int]:
    dq, dr = DIRECTIONS[direction % 6]
    return q + dq, r + dr


def surface(hexes: Mapping[tuple[int, int], tuple[int, int]]) -> dict[int, tuple[int, int, int]]:
    """A scoring surface from {(q, r): (level, hex code)}; plazas get their printed stars."""
    return {
        encode(q, r): (level, code, STARS_OF_CODE[code]) for (q, r), (level, code) in hexes.items()
    }


def build_city(hexes: Iterable[tuple[int, int, int, int, int]], tiles: int | None = None) -> City:
    """A city from visible hexes (q, r, level, hex code, tile uid), as the rules would see it."""
    city = City()
    uids = set()
    for q, r, level, code, uid in hexes:
        city.top[encode(q, r)] = (level, code, STARS_OF_CODE[code])
        city.tile_at[encode(q, r)] = uid
        uids.add(uid)
    city.tiles = len(uids) if tiles is None else tiles
    return city


def bring_to_site(state: AkropolisState, tile_id: int, position: int = 0) -> None:
    """Swap a tile into a Construction Site position, wherever it is in the site or stacks,
    so that every tile stays unique."""
    displaced = state.site[position]
    if tile_id == displaced:
        return
    if tile_id in state.site:
        state.site[state.site.index(tile_id)] = displaced
    else:
        stack = next(s for s in state.stacks if tile_id in s)
        stack[stack.index(tile_id)] = displaced
    state.site[position] = tile_id


def let_others_play(state: AkropolisState, until_player: int = 0) -> None:
    """Let the other seats take their turns (the first legal action) until `until_player`
    is to move again."""
    while GAME.current_player(state) != until_player:
        GAME.apply(state, GAME.legal_actions(state)[0])


def action(tile: int, q: int, r: int, rotation: int) -> dict[str, int]:
    return {"tile": tile, "q": q, "r": r, "rotation": rotation}


def as_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


TAMPERINGS = ("illegal action", "score", "seed", "truncated")


def tampered_replay(replay: Replay, how: str, illegal_action: JSON) -> Replay:
    """A copy of the replay changed one way (see TAMPERINGS) that verification must catch;
    `illegal_action` is the game's action put in place of the middle one."""
    data: dict[str, Any] = copy.deepcopy(replay.to_json())
    if how == "illegal action":
        data["actions"][len(data["actions"]) // 2] = illegal_action
    elif how == "score":
        data["result"]["scores"][0] += 1
    elif how == "seed":
        data["seed"] = (data["seed"] + 1) % 2**64
    elif how == "truncated":
        data["actions"].pop()
    else:
        raise ValueError(how)
    return Replay.from_json(data)
