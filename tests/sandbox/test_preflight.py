"""The upload's preflight: a bot that cannot start is told why, before any match."""

from __future__ import annotations

import zipfile
from io import BytesIO
from pathlib import PurePosixPath

import pytest

from sandbox.packages import PackageError, check_package
from sandbox.preflight import MAX_FILE_BYTES, box_modules, python_problems
from tests.sandbox.support import pack


def problems_of(files: dict[str, str]) -> list[str]:
    return [
        str(problem)
        for problem in python_problems(
            {PurePosixPath(name): text.encode() for name, text in files.items()}
        )
    ]


def test_a_syntax_error_is_named_with_its_file_and_line() -> None:
    assert problems_of({"main.py": "import sys\n\ndef play(:\n    pass\n"}) == [
        "main.py, line 3: syntax error: invalid syntax"
    ]


def test_a_module_the_box_lacks_is_named() -> None:
    assert problems_of({"main.py": "import json\nimport torch.nn\n"}) == [
        "main.py, line 2: imports torch, which the box does not have"
    ]


def test_the_box_offers_numpy_the_bot_library_and_the_engine() -> None:
    source = "import numpy as np\nfrom agon_bot import run\nimport engine.registry\n"
    assert problems_of({"main.py": source}) == []
    assert {"numpy", "agon_bot", "engine", "json", "itertools"} <= box_modules()


def test_guarded_imports_have_a_fallback() -> None:
    source = (
        "try:\n    import orjson as json\nexcept ImportError:\n    import json\n"
        "try:\n    import numba\nexcept (ModuleNotFoundError, OSError):\n    numba = None\n"
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pandas\n"
    )
    assert problems_of({"main.py": source}) == []


def test_an_unguarded_import_in_a_try_with_other_handlers_is_a_problem() -> None:
    source = "try:\n    import scipy\nexcept KeyError:\n    pass\n"
    assert problems_of({"main.py": source}) == [
        "main.py, line 2: imports scipy, which the box does not have"
    ]


def test_the_bots_own_modules_are_followed_and_checked() -> None:
    files = {
        "main.py": "import strategy\nfrom tools.search import best\n",
        "strategy.py": "import sklearn\n",
        "tools/__init__.py": "",
        "tools/search.py": "from . import util\nfrom .util import x\ndef best(:\n",
        "tools/util.py": "import requests\n",
        "unused.py": "this is not python\n",
    }
    assert problems_of(files) == [
        "strategy.py, line 1: imports sklearn, which the box does not have",
        "tools/search.py, line 3: syntax error: invalid syntax",
    ]


def test_hostile_sources_are_reported_not_crashed_on() -> None:
    assert problems_of({"main.py": "(" * 200_000}) == [
        "main.py, line 1: syntax error: too many nested parentheses"
    ]
    assert problems_of({"main.py": "x = " + "-" * 300_000 + "1"}) == [
        "main.py: nested too deeply for Python to compile"
    ]
    assert problems_of({"main.py": "x = 1\0\n"}) == [
        "main.py: syntax error: source code string cannot contain null bytes"
    ]
    undecodable = python_problems({PurePosixPath("main.py"): b"x = '\xff'\n"})
    assert [str(problem) for problem in undecodable] == [
        "main.py, line 1: syntax error: (unicode error) 'utf-8' codec can't decode byte 0xff "
        "in position 0: invalid start byte"
    ]


def test_a_very_large_file_is_left_to_the_validation_match() -> None:
    big = "WEIGHTS = [" + "1, " * (MAX_FILE_BYTES // 3) + "]\nimport torch\n"
    assert problems_of({"main.py": "import weights\n", "weights.py": big}) == []


def test_an_upload_that_cannot_start_is_refused_with_the_reason() -> None:
    with pytest.raises(PackageError) as refused:
        check_package(b"import tensorflow\n", "bot.py")
    assert str(refused.value) == (
        "the bot cannot start: main.py, line 1: imports tensorflow, which the box does not "
        "have. A box has Python 3.11 with its standard library, NumPy, agon_bot and engine."
    )
    archive = pack(b"import helper\n", {}, {"helper.py": b"def f(:\n"})
    with pytest.raises(PackageError, match=r"helper\.py, line 1: syntax error"):
        check_package(archive, "bot.zip")


def test_many_problems_are_shown_five_at_a_time() -> None:
    source = "".join(f"import missing{n}\n" for n in range(8)).encode()
    with pytest.raises(PackageError, match=r"missing4, which .*\(and 3 more\)"):
        check_package(source, "bot.py")


def test_a_working_archive_passes() -> None:
    buffer = BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("main.py", "import numpy\nimport helper\n")
        archive.writestr("helper.py", "import random\n")
    assert check_package(buffer.getvalue(), "bot.zip").files == 2
