"""The bot kit's wheel (`make kit`): built the same from the same files, installed with
`pip install --no-index` into a fresh virtual environment (no Django, nothing else), it
plays a file bot against a builtin one, writes the offline viewer and verifies replays."""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from agon import kit_wheel
from engine.registry import game_ids

REPO_DIR = Path(__file__).resolve().parents[1]
MAKE = shutil.which("make") or "make"


def run(*argv: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    # Nothing of this checkout on the path: the kit must stand alone.
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PYTHON", "MAKE", "VIRTUAL_ENV"))
    }
    return subprocess.run(  # noqa: S603 - our own argv
        [str(arg) for arg in argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh virtual environment with only the kit installed: its bin folder."""
    folder = tmp_path_factory.mktemp("kit")
    made = run(MAKE, "--no-print-directory", "-C", REPO_DIR, "-o", "venv", "kit", cwd=folder)
    assert made.returncode == 0, made.stderr
    wheel = REPO_DIR / made.stdout.strip().splitlines()[-1]
    assert wheel.name == kit_wheel.kit_wheel().filename
    venv = folder / "venv"
    created = run(sys.executable, "-m", "venv", venv, cwd=folder)
    assert created.returncode == 0, created.stderr
    installed = run(venv / "bin" / "pip", "install", "--no-index", wheel, cwd=folder)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    yield venv / "bin"


def test_the_kits_extras_pin_what_the_platform_pins() -> None:
    """`agon-kit[envs]` and `agon-kit[tournament]` ask for the versions pyproject.toml pins:
    the versions the suite runs them with."""
    project = tomllib.loads((REPO_DIR / "pyproject.toml").read_text())["project"]
    pins = set(project["dependencies"]) | set(project["optional-dependencies"]["envs"])
    for needs in kit_wheel.EXTRAS.values():
        assert set(needs) <= pins
    assert set(kit_wheel.EXTRAS["envs"]) == set(project["optional-dependencies"]["envs"])


def test_the_same_files_make_the_same_wheel_with_a_digest_in_its_version() -> None:
    kit_wheel._build.cache_clear()
    first = kit_wheel.kit_wheel()
    kit_wheel._build.cache_clear()
    again = kit_wheel.kit_wheel()
    assert first.content == again.content and first is not again
    assert again.filename == f"agon_kit-{again.version}-py3-none-any.whl"
    assert again.version.startswith("0.1.0+kit.")


def test_the_wheel_holds_whole_packages_the_library_the_engine_and_the_kit_only(
    tmp_path: Path,
) -> None:
    assert kit_wheel.main([str(tmp_path)]) == 0
    with zipfile.ZipFile(tmp_path / kit_wheel.kit_wheel().filename) as wheel:
        names = wheel.namelist()
        metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
        requirements = [
            line
            for line in wheel.read(metadata).decode().splitlines()
            if line.startswith("Requires-Dist")
        ]
        assert requirements and all("; extra == " in line for line in requirements)
        entry_points = wheel.read(metadata.replace("METADATA", "entry_points.txt")).decode()
    tops = {name.split("/")[0] for name in names}
    shipped = {package.split(".")[0] for package in kit_wheel.SHIPPED}
    assert {"agon_bot", "agon_kit", "competition", "engine", "sandbox"} <= shipped
    assert tops == shipped | {metadata.split("/")[0]}
    for package in kit_wheel.SHIPPED:  # each whole: every file of its folder but byte code
        folder = Path(importlib.import_module(package).__file__ or "").parent
        here = {
            f"{package.replace('.', '/')}/{path.relative_to(folder).as_posix()}"
            for path in folder.rglob("*")
            if path.is_file()
            and "__pycache__" not in path.parts
            and not kit_wheel.is_compiled_module(path)
        }
        assert here <= set(names), package
    assert "agon-kit = agon_kit.cli:main" in entry_points
    assert "agon_kit/view.py" in names and "agon_kit/viewer/static/web/viewer.js" in names
    assert not [n for n in names if n.startswith(("agon/cli/", "agon/web/", "agon/settings/"))]
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    # Akropolis' compiled core is built here for this platform only: not in the kit.
    assert "engine/akropolis/native/_core.c" in names
    assert not [n for n in names if n.endswith((".so", ".pyd"))]


def test_the_kit_plays_views_and_verifies_without_the_platform(kit: Path, tmp_path: Path) -> None:
    assert run(kit / "python", "-c", "import django", cwd=tmp_path).returncode == 1
    bot = tmp_path / "main.py"
    shutil.copy(REPO_DIR / "examples" / "bots" / "random_bot.py", bot)
    played = run(
        kit / "agon-kit", "play", "--game", "akropolis", "--seed", "1", "--sandbox", "none",
        "--replay", "m.json", "main.py", "builtin:greedy",
        cwd=tmp_path,
    )  # fmt: skip
    assert played.returncode == 0, played.stdout + played.stderr
    result = json.loads(played.stdout.strip().splitlines()[-1])
    assert result["faults"] == [] and result["replay"] == "m.json"
    viewed = run(kit / "agon-kit", "view", "m.json", cwd=tmp_path)
    assert viewed.returncode == 0, viewed.stderr
    assert "agon-timeline" in (tmp_path / "m.html").read_text()
    verified = run(kit / "agon-kit", "replay", "verify", "m.json", cwd=tmp_path)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "OK: akropolis, 2 players, seed 1" in verified.stdout
    helped = run(kit / "agon-kit", "--help", cwd=tmp_path)
    assert "play" in helped.stdout and " up " not in helped.stdout
    assert "tournament" in helped.stdout


def test_the_kits_tournament_asks_for_its_extra_in_one_line(kit: Path, tmp_path: Path) -> None:
    """The kit installs neither rich nor networkx: `tournament` says how to get them."""
    refused = run(
        kit / "agon-kit", "tournament", "--game", "architekton", "--format", "swiss",
        "--sandbox", "none",
        "builtin:random", "builtin:greedy", "builtin:random",
        cwd=tmp_path,
    )  # fmt: skip
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert "agon-kit[tournament]" in refused.stderr and "rich" in refused.stderr
    assert "Traceback" not in refused.stderr


def test_the_kit_tests_a_bot_here_and_talks_to_a_site_without_the_platform(
    kit: Path, tmp_path: Path
) -> None:
    bot = tmp_path / "main.py"
    shutil.copy(REPO_DIR / "examples" / "bots" / "random_bot.py", bot)
    for game in game_ids():
        matched = run(
            kit / "agon-kit", "match", "builtin:greedy", "main.py", "--game", game,
            "--sprt", "elo0=0,elo1=400", "--max-games", "20", "--sandbox", "none",
            cwd=tmp_path,
        )  # fmt: skip
        assert matched.returncode == 0, matched.stdout + matched.stderr
        assert "Is builtin:greedy at least 400 Elo stronger than main.py?" in matched.stdout
        summary = json.loads(matched.stdout.strip().splitlines()[-1])
        assert summary["verdict"] == "H1" and summary["games"] <= 20, (game, summary)
    for command in ("login", "submit", "test", "match"):
        helped = run(kit / "agon-kit", command, "--help", cwd=tmp_path)
        assert helped.returncode == 0, helped.stderr
        assert f"agon-kit {command}" in helped.stdout
    # No site answers here: one line says so, not a traceback.
    refused = run(
        kit / "agon-kit", "submit", "main.py", "--bot", "b", "--token", "t",
        "--server", "http://127.0.0.1:9",
        cwd=tmp_path,
    )  # fmt: skip
    assert refused.returncode == 2
    assert refused.stderr.startswith("agon-kit: error: cannot reach http://127.0.0.1:9 (")
