"""The rules pages (`docs/rules/<game>.md`) checked against the engine, so that they
cannot drift from it: each worked example is rebuilt and scored by the engine and must
give the page's numbers; every JSON block marked `action` is accepted by the game's
action parser; every block marked `observation` has exactly the fields of the engine's
observations, at every level (a `"..."` in a list stands for elements left out)."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.akropolis.actions import parse_action as akropolis_action
from engine.akropolis.city_json import score_city_json
from engine.architekton.actions import parse_action as architekton_action
from engine.architekton.board import mismatches
from engine.attika.actions import parse_action as attika_action
from engine.attika.components import BUILDING_INDEX
from engine.attika.costs import discounted, payments
from engine.megalopolis.actions import parse_action as megalopolis_action
from engine.registry import game_ids, get_game
from engine.rng import SplitMix64
from engine.squaregrid import encode

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"
PARSERS: dict[str, Callable[[object], object]] = {
    "akropolis": akropolis_action,
    "architekton": architekton_action,
    "attika": attika_action,
    "megalopolis": megalopolis_action,
}
SECTIONS = (
    "## Components",
    "## Setup",
    "## A turn",
    "## The end of the game",
    "## What each player can see",
    "## Coordinates",
    "## Actions",
    "## Observations",
    "## Where the printed rules are silent",
    "### Worked example",
)
ELIDED = "..."
Shapes = dict[str, set[frozenset[str]]]


def page(game_id: str) -> str:
    return (RULES / f"{game_id}.md").read_text(encoding="utf-8")


def blocks(text: str, tag: str) -> list[Any]:
    """The JSON of the fenced blocks whose info string is `json <tag>`."""
    found = re.findall(rf"^```json {tag}\n(.*?)^```$", text, flags=re.MULTILINE | re.DOTALL)
    return [json.loads(body) for body in found]


def table(text: str, headers: str) -> list[list[str]]:
    """The body rows of the Markdown table whose header row starts with `headers`."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {headers} |"))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def shapes_of(value: Any, path: str, shapes: Shapes) -> None:
    """Record the key set of every object in `value` by its path (list items as [])."""
    if isinstance(value, dict):
        shapes[path].add(frozenset(value))
        for key, item in value.items():
            shapes_of(item, f"{path}.{key}", shapes)
    elif isinstance(value, list):
        for item in value:
            shapes_of(item, f"{path}[]", shapes)


def mismatched_shapes(example: Any, path: str, shapes: Shapes) -> list[str]:
    if isinstance(example, dict):
        problems = []
        if frozenset(example) not in shapes.get(path, set()):
            seen = [sorted(keys) for keys in shapes.get(path, set())]
            problems.append(f"{path or 'the observation'} has {sorted(example)}; seen: {seen}")
        for key, item in example.items():
            problems += mismatched_shapes(item, f"{path}.{key}", shapes)
        return problems
    if isinstance(example, list):
        return [
            problem
            for item in example
            if item != ELIDED
            for problem in mismatched_shapes(item, f"{path}[]", shapes)
        ]
    return []


def observed_shapes(game_id: str, players: int, seeds: range) -> Shapes:
    """The shapes of every observation of every seat in random games of these seeds."""
    game = get_game(game_id)
    shapes: Shapes = defaultdict(set)
    for seed in seeds:
        state = game.new_state(seed, players, {})
        choose = SplitMix64(seed)
        while not game.is_over(state):
            for seat in range(players):
                shapes_of(game.observation(state, seat), "", shapes)
            legal = game.legal_actions(state)
            game.apply(state, legal[choose.below(len(legal))])
    return shapes


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_has_a_complete_rules_page(game_id: str) -> None:
    text = page(game_id)
    missing = [section for section in SECTIONS if f"\n{section}\n" not in text]
    assert not missing, f"{game_id}.md lacks {missing}"
    assert f"({game_id}-decisions.md)" in text


@pytest.mark.parametrize("game_id", game_ids())
def test_the_actions_on_the_page_are_accepted_by_the_engine(game_id: str) -> None:
    actions = blocks(page(game_id), "action")
    assert actions
    for action in actions:
        PARSERS[game_id](action)


@pytest.mark.parametrize(
    ("game_id", "players", "seeds"),
    [
        ("akropolis", 2, range(1)),
        ("architekton", 2, range(12)),
        ("attika", 3, range(2)),
        ("megalopolis", 3, range(4)),
    ],
)
def test_the_observation_on_the_page_has_the_engine_fields(
    game_id: str, players: int, seeds: range
) -> None:
    (example,) = blocks(page(game_id), "observation")
    assert example["game"] == game_id
    shapes = observed_shapes(game_id, players, seeds)
    assert mismatched_shapes(example, "", shapes) == []


def test_the_shape_check_catches_a_field_the_engine_does_not_have() -> None:
    shapes: Shapes = defaultdict(set)
    shapes_of({"a": [{"b": 1}, {"b": 1, "c": 2}]}, "", shapes)
    assert mismatched_shapes({"a": [{"b": 0, "c": 0}, ELIDED]}, "", shapes) == []
    assert mismatched_shapes({"a": [{"d": 0}]}, "", shapes) != []
    assert mismatched_shapes({"a": [], "e": 1}, "", shapes) != []


def test_the_akropolis_worked_example_scores_as_the_page_says() -> None:
    text = page("akropolis")
    (city,) = blocks(text, "city")
    score: dict[str, Any] = score_city_json(city).to_json()
    rows = table(text, "colour | value")
    assert [row[0] for row in rows] == list(score["colors"])
    for name, value, stars, points in rows:
        assert score["colors"][name] == {
            "value": int(value),
            "stars": int(stars),
            "points": int(points),
        }
    total = re.search(r"\*\*Total: (\d+) points\*\* \(\d+ for districts, (\d+) for stones\)", text)
    assert total is not None
    assert (score["total"], score["stones"]) == (int(total[1]), int(total[2]))
    with_markets = re.search(r"`markets` variant.*?makes \*\*(\d+) points\*\*", text, re.DOTALL)
    assert with_markets is not None
    assert score_city_json({**city, "variants": ["markets"]}).total == int(with_markets[1])


def test_the_architekton_worked_example_scores_as_the_page_says() -> None:
    text = page("architekton")
    (board,) = blocks(text, "board")
    game = get_game("architekton")
    data = game.state_to_json(game.new_state(1, 2, {}))
    state = game.state_from_json({**data, "board": board, "points": [1, 1], "stage": "over"})
    assert game.state_to_json(state)["board"] == board  # the page's edges are the engine's
    assert mismatches(state, encode(2, 1)) == 0
    assert mismatches(state, encode(1, 2)) == 1
    result = game.result(state)
    rows = table(text, "seat")
    assert len(rows) == 2
    for seat, (_, points, chain, kept, score, rank) in enumerate(rows):
        assert result.details[seat] == {
            "points": int(points),
            "largest_group": int(chain),
            "houses_kept": int(kept),
            "lost_early": False,
        }
        assert (result.scores[seat], result.ranks[seat]) == (int(score), int(rank))


def test_the_megalopolis_worked_example_scores_as_the_page_says() -> None:
    text = page("megalopolis")
    (board,) = blocks(text, "board")
    game = get_game("megalopolis")
    data = game.state_to_json(game.new_state(1, 2, {}))
    state = game.state_from_json({**data, "board": board, "next_serial": len(board)})
    result = game.result(state)
    rows = table(text, "seat")
    assert len(rows) == 2
    for seat, (_, groups, bonus, silver, total, largest, rank) in enumerate(rows):
        details = result.details[seat]
        assert (details["groups"], details["bonus"], details["silver"]) == (
            int(groups),
            int(bonus),
            int(silver),
        )
        assert (details["total"], details["largest_group"]) == (int(total), int(largest))
        assert (result.scores[seat], result.ranks[seat]) == (int(total), int(rank))


def test_the_attika_worked_example_costs_what_the_page_says() -> None:
    text = page("attika")
    # The hex and its free neighbours: mountain 2, hill 0, forest 1, water 2 (5 symbols);
    # one colony already, so founding another costs one card more.
    discount = (2, 0, 1, 2, 5)
    cost = discounted(BUILDING_INDEX["fortress"], discount, 1)
    assert cost == ((1, 1, 0, 0), 1)
    assert "**1 mountain and 1 hill**, plus **1 card of any landscape**" in text
    hand = (0, 1, 2, 2)
    found = payments(hand, cost)
    rows = table(text, "mountain")
    assert [tuple(int(cell) for cell in row) for row in rows] == found
    assert f"exactly **{len(found)} ways to pay**, each of\n**{sum(found[0])} cards**" in text
    assert {sum(payment) for payment in found} == {4}
    assert discounted(BUILDING_INDEX["road_1"], discount, 0) == ((0, 0, 0, 0), 0)
    assert "cost **0 cards** before the colony surcharge" in text
