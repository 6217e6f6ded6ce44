# Akropolis' compiled core (_core.c): see engine/akropolis/native/__init__.py.
from collections.abc import Mapping

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
    legal: list[int],
    legal_set: set[int],
    texts: list[str] | None,
    placement_texts: Mapping[int, str],
    triangle: int,
    level: int,
    direct: bool,
    /,
) -> None: ...
