"""The observation as JSON text, written directly: what a boxed bot is sent every turn.

`observation_text(state, player)` must equal `compact_json(observation.observation(state,
player))` byte for byte (the contract test `test_the_observation_text_is_the_observation_
encoded` and `tests/engine/akropolis/fast/test_observation_text.py` hold it to that).
Rather than build the dict and encode it, it joins texts kept between turns: a city's
entry until the city changes (in `City.kept`, updated from the cells placed on since),
each hex's text, each site entry, the options, and the tiles left in the stacks.
"""

from __future__ import annotations

import functools
from bisect import bisect_left

from engine.akropolis.city import City, Hex
from engine.akropolis.components import HEX_CODES, IS_PLAZA, describe_hex
from engine.akropolis.observation import tile_hexes_json
from engine.akropolis.state import AkropolisState
from engine.core import compact_json
from engine.hexgrid import decode


def observation_text(state: AkropolisState, player: int) -> str:
    """`observation(state, player)` as JSON text only, written without building it."""
    site = ",".join(map(SITE_ENTRY_TEXTS.__getitem__, enumerate(state.site)))
    cities = ",".join(map(city_entry_text, state.cities))
    return (
        f'{{"game":"akropolis","player":{player},"players":{state.players},'
        f'"turn":{state.turn},"current_player":{state.turn % state.players},'
        f'"options":{options_text(tuple(state.options.items()))},"site":[{site}],'
        f'"stacks_left":{len(state.stacks)},'
        f'"stack_tiles":{stack_tiles_text(state.stacks)},'
        f'"stones":[{",".join(map(str, state.stones))}],"cities":[{cities}]}}'
    )


@functools.lru_cache(maxsize=64)
def options_text(options: tuple[tuple[str, bool], ...]) -> str:
    """The match's options as JSON text (a handful of combinations in all)."""
    return compact_json(dict(options))


def stack_tiles_text(stacks: list[list[int]]) -> str:
    """The tiles left in the stacks, sorted, as JSON text. Kept per first stack left: a
    state and its copies share their stacks, each only ever drawn whole from the front,
    so the first one left (the very list, held here) and the number left name the
    tiles left."""
    if not stacks:
        return "[]"
    first = stacks[0]
    kept = _STACK_TILES_TEXTS.get(id(first))
    if kept is not None and kept[0] is first and kept[1] == len(stacks):
        return kept[2]
    text = compact_json(sorted(tile for stack in stacks for tile in stack))
    if len(_STACK_TILES_TEXTS) >= _MAX_STACK_TILES_TEXTS:
        _STACK_TILES_TEXTS.clear()
    _STACK_TILES_TEXTS[id(first)] = (first, len(stacks), text)
    return text


_STACK_TILES_TEXTS: dict[int, tuple[list[int], int, str]] = {}
"""By the id of a first stack left: (that stack, the number left, the text). Holding the
stack keeps its id from being reused while its entry lasts."""
_MAX_STACK_TILES_TEXTS = 4096
"""Entries before they are all let go (a game makes one per round)."""


def city_entry_text(city: City) -> str:
    """The JSON text of the city's entry in the observation, `{"tiles": n, "hexes":
    city_hexes_to_json(city)}`, kept in `city.kept` until the city changes, then written
    again from the hex texts of its last writing and the cells placed on since (a city
    changes three hexes at a time)."""
    kept = city.kept
    if kept.text is None:
        top, tile_at = city.top, city.tile_at
        if kept.hex_texts is None or len(kept.changed_cells) > MAX_CHANGED_CELLS:
            cells = sorted(top)
            texts = [hex_text(cell, top[cell], tile_at[cell]) for cell in cells]
        else:
            cells, texts = list(kept.hex_texts[0]), list(kept.hex_texts[1])
            for cell in kept.changed_cells:
                text = hex_text(cell, top[cell], tile_at[cell])
                at = bisect_left(cells, cell)
                if at < len(cells) and cells[at] == cell:
                    texts[at] = text
                else:
                    cells.insert(at, cell)
                    texts.insert(at, text)
        kept.hex_texts = (cells, texts)
        kept.changed_cells = ()
        kept.text = f'{{"tiles":{city.tiles},"hexes":[{",".join(texts)}]}}'
    return kept.text


MAX_CHANGED_CELLS = 30
"""Past this many cells placed on since the city was last written, write it whole."""


def hex_text(cell: int, hex_: Hex, tile: int) -> str:
    """One visible hex as `state_json.hex_json` gives it, as JSON text."""
    return f'{CELL_TEXTS[cell]}{HEX_BODY_TEXTS[hex_]},"tile":{tile}}}'


class _CellTexts(dict[int, str]):
    """The opening of a hex's text at each cell met, `{"q":q,"r":r,`, kept."""

    def __missing__(self, cell: int) -> str:
        q, r = decode(cell)
        text = self[cell] = f'{{"q":{q},"r":{r},'
        return text


class _HexBodyTexts(dict[Hex, str]):
    """The middle of a hex's text for each (level, code, stars) met:
    `"level":l,"kind":...,"color":...` and the stars of a plaza, kept."""

    def __missing__(self, hex_: Hex) -> str:
        level, code, stars = hex_
        plaza = f',"stars":{stars}' if IS_PLAZA[code] else ""
        text = self[hex_] = f'"level":{level},{KIND_AND_COLOR_TEXT[code]}{plaza}'
        return text


CELL_TEXTS = _CellTexts()
HEX_BODY_TEXTS = _HexBodyTexts()

KIND_AND_COLOR_TEXT = tuple(
    compact_json({"kind": kind} if color is None else {"kind": kind, "color": color})[1:-1]
    for kind, color in map(describe_hex, range(HEX_CODES))
)
"""Each hex code's `"kind":...,"color":...` as `state_json.hex_json` writes them."""


class _SiteEntryTexts(dict[tuple[int, int], str]):
    """One entry of the observation's site as JSON text for each (position, tile) met
    (a few hundred in all), kept: read by plain indexing."""

    def __missing__(self, entry: tuple[int, int]) -> str:
        text = self[entry] = site_entry_text(*entry)
        return text


def site_entry_text(position: int, tile_id: int) -> str:
    """One entry of the observation's site as JSON text."""
    entry = {"position": position, "cost": position, "tile": tile_id}
    return f'{compact_json(entry)[:-1]},"hexes":{compact_json(tile_hexes_json(tile_id))}}}'


SITE_ENTRY_TEXTS = _SiteEntryTexts()
