"""Akropolis as an Agon game: setup, turns, the end and the result.

The rules are those of the project's rules file for Akropolis; each function names the
rule it carries out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.akropolis.actions import ExpandedActions, LegalActions, parse_action
from engine.akropolis.city import City
from engine.akropolis.city_json import score_json
from engine.akropolis.components import STARS_OF_CODE, STARTING_STONES, TILES, describe_hex
from engine.akropolis.geometry import STEP, triangle_of
from engine.akropolis.greedy import GreedyBot
from engine.akropolis.render import render_state
from engine.akropolis.scoring import VARIANTS, CityScore, score_surface
from engine.akropolis.state import (
    AkropolisState,
    city_hexes_to_json,
    state_from_json,
    state_to_json,
)
from engine.core import (
    JSON,
    IllegalAction,
    InvalidOptions,
    MatchResult,
    OptionSpec,
    competition_ranks,
    normalize_options,
)
from engine.hexgrid import COORD_LIMIT, encode
from engine.rng import SplitMix64

STANDARD_STACKS = 11
ALL_TILES_STACKS = {2: 19, 3: 14}

_VARIANT_HELP = {
    "houses": "variant: the scoring house group's value is doubled if it is 10 or more",
    "markets": "variant: a scoring market next to a market plaza is worth double",
    "barracks": "variant: a scoring barracks with 3 or 4 empty outside neighbours is worth double",
    "temples": "variant: a scoring temple on level 2 or higher is worth double",
    "gardens": "variant: a garden next to a lake (an enclosed empty space) is worth double",
}


class Akropolis:
    id = "akropolis"
    name = "Akropolis"
    rules_version = 1
    player_counts: tuple[int, ...] = (2, 3, 4)
    options: tuple[OptionSpec, ...] = (
        OptionSpec("all_tiles", False, "play with all 61 tiles (a longer game)", (2, 3)),
        *(OptionSpec(name, False, _VARIANT_HELP[name]) for name in VARIANTS),
    )

    # --- setup -----------------------------------------------------------------------

    def new_state(self, seed: int, players: int, options: Mapping[str, JSON]) -> AkropolisState:
        # 2.0 == 2, so membership alone would let a float through to the slicing below.
        if not isinstance(players, int) or players not in self.player_counts:
            raise InvalidOptions(f"Akropolis is for 2 to 4 players, not {players!r}")
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
            raise InvalidOptions(f"the seed must be an integer in [0, 2**64), not {seed!r}")
        normalized = normalize_options(self.options, players, options)
        all_tiles = normalized["all_tiles"]
        tiles = sorted(t.id for t in TILES.values() if all_tiles or t.min_players <= players)
        SplitMix64(seed).shuffle(tiles)
        stack_size = players + 1
        stacks_count = ALL_TILES_STACKS[players] if all_tiles else STANDARD_STACKS
        site_size = len(tiles) - stacks_count * stack_size
        if site_size != players + 2:
            raise AssertionError("the rules' tile counts do not add up")
        stacks = [tiles[i : i + stack_size] for i in range(site_size, len(tiles), stack_size)]
        return AkropolisState(
            seed=seed,
            players=players,
            options=normalized,
            stacks=stacks,
            site=tiles[:site_size],
            stones=list(STARTING_STONES[:players]),
            cities=[City.starting() for _ in range(players)],
        )

    # --- turns -----------------------------------------------------------------------

    def current_player(self, state: AkropolisState) -> int:
        # A round has players + 1 turns and the Chief Architect passes on each round,
        # so turns simply go round the table.
        return state.turn % state.players

    def is_over(self, state: AkropolisState) -> bool:
        return len(state.site) <= 1 and not state.stacks

    def turn_number(self, state: AkropolisState) -> int:
        return state.turn

    def legal_actions(self, state: AkropolisState) -> LegalActions:
        if self.is_over(state):
            return LegalActions((), ())
        player = self.current_player(state)
        affordable = range(min(len(state.site), state.stones[player] + 1))
        return LegalActions(affordable, state.cities[player].legal_triangles())

    def apply(self, state: AkropolisState, action: JSON) -> None:
        if self.is_over(state):
            raise IllegalAction("the game is over")
        position, q, r, rotation = parse_action(action)
        player = self.current_player(state)
        if not 0 <= position < len(state.site):
            raise IllegalAction(
                f"tile {position} is not in the Construction Site "
                f"(positions 0..{len(state.site) - 1})"
            )
        if position > state.stones[player]:
            raise IllegalAction(
                f"tile {position} costs {position} stones "
                f"but player {player} has {state.stones[player]}"
            )
        if not (abs(q) < COORD_LIMIT - 2 and abs(r) < COORD_LIMIT - 2):
            raise IllegalAction(f"({q}, {r}) is far outside any city")
        city = state.cities[player]
        anchor = encode(q, r)
        triangle = triangle_of(anchor, rotation)
        if not city.is_legal(triangle):
            raise IllegalAction(
                f"tile cannot be placed at ({q}, {r}) rotation {rotation}: "
                + explain_illegal(city, anchor, rotation)
            )
        cells = (anchor, anchor + STEP[rotation], anchor + STEP[(rotation + 1) % 6])
        tile_id = state.site.pop(position)
        state.stones[player] -= position
        state.stones[player] += city.place(triangle, cells, TILES[tile_id].hexes, tile_id)
        state.turn += 1
        if len(state.site) == 1 and state.stacks:
            state.site.extend(state.stacks.pop(0))

    # --- the end ---------------------------------------------------------------------

    def city_score(self, state: AkropolisState, player: int) -> CityScore:
        variants = [name for name in VARIANTS if state.options.get(name)]
        return score_surface(state.cities[player].top, state.stones[player], variants)

    def result(self, state: AkropolisState) -> MatchResult:
        scores = [self.city_score(state, p) for p in range(state.players)]
        keys = [(s.total, s.stones) for s in scores]
        return MatchResult(
            scores=[s.total for s in scores],
            ranks=competition_ranks(keys),
            details=[s.to_json() for s in scores],
        )

    # --- what players see ------------------------------------------------------------

    def observation(self, state: AkropolisState, player: int) -> dict[str, Any]:
        seen_stacks = sorted(tile for stack in state.stacks for tile in stack)
        return {
            "game": self.id,
            "player": player,
            "players": state.players,
            "turn": state.turn,
            "current_player": self.current_player(state),
            "options": dict(state.options),
            "site": [
                {"position": k, "cost": k, "tile": tile_id, "hexes": tile_hexes_json(tile_id)}
                for k, tile_id in enumerate(state.site)
            ],
            "stacks_left": len(state.stacks),
            "stack_tiles": seen_stacks,
            "stones": list(state.stones),
            "cities": [
                {"tiles": city.tiles, "hexes": city_hexes_to_json(city)} for city in state.cities
            ],
        }

    def state_to_json(self, state: AkropolisState) -> dict[str, Any]:
        return state_to_json(state)

    def state_from_json(self, data: JSON) -> AkropolisState:
        return state_from_json(data)

    def copy_state(self, state: AkropolisState) -> AkropolisState:
        return state.copy()

    def render_text(self, state: AkropolisState) -> str:
        return render_state(self, state)

    def greedy_bot(self, seed: int) -> GreedyBot:
        return GreedyBot(seed)

    def legal_actions_from_json(self, data: JSON) -> ExpandedActions:
        """The legal actions from the compact form the bot protocol sends."""
        return ExpandedActions.from_json(data)

    def state_from_observation(self, observation: JSON) -> AkropolisState:
        """A state for lookahead built from what a player sees. The stacks' order is
        hidden, so they hold the unseen tiles in id order: a guess, not the truth."""
        unseen = list(observation["stack_tiles"])
        size = observation["players"] + 1
        data = {
            "game": "akropolis",
            "seed": 0,
            "players": observation["players"],
            "options": observation["options"],
            "turn": observation["turn"],
            "stones": observation["stones"],
            "site": [entry["tile"] for entry in observation["site"]],
            "stacks": [unseen[i : i + size] for i in range(0, len(unseen), size)],
            "cities": observation["cities"],
        }
        return state_from_json(data)

    def score_json(self, data: JSON) -> JSON:
        """`agon score`: one city (or a list) in the rules file's JSON form, scored."""
        return score_json(data)


def tile_hexes_json(tile_id: int) -> list[dict[str, Any]]:
    hexes = []
    for code in TILES[tile_id].hexes:
        kind, color = describe_hex(code)
        entry: dict[str, Any] = {"kind": kind}
        if color is not None:
            entry["color"] = color
        if kind == "plaza":
            entry["stars"] = STARS_OF_CODE[code]
        hexes.append(entry)
    return hexes


def explain_illegal(city: City, anchor: int, rotation: int) -> str:
    cells = (anchor, anchor + STEP[rotation], anchor + STEP[(rotation + 1) % 6])
    below = [city.top.get(cell) for cell in cells]
    if all(h is None for h in below):
        return "on level 1 a tile must share an edge with the city"
    if any(h is None for h in below):
        return "a tile cannot stand over an empty space"
    if len({h[0] for h in below if h is not None}) > 1:
        return "the three hexes underneath must be on the same level"
    return "a tile cannot lie on top of a single tile"


AKROPOLIS = Akropolis()
