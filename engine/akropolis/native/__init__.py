"""Akropolis' compiled core (issue 32), optional: C for the hottest paths, on the same
Python objects as the pure-Python engine, which stays the reference and the fallback.

First stage: the legal-placement upkeep of a city (`CityCache.update_legal`, a third of a
random playout). Second stage: the rest of a lookahead's evaluation (copy + move + the
mover's score): the running score (`RunningScore.placed`, the lakes a tile closes and
`RunningScore.total`), the city's copy and placement (`City.copy`, `City.place`), and the
turn around them (`AkropolisState.copy`, `rules.apply_legal`, `rules.take_and_place`,
`rules.score`, `rules.scores`, and `rules.apply_action` for a plain legal action: any
other is left, the state untouched, to the Python checks that explain a refusal). Third
stage: the rest of a random playout, a turn's legal actions (`rules.legal_actions`, the
`actions.LegalActions` object made with every slot set) and the end's score of a city
that keeps no running score (`fast.board_score.colour_values`). Fourth stage: a city's
legal triangles kept in C (`_core.LegalTriangles`, a sorted array of ids that reads as
the list and the set it replaces, in both of `CityCache`'s slots, from the city's first
placement under the core; back to a list and a set if the core is turned off), and the
deal's shuffle (`SplitMix64(seed).shuffle`, in `rules.deal`). Each
Python function stays, readable, as the reference and the fallback (the city's
`copy_in_python` and `place_in_python`, the others under their own names where the core
is off); the core works on the same objects, their slots read and written where Python
keeps them, so everything else that reads a city is unchanged.
`CORE` is the extension module when it was built and imports, else None, and the engine
takes the pure-Python path; the tests compare the two on every state of random games.

- Built by `make venv` (setuptools, `pyproject.toml`'s `ext-modules`, optional: without a
  C compiler or Python's headers the install still succeeds).
- Not built, stale or broken: one warning line, then pure Python (never a wrong answer:
  the core's tables are the Python engine's own, checked and copied at import).
- `AGON_PURE_PYTHON=1` in the environment forces pure Python, silently (tests and
  comparisons).
"""

from __future__ import annotations

import logging
from types import ModuleType

from engine import compiled_core
from engine.akropolis import components, geometry, scoring
from engine.akropolis.fast import legal_tables, triangle_ring
from engine.akropolis.geometry import ACTION_CELLS, RING, STEP

PURE_PYTHON_VARIABLE = compiled_core.PURE_PYTHON_VARIABLE
CORE_VERSION = 4
"""The version of `_core.c` this Python expects (its CORE_VERSION): a module built from an
older source is not used."""

logger = logging.getLogger(__name__)


def load_core() -> ModuleType | None:
    """The compiled core, set up with the engine's tables and the classes `city` and
    `actions` handed over (`compiled_core.load_core`)."""
    _core = compiled_core.load_core(__name__, "Akropolis", CORE_VERSION, _set_up, logger)
    if _core is None:
        return None
    if _handed and not _set_up_objects(_core, *_handed[-1]):
        return None
    if _handed_legal and not _set_up_legal_actions(_core, _handed_legal[-1]):
        return None
    return _core


def _set_up(core: ModuleType) -> None:
    core.setup(
        legal_tables.RING_BITS,
        legal_tables.SPLIT_BY_LEVEL,
        legal_tables.MAYBE_LEGAL_BEFORE,
        legal_tables.OUTER_NEEDED,
        legal_tables.OUTER_WHOLE,
        legal_tables.RING_SECTORS,
    )
    core.score_setup(
        STEP,
        triangle_ring.RING_CYCLE,
        RING,
        components.IS_PLAZA,
        components.COLOR_INDEX_OF,
        components.STARS_OF_CODE,
        (
            components.HOUSE,
            components.MARKET,
            components.BARRACKS,
            components.TEMPLE,
            components.GARDEN,
            components.MARKET_PLAZA,
        ),
        scoring.BARRACKS_DOUBLED_EDGES,
        scoring.HOUSES_DOUBLED_FROM,
        scoring.TEMPLES_DOUBLED_FROM_LEVEL,
    )
    core.action_setup(
        geometry.ORIGIN,
        geometry.Q_STEP,
        geometry.R_STEP,
        geometry.FAR,
        geometry.TRIANGLE_FROM_ANCHOR,
        geometry.TILE_STEPS,
    )


_handed: list[tuple[type, type, type, object]] = []
"""The classes the core works on and their placements' texts, as `engine.akropolis.city`
last handed them over: a core loaded again (the tests') gets them too."""


def hand_over_classes(
    city: type, cache: type, running_score: type, placement_texts: object
) -> None:
    """Hand the core the classes it works on (the city, its cache and running score) and a
    turn's tables. `engine.akropolis.city` calls this once its classes exist: they import
    this module, so it cannot import them. Kept for a core loaded later (the tests'); a
    core that refuses them is turned off."""
    global CORE
    _handed[:] = [(city, cache, running_score, placement_texts)]
    if CORE is not None and not _set_up_objects(CORE, city, cache, running_score, placement_texts):
        CORE = None


def _set_up_objects(
    core: ModuleType, city: type, cache: type, running_score: type, placement_texts: object
) -> bool:
    """False (with one warning line) if the core refuses the classes."""
    try:
        core.objects_setup(
            city,
            cache,
            running_score,
            components.TILE_HEXES,
            placement_texts,
            ACTION_CELLS,
            components.QUARRY,
        )
    except (TypeError, ValueError, MemoryError) as error:
        logger.warning(
            "Akropolis: compiled core refused the classes (%s); using pure Python", error
        )
        return False
    return True


_handed_legal: list[type] = []
"""The legal actions' class, as `engine.akropolis.actions` last handed it over."""


def hand_over_legal_actions(legal_actions: type) -> None:
    """Hand the core the class `legal_actions` makes (`actions.LegalActions`), once it
    exists (its module imports this one). A core that refuses it is turned off."""
    global CORE
    _handed_legal[:] = [legal_actions]
    if CORE is not None and not _set_up_legal_actions(CORE, legal_actions):
        CORE = None


def _set_up_legal_actions(core: ModuleType, legal_actions: type) -> bool:
    """False (with one warning line) if the core refuses the class."""
    try:
        core.legal_setup(legal_actions)
    except (TypeError, ValueError, MemoryError) as error:
        logger.warning(
            "Akropolis: compiled core refused the legal actions' class (%s); using pure Python",
            error,
        )
        return False
    return True


CORE = load_core()
"""The compiled core in use, or None: the engine reads it at each call, so setting it to
None turns the core off (the benchmarks' rows with the core off do)."""
