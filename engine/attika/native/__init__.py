"""Attika's compiled core (issue 32), optional: C where the profile says it pays, on the
same Python objects as the pure-Python engine, which stays the reference and the fallback.

What is compiled: where a player can build each of their buildings
(`fast.builds.legal_builds`, the buildings of a turn's legal actions), a third of a random
playout in pure Python; its reference is `fast.builds.legal_builds_in_python`
(bench/README.md, "A compiled core for Attika and Megalopolis").
`CORE` is the extension module when it was built and imports, else None, and the engine
takes the pure-Python path; the tests compare the two on every decision of random games.

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
from engine.attika.components import COST, IS_MAIN, IS_ROAD, ROAD_COST, UPSTREAM, WORST
from engine.hexgrid import NEIGHBOUR_STEPS

PURE_PYTHON_VARIABLE = compiled_core.PURE_PYTHON_VARIABLE
CORE_VERSION = 1
"""The version of `_core.c` this Python expects (its CORE_VERSION): a module built from an
older source is not used."""

logger = logging.getLogger(__name__)


def load_core() -> ModuleType | None:
    """The compiled core, set up with the engine's numbers (`compiled_core.load_core`)."""
    return compiled_core.load_core(__name__, "Attika", CORE_VERSION, _set_up, logger)


def _set_up(core: ModuleType) -> None:
    core.setup(COST, WORST, IS_MAIN, IS_ROAD, UPSTREAM, ROAD_COST, NEIGHBOUR_STEPS)


CORE = load_core()
"""The compiled core in use, or None: the engine reads it at each call, so setting it to
None turns the core off (the benchmarks' rows with the core off do)."""
