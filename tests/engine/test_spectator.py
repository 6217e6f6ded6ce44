"""What a spectator sees (`engine.spectator`): for every game, a JSON view of the table at
each step with the same keys throughout, every action in words, the final scores the
result gives, and hidden things (hands, face-down tiles) only when revealed."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.akropolis.components import COLORS, TILES
from engine.akropolis.scoring import VARIANTS, score_surface
from engine.core import JSON
from engine.match import play_match
from engine.registry import game_ids, get_game, get_spec
from engine.replay import Replay, replay_states
from engine.spectator import Explained, TextSpectator

TABLES = [(game_id, min(4, max(get_game(game_id).player_counts))) for game_id in game_ids()]
"""Every game, at its largest table up to 4 players."""


def greedy_replay(game_id: str, players: int, seed: int = 11) -> Replay:
    game = get_game(game_id)
    return play_match(
        game,
        seed=seed,
        players=players,
        options={},
        bots=[game.greedy_bot(seat) for seat in range(players)],
        bot_ids=[f"greedy-{seat}" for seat in range(players)],
    )


def walk(replay: Replay, *, reveal: bool) -> list[tuple[dict[str, JSON], Explained | None]]:
    """Each step's view, and the action that led to it explained (None for setup)."""
    game = get_game(replay.game)
    spectator = get_spec(game.id).spectator()
    steps: list[tuple[dict[str, JSON], Explained | None]] = []
    explained: Explained | None = None
    states = replay_states(replay)
    for index, state in enumerate(states):
        steps.append((spectator.view(state, reveal=reveal), explained))
        if index < len(replay.actions):
            action = replay.actions[index]
            explained = spectator.explain(state, game.current_player(state), action)
    return steps


def keys_of(value: Any) -> Any:
    """The shape of a view's top level: its keys and, for dicts in it, theirs."""
    return {key: sorted(v) if isinstance(v, dict) else None for key, v in value.items()}


@pytest.mark.parametrize(("game_id", "players"), TABLES)
def test_every_step_has_a_json_view_with_the_same_keys(game_id: str, players: int) -> None:
    steps = walk(greedy_replay(game_id, players), reveal=False)
    shape = keys_of(steps[0][0])
    for view, _ in steps:
        assert json.loads(json.dumps(view)) == view
        assert keys_of(view) == shape


@pytest.mark.parametrize(("game_id", "players"), TABLES)
def test_every_action_is_explained_in_words(game_id: str, players: int) -> None:
    for _, explained in walk(greedy_replay(game_id, players), reveal=False)[1:]:
        assert explained is not None
        assert explained.text and not explained.text.startswith("{")
        json.dumps(explained.mark)


@pytest.mark.parametrize(("game_id", "players"), TABLES)
def test_the_last_view_shows_the_final_scores(game_id: str, players: int) -> None:
    replay = greedy_replay(game_id, players)
    last, _ = walk(replay, reveal=True)[-1]
    assert last["scores"] == replay.result["scores"]
    assert last["over"] is True
    assert last["current"] is None


def test_akropolis_views_show_each_city_as_the_observation_does() -> None:
    replay = greedy_replay("akropolis", 4)
    game = get_game("akropolis")
    spectator = get_spec(game.id).spectator()
    for state in replay_states(replay):
        view = spectator.view(state, reveal=False)
        seen = game.observation(state, 0)
        for city, observed in zip(view["cities"], seen["cities"], strict=True):
            assert [(q, r, level) for q, r, level, _, _ in city["hexes"]] == [
                (h["q"], h["r"], h["level"]) for h in observed["hexes"]
            ]
        assert [tile for tile, _ in view["site"]] == [entry["tile"] for entry in seen["site"]]
        assert view["stones"] == seen["stones"]


@pytest.mark.parametrize("variants", [(), VARIANTS])
@pytest.mark.parametrize("players", [2, 4])
def test_akropolis_views_score_every_step_as_the_plain_rules_do(
    players: int, variants: tuple[str, ...]
) -> None:
    """The view reads each city's running score (kept up to date by the engine as the
    replay plays); at every step it says what `scoring.score_surface` says."""
    game = get_game("akropolis")
    replay = play_match(
        game,
        seed=23 + players,
        players=players,
        options=dict.fromkeys(variants, True),
        bots=[game.greedy_bot(seat) for seat in range(players)],
        bot_ids=[f"greedy-{seat}" for seat in range(players)],
    )
    spectator = get_spec("akropolis").spectator()
    for state in replay_states(replay):
        view = spectator.view(state, reveal=True)
        plain = [
            score_surface(city.top, stones, state.variants)
            for city, stones in zip(state.cities, state.stones, strict=True)
        ]
        assert view["scores"] == [score.total for score in plain]
        assert view["breakdown"] == [
            {colour: [score.colors[colour].value, score.colors[colour].stars] for colour in COLORS}
            for score in plain
        ]


def test_akropolis_marks_the_three_cells_of_the_tile_just_placed() -> None:
    replay = greedy_replay("akropolis", 2)
    steps = walk(replay, reveal=False)
    for (view, explained), action in zip(steps[1:], replay.actions, strict=True):
        assert explained is not None
        mark = explained.mark
        assert mark["tile"] in TILES
        assert mark["cells"][0] == [action["q"], action["r"]]
        city = {(q, r): tile for q, r, _, _, tile in view["cities"][mark["seat"]]["hexes"]}
        assert all(city[(q, r)] == mark["tile"] for q, r in mark["cells"])


def test_akropolis_explains_the_tile_its_price_and_where_it_went() -> None:
    game = get_game("akropolis")
    spectator = get_spec(game.id).spectator()
    state = game.new_state(5, 2, {})
    action = next(a for a in game.legal_actions(state) if a["tile"] == 1)
    text = spectator.explain(state, 0, action).text
    assert text.startswith(f"took tile {state.site[1]} (")
    assert f"for 1 stone and placed it at ({action['q']}, {action['r']}) on level 1" in text


def test_akropolis_tells_of_the_quarries_a_tile_covers() -> None:
    replay = greedy_replay("akropolis", 4)
    texts = [explained.text for _, explained in walk(replay, reveal=False)[1:] if explained]
    covering = [text for text in texts if "covering" in text]
    assert covering, "greedy bots cover quarries for stones"
    assert all("on level 1" not in text for text in covering)


@pytest.mark.parametrize(("game_id", "players"), [("attika", 3), ("megalopolis", 4)])
def test_hands_show_only_when_revealed(game_id: str, players: int) -> None:
    replay = greedy_replay(game_id, players)
    hidden = walk(replay, reveal=False)
    shown = walk(replay, reveal=True)
    if game_id == "attika":
        assert all(seat["hand"] is None for view, _ in hidden for seat in view["seats"])
        assert all(seat["hand"] is not None for view, _ in shown for seat in view["seats"])
    else:
        assert all(view["hands"] is None for view, _ in hidden)
        assert all(isinstance(view["hands"], list) for view, _ in shown)


def test_megalopolis_face_down_tiles_keep_their_kind_hidden_until_revealed() -> None:
    view, _ = walk(greedy_replay("megalopolis", 3), reveal=False)[0]
    face_down = [tile for tile in view["tiles"] if not tile[4]]
    assert face_down and all(tile[3] is None for tile in face_down)
    revealed, _ = walk(greedy_replay("megalopolis", 3), reveal=True)[0]
    assert all(tile[3] is not None for tile in revealed["tiles"])


def test_every_registered_game_has_a_spectator_of_its_own() -> None:
    for game_id in game_ids():
        assert not isinstance(get_spec(game_id).spectator(), TextSpectator)


def test_the_text_spectator_shows_the_text_render_and_the_action_as_json() -> None:
    game = get_game("akropolis")
    spectator = TextSpectator(game)
    state = game.new_state(1, 2, {})
    assert spectator.view(state, reveal=False) == {"text": game.render_text(state)}
    assert spectator.explain(state, 0, {"tile": 0}).text == '{"tile": 0}'
