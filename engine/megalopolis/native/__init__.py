"""Megalopolis' compiled core (issue 32), optional: C where the profile says it pays, on the
same Python objects as the pure-Python engine, which stays the reference and the fallback.

What is compiled: the score's parts of every player (`scoring.score_parts`: the controlled
groups, the printed bonus, the silver tiles, the largest group), about half of a
lookahead's evaluation (copy + move + `result`) in pure Python; a random playout spends
its time over a dozen functions of a turn, none of them worth a second implementation
(bench/README.md, "A compiled core for Attika and Megalopolis").
`CORE` is the extension module when it was built and imports, else None, and the engine
takes the pure-Python path; the tests compare the two on every state of random games.

- Built by `make venv` (setuptools, `pyproject.toml`'s `ext-modules`, optional: without a
  C compiler or Python's headers the install still succeeds), by the images' build stages
  and by the kit's sdist at install (`agon.core_build`), as Akropolis' core is.
- Not built, stale or broken: one warning line, then pure Python (never a wrong answer:
  the core's numbers are the Python engine's own, checked and copied at import).
- `AGON_PURE_PYTHON=1` in the environment forces pure Python, silently (tests and
  comparisons).
"""

from __future__ import annotations

import logging
from types import ModuleType

from engine import compiled_core
from engine.megalopolis.components import BONUS, SILVER, SMALLEST_SCORING_GROUP
from engine.megalopolis.state import Tile
from engine.squaregrid import NEIGHBOUR_STEPS

PURE_PYTHON_VARIABLE = compiled_core.PURE_PYTHON_VARIABLE
CORE_VERSION = 1
"""The version of `_core.c` this Python expects (its CORE_VERSION): a module built from an
older source is not used."""

logger = logging.getLogger(__name__)


def load_core() -> ModuleType | None:
    """The compiled core, set up with the engine's numbers (`compiled_core.load_core`)."""
    return compiled_core.load_core(__name__, "Megalopolis", CORE_VERSION, _set_up, logger)


def _set_up(core: ModuleType) -> None:
    core.setup(Tile, NEIGHBOUR_STEPS, BONUS, SILVER, SMALLEST_SCORING_GROUP)


CORE = load_core()
"""The compiled core in use, or None: the engine reads it at each call, so setting it to
None turns the core off (the benchmarks' rows with the core off do)."""
