"""Akropolis as an Agon game: setup, the end and the result; turns are in `turns`.

The rules are those of the project's rules file for Akropolis; each function names the
rule it carries out.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from operator import mul
from typing import Any

from engine.akropolis.actions import ExpandedActions
from engine.akropolis.city import City
from engine.akropolis.city_json import score_json
from engine.akropolis.components import COLORS, STARTING_STONES, TILES
from engine.akropolis.greedy import GreedyBot
from engine.akropolis.observation import (
    observation,
    observation_text,
    state_from_observation,
)
from engine.akropolis.render import render_state
from engine.akropolis.scoring import VARIANTS, CityScore, details_json
from engine.akropolis.state import AkropolisState
from engine.akropolis.state_json import state_from_json, state_to_json
from engine.akropolis.turns import (
    apply_action,
    apply_legal,
    current_player,
    is_over,
    legal_actions,
)
from engine.core import JSON, MatchResult, OptionSpec, competition_ranks
from engine.rng import SplitMix64
from engine.setup_checks import checked_options

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
        normalized = checked_options(self, seed, players, options)
        all_tiles = normalized["all_tiles"]
        tiles = list(tiles_in_play(players, all_tiles))
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

    # The turn functions themselves, not methods calling them: a playout calls three a
    # turn, each without a method's extra call.
    current_player = staticmethod(current_player)
    is_over = staticmethod(is_over)
    legal_actions = staticmethod(legal_actions)
    apply = staticmethod(apply_action)
    apply_legal = staticmethod(apply_legal)
    """`apply(state, legal[index])` without checking the action again: `legal` must be
    `legal_actions(state)` of this state as it is (for lookahead; the referee checks every
    bot's action with `apply`)."""

    def turn_number(self, state: AkropolisState) -> int:
        return state.turn

    # --- the end ---------------------------------------------------------------------

    def city_score(self, state: AkropolisState, player: int) -> CityScore:
        city = state.cities[player]
        running = city.running_score(variants_of(state))
        return running.city_score(city.top, state.stones[player])

    def scores(self, state: AkropolisState) -> list[int]:
        """Every seat's score now, as `result` would give it if the game ended here. Kept
        up to date by `apply` (no rescoring of the cities), for bots that look ahead."""
        variants = variants_of(state)
        return [
            city.points(variants) + stones
            for city, stones in zip(state.cities, state.stones, strict=True)
        ]

    def score(self, state: AkropolisState, seat: int) -> int:
        """One seat's score of `scores` (the others' are not worked out)."""
        variants = state.variants
        if variants is None:
            variants = variants_of(state)
        return state.cities[seat].points(variants) + state.stones[seat]

    def result(self, state: AkropolisState) -> MatchResult:
        """The scores as `city_score` has them, but that a city which keeps no running
        score (a random playout's) is scored on boards and keeps none: the game is over."""
        variants = variants_of(state)
        totals: list[int] = []
        details: list[JSON] = []
        for city, stones in zip(state.cities, state.stones, strict=True):
            values, stars = city.colour_values(variants)
            total = stones + sum(map(mul, values, stars))
            totals.append(total)
            details.append(details_json(stones, total, zip(COLORS, values, stars, strict=True)))
        return MatchResult(
            scores=totals,
            ranks=competition_ranks(list(zip(totals, state.stones, strict=True))),
            details=details,
        )

    # --- what players see ------------------------------------------------------------

    def observation(self, state: AkropolisState, player: int) -> dict[str, Any]:
        return observation(state, player)

    def observation_text(self, state: AkropolisState, player: int) -> str:
        """The observation as JSON text only (the same bytes), for a boxed bot."""
        return observation_text(state, player)

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
        return state_from_observation(observation)

    def score_json(self, data: JSON) -> JSON:
        """`agon score`: one city (or a list) in the rules file's JSON form, scored."""
        return score_json(data)


@functools.cache
def tiles_in_play(players: int, all_tiles: bool) -> tuple[int, ...]:
    """The ids of the tiles a game deals, sorted (before the shuffle)."""
    return tuple(sorted(t.id for t in TILES.values() if all_tiles or t.min_players <= players))


def variants_of(state: AkropolisState) -> tuple[str, ...]:
    """The scoring variants the state's options turn on (kept in the state: its options
    never change, and its copies share them)."""
    variants = state.variants
    if variants is None:
        variants = state.variants = tuple(name for name in VARIANTS if state.options.get(name))
    return variants


AKROPOLIS = Akropolis()
