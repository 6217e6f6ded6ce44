"""The bot kit's wheel (`make kit`): built the same from the same files, installed with
`pip install --no-index` into a fresh virtual environment (no Django, nothing else), it
plays a file bot against a builtin one, writes the offline viewer and verifies replays.
Its sdist (issue 32) builds the compiled cores (Akropolis', Attika's, Megalopolis') at
install where a C compiler is, and installs in pure Python, saying so in one line, where none is."""

from __future__ import annotations

import importlib
import io
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

from agon import core_build, kit_wheel
from engine.registry import game_ids
from tests.required import missing

REPO_DIR = Path(__file__).resolve().parents[1]
MAKE = shutil.which("make") or "make"
GAMES_WITH_A_CORE = ("akropolis", "attika", "megalopolis")
"""The games with a compiled core (issue 32): `engine.<game>.native`."""


def run(
    *argv: str | Path, cwd: Path, extra_env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    # Nothing of this checkout on the path: the kit must stand alone.
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PYTHON", "MAKE", "VIRTUAL_ENV", "AGON_PURE_PYTHON", "CC"))
    }
    env.update(extra_env or {})
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
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """`make kit`: the sdist and the wheel it wrote."""
    folder = tmp_path_factory.mktemp("make-kit")
    made = run(MAKE, "--no-print-directory", "-C", REPO_DIR, "-o", "venv", "kit", cwd=folder)
    assert made.returncode == 0, made.stderr
    sdist, wheel = (REPO_DIR / line for line in made.stdout.strip().splitlines()[-2:])
    assert wheel.name == kit_wheel.kit_wheel().filename
    assert sdist.name == kit_wheel.kit_sdist().filename
    return sdist, wheel


def installed_kit(folder: Path, kit: Path, **extra_env: str) -> tuple[Path, str]:
    """A fresh virtual environment in `folder` with only `kit` installed (pip without
    its cache, so nothing built earlier is reused): its bin folder and pip's output."""
    venv = folder / "venv"
    # Without a pip of its own (ensurepip took 2-3 s a venv): this one's pip installs there.
    created = run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=folder)
    assert created.returncode == 0, created.stderr
    installed = run(
        sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "install",
        "--verbose", "--no-index", "--no-cache-dir", "--disable-pip-version-check", kit,
        cwd=folder, extra_env=extra_env,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return venv / "bin", installed.stdout + installed.stderr


@pytest.fixture(scope="module")
def kit(made: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with only the kit's wheel installed: its bin folder."""
    return installed_kit(tmp_path_factory.mktemp("kit"), made[1])[0]


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
    # The compiled cores are built here for this platform only: not in the kit.
    assert "engine/akropolis/native/_core.c" in names
    assert "engine/attika/native/_core.c" in names
    assert "engine/megalopolis/native/_core.c" in names
    assert not [n for n in names if n.endswith((".so", ".pyd"))]


def test_the_sdist_holds_the_wheels_files_its_backend_and_builds_the_same_bytes() -> None:
    kit_wheel._build_sdist.cache_clear()
    sdist = kit_wheel.kit_sdist()
    kit_wheel._build_sdist.cache_clear()
    assert kit_wheel.kit_sdist().content == sdist.content
    assert sdist.version == kit_wheel.kit_wheel().version
    assert sdist.filename == f"agon_kit-{sdist.version}.tar.gz"
    with tarfile.open(fileobj=io.BytesIO(sdist.content)) as archive:
        members = archive.getmembers()
        top = f"agon_kit-{sdist.version}/"
        names = {member.name.removeprefix(top) for member in members}

        def read(name: str) -> bytes:
            file = archive.extractfile(top + name)
            assert file is not None, name
            return file.read()

        pyproject = tomllib.loads(read("pyproject.toml").decode())
        backend = read("agon_core_build.py")
    assert all(member.name.startswith(top) and member.uid == 0 for member in members)
    assert names == {name for name, _ in kit_wheel.kit_files()} | {
        "PKG-INFO", "entry_points.txt", "pyproject.toml", "agon_core_build.py",
    }  # fmt: skip
    assert "engine/akropolis/native/_core.c" in names
    assert "engine/attika/native/_core.c" in names
    assert "engine/megalopolis/native/_core.c" in names
    assert pyproject["build-system"] == {
        "requires": [], "build-backend": "agon_core_build", "backend-path": ["."],
    }  # fmt: skip
    assert backend == Path(core_build.__file__).read_bytes()


def test_the_kits_backend_builds_the_extension_modules_pyproject_toml_declares() -> None:
    """`make venv` builds them with setuptools, the kit and the bot image with
    agon.core_build: one list of modules and sources for both."""
    declared = tomllib.loads((REPO_DIR / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert {module["name"]: module["sources"] for module in declared["ext-modules"]} == {
        name: [source] for name, source in core_build.COMPILED.items()
    }


def test_the_kits_backend_builds_each_core_into_a_file_of_its_own(tmp_path: Path) -> None:
    """The cores share a file name (`_core`): each is built apart and goes to its own
    package, none over another."""
    if shutil.which(core_build.compiler()[0]) is None:
        missing("compiled-core", f"no C compiler {core_build.compiler()[0]} here")
    built, tag = core_build.build_modules(REPO_DIR, tmp_path)
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    assert sorted(built) == sorted(
        f"{module.rpartition('.')[0].replace('.', '/')}/_core{suffix}"
        for module in core_build.COMPILED
    )
    for name, path in built.items():  # each module's docstring names its package
        package = name.rpartition("/")[0]
        assert f"(see {package}/__init__.py)".encode() in path.read_bytes(), name
    assert tag != "py3-none-any"


def test_the_sdist_installs_with_the_compiled_cores_and_plays_with_them(
    made: tuple[Path, Path], tmp_path: Path
) -> None:
    """Issue 32: `pip install` of the sdist, offline, builds the cores with the machine's
    C compiler; the installed engine uses them, with no warning line."""
    if shutil.which(core_build.compiler()[0]) is None:
        missing("compiled-core", f"no C compiler {core_build.compiler()[0]} here")
    bin_folder, _ = installed_kit(tmp_path, made[0])
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    for game in GAMES_WITH_A_CORE:
        probed = run(
            bin_folder / "python", "-c",
            f"import engine.{game}.native as native; print(native.CORE and native.CORE.__file__)",
            cwd=tmp_path,
        )  # fmt: skip
        assert probed.returncode == 0 and probed.stderr == "", probed.stderr
        assert probed.stdout.strip().endswith(f"/site-packages/engine/{game}/native/_core{suffix}")
    for game in GAMES_WITH_A_CORE:
        played = match_played(bin_folder, tmp_path, game)
        assert "pure Python" not in played.stderr


def match_played(bin_folder: Path, folder: Path, game: str) -> subprocess.CompletedProcess[str]:
    """A match of the installed kit's builtins, played without a fault."""
    played = run(
        bin_folder / "agon-kit", "play", "--game", game, "--seed", "3",
        "--sandbox", "none", "builtin:greedy", "builtin:random",
        cwd=folder,
    )  # fmt: skip
    assert played.returncode == 0, played.stdout + played.stderr
    assert json.loads(played.stdout.strip().splitlines()[-1])["faults"] == []
    return played


def test_without_a_compiler_the_sdist_installs_in_pure_python_and_says_so_in_one_line(
    made: tuple[Path, Path], tmp_path: Path
) -> None:
    bin_folder, pip_output = installed_kit(tmp_path, made[0], CC="false")
    [notice] = [line for line in pip_output.splitlines() if "compiled core" in line]
    assert notice.strip() == (
        "agon-kit: the compiled cores were not built (false failed: 1); "
        "Akropolis, Attika and Megalopolis run in pure Python"
    )
    for game in GAMES_WITH_A_CORE:
        played = match_played(bin_folder, tmp_path, game)
        [warning] = [line for line in played.stderr.splitlines() if "compiled core" in line]
        assert warning.startswith(f"{game.capitalize()}: compiled core not available (")
        assert warning.endswith("; using pure Python")


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
