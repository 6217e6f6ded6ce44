"""engine.registry: game ids to game specs and their game objects, loaded lazily."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.akropolis import AKROPOLIS
from engine.registry import EXTRA_GAMES_VARIABLE, UnknownGame, game_ids, get_game, get_spec

REPO = Path(__file__).resolve().parents[2]


def test_it_finds_akropolis_by_its_id() -> None:
    assert get_game("akropolis") is AKROPOLIS


def test_it_lists_the_game_ids_sorted() -> None:
    assert "akropolis" in game_ids()
    assert game_ids() == sorted(game_ids())


def test_an_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(UnknownGame) as raised:
        get_game("chess")
    assert str(raised.value) == f"unknown game 'chess'; known games: {', '.join(game_ids())}"


def test_a_process_that_plays_one_game_loads_no_other() -> None:
    script = (
        "import sys\n"
        "from engine.registry import game_ids, get_spec\n"
        "get_spec('architekton').spectator()\n"
        "print([game for game in game_ids() if f'engine.{game}' in sys.modules])\n"
    )
    loaded = subprocess.run(  # noqa: S603 - a fixed argv
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=REPO
    )
    assert loaded.stdout.strip() == "['architekton']"


def test_a_registry_entry_must_be_a_game_spec_of_that_id(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(EXTRA_GAMES_VARIABLE, "chess=engine.akropolis.spec:SPEC")
    with pytest.raises(RuntimeError, match="registry entry 'chess' loads the game 'akropolis'"):
        get_spec("chess")
    monkeypatch.setenv(EXTRA_GAMES_VARIABLE, "chess=engine.akropolis.spec:AKROPOLIS")
    with pytest.raises(TypeError, match="is not a GameSpec"):
        get_spec("chess")
    monkeypatch.setenv(EXTRA_GAMES_VARIABLE, "chess")
    with pytest.raises(ValueError, match="'chess' is not id=module:SPEC"):
        game_ids()


def test_the_short_road_to_a_compact_form_is_the_specs_own_function() -> None:
    from engine.registry import _COMPACT_FORMS, legal_actions_expander

    for game_id in game_ids():
        assert legal_actions_expander(game_id) == get_spec(game_id).legal_actions_from_json
    assert set(_COMPACT_FORMS) <= set(game_ids())


def test_expanding_akropolis_compact_actions_loads_no_rules() -> None:
    script = (
        "import sys\n"
        "from engine.registry import legal_actions_expander\n"
        "expand = legal_actions_expander('akropolis')\n"
        "legal = expand({'tiles': [3, 4], 'placements': [[0, 1, 2], [1, 0, 5]]})\n"
        "loaded = [name in sys.modules for name in ('engine.akropolis.rules', 'engine.core')]\n"
        "print(json.dumps([len(legal), legal[3], *loaded]))\n"
    )
    done = subprocess.run(  # noqa: S603 - a fixed argv
        [sys.executable, "-c", "import json\n" + script],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
    )
    assert json.loads(done.stdout) == [4, {"tile": 4, "q": 1, "r": 0, "rotation": 5}, False, False]
