"""The greedy bot's gains, computed exactly but without rescoring the city for each action.

The gain of an action is the city's score after the placement minus the score before,
stones included (the tile's cost is paid, each covered quarry gives a stone back).
`greedy.naive_gains` computes it by rescoring the whole city for every action; it stays as
the oracle, and the tests check that `fast_gains` gives the very same list.

Score = sum over colours of value[c] * stars[c], plus stones. A placement changes little,
so the work is split three ways:

- per turn (`city_gains.CityGains`): the city as it stands, read once;
- per triangle (`placement_gains.Placement`), whatever tile goes there: what the covered
  cells and the ring around them change, and the score with three neutral hexes on it;
- per triangle and tile codes in the triangle's cell order (`placement_gains.tile_codes`,
  once per distinct codes: several site tiles and rotations often give the same): the
  plazas' stars, the new districts, markets next to markets or market plazas, and the largest
  house group.

The geometry shared by the three is in `triangle_ring`, the lakes in `lakes`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from engine.akropolis.actions import LegalActions, placement_of
from engine.akropolis.components import hex_code
from engine.akropolis.fast.city_gains import CityGains, Surface
from engine.akropolis.fast.placement_gains import Placement, TileCodes, tile_codes
from engine.akropolis.fast.triangle_ring import CODE_ORDER
from engine.akropolis.geometry import STEP, TRIANGLE_CELLS, triangle_of
from engine.akropolis.scoring import VARIANTS, placed_surface, score_surface, surface_from_json
from engine.hexgrid import encode


def fast_gains(observation: dict[str, Any], legal_actions: Sequence[dict[str, int]]) -> list[int]:
    """The gain of every legal action, equal to `greedy.naive_gains` but much faster.

    A `LegalActions` is walked as the product it is; any other sequence of actions is
    taken one by one, sharing the work per triangle and per tile all the same."""
    me = observation["player"]
    variants = [name for name in VARIANTS if observation["options"].get(name)]
    stones = observation["stones"][me]
    surface = surface_from_json(observation["cities"][me]["hexes"])
    city = CityGains(surface, variants)
    site_codes = [
        tuple(hex_code(h["kind"], h.get("color")) for h in entry["hexes"])
        for entry in observation["site"]
    ]
    if isinstance(legal_actions, LegalActions):
        return _product_gains(city, surface, stones, variants, site_codes, legal_actions)
    before = city.score
    tiles: dict[tuple[int, ...], TileCodes] = {}
    scores: dict[tuple[int, tuple[int, ...]], int] = {}
    placements: dict[int, Placement | None] = {}
    gains = []
    for action in legal_actions:
        anchor = encode(action["q"], action["r"])
        rotation = action["rotation"]
        position = action["tile"]
        tile = site_codes[position]
        triangle = triangle_of(anchor, rotation)
        if triangle not in placements:
            placements[triangle] = Placement.of(city, triangle)
        placement = placements[triangle]
        if placement is None:
            gains.append(_rescored_gain(surface, stones, variants, action, tile))
            continue
        y, kind = divmod(triangle, 2)
        cells = [anchor, anchor + STEP[rotation], anchor + STEP[(rotation + 1) % 6]]
        codes = tuple(tile[cells.index(y + offset)] for offset in TRIANGLE_CELLS[kind])
        score = scores.get((triangle, codes))
        if score is None:
            if codes not in tiles:
                tiles[codes] = tile_codes(codes)
            score = scores[triangle, codes] = placement.scores([tiles[codes]])[0]
        gains.append(score - before + placement.quarries - position)
    return gains


def _product_gains(
    city: CityGains,
    surface: Surface,
    stones: int,
    variants: Collection[str],
    site_codes: Sequence[tuple[int, ...]],
    legal: LegalActions,
) -> list[int]:
    """Gains in the order of `LegalActions`: by position, triangle, then the three actions."""
    distinct: dict[tuple[int, ...], int] = {}
    columns = []
    """Per site position: the index in `distinct` of the tile's codes, in the triangle's
    cell order, for each of a triangle's three actions."""
    for position in legal.tiles:
        tile = site_codes[position]
        first, second, third = (
            distinct.setdefault((tile[a], tile[b], tile[c]), len(distinct))
            for a, b, c in CODE_ORDER
        )
        columns.append((position, first, second, third))
    tiles = [tile_codes(codes) for codes in distinct]
    before = city.score
    rows: list[list[int] | None] = []
    for triangle in legal.triangles:
        placement = Placement.of(city, triangle)
        if placement is None:
            rows.append(None)
        else:
            rows.append(placement.scores(tiles, placement.quarries - before))
    gains: list[int] = []
    for position, first, second, third in columns:
        for triangle, row in zip(legal.triangles, rows, strict=True):
            if row is not None:
                gains += (row[first] - position, row[second] - position, row[third] - position)
                continue
            for which in range(3):
                q, r, rotation = placement_of(triangle, which)
                action = {"tile": position, "q": q, "r": r, "rotation": rotation}
                tile = site_codes[position]
                gains.append(_rescored_gain(surface, stones, variants, action, tile))
    return gains


def _rescored_gain(
    surface: Surface,
    stones: int,
    variants: Collection[str],
    action: dict[str, int],
    tile: Sequence[int],
) -> int:
    """The gain of an action unlike any legal one, by rescoring the city as the oracle does."""
    after, quarries = placed_surface(surface, action, tile)
    after_total = score_surface(after, stones - action["tile"] + quarries, variants).total
    return after_total - score_surface(surface, stones, variants).total
