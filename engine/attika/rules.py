"""Attika as an Agon game: setup, whose move, the end and the result.

The rules are those of the project's rules file for Attika (its decisions override the
rules text); the component data, partly reconstructed, is in `components`. Read them in
the rules page's order:
- `components`: landscapes, buildings and their groups, arrows and costs, map tiles;
- this module: setup (`new_state`) and the result;
- `turns`: a turn, one decision at a time (draw, build, pay, keep, a new map tile,
  amphorae, ending the turn), the legal actions, the end when no one can act;
- `costs`: what a building costs on a cell (discount, colony surcharge, free builds),
  the exact payments, and so where a player can build;
- `map`: the map's hexes and buildings, where a new tile fits;
- `colonies`: chains of buildings, the shrine link, joined groups;
- `effects`: landscape cards taken, a building put on the map (a win, an amphora).
What the state holds is in `state`. The speed lives apart, in `fast` (each fast path
names the plain function it agrees with).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.attika.actions import LegalActions
from engine.attika.components import (
    AMPHORAE,
    CARDS_PER_LANDSCAPE,
    MAIN_BUILDINGS,
    MAP_TILES,
    REGULAR_BUILDINGS,
    REGULAR_STACK_SIZE,
    SETUP_LAYOUTS,
    STARTING_HANDS,
)
from engine.attika.effects import take_cards
from engine.attika.fast.legal_text import LegalActionsText
from engine.attika.fast.observation_text import observation_text
from engine.attika.greedy import GreedyBot
from engine.attika.observation import observation, state_from_observation
from engine.attika.render import render_state
from engine.attika.state import AttikaState, PlayerState
from engine.attika.state_json import state_from_json, state_to_json
from engine.attika.turns import apply_action, legal_actions, settle
from engine.core import JSON, MatchResult, OptionSpec, competition_ranks
from engine.hexgrid import encode
from engine.rng import SplitMix64
from engine.setup_checks import checked_options


class Attika:
    id = "attika"
    name = "Attika"
    rules_version = 2
    """2: the last building drawn from a stack must be built when it can be (decision
    last-of-a-stack); a replay of version 1 in which it was kept may not play again. Its
    boards made public changed no replay: no bot's move depended on them."""
    player_counts: tuple[int, ...] = (2, 3, 4)
    options: tuple[OptionSpec, ...] = ()

    # --- setup -----------------------------------------------------------------------

    def new_state(self, seed: int, players: int, options: Mapping[str, JSON]) -> AttikaState:
        normalized = checked_options(self, seed, players, options)
        rng = SplitMix64(seed)
        tiles = [tile.id for tile in MAP_TILES]
        rng.shuffle(tiles)
        layout = SETUP_LAYOUTS[players]
        seats = []
        for _ in range(players):
            mains, others = list(MAIN_BUILDINGS), list(REGULAR_BUILDINGS)
            rng.shuffle(mains)
            rng.shuffle(others)
            stacks = [mains] + [
                others[k : k + REGULAR_STACK_SIZE]
                for k in range(0, len(others), REGULAR_STACK_SIZE)
            ]
            board = sorted(stack.pop(0) for stack in stacks)
            seats.append(PlayerState(hand=[0, 0, 0, 0], board=board, stacks=stacks))
        deck = [landscape for landscape in range(4) for _ in range(CARDS_PER_LANDSCAPE)]
        rng.shuffle(deck)
        count = len(layout.tile_centres)
        state = AttikaState(
            seed=seed,
            players=players,
            options=normalized,
            seats=seats,
            deck=deck,
            discard=[0, 0, 0, 0],
            rng_state=0,
            tile_pile=tiles[count:],
            tiles=[
                (tile, q, r, 0)
                for tile, (q, r) in zip(tiles[:count], layout.tile_centres, strict=True)
            ],
            shrines=[encode(q, r) for q, r in layout.shrines],
            amphora_supply=AMPHORAE,
        )
        for seat in range(players):
            take_cards(state, seat, STARTING_HANDS[seat])
        state.rng_state = rng.state
        settle(state)
        return state

    # --- turns -----------------------------------------------------------------------

    def current_player(self, state: AttikaState) -> int:
        return state.current

    def is_over(self, state: AttikaState) -> bool:
        return state.over

    def turn_number(self, state: AttikaState) -> int:
        return state.turn

    def legal_actions(self, state: AttikaState) -> LegalActionsText:
        return legal_actions(state)

    def apply(self, state: AttikaState, action: JSON) -> None:
        apply_action(state, action)

    # --- the end ---------------------------------------------------------------------

    def result(self, state: AttikaState) -> MatchResult:
        """Scores are the buildings on the map. The winner by all 30 buildings or by two
        linked shrines ranks first; otherwise (and behind the winner) more buildings on
        the map rank higher, then fewer buildings left on the board."""
        keys = []
        details = []
        for player, seat in enumerate(state.seats):
            won = state.winner == player
            keys.append((int(won), len(seat.placed), -len(seat.board)))
            details.append(
                {
                    "buildings_on_map": len(seat.placed),
                    "buildings_on_board": len(seat.board),
                    "winner": won,
                    "win_reason": state.win_reason if won else None,
                }
            )
        return MatchResult(
            scores=[len(seat.placed) for seat in state.seats],
            ranks=competition_ranks(keys),
            details=details,
        )

    # --- what players see ------------------------------------------------------------

    def observation(self, state: AttikaState, player: int) -> dict[str, Any]:
        return observation(state, player)

    def observation_text(self, state: AttikaState, player: int) -> str:
        """`observation(state, player)` as JSON text, written from parts kept between
        turns (`engine.match.observation_for`)."""
        return observation_text(state, player)

    def state_to_json(self, state: AttikaState) -> dict[str, Any]:
        return state_to_json(state)

    def state_from_json(self, data: JSON) -> AttikaState:
        return state_from_json(data)

    def copy_state(self, state: AttikaState) -> AttikaState:
        return state.copy()

    def render_text(self, state: AttikaState) -> str:
        return render_state(state)

    def greedy_bot(self, seed: int) -> GreedyBot:
        return GreedyBot(seed)

    def legal_actions_from_json(self, data: JSON) -> LegalActions:
        """The legal actions from the compact form the bot protocol sends."""
        return LegalActions.from_json(data)

    def state_from_observation(self, observation: JSON) -> AttikaState:
        """A state for lookahead built from what a player sees; hidden cards, buildings
        and tiles are filled in a fixed way (see `observation.state_from_observation`)."""
        return state_from_observation(observation)


ATTIKA = Attika()
