"""Compiles the C prototype of the Akropolis placement step (`akropolis_core.c`) into a
temporary folder and imports it. Benchmark and oracle-test use only: the engine never
imports it.

The C code's tables (neighbour steps, the triangles around a placed tile, the hex codes
and their stars) are written into `tables.h` here from the engine's own `geometry`,
`fast.legal_tables` and `components`, on the prototype's fixed grid, so they cannot
drift from the engine.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sysconfig
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

from engine.akropolis import components, geometry
from engine.akropolis.fast import legal_tables
from engine.hexgrid import NEIGHBOUR_STEPS

SOURCE = Path(__file__).with_name("akropolis_core.c")
SIDE = 48
"""The prototype's grid is SIDE x SIDE cells centred on (0, 0)."""
HALF = SIDE // 2

_ENGINE_STRIDE = 4096


class NoCompiler(RuntimeError):
    """No C compiler (or no Python headers) to build the prototype with."""


def compiler() -> str | None:
    """The C compiler to use: $CC, else cc or gcc on the PATH."""
    for candidate in (os.environ.get("CC"), "cc", "gcc"):
        if candidate and shutil.which(candidate.split()[0]):
            return candidate
    return None


def local_offset(engine_offset: int) -> int:
    """A cell offset in the engine's coding (q * 4096 + r) on the prototype's grid."""
    dq = (engine_offset + _ENGINE_STRIDE // 2) // _ENGINE_STRIDE
    dr = engine_offset - dq * _ENGINE_STRIDE
    return dq * SIDE + dr


def local_triangle(relative: int) -> int:
    """A relative triangle id (2 * cell offset + type) on the prototype's grid."""
    offset, kind = divmod(relative, 2)
    return 2 * local_offset(offset) + kind


def _array(name: str, items: Sequence[object], shape: str) -> str:
    """A C array of ints named `name` with `shape`, from nested sequences of ints."""

    def text(item: object) -> str:
        if isinstance(item, int):
            return str(int(item))
        if isinstance(item, Sequence):
            return "{" + ", ".join(text(x) for x in item) + "}"
        raise TypeError(f"not an int or a sequence: {item!r}")

    return f"static const int {name}{shape} = {text(items)};\n"


def tables_header() -> str:
    g = geometry
    c = components
    t = legal_tables
    edge = [
        [(local_triangle(rel), local_offset(o)) for rel, o in t.EDGE_TRIANGLES[k]] for k in (0, 1)
    ]
    corner = [
        [(local_triangle(rel), local_offset(a), local_offset(b)) for rel, a, b in triangles]
        for triangles in t.CORNER_TRIANGLES
    ]
    ring_triangles = [
        [(local_triangle(rel), *map(local_offset, cells)) for rel, *cells in t.RING_TRIANGLES[k]]
        for k in (0, 1)
    ]
    sizes = (
        {len(edge[0]), len(edge[1])},
        {len(corner[0]), len(corner[1])},
        {
            len(ring_triangles[0]),
            len(ring_triangles[1]),
        },
    )
    if any(len(size) != 1 for size in sizes):
        raise AssertionError("both triangle types have as many neighbours of each kind")
    codes = range(c.HEX_CODES)
    lines = [
        "/* Written by bench/prototype/build.py from the engine's tables. */\n",
        f"#define SIDE {SIDE}\n#define HALF {HALF}\n",
        f"#define EDGE_SIZE {len(edge[0])}\n#define CORNER_SIZE {len(corner[0])}\n",
        f"#define RINGT_SIZE {len(ring_triangles[0])}\n#define RING_SIZE {len(g.RING[0])}\n",
        f"#define COLORS {len(c.COLORS)}\n#define HEX_CODES {c.HEX_CODES}\n",
        f"#define QUARRY_CODE {c.QUARRY}\n#define HOUSE_CODE {c.HOUSE}\n",
        f"#define MARKET_CODE {c.MARKET}\n#define BARRACKS_CODE {c.BARRACKS}\n",
        f"#define TEMPLE_CODE {c.TEMPLE}\n#define GARDEN_CODE {c.GARDEN}\n",
        f"#define HOUSE_PLAZA_CODE {c.PLAZA['house']}\n",
        _array("STEPS", [local_offset(s) for s in NEIGHBOUR_STEPS], "[6]"),
        _array("TRIANGLE_CELLS", [list(map(local_offset, t)) for t in g.TRIANGLE_CELLS], "[2][3]"),
        _array("RING_CELLS", [list(map(local_offset, ring)) for ring in g.RING], "[2][RING_SIZE]"),
        _array("EDGE", edge, "[2][EDGE_SIZE][2]"),
        _array("CORNER", corner, "[2][CORNER_SIZE][3]"),
        _array("RINGT", ring_triangles, "[2][RINGT_SIZE][4]"),
        _array("IS_PLAZA", [c.IS_PLAZA[code] for code in codes], "[HEX_CODES]"),
        _array("STARS_OF_CODE", [c.STARS_OF_CODE[code] for code in codes], "[HEX_CODES]"),
        _array("COLOR_OF_CODE", [c.COLOR_INDEX_OF[code] for code in codes], "[HEX_CODES]"),
    ]
    return "".join(lines)


def build_core(directory: Path) -> ModuleType:
    """Compile the prototype into `directory` and import it (module `akropolis_core`).
    Raises NoCompiler when there is no compiler or no Python headers,
    CalledProcessError when the compiler fails."""
    cc = compiler()
    include = sysconfig.get_paths()["include"]
    if cc is None:
        raise NoCompiler("no C compiler found (set CC, or install cc/gcc)")
    if not (Path(include) / "Python.h").exists():
        raise NoCompiler(f"no Python headers (Python.h) in {include}")
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "tables.h").write_text(tables_header(), "utf-8")
    target = directory / ("akropolis_core" + (sysconfig.get_config_var("EXT_SUFFIX") or ".so"))
    command = [
        *cc.split(),
        "-O2",
        "-std=gnu11",
        "-shared",
        "-fPIC",
        "-Wall",
        f"-I{include}",
        f"-I{directory}",
        str(SOURCE),
        "-o",
        str(target),
    ]
    subprocess.run(command, check=True, capture_output=True, text=True)  # noqa: S603
    loader = importlib.machinery.ExtensionFileLoader("akropolis_core", str(target))
    spec = importlib.util.spec_from_file_location("akropolis_core", target, loader=loader)
    if spec is None:
        raise ImportError(f"cannot load {target}")
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module
