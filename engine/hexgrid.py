"""Axial hex coordinates shared by the games (see Red Blob Games' hexagon guide).

Cells are also coded as single integers so that hot loops add a constant to step to a
neighbour; sorting the codes sorts by (q, r).
"""

from __future__ import annotations

Hex = tuple[int, int]

DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
"""The six neighbour offsets, in the order the rules files use: clockwise on screen
with `to_pixel`, so tiles listed clockwise in the component data keep their look."""

_OFFSET = 1 << 11
_STRIDE = 1 << 12
COORD_LIMIT = _OFFSET - 1
"""Largest |q| or |r| a coded cell may have; a city is never near this."""

NEIGHBOUR_STEPS: tuple[int, ...] = tuple(dq * _STRIDE + dr for dq, dr in DIRECTIONS)
"""`code + NEIGHBOUR_STEPS[d]` is the code of the neighbour in direction d."""


def neighbours(q: int, r: int) -> list[Hex]:
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS]


def encode(q: int, r: int) -> int:
    if not (-COORD_LIMIT <= q <= COORD_LIMIT and -COORD_LIMIT <= r <= COORD_LIMIT):
        raise ValueError(f"hex ({q}, {r}) is out of range")
    return (q + _OFFSET) * _STRIDE + (r + _OFFSET)


def decode(code: int) -> Hex:
    return code // _STRIDE - _OFFSET, code % _STRIDE - _OFFSET


def neighbour_codes(code: int) -> list[int]:
    return [code + step for step in NEIGHBOUR_STEPS]


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def to_pixel(q: int, r: int, size: float = 1.0) -> tuple[float, float]:
    """Centre of a pointy-top hex on screen (y grows downwards, r upwards)."""
    return size * 3**0.5 * (q + r / 2), -size * 1.5 * r
