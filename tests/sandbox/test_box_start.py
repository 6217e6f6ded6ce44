"""How a bot starts in its box (`sandbox.box_start`), run here without a box: one
interpreter that moves stdout and then shows the bot what `python3 main.py` would; and
the bytecode the boxes read. (The filter, in force before the interpreter starts:
tests/sandbox/test_box_launch.py for a Docker box's launcher.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from sandbox.backends.bwrap import BOX_PYTHON
from sandbox.box_start import START_FLAGS, start_argv
from sandbox.libraries import BOX_LIBRARY_PATH, compiled_copy, library_dirs

PYTHON = BOX_PYTHON if Path(BOX_PYTHON).exists() else sys.executable

REPORTER = """\
import json, os, sys
print(json.dumps({
    "argv": sys.argv, "file": __file__, "name": __name__, "path0": sys.path[0],
    "main_names": sorted(name for name in globals() if not name.startswith("__")),
}))
"""


def start(folder: Path, **options: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: S603 - a fixed argv
        start_argv(PYTHON, **options),  # type: ignore[arg-type]
        cwd=folder,
        env={"PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        pass_fds=tuple(value for value in options.values() if isinstance(value, int)),
    )


def test_it_is_one_interpreter_that_imports_nothing_of_the_bots_folder_first() -> None:
    argv = start_argv("python3", stdout_fd=7)
    assert argv[:3] == ["python3", *START_FLAGS]
    assert "-P" in START_FLAGS  # neither the current folder nor a script's on the path
    assert argv[-1] == "7"


FIRST_TURN_IMPORTS = """\
import sys
from agon_bot import run

HEAVY = {"typing", "json", "re", "enum", "functools", "collections", "ctypes", "_ctypes",
         "importlib"}


def act(observation, legal):
    print(" ".join(sorted(HEAVY & set(sys.modules))), file=sys.stderr)
    return legal[1]


run(act)
"""


def test_a_bots_first_turn_imports_nothing_heavy(tmp_path: Path) -> None:
    """What a Docker box's bot runs to its first answer (its filter installed before, by
    the launcher): agon_bot, an Akropolis turn's compact legal actions expanded, the
    reply. No `typing`, `json` (with `re`), `collections`, `ctypes` or `importlib`: each
    costs a bot's start a few ms, and all together more than a bare interpreter's start
    (bench/README.md)."""
    (tmp_path / "main.py").write_text(FIRST_TURN_IMPORTS)
    legal = {"tiles": [3, 4], "placements": [[0, 1, 2], [1, 0, 5]]}
    messages = [
        {"type": "start", "game": "akropolis", "player": 0, "players": 2, "options": {}},
        {"type": "turn", "move": 1, "observation": {}, "legal_actions": legal},
        {"type": "end", "result": {}},
    ]
    done = subprocess.run(  # noqa: S603 - a fixed argv
        start_argv(PYTHON),
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
        input="".join(json.dumps(message) + "\n" for message in messages),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == '{"action":{"tile":3,"q":1,"r":0,"rotation":5}}\n'
    assert done.stderr == "\n"  # none of HEAVY


def test_the_bot_sees_what_python3_main_py_shows_it(tmp_path: Path) -> None:
    (tmp_path / "main.py").write_text(REPORTER)
    done = start(tmp_path)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["argv"] == ["main.py"]
    assert report["name"] == "__main__"
    assert report["file"] == str(tmp_path / "main.py")
    assert report["path0"] == str(tmp_path)
    assert report["main_names"] == ["json", "os", "sys"]


def test_the_builtins_of_site_are_there_for_a_bot_that_calls_exit(tmp_path: Path) -> None:
    (tmp_path / "main.py").write_text("print(callable(help), copyright is not None)\nexit(3)\n")
    done = start(tmp_path)
    assert done.returncode == 3, done.stderr
    assert done.stdout == "True True\n"


def test_stdout_handed_in_on_another_descriptor_becomes_fd_1(tmp_path: Path) -> None:
    (tmp_path / "main.py").write_text("print('to the referee')\n")
    read_end, write_end = os.pipe()
    try:
        done = start(tmp_path, stdout_fd=write_end)
        os.close(write_end)
        assert done.returncode == 0, done.stderr
        assert done.stdout == ""
        assert os.read(read_end, 100) == b"to the referee\n"
    finally:
        os.close(read_end)


def test_a_crash_in_main_py_exits_1_with_its_traceback(tmp_path: Path) -> None:
    (tmp_path / "main.py").write_text("raise ValueError('bad move')\n")
    done = start(tmp_path)
    assert done.returncode == 1
    assert 'main.py", line 1' in done.stderr
    assert "ValueError: bad move" in done.stderr


def test_the_site_folders_are_on_the_path_without_site_at_start(tmp_path: Path) -> None:
    (tmp_path / "main.py").write_text(
        "import json, site, sys\n"
        "print(json.dumps([sys.flags.no_site, [p for p in site.getsitepackages() "
        "if p in sys.path]]))\n"
    )
    done = start(tmp_path)
    assert done.returncode == 0, done.stderr
    no_site, on_path = json.loads(done.stdout)
    assert no_site == 1
    expected = subprocess.run(  # noqa: S603 - a fixed argv
        [
            PYTHON,
            "-c",
            "import site, sys; print([p for p in site.getsitepackages() if p in sys.path])",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert on_path == json.loads(expected.stdout.replace("'", '"'))


def test_the_compiled_copy_has_bytecode_for_every_module_readable_by_all(tmp_path: Path) -> None:
    copies = compiled_copy(tmp_path, PYTHON)
    assert set(copies) == set(library_dirs())
    tag = subprocess.run(  # noqa: S603 - a fixed argv
        [PYTHON, "-c", "import sys; print(sys.implementation.cache_tag)"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    sources = [path for copy in copies.values() for path in copy.rglob("*.py")]
    assert len(sources) > 50
    for source in sources:
        assert (source.parent / "__pycache__" / f"{source.stem}.{tag}.pyc").is_file(), source
    for made in [tmp_path, *tmp_path.rglob("*")]:
        assert made.stat().st_mode & 0o777 == (0o755 if made.is_dir() else 0o644), made
    # The box imports it without writing or compiling anything: a read-only copy works.
    for made in [tmp_path, *tmp_path.rglob("*")]:
        made.chmod(0o555 if made.is_dir() else 0o444)
    imported = subprocess.run(  # noqa: S603 - a fixed argv
        [PYTHON, "-c", "import agon_bot, engine.registry; print(engine.registry.__file__)"],
        env={"PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert imported.returncode == 0, imported.stderr
    assert BOX_LIBRARY_PATH.startswith("/")


def test_agon_bot_brings_the_engine_only_when_asked() -> None:
    check = (
        "import sys, agon_bot\n"
        "assert not any(name.split('.')[0] == 'engine' for name in sys.modules), 'engine'\n"
        "assert agon_bot.Lookahead.__name__ == 'Lookahead'\n"
        "assert 'engine.registry' in sys.modules\n"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(  # noqa: S603 - a fixed argv
        [sys.executable, "-c", check],
        env={"PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
