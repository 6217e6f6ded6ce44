"""Every decision in docs/rules/<game>-decisions.md is tested by name: some test of that
game (tests/engine/<game>/) cites its anchor as `#anchor` in its docstring."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from engine.registry import game_ids

ROOT = Path(__file__).resolve().parents[2]
ANCHOR = re.compile(r'<a id="([a-z0-9-]+)"></a>([a-z0-9-]+):')
CITED = re.compile(r"#([a-z0-9-]+)")
DOCS = ROOT / "docs" / "rules"
GAMES = sorted(path.name.removesuffix("-decisions.md") for path in DOCS.glob("*-decisions.md"))


def anchors(game: str) -> list[str]:
    text = (DOCS / f"{game}-decisions.md").read_text(encoding="utf-8")
    found = ANCHOR.findall(text)
    assert found, f"{game}: no decision anchors"
    for anchor, label in found:
        assert anchor == label, f"{game}: anchor {anchor} is labelled {label}"
    return [anchor for anchor, _ in found]


def citations(game: str) -> set[str]:
    cited: set[str] = set()
    for path in sorted((ROOT / "tests" / "engine" / game).glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                cited.update(CITED.findall(ast.get_docstring(node) or ""))
    return cited


def test_every_game_has_its_decisions_written() -> None:
    assert sorted(game_ids()) == GAMES


@pytest.mark.parametrize("game", GAMES)
def test_each_decision_has_one_anchor_and_a_test_citing_it(game: str) -> None:
    written = anchors(game)
    assert len(written) == len(set(written)), f"{game}: an anchor is used twice"
    cited = citations(game)
    assert [a for a in written if a not in cited] == [], f"{game}: decisions no test cites"
    assert sorted(cited - set(written)) == [], f"{game}: tests cite decisions not written"
