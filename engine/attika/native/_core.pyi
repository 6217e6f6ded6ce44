# Attika's compiled core (_core.c): see engine/attika/native/__init__.py.
from collections.abc import Iterable, Sequence

VERSION: int

def setup(
    cost: tuple[tuple[int, int, int, int], ...],
    worst: tuple[int, ...],
    is_main: tuple[bool, ...],
    is_road: tuple[bool, ...],
    upstream: tuple[int, ...],
    road_cost: int,
    neighbour_steps: tuple[int, ...],
    /,
) -> None: ...
def legal_builds(
    state: object, player: int, buildings: Iterable[int], /
) -> list[tuple[int, Sequence[int]]]: ...
