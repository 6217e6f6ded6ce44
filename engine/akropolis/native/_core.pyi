# Akropolis' compiled core (_core.c): see engine/akropolis/native/__init__.py.
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

VERSION: int

def setup(
    ring_bits: tuple[object, ...],
    split_by_level: tuple[object, ...],
    maybe_legal_before: tuple[object, ...],
    outer_needed: tuple[object, ...],
    outer_whole: int,
    ring_sectors: tuple[object, ...],
    /,
) -> None: ...
def update_legal(
    top: dict[int, tuple[int, int, int]],
    legal: list[int] | LegalTriangles,
    legal_set: set[int] | LegalTriangles,
    texts: list[str] | None,
    placement_texts: Mapping[int, str],
    triangle: int,
    level: int,
    direct: bool,
    /,
) -> None: ...

# Second stage: the running score, the city's copy and placement, the turn.
def score_setup(
    step: tuple[int, ...],
    ring_cycle: tuple[tuple[int, ...], ...],
    ring: tuple[tuple[int, ...], ...],
    is_plaza: tuple[bool, ...],
    colour_index: tuple[int, ...],
    stars_of_code: tuple[int, ...],
    district_codes: tuple[int, int, int, int, int, int],
    barracks_doubled_edges: tuple[int, ...],
    houses_doubled_from: int,
    temples_doubled_from_level: int,
    /,
) -> None: ...
def objects_setup(
    city: type,
    cache: type,
    score: type,
    tile_hexes: dict[int, tuple[int, int, int]],
    placement_texts: Mapping[int, str],
    action_cells: tuple[tuple[tuple[int, int, int], ...], ...],
    quarry: int,
    /,
) -> None: ...
def placed(
    score: object,
    top: dict[int, tuple[int, int, int]],
    triangle: int,
    cells: tuple[int, int, int],
    codes: tuple[int, ...],
    covered: tuple[tuple[int, int, int], ...] | None,
    level: int,
    /,
) -> None: ...
def total(score: object, top: dict[int, tuple[int, int, int]], /) -> int: ...
def copy_city(city: object, /) -> object: ...
def place(
    city: object, triangle: int, cells: tuple[int, int, int], codes: tuple[int, ...], uid: int, /
) -> int: ...
def take_and_place(
    state: object, player: int, position: int, triangle: int, cells: tuple[int, int, int], /
) -> None: ...
def apply_legal(state: object, legal: object, index: int, /) -> None: ...
def score(state: object, seat: int, /) -> int: ...
def scores(state: object, /) -> list[int]: ...
def copy_state(state: object, /) -> object: ...
def action_setup(
    origin: int,
    q_step: int,
    r_step: int,
    far: int,
    triangle_from_anchor: tuple[int, ...],
    tile_steps: tuple[tuple[int, int], ...],
    /,
) -> None: ...
def apply_action(state: object, action: object, /) -> bool: ...

# Third stage: a city scored from scratch at a game's end.
def board_values(
    top: dict[int, tuple[int, int, int]], doubled: tuple[bool, ...], /
) -> tuple[list[int], list[int]]: ...
def legal_setup(legal_actions: type, /) -> None: ...
def legal_actions(state: object, /) -> Any: ...

# Fourth stage: a city's legal triangles in C, the deal's shuffle.
class LegalTriangles:
    """A city's legal triangles kept by the core: sorted, distinct ids, read as the list
    (and the set) they stand for."""

    def __init__(self, ids: Iterable[int] = ..., /) -> None: ...
    def __len__(self) -> int: ...
    def __getitem__(self, index: int, /) -> int: ...
    def __iter__(self) -> Iterator[int]: ...
    def __contains__(self, item: object, /) -> bool: ...
    def copy(self) -> LegalTriangles: ...

def shuffle(items: list[Any], state: int, /) -> int: ...
