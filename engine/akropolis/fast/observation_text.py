"""What an Akropolis player sees, and a state for lookahead built from it.

Everything is public but the order of the face-down stacks: a player sees which tiles
are still in them, sorted.
"""

from __future__ import annotations

import functools
from bisect import bisect_left
from typing import Any

from engine.akropolis.city import City, Hex
from engine.akropolis.components import HEX_CODES, IS_PLAZA, STARS_OF_CODE, TILES, describe_hex
from engine.akropolis.state import AkropolisState
from engine.akropolis.state_json import city_hexes_to_json, state_from_json
from engine.akropolis.turns import current_player
from engine.core import JSON, EncodedJSON, compact_json
from engine.hexgrid import decode


def observation(state: AkropolisState, player: int) -> EncodedJSON:
    """What the player sees, with its JSON text (`observation_text`)."""
    return EncodedJSON(
        {
            "game": "akropolis",
            "player": player,
            "players": state.players,
            "turn": state.turn,
            "current_player": current_player(state),
            "options": dict(state.options),
            "site": [
                {"position": k, "cost": k, "tile": tile_id, "hexes": tile_hexes_json(tile_id)}
                for k, tile_id in enumerate(state.site)
            ],
            "stacks_left": len(state.stacks),
            "stack_tiles": sorted(tile for stack in state.stacks for tile in stack),
            "stones": list(state.stones),
            # Fresh lists: what a bot does to its observation must not reach the next one.
            "cities": [
                {"tiles": city.tiles, "hexes": city_hexes_to_json(city)} for city in state.cities
            ],
        },
        observation_text(state, player),
    )


def observation_text(state: AkropolisState, player: int) -> str:
    """`observation(state, player)` as JSON text only, written without building it: what
    a boxed bot is sent. A city's entry is written once per change of the city, each
    hex's text once per hex placed; the rest is small."""
    site = ",".join(map(SITE_ENTRY_TEXTS.__getitem__, enumerate(state.site)))
    cities = ",".join(map(city_entry_text, state.cities))
    return (
        f'{{"game":"akropolis","player":{player},"players":{state.players},'
        f'"turn":{state.turn},"current_player":{current_player(state)},'
        f'"options":{options_text(tuple(state.options.items()))},"site":[{site}],'
        f'"stacks_left":{len(state.stacks)},'
        f'"stack_tiles":{stack_tiles_text(state)},'
        f'"stones":[{",".join(map(str, state.stones))}],"cities":[{cities}]}}'
    )


@functools.lru_cache(maxsize=64)
def options_text(options: tuple[tuple[str, bool], ...]) -> str:
    """The match's options as JSON text (a handful of combinations in all)."""
    return compact_json(dict(options))


def stack_tiles_text(state: AkropolisState) -> str:
    """The tiles left in the stacks, sorted, as JSON text, kept in the state until a
    stack is drawn (once a round)."""
    kept = state.stack_tiles_text
    if kept is None or kept[0] != len(state.stacks):
        text = compact_json(sorted(tile for stack in state.stacks for tile in stack))
        kept = state.stack_tiles_text = (len(state.stacks), text)
    return kept[1]


def city_entry_text(city: City) -> str:
    """The JSON text of the city's entry in the observation, `{"tiles": n, "hexes":
    city_hexes_to_json(city)}`, kept in the city until it changes, then written again
    from the hex texts of its last writing and the cells placed on since (a city changes
    three hexes at a time)."""
    if city.encoded is None:
        top, tile_at = city.top, city.tile_at
        if city.hex_texts is None or len(city.changed_cells) > MAX_CHANGED_CELLS:
            cells = sorted(top)
            texts = [hex_text(cell, top[cell], tile_at[cell]) for cell in cells]
        else:
            cells, texts = list(city.hex_texts[0]), list(city.hex_texts[1])
            for cell in city.changed_cells:
                text = hex_text(cell, top[cell], tile_at[cell])
                at = bisect_left(cells, cell)
                if at < len(cells) and cells[at] == cell:
                    texts[at] = text
                else:
                    cells.insert(at, cell)
                    texts.insert(at, text)
        city.hex_texts = (cells, texts)
        city.changed_cells = ()
        city.encoded = f'{{"tiles":{city.tiles},"hexes":[{",".join(texts)}]}}'
    return city.encoded


MAX_CHANGED_CELLS = 30
"""Past this many cells placed on since the city was last written, write it whole."""


def hex_text(cell: int, hex_: Hex, tile: int) -> str:
    """One visible hex as `city_hexes_to_json` gives it, as JSON text."""
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
"""Each hex code's `"kind":...,"color":...` as `city_hexes_to_json` writes them."""


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


def tile_hexes_json(tile_id: int) -> list[dict[str, Any]]:
    hexes = []
    for code in TILES[tile_id].hexes:
        kind, color = describe_hex(code)
        entry: dict[str, Any] = {"kind": kind}
        if color is not None:
            entry["color"] = color
        if kind == "plaza":
            entry["stars"] = STARS_OF_CODE[code]
        hexes.append(entry)
    return hexes


def state_from_observation(observation: JSON) -> AkropolisState:
    """A state for lookahead built from what a player sees. The stacks' order is
    hidden, so they hold the unseen tiles in id order: a guess, not the truth."""
    unseen = list(observation["stack_tiles"])
    size = observation["players"] + 1
    data = {
        "game": "akropolis",
        "seed": 0,
        "players": observation["players"],
        "options": observation["options"],
        "turn": observation["turn"],
        "stones": observation["stones"],
        "site": [entry["tile"] for entry in observation["site"]],
        "stacks": [unseen[i : i + size] for i in range(0, len(unseen), size)],
        "cities": observation["cities"],
    }
    return state_from_json(data)
