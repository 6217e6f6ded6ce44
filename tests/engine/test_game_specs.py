"""Each game's spec (engine.spec.GameSpec) keeps its promises: the registry finds it by
its id, its protocol section is there, and a game that sends compact legal actions can
have them expanded again, to the same actions, from the JSON a bot receives."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.registry import game_ids, get_spec
from engine.rng import SplitMix64
from engine.spec import CompactLegalActions

TURNS = 12


@pytest.mark.parametrize("game_id", game_ids())
def test_the_spec_is_found_by_its_games_id(game_id: str) -> None:
    spec = get_spec(game_id)
    assert spec.id == spec.game.id == game_id
    assert spec.blurb and spec.name == spec.game.name


@pytest.mark.parametrize("game_id", game_ids())
def test_its_protocol_section_is_titled_with_its_name(game_id: str) -> None:
    spec = get_spec(game_id)
    assert spec.protocol_doc is not None
    assert spec.protocol_doc.read_text(encoding="utf-8").startswith(f"## {spec.name}\n")


@pytest.mark.parametrize("game_id", game_ids())
def test_compact_legal_actions_expand_to_the_same_actions(game_id: str) -> None:
    spec = get_spec(game_id)
    game = spec.game
    players = min(game.player_counts)
    rng = SplitMix64(7)
    state = game.new_state(7, players, {})
    compact = 0
    for _ in range(TURNS):
        legal = game.legal_actions(state)
        if isinstance(legal, CompactLegalActions):
            compact += 1
            assert spec.legal_actions_from_json is not None, "compact form without expansion"
            sent: Any = json.loads(json.dumps(legal.compact()))
            assert list(spec.legal_actions_from_json(sent)) == list(legal)
        game.apply(state, legal[rng.below(len(legal))])
        if game.is_over(state):
            break
    assert (compact > 0) == (spec.legal_actions_from_json is not None)


@pytest.mark.parametrize(
    "game_id", [game_id for game_id in game_ids() if get_spec(game_id).state_from_observation]
)
def test_a_state_from_the_movers_observation_offers_the_same_moves(game_id: str) -> None:
    spec = get_spec(game_id)
    assert spec.state_from_observation is not None
    game = spec.game
    rng = SplitMix64(11)
    state = game.new_state(11, min(game.player_counts), {})
    for _ in range(TURNS):
        seat = game.current_player(state)
        seen: Any = json.loads(json.dumps(game.observation(state, seat)))
        rebuilt = spec.state_from_observation(seen)
        assert list(game.legal_actions(rebuilt)) == list(game.legal_actions(state))
        legal = game.legal_actions(state)
        game.apply(state, legal[rng.below(len(legal))])
        if game.is_over(state):
            break
