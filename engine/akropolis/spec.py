"""Akropolis as Agon knows it: the game object (`Akropolis`, the rules of `rules` behind
the engine's contract, with what players see, the state's JSON, the text render and the
greedy bot) and its spec (the spectator, the board renderer, the score table)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.akropolis import rules
from engine.akropolis.actions import ExpandedActions
from engine.akropolis.fast.observation_text import observation_text
from engine.akropolis.observation import observation, state_from_observation
from engine.akropolis.scoring import CityScore
from engine.akropolis.state import AkropolisState
from engine.akropolis.state_json import state_from_json, state_to_json
from engine.core import JSON, OptionSpec
from engine.setup_checks import checked_options
from engine.spec import GameSpec, ScoreBreakdown
from engine.spectator import Spectator

if TYPE_CHECKING:
    from engine.akropolis.greedy import GreedyBot

# The greedy bot, the text render, the spectator and `agon score` are imported when first
# used: a process that only plays (a bot's box, a playout) starts without them.


class Akropolis:
    id = "akropolis"
    name = "Akropolis"
    rules_version = 1
    player_counts: tuple[int, ...] = rules.PLAYER_COUNTS
    options: tuple[OptionSpec, ...] = rules.OPTIONS

    def new_state(self, seed: int, players: int, options: Mapping[str, JSON]) -> AkropolisState:
        return rules.deal(seed, players, checked_options(self, seed, players, options))

    # The turn functions themselves, not methods calling them: a playout calls three a
    # turn, each without a method's extra call.
    current_player = staticmethod(rules.current_player)
    is_over = staticmethod(rules.is_over)
    legal_actions = staticmethod(rules.legal_actions)
    apply = staticmethod(rules.apply_action)
    apply_legal = staticmethod(rules.apply_legal)
    """`apply(state, legal[index])` without checking the action again: `legal` must be
    `legal_actions(state)` of this state as it is (for lookahead; the referee checks every
    bot's action with `apply`)."""
    scores = staticmethod(rules.scores)
    """Every seat's score now, kept up to date by `apply` (for bots that look ahead)."""
    score = staticmethod(rules.score)
    result = staticmethod(rules.result)
    copy_state = staticmethod(AkropolisState.copy)
    """A copy to look ahead on (`AkropolisState.copy`: it shares what neither changes)."""

    def turn_number(self, state: AkropolisState) -> int:
        return state.turn

    def city_score(self, state: AkropolisState, player: int) -> CityScore:
        return rules.city_score(state, player)

    # --- what players see ------------------------------------------------------------

    def observation(self, state: AkropolisState, player: int) -> dict[str, Any]:
        return observation(state, player)

    def observation_text(self, state: AkropolisState, player: int) -> str:
        """The observation as JSON text only (the same bytes), for a boxed bot, written
        by the fast writer (`fast.observation_text`)."""
        return observation_text(state, player)

    def state_to_json(self, state: AkropolisState) -> dict[str, Any]:
        return state_to_json(state)

    def state_from_json(self, data: JSON) -> AkropolisState:
        return state_from_json(data)

    def render_text(self, state: AkropolisState) -> str:
        # Drawing, the greedy bot, `agon score` and the spectator are not needed by a bot
        # at its start (which is timed): each is imported when first asked for.
        from engine.akropolis.render import render_state

        return render_state(state)

    def greedy_bot(self, seed: int) -> GreedyBot:
        # Imported when first asked for (a bot's start is timed).
        from engine.akropolis.greedy import GreedyBot

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
        # Imported when first asked for (a bot's start is timed).
        from engine.akropolis.city_json import score_json

        return score_json(data)


AKROPOLIS = Akropolis()


COLORS = ("house", "market", "barracks", "temple", "garden")


def spectator() -> Spectator:
    # Imported when first asked for (a bot's start is timed).
    from engine.akropolis.spectator import AkropolisSpectator

    return AkropolisSpectator()


def score_breakdown(details: Sequence[Mapping[str, Any]]) -> ScoreBreakdown:
    """Per seat: each district colour's value x stars = points, the stones, the total."""
    rows = []
    for detail in details:
        colors = detail.get("colors", {})
        cells = []
        for color in COLORS:
            scored = colors.get(color, {})
            value, stars = scored.get("value", 0), scored.get("stars", 0)
            cells.append(f"{value} \N{MULTIPLICATION SIGN} {stars} = {scored.get('points', 0)}")
        rows.append([*cells, str(detail.get("stones", 0)), str(detail.get("total", 0))])
    return ScoreBreakdown(
        [*(color.capitalize() for color in COLORS), "Stones", "Total"],
        rows,
        "Each district colour scores the value of its districts (their levels) times the "
        "stars of its plazas; each stone is a point.",
    )


def move_values(state: AkropolisState, legal_actions: Sequence[JSON]) -> list[int]:
    """The greedy bot's gains (`greedy.move_values`), imported when a search bot asks."""
    # Imported when first asked for: a process that only plays starts without it.
    from engine.akropolis.greedy import move_values as greedy_values

    return greedy_values(state, legal_actions)


SPEC: GameSpec[AkropolisState] = GameSpec(
    game=AKROPOLIS,
    blurb="Build a city of hex tiles, stack them for height and buy the best ones "
    "with stones; districts score by level and by the stars of their plazas.",
    spectator_factory=spectator,
    renderer="akropolis",
    protocol_doc=Path(__file__).with_name("protocol.md"),
    score_breakdown=score_breakdown,
    # The function itself, which `engine.registry.legal_actions_expander` also finds.
    legal_actions_from_json=ExpandedActions.from_json,
    state_from_observation=AKROPOLIS.state_from_observation,
    sample_state=state_from_observation,
    score_json=AKROPOLIS.score_json,
    scores=AKROPOLIS.scores,
    score=AKROPOLIS.score,
    move_values=move_values,
)
