"""Fast path of `compact_json(observation.map_json(state))`: the map of an observation as
JSON text, kept between turns.

The map changes only when a tile or a building is added, and then in a few hexes: the
text of each hex is written once per change of that hex, and the map's text is joined
again from chunks of them (a building rewrites one chunk; a tile, all of them). A
`MapText` is never changed once made (a state's copy shares it); an update makes a new
one from the old, so copies that part ways keep their own. Checked against the plain
encoding by tests/engine/attika/fast/test_message_text.py.
"""

from __future__ import annotations

import bisect
import itertools

from engine.attika.components import BUILDINGS, LANDSCAPES
from engine.attika.state import AttikaState
from engine.core import compact_json
from engine.hexgrid import decode

_LANDSCAPE_TEXT = {-1: "null", **{k: f'"{name}"' for k, name in enumerate(LANDSCAPES)}}
_BUILDING_TEXT = tuple(compact_json(building.id) for building in BUILDINGS)


CHUNK = 16
"""Hexes a chunk: a building rewrites its hex's chunk and joins the chunks, not every
hex (a map holds up to a few hundred)."""


class MapText:
    """The map's text for a state whose index has `hexes` map hexes and `owned` of them
    built on, from the hexes' kept texts (`texts`, in the order of `cells`, sorted),
    joined CHUNK at a time (`chunks`)."""

    __slots__ = ("cells", "chunks", "hexes", "owned", "shrines_text", "text", "texts", "tiles_text")

    def __init__(
        self,
        cells: list[int],
        texts: list[str],
        chunks: list[str],
        owned: int,
        tiles_text: str,
        shrines_text: str,
    ) -> None:
        self.cells = cells
        self.texts = texts
        self.chunks = chunks
        self.hexes = len(cells)
        self.owned = owned
        self.tiles_text = tiles_text
        self.shrines_text = shrines_text
        hexes = ",".join(chunks)
        self.text = f'{{"tiles":{tiles_text},"shrines":{shrines_text},"hexes":[{hexes}]}}'


def map_text(state: AttikaState) -> str:
    """`compact_json(map_json(state))`, from the text kept for the state's last map."""
    index = state.caches.index
    kept: MapText | None = state.caches.map_text
    if kept is None or kept.hexes != len(index.symbol_at) or kept.owned != len(index.owner_at):
        kept = state.caches.map_text = _updated(state, kept)
    return kept.text


def _chunked(texts: list[str]) -> list[str]:
    return [",".join(texts[start : start + CHUNK]) for start in range(0, len(texts), CHUNK)]


def _updated(state: AttikaState, kept: MapText | None) -> MapText:
    index = state.caches.index
    owned = len(index.owner_at)
    if kept is None or kept.hexes != len(index.symbol_at):  # new tiles: written afresh
        cells = sorted(index.symbol_at)
        known = {} if kept is None else dict(zip(kept.cells, kept.texts, strict=True))
        for cell in itertools.islice(index.owner_at, 0 if kept is None else kept.owned, None):
            known.pop(cell, None)
        texts = [known.get(cell) or hex_text(state, cell) for cell in cells]
        shrines = _shrines_text(state) if kept is None else kept.shrines_text
        return MapText(cells, texts, _chunked(texts), owned, _tiles_text(state), shrines)
    # Buildings only: their hexes and chunks are written again.
    cells, texts, chunks = kept.cells, list(kept.texts), list(kept.chunks)
    dirty = set()
    for cell in itertools.islice(index.owner_at, kept.owned, None):
        at = bisect.bisect_left(cells, cell)
        texts[at] = hex_text(state, cell)
        dirty.add(at // CHUNK)
    for chunk in dirty:
        chunks[chunk] = ",".join(texts[chunk * CHUNK : chunk * CHUNK + CHUNK])
    return MapText(cells, texts, chunks, owned, kept.tiles_text, kept.shrines_text)


def hex_text(state: AttikaState, cell: int) -> str:
    """One entry of the map's hexes as JSON text."""
    index = state.caches.index
    q, r = decode(cell)
    owner = index.owner_at.get(cell)
    if owner is None:
        built = 'null,"building":null'
    else:
        built = f'{owner},"building":{_BUILDING_TEXT[index.building_at[cell]]}'
    return (
        f'{{"q":{q},"r":{r},"landscape":{_LANDSCAPE_TEXT[index.symbol_at[cell]]},"player":{built}}}'
    )


def _tiles_text(state: AttikaState) -> str:
    return (
        "["
        + ",".join(
            f'{{"tile":{tile},"q":{q},"r":{r},"rotation":{rotation}}}'
            for tile, q, r, rotation in state.tiles
        )
        + "]"
    )


def _shrines_text(state: AttikaState) -> str:
    return "[" + ",".join("[{},{}]".format(*decode(cell)) for cell in state.shrines) + "]"
