"""The contract of `engine.core.Game`, checked for every registered game (hypothesis).

Each property plays random games chosen by seed, player count and options, and checks a
promise every game makes to the referee, the bots and the web. What only a game's own
tests know (what it hides, how it ranks) comes from tests/engine/contract_hooks.py;
properties of one game's rules stay in its folder. The examples are derandomized with no
example database, so every run plays the same games.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.bots import builtin_bot
from engine.core import JSON, Game, IllegalAction, competition_ranks
from engine.match import play_match
from engine.registry import game_ids, get_game, get_spec
from engine.replay import Replay, ReplayError, verify_replay
from engine.rng import SplitMix64, derive_seed
from tests.engine.contract_hooks import hooks_for
from tests.engine.support import property_settings, tampered_replay

MAX_DECISIONS = 5000
"""More decisions than any game takes (random Attika games for four take the most, a
few hundred)."""
GARBAGE: tuple[JSON, ...] = (None, 0, -1, True, "pass", [], [[]], {}, {"not": "an action"})
"""Things a hostile bot may send that no game takes as an action."""

games = pytest.mark.parametrize("game_id", game_ids())


@dataclass(frozen=True)
class Setup:
    seed: int
    players: int
    options: dict[str, JSON]


@st.composite
def setups(draw: st.DrawFn, game_id: str) -> Setup:
    """Any seed, any player count the game takes, any options allowed for that count."""
    game = get_game(game_id)
    seed = draw(st.integers(min_value=0, max_value=2**64 - 1))
    players = draw(st.sampled_from(game.player_counts))
    options: dict[str, JSON] = {
        spec.name: draw(st.booleans())
        for spec in game.options
        if not spec.player_counts or players in spec.player_counts
    }
    return Setup(seed, players, options)


def playout(game: Game[Any], setup: Setup) -> Iterator[tuple[Any, JSON | None]]:
    """A game of uniformly random legal actions, yielding the live state and the action
    about to be applied; the last pair has the finished state and None. Callers may
    look but must not change the state."""
    state = game.new_state(setup.seed, setup.players, setup.options)
    rng = SplitMix64(derive_seed(setup.seed, "contract"))
    for _ in range(MAX_DECISIONS):
        if game.is_over(state):
            yield state, None
            return
        legal = game.legal_actions(state)
        action = legal[rng.below(len(legal))]
        yield state, action
        game.apply(state, action)
    raise AssertionError(f"{game.id} {setup}: not over after {MAX_DECISIONS} decisions")


def sampled(game: Game[Any], setup: Setup, every: int) -> Iterator[tuple[Any, JSON]]:
    """Every `every`-th position of a playout where an action is to be taken."""
    for index, (state, action) in enumerate(playout(game, setup)):
        if action is not None and index % every == 0:
            yield state, action


def canonical(game: Game[Any], state: Any) -> str:
    return json.dumps(game.state_to_json(state), sort_keys=True)


def as_json(value: JSON) -> JSON:
    return json.loads(json.dumps(value))


def near_misses(value: JSON) -> Iterator[JSON]:
    """Copies of an action with one thing changed: a number moved, a flag flipped, a
    string or type changed, a key dropped or added, a list grown or cut."""
    if isinstance(value, bool):
        yield not value
        yield None
    elif isinstance(value, int):
        yield from (value + 1, value - 1, value + 97, str(value), None)
    elif isinstance(value, str):
        yield from (value + "x", "", 0)
    elif isinstance(value, dict):
        for key in sorted(value):
            for changed in near_misses(value[key]):
                yield {**value, key: changed}
            yield {k: v for k, v in value.items() if k != key}
        yield {**value, "bogus": 1}
    elif isinstance(value, list):
        for index, item in enumerate(value):
            for changed in near_misses(item):
                yield [*value[:index], changed, *value[index + 1 :]]
        yield [*value, 0]
        yield value[:-1]


def shapes(value: JSON, path: str, found: dict[str, set[frozenset[str]]]) -> None:
    """The keys of every dict in a view, by where it sits (list items share a place)."""
    if isinstance(value, dict):
        found.setdefault(path, set()).add(frozenset(value))
        for key, item in value.items():
            shapes(item, f"{path}.{key}", found)
    elif isinstance(value, list):
        for item in value:
            shapes(item, f"{path}[]", found)


# --- playing ----------------------------------------------------------------------------


@games
@property_settings(20)
@given(data=st.data())
def test_there_are_legal_actions_until_the_game_is_over_and_none_after(
    game_id: str, data: st.DataObject
) -> None:
    game = get_game(game_id)
    setup = data.draw(setups(game_id))
    last: JSON = None
    for state, action in playout(game, setup):
        if action is None:
            finished = canonical(game, state)
            with pytest.raises(IllegalAction):
                game.apply(state, last)
            assert canonical(game, state) == finished
            break
        legal = list(game.legal_actions(state))
        assert len(legal) > 0
        assert as_json(legal) == legal
        assert 0 <= game.current_player(state) < setup.players
        last = action


@games
@property_settings(20)
@given(data=st.data())
def test_turn_numbers_grow_with_every_action(game_id: str, data: st.DataObject) -> None:
    game = get_game(game_id)
    turns = [game.turn_number(state) for state, _ in playout(game, data.draw(setups(game_id)))]
    assert turns[0] == 0
    assert all(later > earlier for earlier, later in itertools.pairwise(turns))


@games
@property_settings(10)
@given(data=st.data())
def test_any_legal_action_applies_and_leaves_a_sound_state(
    game_id: str, data: st.DataObject
) -> None:
    game = get_game(game_id)
    setup = data.draw(setups(game_id))
    rng = SplitMix64(setup.seed ^ 0xA11)
    for state, _ in sampled(game, setup, every=7):
        legal = game.legal_actions(state)
        turn = game.turn_number(state)
        for pick in sorted({rng.below(len(legal)) for _ in range(8)}):
            after = game.copy_state(state)
            game.apply(after, legal[pick])
            assert game.turn_number(after) > turn
            assert len(game.result(after).scores) == setup.players
            if not game.is_over(after):
                assert 0 <= game.current_player(after) < setup.players
                assert len(game.legal_actions(after)) > 0
            twin = game.state_from_json(as_json(game.state_to_json(after)))
            assert canonical(game, twin) == canonical(game, after)


@games
@property_settings(10)
@given(data=st.data())
def test_an_illegal_action_raises_and_changes_nothing(game_id: str, data: st.DataObject) -> None:
    game = get_game(game_id)
    setup = data.draw(setups(game_id))
    for state, action in sampled(game, setup, every=5):
        legal = list(game.legal_actions(state))
        before = canonical(game, state)
        for bad in [*near_misses(action), *GARBAGE]:
            if bad in legal:
                continue
            with pytest.raises(IllegalAction):
                game.apply(state, bad)
            assert canonical(game, state) == before, f"{bad} changed the state"
        assert list(game.legal_actions(state)) == legal


# --- state --------------------------------------------------------------------------------


@games
@property_settings(10)
@given(data=st.data())
def test_the_state_json_round_trips_at_every_step(game_id: str, data: st.DataObject) -> None:
    game = get_game(game_id)
    for state, _ in playout(game, data.draw(setups(game_id))):
        saved = as_json(game.state_to_json(state))
        assert saved == game.state_to_json(state)
        twin = game.state_from_json(saved)
        assert game.state_to_json(twin) == saved
        assert game.is_over(twin) == game.is_over(state)
        if not game.is_over(state):
            assert list(game.legal_actions(twin)) == list(game.legal_actions(state))


@games
@property_settings(15)
@given(data=st.data())
def test_a_copy_and_its_original_never_share_a_change(game_id: str, data: st.DataObject) -> None:
    game = get_game(game_id)
    for state, action in sampled(game, data.draw(setups(game_id)), every=3):
        before = canonical(game, state)
        original = game.copy_state(state)
        copy = game.copy_state(original)
        assert canonical(game, copy) == before
        game.apply(copy, action)
        assert canonical(game, original) == before, "playing on a copy changed its original"
        after = canonical(game, copy)
        game.apply(original, action)
        assert canonical(game, copy) == after, "playing on the original changed its copy"
        assert canonical(game, original) == after
        assert canonical(game, state) == before


# --- what players see ---------------------------------------------------------------------


@games
@property_settings(10)
@given(data=st.data())
def test_an_observation_shows_nothing_hidden_from_its_viewer(
    game_id: str, data: st.DataObject
) -> None:
    game = get_game(game_id)
    redeal = hooks_for(game_id).redeal_hidden
    setup = data.draw(setups(game_id))
    rng = SplitMix64(setup.seed ^ 0x5EE)
    for state, _ in sampled(game, setup, every=3):
        for viewer in range(setup.players):
            seen = game.observation(state, viewer)
            assert as_json(seen) == seen
            other = redeal(state, viewer, rng)
            assert canonical(game, other) != canonical(game, state), "nothing was redealt"
            assert game.observation(other, viewer) == seen
            if viewer == game.current_player(state):
                # What the mover may do depends only on what they see.
                assert list(game.legal_actions(other)) == list(game.legal_actions(state))


def encoded(observation: JSON) -> str:
    """The one canonical JSON text of an observation: compact, ASCII, no NaN."""
    return json.dumps(as_json(observation), separators=(",", ":"), allow_nan=False)


@games
@property_settings(6)
@given(data=st.data())
def test_the_observation_text_is_the_observation_encoded(game_id: str, data: st.DataObject) -> None:
    """`observation_text`, what the referee sends a boxed bot, is the canonical text of
    `observation` for every seat at every step: asked before or after the observation,
    on the state, on a copy played on (which may share what the state keeps) and on the
    state rebuilt from its JSON (which keeps nothing)."""
    game = get_game(game_id)
    setup = data.draw(setups(game_id))
    rng = SplitMix64(setup.seed ^ 0x7E47)
    for index, (state, _) in enumerate(playout(game, setup)):
        shown_states = [state]
        if index % 3 == 0:
            twin = game.copy_state(state)
            if not game.is_over(twin):
                legal = game.legal_actions(twin)
                game.apply(twin, legal[rng.below(len(legal))])
            shown_states += [twin, game.state_from_json(game.state_to_json(state))]
        for seat in range(setup.players):
            for shown in shown_states:
                if rng.below(2):
                    text = game.observation_text(shown, seat)
                    assert text == encoded(game.observation(shown, seat))
                else:
                    plain = encoded(game.observation(shown, seat))
                    assert game.observation_text(shown, seat) == plain


@pytest.mark.parametrize(
    "game_id", [g for g in game_ids() if get_spec(g).state_from_observation is not None]
)
@property_settings(15)
@given(data=st.data())
def test_a_state_rebuilt_from_the_movers_observation_offers_the_same_actions(
    game_id: str, data: st.DataObject
) -> None:
    spec = get_spec(game_id)
    game, rebuild = spec.game, spec.state_from_observation
    assert rebuild is not None
    for state, _ in sampled(game, data.draw(setups(game_id)), every=3):
        player = game.current_player(state)
        seen = as_json(game.observation(state, player))
        guess = rebuild(seen)
        assert list(game.legal_actions(guess)) == list(game.legal_actions(state))
        assert game.observation(guess, player) == seen


@games
@property_settings(10)
@given(data=st.data())
def test_the_text_render_works_at_every_step(game_id: str, data: st.DataObject) -> None:
    game = get_game(game_id)
    for state, _ in playout(game, data.draw(setups(game_id))):
        text = game.render_text(state)
        assert isinstance(text, str) and text.strip()


@games
@property_settings(10)
@given(data=st.data())
def test_spectator_views_keep_their_keys_from_step_to_step(
    game_id: str, data: st.DataObject
) -> None:
    game = get_game(game_id)
    spectator = get_spec(game.id).spectator()
    setup = data.draw(setups(game_id))
    for reveal in (False, True):
        found: dict[str, set[frozenset[str]]] = {}
        for state, _ in playout(game, setup):
            view = spectator.view(state, reveal=reveal)
            assert as_json(view) == view
            shapes(view, "view", found)
        mixed = {path: sorted(map(sorted, keys)) for path, keys in found.items() if len(keys) > 1}
        assert not mixed, f"dicts at one place with different keys: {mixed}"


# --- replays and results ---------------------------------------------------------------


def bot_replay(game_id: str, setup: Setup, bot: str) -> Replay:
    bots = [builtin_bot(bot, game_id, setup.seed, seat) for seat in range(setup.players)]
    return play_match(
        get_game(game_id),
        seed=setup.seed,
        players=setup.players,
        options=setup.options,
        bots=bots,
        bot_ids=[bot] * setup.players,
    )


@games
@property_settings(10)
@given(data=st.data(), bot=st.sampled_from(["random", "greedy"]))
def test_the_same_seed_plays_the_same_game(game_id: str, data: st.DataObject, bot: str) -> None:
    game = get_game(game_id)
    setup = data.draw(setups(game_id))
    first = [(canonical(game, s), a) for s, a in playout(game, setup)]
    assert [(canonical(game, s), a) for s, a in playout(game, setup)] == first
    replay = bot_replay(game_id, setup, bot)
    assert bot_replay(game_id, setup, bot).dumps() == replay.dumps()
    verify_replay(replay)
    assert Replay.from_json(json.loads(replay.dumps())) == replay


@games
@property_settings(10)
@given(data=st.data(), how=st.sampled_from(["illegal action", "score", "truncated"]))
def test_a_tampered_replay_fails_verification(game_id: str, data: st.DataObject, how: str) -> None:
    replay = bot_replay(game_id, data.draw(setups(game_id)), "random")
    with pytest.raises(ReplayError):
        verify_replay(tampered_replay(replay, how, {"not": "an action"}))


@games
@property_settings(20)
@given(data=st.data())
def test_the_ranks_follow_from_the_scores_and_details(game_id: str, data: st.DataObject) -> None:
    game = get_game(game_id)
    setup = data.draw(setups(game_id))
    finished, _ = list(playout(game, setup))[-1]
    result = game.result(finished)
    assert len(result.scores) == len(result.ranks) == len(result.details) == setup.players
    assert as_json(result.to_json()) == result.to_json()
    assert result.ranks == competition_ranks(hooks_for(game_id).rank_keys(result))
