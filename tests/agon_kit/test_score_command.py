from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.agon_kit.support import Outcome

WORKED_EXAMPLE: dict[str, Any] = {
    "stones": 2,
    "hexes": [
        {"q": 0, "r": -1, "level": 1, "kind": "plaza", "color": "house", "stars": 1},
        {"q": 1, "r": -1, "level": 1, "kind": "plaza", "color": "house", "stars": 2},
        *({"q": q, "r": 0, "level": 1, "kind": "district", "color": "house"} for q in range(5)),
        *({"q": q, "r": 1, "level": 2, "kind": "district", "color": "house"} for q in range(2)),
    ],
}


def write(tmp_path: Path, data: Any) -> str:
    path = tmp_path / "city.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_it_scores_the_rules_worked_example(agon: Callable[..., Outcome], tmp_path: Path) -> None:
    outcome = agon("score", "akropolis", write(tmp_path, WORKED_EXAMPLE))
    assert outcome.code == 0, outcome.err
    scored = json.loads(outcome.out)
    assert scored["colors"]["house"] == {"value": 9, "stars": 3, "points": 27}
    assert scored["stones"] == 2 and scored["total"] == 29
    assert set(scored["colors"]) == {"house", "market", "barracks", "temple", "garden"}


def test_a_list_of_cities_gives_a_list_back(agon: Callable[..., Outcome], tmp_path: Path) -> None:
    outcome = agon(
        "score", "akropolis", write(tmp_path, [WORKED_EXAMPLE, {"stones": 4, "hexes": []}])
    )
    scored = json.loads(outcome.out)
    assert [city["total"] for city in scored] == [29, 4]


@pytest.mark.parametrize(
    ("city", "message"),
    [
        ({"stones": -1, "hexes": []}, "stones must be at least 0"),
        ({"stones": 0, "hexes": [{"q": 0, "r": 0, "level": 1, "kind": "tower"}]}, "kind must be"),
        ({"hexes": [{"q": 0, "r": 0, "level": 1, "kind": "district"}]}, "needs a colour"),
        ({"hexes": [{"q": 0, "r": 0, "level": 0, "kind": "quarry"}]}, "level must be at least 1"),
        (
            {"hexes": [{"q": 0, "r": 0, "level": 1, "kind": "quarry", "color": "house"}]},
            "a quarry has no colour",
        ),
        (
            {
                "hexes": [
                    {"q": 0, "r": 0, "level": 1, "kind": "district", "color": "house", "stars": 2}
                ]
            },
            "only plazas have stars",
        ),
        ({"hexes": [{"q": 0, "r": 0, "level": 1, "kind": "quarry"}] * 2}, "two hexes at (0, 0)"),
        ({"hexes": [], "variants": ["towers"]}, "variants must be a list"),
        ({"hexes": "none"}, "hexes must be a list"),
        ({"hexes": [{"q": "0", "r": 0, "level": 1, "kind": "quarry"}]}, "q must be an integer"),
        ({"hexes": [{"r": 0, "level": 1, "kind": "quarry"}]}, "missing 'q'"),
        ([1], "must be an object"),
    ],
)
def test_it_rejects_malformed_cities_clearly(
    agon: Callable[..., Outcome], tmp_path: Path, city: Any, message: str
) -> None:
    outcome = agon("score", "akropolis", write(tmp_path, city))
    assert outcome.code == 2
    assert message in outcome.err
    assert outcome.out == ""


def test_it_rejects_a_file_that_is_not_json(agon: Callable[..., Outcome], tmp_path: Path) -> None:
    path = tmp_path / "city.json"
    path.write_text("stones: 3")
    outcome = agon("score", "akropolis", str(path))
    assert outcome.code == 2 and "not valid JSON" in outcome.err
    missing = agon("score", "akropolis", str(tmp_path / "absent.json"))
    assert missing.code == 2 and "cannot read" in missing.err


def test_a_game_without_json_cities_is_refused_clearly(
    agon: Callable[..., Outcome], tmp_path: Path
) -> None:
    outcome = agon("score", "attika", write(tmp_path, {"hexes": []}))
    assert outcome.code == 2
    assert "attika has no JSON positions to score" in outcome.err
