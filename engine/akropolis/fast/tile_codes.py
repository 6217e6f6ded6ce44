"""A tile's hex codes in a triangle's cell order, sorted out once for every placement."""

from __future__ import annotations

from engine.akropolis.components import (
    BARRACKS,
    COLOR_INDEX_OF,
    GARDEN,
    HOUSE,
    IS_PLAZA,
    MARKET,
    MARKET_PLAZA,
    STARS_OF_CODE,
    TEMPLE,
)

TileCodes = tuple[
    tuple[int, ...], tuple[tuple[int, int], ...], tuple[tuple[int, int], ...], int, bool, bool
]
"""A tile's hex codes in a triangle's cell order, sorted out for `Placement.scores`:
(codes, (colour, stars) of each plaza, (cell, colour) of each barracks, temple and garden,
houses as bit i for cell i, whether there is a market, whether there is a market plaza)."""


def tile_codes(codes: tuple[int, ...]) -> TileCodes:
    return (
        codes,
        tuple((COLOR_INDEX_OF[code], STARS_OF_CODE[code]) for code in codes if IS_PLAZA[code]),
        tuple(
            (i, COLOR_INDEX_OF[code])
            for i, code in enumerate(codes)
            if code in (BARRACKS, TEMPLE, GARDEN)
        ),
        sum(1 << i for i, code in enumerate(codes) if code == HOUSE),
        MARKET in codes,
        MARKET_PLAZA in codes,
    )
