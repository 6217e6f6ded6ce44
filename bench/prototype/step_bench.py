"""The placement step alone, pure Python against the C prototype, in CPU time.

    .venv/bin/python bench/prototype/step_bench.py

Replays the placements of recorded random 2-player games city by city: a new city, then
per placement `place` and `legal_triangles`, and the city's score at the end (Python:
`City` with its running score; C: `CCity.points`). Prints microseconds per placement,
the best of five passes.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

from bench.prototype.build import NoCompiler, build_core  # noqa: E402
from engine.akropolis.city import City  # noqa: E402
from engine.akropolis.components import TILES  # noqa: E402
from engine.akropolis.geometry import STEP, triangle_of  # noqa: E402
from engine.akropolis.spec import AKROPOLIS  # noqa: E402
from engine.hexgrid import encode  # noqa: E402
from engine.rng import SplitMix64  # noqa: E402

Placement = tuple[int, tuple[int, int, int], tuple[int, ...], int]


def recorded_cities(games: int) -> list[list[Placement]]:
    """Each city's placements (triangle, cells, codes, tile id) in random 2-player games."""
    cities: list[list[Placement]] = []
    for seed in range(games):
        state = AKROPOLIS.new_state(seed, 2, {})
        rng = SplitMix64(seed)
        seats: list[list[Placement]] = [[], []]
        while not AKROPOLIS.is_over(state):
            legal = AKROPOLIS.legal_actions(state)
            action = legal[rng.below(len(legal))]
            anchor, rotation = encode(action["q"], action["r"]), action["rotation"]
            cells = (anchor, anchor + STEP[rotation], anchor + STEP[(rotation + 1) % 6])
            tile = state.site[action["tile"]]
            seat = AKROPOLIS.current_player(state)
            seats[seat].append((triangle_of(anchor, rotation), cells, TILES[tile].hexes, tile))
            AKROPOLIS.apply(state, action)
        cities += seats
    return cities


def per_placement(
    cities: list[list[Placement]], new_city: Callable[[], Any], score: Callable[[Any], int]
) -> float:
    best = float("inf")
    for _ in range(5):
        placements, start = 0, time.process_time()
        for placed in cities:
            city = new_city()
            for triangle, cells, codes, tile in placed:
                city.place(triangle, cells, codes, tile)
                city.legal_triangles()
                placements += 1
            score(city)
        best = min(best, (time.process_time() - start) / placements)
    return best


def python_city() -> City:
    city = City.starting()
    city.legal_triangles()
    city.running_score(())
    return city


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="agon-core-") as scratch:
        try:
            core = build_core(Path(scratch))
        except NoCompiler as missing:
            print(f"C prototype skipped: {missing}")
            return 2
        cities = recorded_cities(40)
        python = per_placement(cities, python_city, lambda c: c.running_score(()).total(c.top))
        compiled = per_placement(cities, core.starting, lambda c: c.points())
    print(
        f"placement + legal triangles (+ score at the end), per placement: "
        f"Python {python * 1e6:.2f} us, C {compiled * 1e6:.2f} us, C {python / compiled:.1f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
