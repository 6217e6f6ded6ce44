"""Megalopolis as an Agon game: setup, whose move, the end and the result.

The rules are those of docs/rules/megalopolis.md (seed game 004); decisions the rules
leave open are documented there and in docs/rules/megalopolis-decisions.md. Read them in
the rules page's order:
- `components`: the 21 kinds of tiles, their counts, bonus points, borders and texts;
- this module: setup (`new_state`), whose move, the result;
- `turns`: a turn (the main action, resolving the texts it sets off, refilling the hand),
  the legal actions, the end of the game;
- `powers`: the 21 tiles' texts, one function each, and the Power Station's protection;
- `table`: which tiles touch, where a tile may go, and the primitive moves;
- `scoring`: controlled groups, bonus points, the silver majority.
What the state holds is in `state`. The speed lives apart, in `fast` (each fast path
names the plain function it agrees with).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import JSON, MatchResult, OptionSpec, competition_ranks
from engine.megalopolis.actions import LegalActions
from engine.megalopolis.components import ALL_TILES, HAND_SIZE, TOKENS_PER_PLAYER
from engine.megalopolis.fast.message_text import LegalActionsText, observation_text
from engine.megalopolis.greedy import GreedyBot
from engine.megalopolis.observation import observation, state_from_observation
from engine.megalopolis.render import render_state
from engine.megalopolis.scoring import score_state
from engine.megalopolis.state import MegalopolisState, Tile
from engine.megalopolis.state_json import state_from_json, state_to_json
from engine.megalopolis.turns import apply_action, legal_actions
from engine.rng import SplitMix64
from engine.setup_checks import checked_options
from engine.squaregrid import encode

CROSS = (encode(0, 0), encode(0, 1), encode(1, 0), encode(0, -1), encode(-1, 0))
"""The five face-down tiles of the setup, in a cross in the middle of the table."""


class Megalopolis:
    id = "megalopolis"
    name = "Megalopolis"
    rules_version = 2
    """2: the last round counts from the player who placed the last token (a Police HQ
    can place it on another player's turn); about 7% of version 1's replays differ."""
    player_counts: tuple[int, ...] = (2, 3, 4, 5, 6)
    options: tuple[OptionSpec, ...] = ()

    # --- setup -----------------------------------------------------------------------

    def new_state(self, seed: int, players: int, options: Mapping[str, JSON]) -> MegalopolisState:
        normalized = checked_options(self, seed, players, options)
        rng = SplitMix64(seed)
        tiles = list(ALL_TILES)
        rng.shuffle(tiles)
        first_player = rng.below(players)
        hands = [sorted(tiles[p * HAND_SIZE : (p + 1) * HAND_SIZE]) for p in range(players)]
        del tiles[: players * HAND_SIZE]
        board = {
            code: Tile(tiles[serial], serial, False, [0] * players)
            for serial, code in enumerate(CROSS)
        }
        del tiles[: len(CROSS)]
        return MegalopolisState(
            seed=seed,
            players=players,
            options=normalized,
            board=board,
            deck=tiles,
            hands=hands,
            supply=[TOKENS_PER_PLAYER] * players,
            first_player=first_player,
            turn_player=first_player,
            next_serial=len(CROSS),
        )

    # --- whose move ------------------------------------------------------------------

    def current_player(self, state: MegalopolisState) -> int:
        """Every decision, the texts' choices included, belongs to the turn's player."""
        return state.turn_player

    def is_over(self, state: MegalopolisState) -> bool:
        return state.over

    def turn_number(self, state: MegalopolisState) -> int:
        return state.turn

    # --- legal actions ---------------------------------------------------------------

    def legal_actions(self, state: MegalopolisState) -> LegalActionsText:
        return legal_actions(state)

    def apply(self, state: MegalopolisState, action: JSON) -> None:
        apply_action(state, action)

    # --- the end ---------------------------------------------------------------------

    def result(self, state: MegalopolisState) -> MatchResult:
        scores = score_state(state)
        keys = [(s.total, s.largest_group) for s in scores]
        return MatchResult(
            scores=[s.total for s in scores],
            ranks=competition_ranks(keys),
            details=[{**s.to_json(), "end": state.end_reason} for s in scores],
        )

    # --- what players see ------------------------------------------------------------

    def observation(self, state: MegalopolisState, player: int) -> dict[str, Any]:
        return observation(state, player)

    def observation_text(self, state: MegalopolisState, player: int) -> str:
        """`observation(state, player)` as JSON text, written from parts kept between
        turns (`engine.match.observation_for`)."""
        return observation_text(state, player)

    def state_to_json(self, state: MegalopolisState) -> dict[str, Any]:
        return state_to_json(state)

    def state_from_json(self, data: JSON) -> MegalopolisState:
        return state_from_json(data)

    def copy_state(self, state: MegalopolisState) -> MegalopolisState:
        return state.copy()

    def render_text(self, state: MegalopolisState) -> str:
        return render_state(state)

    def greedy_bot(self, seed: int) -> GreedyBot:
        return GreedyBot(seed)

    def legal_actions_from_json(self, data: JSON) -> LegalActions:
        """The legal actions from the compact form the bot protocol sends."""
        return LegalActions.from_json(data)

    def state_from_observation(self, observation: JSON) -> MegalopolisState:
        """A state for lookahead built from what a player sees: the tiles they cannot see
        (deck, other hands, face-down tiles) are dealt from a fixed shuffle; a guess."""
        return state_from_observation(observation)


MEGALOPOLIS = Megalopolis()
